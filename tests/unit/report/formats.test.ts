/**
 * The Markdown, JUnit and GitHub reports (golden files), JUnit parsed as CI servers parse
 * it, the escaping of each format, and exemptions and notices in the text and JSON reports.
 *
 * Golden files live in tests/fixtures/golden/. After an intended change to a format,
 * regenerate them with `UPDATE_GOLDEN=1 bun test tests/unit/report` and review the diff.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { escapeData, escapeProperty, renderGithub, workflowCommand } from "../../../src/report/github.ts";
import { renderJson } from "../../../src/report/json.ts";
import { escapeXmlAttribute, escapeXmlText, renderJunit } from "../../../src/report/junit.ts";
import { codeBlock, codeSpan, escapeMarkdown, renderMarkdown } from "../../../src/report/markdown.ts";
import { buildReport, type Report, type ReportChange, sideOf } from "../../../src/report/model.ts";
import { renderText } from "../../../src/report/text.ts";
import { expectGolden } from "../../helpers/golden.ts";
import { baselineContract, checkScenario, diffScenario, type Scenario } from "./report-fixtures.ts";

let diff: Scenario;
let check: Scenario;
beforeAll(async () => {
  [diff, check] = await Promise.all([diffScenario(), checkScenario()]);
});

function emptyReport(): Report {
  const side = sideOf(baselineContract(), "mcp.contract.json");
  return buildReport("check", side, side, [], "breaking");
}

describe("golden files", () => {
  test("markdown", () => {
    expectGolden("report-diff.md", renderMarkdown(diff.report));
    expectGolden("report-empty.md", renderMarkdown(emptyReport()));
  });

  test("junit", () => {
    expectGolden("report-diff.junit.xml", renderJunit(diff.report, diff.context));
    expectGolden("report-check.junit.xml", renderJunit(check.report, check.context));
  });

  test("github", () => {
    expectGolden("report-diff.github.txt", renderGithub(diff.report, diff.context));
    expectGolden("report-check.github.txt", renderGithub(check.report, check.context));
  });
});

describe("markdown", () => {
  test("verdict heading, summary table, required bump, sections open where changes fail", () => {
    const md = renderMarkdown(diff.report);
    expect(md.startsWith("## ❌ mcp-contract diff: 10 changes at or above breaking\n")).toBe(true);
    expect(md).toContain("| 🔴 breaking | 13 | 10 | 3 |");
    expect(md).toContain("| **total** | **22** | **10** | **3** |");
    expect(md).toContain("The changes require a MAJOR version bump.");
    expect(md).toContain("<details open>\n<summary>🔴 <strong>Breaking (13)</strong></summary>\n\n");
    expect(md).toContain("<details>\n<summary>🟡 <strong>Minor (6)</strong></summary>");
    expect(md).toContain('> ⚠️ ignore "enum-value-removed" on tool "old\\_tool" expired');
    expect(renderMarkdown(emptyReport())).toContain("## ✅ mcp-contract check: no changes");
    // Reporting only, with breaking changes listed: never a green tick over them.
    const passing = renderMarkdown({ ...diff.report, result: "pass", failing: 0, failOn: "never" });
    expect(passing.startsWith("## ⚠️ mcp-contract diff: 10 breaking changes, reporting only\n")).toBe(true);
    const minorOnly = diff.report.changes.filter((c) => c.severity !== "breaking");
    const compatible = buildReport("diff", diff.report.baseline, diff.report.current, minorOnly, "never");
    expect(renderMarkdown(compatible).startsWith("## ✅ mcp-contract diff: reporting only\n")).toBe(true);
  });

  test("exempt changes are marked with their reason and do not count as failing", () => {
    const md = renderMarkdown(diff.report);
    const row = (rule: string) => md.split("\n").find((line) => line.includes(`[\`${rule}\`]`)) ?? "";
    expect(row("required-added")).toMatch(
      /^\| ⏭️ ignored \|.*\*ignored: days is always sent by our client \(JIRA-123\)\* \|$/,
    );
    expect(row("pattern-added")).toMatch(
      /^\| ⏭️ out of scope \|.*\*out of scope: set\\_alert is not in --used tools\.json\* \|$/,
    );
    expect(row("enum-value-removed")).toMatch(/^\| ❌ fails \|/);
    expect(row("maximum-raised")).toMatch(/^\| {2}\|/);
  });

  test("witnesses are JSON code blocks", () => {
    const md = renderMarkdown(diff.report);
    expect(md).toContain(
      '`maximum-lowered` on tool `locate`: arguments the old schema accepted and the new one rejects\n\n```json\n{\n  "at": {\n    "lat": 90\n  }\n}\n```',
    );
  });

  test("every table row has exactly its five cells, whatever the names contain", () => {
    const md = renderMarkdown(diff.report);
    const rows = md.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| ---"));
    for (const row of rows.filter((r) => r.includes("[`"))) {
      const cells = row.replace(/\\\|/g, "").split("|");
      expect(cells).toHaveLength(7); // five cells between six pipes
    }
  });

  test("long lists are cut per severity, failing changes first, counts kept", () => {
    const md = renderMarkdown(diff.report, { maxPerSection: 2 });
    expect(md).toContain("<summary>🔴 <strong>Breaking (13)</strong></summary>");
    expect(md).toContain("…and 11 more breaking changes, not listed here");
    const breaking = md.slice(md.indexOf("Breaking (13)"), md.indexOf("Minor (5)"));
    expect(breaking.match(/^\| ❌ fails/gm)).toHaveLength(2);
  });

  test("escaping: Markdown syntax, HTML, pipes and line breaks render as text", () => {
    expect(escapeMarkdown("a*b_c`d [x](y) <img> |p| ~s~ $m$ \\ &amp;")).toBe(
      "a\\*b\\_c\\`d \\[x\\](y) \\<img\\> \\|p\\| \\~s\\~ \\$m\\$ \\\\ &amp;amp;",
    );
    expect(escapeMarkdown("one\ntwo\r\nthree")).toBe("one<br>two<br>three");
    expect(codeSpan("plain")).toBe("`plain`");
    expect(codeSpan("a`b")).toBe("``a`b``");
    expect(codeSpan("`edge`")).toBe("`` `edge` ``");
    expect(codeSpan("a|b\nc")).toBe("`a\\|b c`");
    expect(codeBlock("x\n```\ny", "json")).toBe("````json\nx\n```\ny\n````");
  });
});

describe("junit", () => {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    parseAttributeValue: false,
    htmlEntities: true, // decode numeric references (&#10;) as XML parsers do
    isArray: (name) => ["testsuite", "testcase", "failure", "property"].includes(name),
  });
  type Case = {
    classname: string;
    name: string;
    failure?: { type: string; message: string; "#text": string }[];
    skipped?: { message: string };
    "system-out"?: string;
  };

  function parse(xml: string) {
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = parser.parse(xml) as {
      testsuites: {
        testsuite: { tests: string; failures: string; errors: string; skipped: string; testcase: Case[] }[];
      };
    };
    expect(doc.testsuites.testsuite).toHaveLength(1);
    return doc.testsuites.testsuite[0]!;
  }

  test("one test case per item of either side, unchanged items passing; counts match", () => {
    const suite = parse(renderJunit(diff.report, diff.context));
    const names = suite.testcase.map((c) => `${c.classname}:${c.name}`);
    expect(names).toEqual([
      "tool:get_forecast",
      "tool:legacy_lookup",
      "tool:legacy_lookup_v2",
      "tool:locate",
      "tool:set_alert",
      "resource:weather://alerts?region=eu&kind=<all>",
      "resource:weather://radar",
      "resource:weather://stations",
      "resourceTemplate:weather://city/{city}/today",
      "prompt:packing_list",
      "server:example-weather",
    ]);
    const failing = suite.testcase.filter((c) => c.failure);
    const skipped = suite.testcase.filter((c) => c.skipped);
    expect({ tests: suite.tests, failures: suite.failures, errors: suite.errors, skipped: suite.skipped }).toEqual({
      tests: "11",
      failures: String(failing.length),
      errors: "0",
      skipped: String(skipped.length),
    });
    expect(failing.length).toBe(8);
    // One <failure> per failing change, typed by rule; the counts add up to the report's.
    expect(failing.flatMap((c) => c.failure ?? []).length).toBe(diff.report.failing);
    const forecast = suite.testcase.find((c) => c.name === "get_forecast")!;
    expect(forecast.failure?.map((f) => f.type)).toEqual(["enum-value-removed", "enum-value-added"]);
    expect(forecast.failure?.[0]?.message).toBe(
      'tool "get_forecast": value "imperial" no longer allowed at inputSchema.properties.units',
    );
    expect(forecast.failure?.[0]?.["#text"]).toContain(
      'witness (arguments the old schema accepted and the new one rejects): {"city"',
    );
    // Below the threshold, or exempt: listed in system-out.
    expect(forecast["system-out"]).toContain(
      '[breaking] required-added: tool "get_forecast": property "days" is now required at inputSchema (ignored: days is always sent by our client (JIRA-123))',
    );
    expect(forecast["system-out"]).toContain("[minor] maximum-raised");
    // An item whose only would-be failures are exempt is skipped.
    const alert = suite.testcase.find((c) => c.name === "set_alert")!;
    expect(alert.failure).toBeUndefined();
    expect(alert.skipped?.message).toBe("out of scope: set_alert is not in --used tools.json");
    // Unchanged and minor-only items pass.
    const added = suite.testcase.find((c) => c.name === "legacy_lookup_v2")!;
    expect(added.failure).toBeUndefined();
  });

  test("check against a live server: the items come from the two surfaces in the context", () => {
    const suite = parse(renderJunit(check.report, check.context));
    expect(suite.testcase.map((c) => c.name)).toContain("legacy_lookup_v2");
    expect(Number(suite.failures)).toBe(suite.testcase.filter((c) => c.failure).length);
    expect(suite.skipped).toBe("0");
  });

  test("without surfaces, the items come from the changes; with no changes, the server passes", () => {
    const suite = parse(renderJunit(diff.report));
    expect(suite.testcase.map((c) => c.name)).not.toContain("weather://city/{city}/{day}");
    expect(suite.tests).toBe(String(suite.testcase.length));
    const empty = parse(renderJunit(emptyReport()));
    expect(empty.testcase.map((c) => `${c.classname}:${c.name}`)).toEqual(["server:server"]);
    expect(empty.failures).toBe("0");
  });

  test("lower thresholds turn more changes into failures", async () => {
    const patch = await diffScenario("patch");
    const suite = parse(renderJunit(patch.report, patch.context));
    expect(suite.testcase.flatMap((c) => c.failure ?? []).length).toBe(patch.report.failing);
    expect(suite.testcase.find((c) => c.name === "legacy_lookup_v2")?.failure?.[0]?.type).toBe("tool-added");
  });

  test("escaping: markup, quotes, line breaks and characters XML cannot carry", () => {
    expect(escapeXmlText("a<b>&c]]>")).toBe("a&lt;b&gt;&amp;c]]&gt;");
    expect(escapeXmlAttribute('say "hi"\n\tnow')).toBe("say &quot;hi&quot;&#10;&#9;now");
    // Controls and bidi characters escaped as every report escapes them; what XML cannot carry otherwise replaced.
    expect(escapeXmlText("bell\u0007 nul\u0000 ok\u00e9 \ud83d\ude00 rlo\u202e lone\ud800")).toBe(
      "bell\\u0007 nul\\u0000 oké 😀 rlo&lt;U+202E RIGHT-TO-LEFT OVERRIDE&gt; lone\uFFFD",
    );
    // Round trip through a real parser: the evil name comes back intact.
    const evil = "x\"<y>&'z\nw";
    const change: ReportChange = {
      rule: "tool-removed",
      severity: "breaking",
      target: { kind: "tool", name: evil },
      path: "",
      message: `tool ${JSON.stringify(evil)}: removed`,
      fingerprint: "0123456789abcdef",
    };
    const side = sideOf(baselineContract(), "a.json");
    const suite = parse(renderJunit(buildReport("diff", side, side, [change], "breaking")));
    const evilCase = suite.testcase.find((c) => c.classname === "tool")!;
    expect(evilCase.name).toBe(evil);
    expect(evilCase.failure?.[0]?.message).toBe(change.message);
  });
});

describe("github", () => {
  test("one command per change: errors for breaking and failing changes, notices for minor and exempt ones, none for patch", () => {
    const lines = renderGithub(diff.report, diff.context).trimEnd().split("\n");
    const patch = diff.report.changes.filter((c) => c.severity === "patch").length;
    expect(lines).toHaveLength(diff.report.changes.length - patch + diff.report.notices.length + 1);
    const line = (rule: string) => lines.find((l) => l.includes(`title=${rule}::`)) ?? "";
    expect(line("enum-value-removed")).toMatch(
      /^::error file=build\/next\.contract\.json,line=\d+,col=13,title=enum-value-removed::breaking: tool "get_forecast": value "imperial" no longer allowed at inputSchema\.properties\.units%0Awitness/,
    );
    expect(line("required-added")).toMatch(/^::notice .*%0Adoes not count: ignored: days is always sent/);
    expect(line("pattern-added")).toMatch(/^::notice .*%0Adoes not count: out of scope: set_alert/);
    expect(line("maximum-raised")).toMatch(/^::notice /);
    // Patch changes are not annotated; the summary line counts them.
    expect(line("server-info-changed")).toBe("");
    expect(line("tool-added")).toMatch(/^::notice file=build\/next\.contract\.json,line=\d+,col=5,/);
    // A removal is on the old file (the working tree's own here).
    expect(line("tool-removed")).toMatch(/^::error file=mcp\.contract\.json,line=\d+,col=5,/);
    expect(lines.at(-1)).toBe(
      "mcp-contract diff: FAIL: 10 changes at or above breaking (--fail-on breaking) · 13 breaking, 6 minor, 3 patch · requires a MAJOR version bump · patch changes are not annotated",
    );
    // Reporting only: breaking changes are still errors; with --fail-on patch, patch changes fail and are annotated.
    const reporting = renderGithub({ ...diff.report, failOn: "never", result: "pass", failing: 0 }, diff.context);
    expect(reporting).toMatch(/^::error .*title=enum-value-removed::/m);
    const strict = renderGithub({ ...diff.report, failOn: "patch" }, diff.context);
    expect(strict).toMatch(/^::error .*title=server-info-changed::patch: /m);
    expect(lines.filter((l) => l.startsWith("::warning title=mcp-contract::"))).toHaveLength(2);
    // Every line is one command: no raw line break leaks from a message.
    for (const l of lines.slice(0, -1)) expect(l).toMatch(/^::(error|warning|notice)( [^:]*)?::/);
  });

  test("without a context there is no file; with no changes, just the summary", () => {
    const lines = renderGithub(diff.report).split("\n");
    expect(lines[0]).toMatch(/^::error title=enum-value-removed::/);
    expect(renderGithub(emptyReport())).toBe("mcp-contract check: no changes\n");
  });

  test("escaping as @actions/core does: %, CR and LF everywhere; also : and , in properties", () => {
    expect(escapeData("100% sure\r\nnext: a,b")).toBe("100%25 sure%0D%0Anext: a,b");
    expect(escapeProperty("C:\\dir,x\n")).toBe("C%3A\\dir%2Cx%0A");
    expect(workflowCommand("error", { file: "a,b:c.json", line: 3, col: undefined, title: "t" }, "m\nn")).toBe(
      "::error file=a%2Cb%3Ac.json,line=3,title=t::m%0An",
    );
    expect(workflowCommand("notice", {}, "x")).toBe("::notice::x");
  });
});

describe("text and JSON reports: exemptions and notices", () => {
  test("text marks exempt changes, leaves them out of FAIL, and prints notices last", () => {
    const text = renderText(diff.report, { color: false });
    expect(text).toContain(
      '  ✖ tool "get_forecast": property "days" is now required at inputSchema [required-added] (ignored: days is always sent by our client (JIRA-123))\n',
    );
    expect(text).toContain("[pattern-added] (out of scope: set_alert is not in --used tools.json)\n");
    expect(text).toContain("13 breaking, 6 minor, 3 patch · requires a MAJOR version bump · 3 exempt (not counted)\n");
    expect(text).toContain("✖ FAIL: 10 changes at or above breaking (--fail-on breaking)\n");
    expect(text.trimEnd().split("\n").slice(-2)).toEqual(diff.report.notices.map((n) => `notice: ${n}`));
    expect(renderText({ ...emptyReport(), notices: ["n1"] }, { color: false })).toContain(
      "no changes: the surfaces are identical\n✔ PASS: nothing at or above breaking (--fail-on breaking)\n\nnotice: n1\n",
    );
  });

  test("JSON carries exempt per change and the notices, and matches docs/report.schema.json", async () => {
    const { parseReport } = await import("../../e2e/contract-builders.ts");
    const json = parseReport(renderJson(diff.report)) as unknown as {
      changes: { rule: string; exempt?: unknown }[];
      notices: string[];
    };
    expect(json.notices).toEqual(diff.report.notices);
    expect(json.changes.find((c) => c.rule === "required-added")?.exempt).toEqual({
      kind: "ignored",
      reason: "days is always sent by our client (JIRA-123)",
    });
    expect(json.changes.filter((c) => c.exempt)).toHaveLength(3);
    expect(json.changes.find((c) => c.rule === "enum-value-removed")).not.toHaveProperty("exempt");
  });
});
