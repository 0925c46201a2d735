/**
 * The lint report in text, JSON, Markdown, JUnit and GitHub form (SARIF: lint-sarif.test.ts),
 * on real captures and on a poisoned surface: levels, exemptions, counts and verdicts,
 * locations in the lockfile, and the escaping of hostile text in every format.
 *
 * Golden files live in tests/fixtures/golden/lint-*. After an intended change to a format,
 * regenerate them with `UPDATE_GOLDEN=1 bun test tests/unit/report` and review the diff.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { FORMATS, type ReportContext } from "../../../src/report/context.ts";
import { renderGithub } from "../../../src/report/github.ts";
import { renderJson } from "../../../src/report/json.ts";
import { renderJunit } from "../../../src/report/junit.ts";
import { renderMarkdown } from "../../../src/report/markdown.ts";
import { buildLintReport, LINT_REPORT_VERSION, type LintReport } from "../../../src/report/model.ts";
import { renderReport } from "../../../src/report/render.ts";
import { renderSarif } from "../../../src/report/sarif.ts";
import { findingMessage, toolListLine, verdictLine } from "../../../src/report/shared.ts";
import { renderText } from "../../../src/report/text.ts";
import { thousands } from "../../../src/util/text.ts";
import { VERSION } from "../../../src/version.ts";
import { expectGolden } from "../../helpers/golden.ts";
import {
  cleanScenario,
  HOSTILE_NAME,
  IGNORE_REASON,
  LINT_NOTICES,
  lineOf,
  livePoisonedScenario,
  poisonedScenario,
  publishedScenario,
} from "./lint-fixtures.ts";
import { ROOT } from "./report-fixtures.ts";

const poisoned = poisonedScenario();
const live = livePoisonedScenario();
const published = publishedScenario();
const clean = cleanScenario();

/** The report with its threshold changed, verdict recomputed as buildLintReport does. */
function withFailOn(report: LintReport, failOn: LintReport["failOn"]): LintReport {
  return buildLintReport(report.subject, report.findings, report.toolList, failOn, report.notices);
}

describe("golden files", () => {
  test("text", () => {
    expectGolden("lint-poisoned.txt", renderText(poisoned.report, { color: false }));
    expectGolden("lint-published.txt", renderText(published.report, { color: false }));
  });

  test("markdown", () => {
    expectGolden("lint-poisoned.md", renderMarkdown(poisoned.report));
    expectGolden("lint-clean.md", renderMarkdown(clean.report));
  });

  test("junit", () => {
    expectGolden("lint-poisoned.junit.xml", renderJunit(poisoned.report, poisoned.context));
  });

  test("github", () => {
    expectGolden("lint-poisoned.github.txt", renderGithub(poisoned.report, poisoned.context));
    expectGolden("lint-live.github.txt", renderGithub(live.report, live.context));
  });
});

describe("the scenarios are what the tests assume", () => {
  test("poisoned: errors of every group, one ignored warning, one info, a notice", () => {
    const rules = poisoned.report.findings.map((f) => `${f.level}:${f.rule}`);
    expect(rules).toContain("error:hidden-instructions");
    expect(rules).toContain("error:secret-access-request");
    expect(rules).toContain("error:invisible-characters");
    expect(rules).toContain("error:prompt-argument-duplicate");
    expect(rules).toContain("warning:embedded-url");
    expect(poisoned.report.summary).toEqual({ error: 7, warning: 1, info: 1, total: 9 });
    expect(poisoned.report.findings.filter((f) => f.exempt).map((f) => f.rule)).toEqual(["embedded-url"]);
    expect(poisoned.report).toMatchObject({ failing: 7, result: "fail", notices: LINT_NOTICES });
  });

  test("published filesystem 2025.3.28: mutation warnings and parameter infos, nothing failing at error", () => {
    expect(published.report.summary).toEqual({ error: 0, warning: 4, info: 10, total: 14 });
    expect(published.report).toMatchObject({ failing: 0, result: "pass" });
    expect(published.report.toolList).toEqual({ tools: 11, characters: 5975, tokens: 1494, budget: 10_000 });
  });
});

describe("text", () => {
  const text = renderText(poisoned.report, { color: false });

  test("header, sections by level, one line per finding with its rule, the ignored one marked", () => {
    const lines = text.split("\n");
    expect(lines[0]).toBe("mcp-contract lint  /repo/contracts/poisoned.contract.json (poison-demo 0.9.0)");
    expect(lines.filter((l) => /^[A-Z]+ \(\d+\)$/.test(l))).toEqual(["ERROR (7)", "WARNING (1)", "INFO (1)"]);
    expect(text).toContain(
      '  ✖ prompt "summarize": argument "doc" is declared twice (arguments 0 and 1) [prompt-argument-duplicate]\n',
    );
    // Security findings name their item (the rule's message only says where in it).
    expect(text).toContain(
      '  ✖ tool "add": description: instruction aimed at the model (instruction tag; pre-use instruction): ',
    );
    expect(text).toContain(
      '  ✖ tool "read<U+200B ZERO WIDTH SPACE>file": name: 1 invisible zero-width character: "read<U+200B ZERO WIDTH SPACE>file" [invisible-characters]\n',
    );
    expect(text).toMatch(
      /\n {2}▲ tool "fetch_report": description: embeds a risky link.* \[embedded-url\] \(ignored: docs link \| reviewed in `SEC-7` <ok>\)\n/,
    );
    expect(text).toContain("  · tool names mix naming styles");
  });

  test("counts, the tool-list estimate and the verdict, then the notices last", () => {
    expect(text).toContain(
      "\n7 errors, 1 warning, 1 info · 1 exempt (not counted)\ntools/list ≈ 340 tokens for 4 tools (budget 10,000)\n✖ FAIL: 7 findings at or above error (--fail-on error)\n",
    );
    expect(text.trimEnd().split("\n").slice(-2)).toEqual(["", `notice: ${LINT_NOTICES[0]}`]);
  });

  test("verdicts: PASS, --fail-on never, lower thresholds, singular counts", () => {
    const pass = renderText(published.report, { color: false });
    expect(pass).toContain(
      "\n0 errors, 4 warnings, 10 info\ntools/list ≈ 1,494 tokens for 11 tools (budget 10,000)\n✔ PASS: nothing at or above error (--fail-on error)\n",
    );
    const never = renderText(withFailOn(poisoned.report, "never"), { color: false });
    expect(never).toContain("\n(--fail-on never: reporting only)\n");
    expect(never).not.toContain("FAIL");
    // The ignored warning never counts; the info counts from --fail-on info.
    expect(renderText(withFailOn(poisoned.report, "warning"), { color: false })).toContain(
      "✖ FAIL: 7 findings at or above warning (--fail-on warning)\n",
    );
    expect(renderText(withFailOn(published.report, "warning"), { color: false })).toContain(
      "✖ FAIL: 4 findings at or above warning (--fail-on warning)\n",
    );
    expect(renderText(withFailOn(poisoned.report, "info"), { color: false })).toContain(
      "✖ FAIL: 8 findings at or above info (--fail-on info)\n",
    );
    const one = buildLintReport(
      poisoned.report.subject,
      poisoned.report.findings.slice(2, 3),
      poisoned.report.toolList,
      "error",
    );
    const oneText = renderText(one, { color: false });
    expect(oneText).toContain("\n1 error, 0 warnings, 0 info\n");
    expect(oneText).toContain("✖ FAIL: 1 finding at or above error (--fail-on error)\n");
  });

  test("no findings: a check mark, the estimate and the PASS line the other commands end with", () => {
    expect(renderText(clean.report, { color: false })).toBe(
      "mcp-contract lint  mcp.contract.json (poison-demo 0.9.0)\n\n✔ no findings\ntools/list ≈ 64 tokens for 1 tool (budget 10,000)\n✔ PASS: nothing at or above error (--fail-on error)\n",
    );
    expect(renderText({ ...clean.report, notices: ["n1"] }, { color: false })).toEndWith(
      "(budget 10,000)\n✔ PASS: nothing at or above error (--fail-on error)\n\nnotice: n1\n",
    );
    expect(renderText({ ...clean.report, failOn: "never" }, { color: false })).toEndWith("(budget 10,000)\n");
  });

  test("colour only when asked", () => {
    const coloured = renderText(poisoned.report, { color: true });
    expect(coloured).toContain("\u001b[31m✖\u001b[0m");
    expect(coloured).toContain("\u001b[1;31mERROR (7)\u001b[0m");
    expect(coloured).toContain("\u001b[33m▲\u001b[0m");
    expect(text).not.toContain("\u001b[");
  });

  test("the estimate: thousands grouped, over the budget said so", () => {
    expect(thousands(0)).toBe("0");
    expect(thousands(999)).toBe("999");
    expect(thousands(1000)).toBe("1,000");
    expect(thousands(1234567)).toBe("1,234,567");
    expect(thousands(-1234567)).toBe("-1,234,567");
    expect(thousands(-123)).toBe("-123");
    expect(thousands(12345.678)).toBe("12,345.678");
    expect(toolListLine({ tools: 14, characters: 9724, tokens: 2431, budget: 10_000 })).toBe(
      "tools/list ≈ 2,431 tokens for 14 tools (budget 10,000)",
    );
    expect(toolListLine({ tools: 1, characters: 60_000, tokens: 15_000, budget: 10_000 })).toBe(
      "tools/list ≈ 15,000 tokens for 1 tool (over the budget of 10,000)",
    );
  });
});

describe("json", () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, "docs/lint-report.schema.json"), "utf8")));
  type Doc = {
    reportVersion: number;
    tool: { name: string; version: string };
    command: string;
    failOn: string;
    result: string;
    summary: Record<string, number>;
    toolList: Record<string, number>;
    findings: {
      rule: string;
      level: string;
      group: string;
      evidence?: unknown;
      fingerprint: string;
      exempt?: unknown;
    }[];
    notices: string[];
  };
  const parse = (text: string): Doc => {
    const doc = JSON.parse(text) as unknown;
    expect(validate(doc) ? "" : ajv.errorsText(validate.errors)).toBe("");
    return doc as Doc;
  };

  test("the documented shape, valid against docs/lint-report.schema.json", () => {
    for (const scenario of [poisoned, live, published, clean]) parse(renderJson(scenario.report));
    const doc = parse(renderJson(poisoned.report));
    expect(doc).toMatchObject({
      reportVersion: LINT_REPORT_VERSION,
      tool: { name: "mcp-contract", version: VERSION },
      command: "lint",
      failOn: "error",
      result: "fail",
      summary: { error: 7, warning: 1, info: 1, total: 9 },
      toolList: poisoned.report.toolList,
      notices: LINT_NOTICES,
    });
    expect(Object.keys(doc)).toEqual([
      "reportVersion",
      "tool",
      "command",
      "subject",
      "failOn",
      "result",
      "summary",
      "toolList",
      "findings",
      "notices",
    ]);
  });

  test("findings carry group, evidence and fingerprint; exempt only where ignored", () => {
    const doc = parse(renderJson(poisoned.report));
    expect(doc.findings).toHaveLength(9);
    expect(doc.findings.find((f) => f.rule === "embedded-url")).toMatchObject({
      level: "warning",
      group: "security",
      evidence: ["http://203.0.113.77/collect?id=1&x=17"],
      exempt: { kind: "ignored", reason: IGNORE_REASON },
    });
    expect(doc.findings.filter((f) => f.exempt)).toHaveLength(1);
    expect(doc.findings.find((f) => f.rule === "prompt-argument-duplicate")?.group).toBe("protocol");
    expect(doc.findings.find((f) => f.rule === "naming-style-inconsistent")?.evidence).toEqual({
      majority: "mixed",
      outliers: { fetch_report: "snake_case" },
    });
    const { evidence: _, ...bare } = poisoned.report.findings[0]!;
    const without = parse(renderJson({ ...poisoned.report, findings: [bare] }));
    expect(without.findings[0]).not.toHaveProperty("evidence");
    expect(without.findings[0]).not.toHaveProperty("exempt");
    expect(new Set(doc.findings.map((f) => f.fingerprint)).size).toBe(9);
  });

  test("the schema rejects what the report never produces", () => {
    const doc = JSON.parse(renderJson(poisoned.report)) as Doc;
    for (const broken of [
      { ...doc, command: "check" },
      { ...doc, failOn: "breaking" },
      { ...doc, findings: [{ ...doc.findings[0], level: "fatal" }] },
      { ...doc, findings: [{ ...doc.findings[0], fingerprint: "xyz" }] },
      { ...doc, toolList: { tools: 1 } },
    ]) {
      expect(validate(broken)).toBe(false);
    }
  });
});

describe("markdown", () => {
  const md = renderMarkdown(poisoned.report);
  const rows = (text: string) => text.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| ---"));

  test("verdict heading, summary table per level, estimate, sections open where findings fail", () => {
    expect(
      md.startsWith(
        "## ❌ mcp-contract lint: 7 findings at or above error\n\n`/repo/contracts/poisoned.contract.json` (poison-demo 0.9.0)\n",
      ),
    ).toBe(true);
    expect(md).toContain("**FAIL**: 7 findings at or above **error** (`--fail-on error`).");
    expect(md).toContain(
      "| 🔴 error | 7 | 7 | 0 |\n| 🟡 warning | 1 | 0 | 1 |\n| ⚪ info | 1 | 0 | 0 |\n| **total** | **9** | **7** | **1** |",
    );
    expect(md).toContain("\ntools/list ≈ 340 tokens for 4 tools (budget 10,000).\n");
    expect(md).toContain("<details open>\n<summary>🔴 <strong>Errors (7)</strong></summary>");
    expect(md).toContain("<details>\n<summary>🟡 <strong>Warnings (1)</strong></summary>");
    expect(md).toContain("<details>\n<summary>⚪ <strong>Info (1)</strong></summary>");
    expect(md).toContain(`> ⚠️ ignore "encoded-blob" on tool "old\\_tool" matched no finding: remove it`);
  });

  test("rows: status, linked rule, target, location, escaped finding; the ignored one says why", () => {
    const row = (rule: string) => rows(md).find((line) => line.includes(`[\`${rule}\`]`)) ?? "";
    expect(row("prompt-argument-duplicate")).toBe(
      '| ❌ fails | [`prompt-argument-duplicate`](https://github.com/mcp-contract/mcp-contract/blob/main/docs/rules.md#prompt-argument-duplicate) | prompt `summarize` | `arguments[1].name` | prompt "summarize": argument "doc" is declared twice (arguments 0 and 1) |',
    );
    expect(row("embedded-url")).toMatch(
      /^\| ⏭️ ignored \| .* \| tool `fetch_report` \| `description` \| .*\\<b\\>here\\<\/b\\> \(100%\).*<br>\*ignored: docs link \\\| reviewed in \\`SEC-7\\` \\<ok\\>\* \|$/,
    );
    expect(row("naming-style-inconsistent")).toMatch(/^\| {2}\| .* \| server \| {2}\| tool names mix/);
  });

  test("hostile text renders as text: no raw tags, pipes or line breaks; invisible characters spelled out", () => {
    expect(md).not.toContain("<IMPORTANT>");
    expect(md).toContain("\\<IMPORTANT\\>");
    expect(md).toContain("tool ``sum\\|`x`<b>\\nrows``");
    expect(md).toContain("tool `read<U+200B ZERO WIDTH SPACE>file`");
    expect(md).not.toContain("\u200b");
    for (const r of rows(md).filter((line) => line.includes("[`"))) {
      expect(r.replace(/\\\|/g, "").split("|")).toHaveLength(7); // five cells between six pipes
    }
    expect(HOSTILE_NAME).toContain("\n");
    expect(md.split("\n").some((line) => line.startsWith("rows"))).toBe(false);
  });

  test("verdicts: pass, --fail-on never, no findings", () => {
    expect(renderMarkdown(published.report)).toStartWith("## ✅ mcp-contract lint: nothing at or above error\n");
    expect(renderMarkdown(published.report)).toContain("| 🟡 warning | 4 | 0 | 0 |");
    const never = renderMarkdown(withFailOn(poisoned.report, "never"));
    expect(never).toStartWith("## ✅ mcp-contract lint: reporting only\n");
    expect(never).toContain("Reporting only (`--fail-on never`).");
    expect(never).not.toContain("<details open>");
    const none = renderMarkdown(clean.report);
    expect(none).toStartWith("## ✅ mcp-contract lint: no findings\n");
    expect(none).toContain("No findings.\n\ntools/list ≈ 64 tokens for 1 tool (budget 10,000).\n");
    expect(none).not.toContain("<details");
  });

  test("long lists are cut per level, failing findings first, counts kept", () => {
    const warning = withFailOn(published.report, "warning");
    const cut = renderMarkdown({ ...warning, findings: [...warning.findings].reverse() }, { maxPerSection: 3 });
    expect(cut).toContain("<summary>⚪ <strong>Info (10)</strong></summary>");
    expect(cut).toContain("…and 7 more info findings, not listed here");
    expect(cut).toContain("…and 1 more warning finding, not listed here");
    const info = cut.slice(cut.indexOf("Info (10)"));
    expect(rows(info).filter((r) => r.includes("[`"))).toHaveLength(3);
    // The first error ignored: cut to one row, the row shown is a failing one.
    const { subject, toolList } = poisoned.report;
    const firstIgnored = poisoned.report.findings.map((f, i) =>
      i === 0 ? { ...f, exempt: { kind: "ignored" as const, reason: "r" } } : f,
    );
    const mixed = renderMarkdown(buildLintReport(subject, firstIgnored, toolList, "error"), {
      maxPerSection: 1,
    });
    const errors = mixed.slice(mixed.indexOf("Errors (7)"), mixed.indexOf("Warnings (1)"));
    expect(
      rows(errors)
        .filter((r) => r.includes("[`"))
        .map((r) => r.slice(0, 10)),
    ).toEqual(["| ❌ fails "]);
    expect(errors).toContain("…and 6 more error findings, not listed here");
  });
});

describe("junit", () => {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    parseAttributeValue: false,
    htmlEntities: true,
    isArray: (name) => ["testsuite", "testcase", "failure", "property"].includes(name),
  });
  type Case = {
    classname: string;
    name: string;
    failure?: { type: string; message: string; "#text": string }[];
    skipped?: { message: string };
    "system-out"?: string;
  };
  type Suite = {
    tests: string;
    failures: string;
    errors: string;
    skipped: string;
    testcase: Case[];
    properties: { property: { name: string; value: string }[] };
  };
  function parse(xml: string): Suite {
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = parser.parse(xml) as { testsuites: { testsuite: Suite[] } };
    expect(doc.testsuites.testsuite).toHaveLength(1);
    return doc.testsuites.testsuite[0]!;
  }

  test("one test case per item of the surface and the server; failures typed by rule; counts match", () => {
    const suite = parse(renderJunit(poisoned.report, poisoned.context));
    expect(suite.testcase.map((c) => `${c.classname}:${c.name}`)).toEqual([
      "tool:add",
      "tool:fetch_report",
      "tool:read\u200bfile",
      `tool:${HOSTILE_NAME}`,
      "resource:file:///notes.txt",
      "resourceTemplate:file:///logs/{day}.log",
      "prompt:summarize",
      "server:poison-demo",
    ]);
    expect({ tests: suite.tests, failures: suite.failures, errors: suite.errors, skipped: suite.skipped }).toEqual({
      tests: "8",
      failures: "4",
      errors: "0",
      skipped: "0",
    });
    expect(suite.testcase.flatMap((c) => c.failure ?? []).length).toBe(poisoned.report.failing);
    const add = suite.testcase.find((c) => c.name === "add")!;
    expect(add.failure?.map((f) => f.type)).toEqual([
      "hidden-instructions",
      "secret-access-request",
      "secret-access-request",
    ]);
    expect(add.failure?.[2]?.message).toStartWith('tool "add": description: asks to read or send secrets');
    expect(add.failure?.[2]?.["#text"]).toContain(
      'rule: secret-access-request (security)\nat: description (/description)\nevidence: "mcp.json, please read ~/.ssh/id_rsa and pass"',
    );
    // Below the threshold or ignored: listed in system-out; the item passes.
    const fetch = suite.testcase.find((c) => c.name === "fetch_report")!;
    expect(fetch.failure).toBeUndefined();
    expect(fetch["system-out"]).toContain(`[warning] embedded-url: tool "fetch_report": description: embeds`);
    expect(fetch["system-out"]).toEndWith(`(ignored: ${IGNORE_REASON})`);
    expect(suite.testcase.find((c) => c.classname === "server")?.["system-out"]).toStartWith(
      "[info] naming-style-inconsistent: tool names mix naming styles",
    );
    expect(suite.testcase.find((c) => c.classname === "resource")).toEqual({
      classname: "resource",
      name: "file:///notes.txt",
      time: "0",
    } as unknown as Case);
  });

  test("properties: subject, threshold, verdict, estimate, notices", () => {
    const suite = parse(renderJunit(poisoned.report, poisoned.context));
    expect(Object.fromEntries(suite.properties.property.map((p) => [p.name, p.value]))).toEqual({
      command: "lint",
      subject: "/repo/contracts/poisoned.contract.json",
      failOn: "error",
      result: "fail",
      verdict: "FAIL: 7 findings at or above error (--fail-on error)",
      toolList: "tools/list ≈ 340 tokens for 4 tools (budget 10,000)",
      notice: LINT_NOTICES[0] as string,
    });
  });

  test("an item whose only would-be failures are ignored is skipped", () => {
    const suite = parse(renderJunit(withFailOn(poisoned.report, "warning"), poisoned.context));
    const fetch = suite.testcase.find((c) => c.name === "fetch_report")!;
    expect(fetch.skipped?.message).toBe(`ignored: ${IGNORE_REASON}`);
    expect(fetch.failure).toBeUndefined();
    expect(suite.skipped).toBe("1");
    expect(suite.failures).toBe("4");
  });

  test("hostile names and messages survive a real parser intact", () => {
    const suite = parse(renderJunit(poisoned.report, poisoned.context));
    const hostile = suite.testcase.find((c) => c.name === HOSTILE_NAME)!;
    expect(hostile.failure?.[0]?.type).toBe("tool-name-invalid");
    const finding = poisoned.report.findings.find((f) => f.target.name === HOSTILE_NAME)!;
    expect(hostile.failure?.[0]?.message).toBe(findingMessage(finding));
    expect(hostile.failure?.[0]?.["#text"]).toContain(`evidence: ${JSON.stringify(HOSTILE_NAME)}`);
  });

  test("published capture: every tool passes at error, fails at warning; thresholds move failures", () => {
    const suite = parse(renderJunit(published.report, published.context));
    expect(suite.tests).toBe("12");
    expect(suite.failures).toBe("0");
    expect(suite.testcase.find((c) => c.classname === "server")?.name).toBe("secure-filesystem-server");
    const warning = parse(renderJunit(withFailOn(published.report, "warning"), published.context));
    expect(warning.testcase.filter((c) => c.failure).map((c) => c.name)).toEqual([
      "create_directory",
      "edit_file",
      "move_file",
      "write_file",
    ]);
    const info = parse(renderJunit(withFailOn(published.report, "info"), published.context));
    expect(info.failures).toBe("10");
  });

  test("without a surface the items come from the findings; a clean surface is all passing tests", () => {
    const suite = parse(renderJunit(poisoned.report));
    expect(suite.testcase.map((c) => c.name)).not.toContain("file:///notes.txt");
    expect(suite.testcase.find((c) => c.classname === "server")?.name).toBe("poison-demo");
    const none = parse(renderJunit(clean.report, clean.context));
    expect(none.testcase.map((c) => `${c.classname}:${c.name}`)).toEqual(["tool:get_weather", "server:poison-demo"]);
    expect(none.failures).toBe("0");
  });
});

describe("github", () => {
  const lines = renderGithub(poisoned.report, poisoned.context).trimEnd().split("\n");
  const line = (rule: string) => lines.find((l) => l.includes(`title=${rule}::`)) ?? "";

  test("one command per finding on its lockfile line, then notices, then the summary", () => {
    expect(lines).toHaveLength(poisoned.report.findings.length + poisoned.report.notices.length + 1);
    const file = "file=contracts/poisoned.contract.json";
    expect(line("prompt-argument-duplicate")).toBe(
      `::error ${file},line=${lineOf(poisoned.text, '"name": "doc"', '"The document again"')},col=11,title=prompt-argument-duplicate::error: prompt "summarize": argument "doc" is declared twice (arguments 0 and 1)`,
    );
    expect(line("invisible-characters")).toStartWith(
      `::error ${file},line=${lineOf(poisoned.text, '"name": "read\u200bfile"')},col=7,title=invisible-characters::error: tool "read<U+200B ZERO WIDTH SPACE>file": name:`,
    );
    expect(line("hidden-instructions")).toStartWith(
      `::error ${file},line=${lineOf(poisoned.text, '"description": "Adds two numbers.')},col=7,title=hidden-instructions::`,
    );
    expect(line("embedded-url")).toMatch(
      new RegExp(
        `^::warning ${file},line=${lineOf(poisoned.text, '"description": "Fetch the weekly')},col=7,title=embedded-url::warning: .*\\(100%25\\).*%0Adoes not count: ignored: docs link \\| reviewed in \`SEC-7\` <ok>$`,
      ),
    );
    // A server-wide finding points at the top of the file.
    expect(line("naming-style-inconsistent")).toStartWith(
      `::notice ${file},line=1,col=1,title=naming-style-inconsistent::info: `,
    );
    expect(lines.at(-2)).toBe(`::warning title=mcp-contract::${LINT_NOTICES[0]}`);
    expect(lines.at(-1)).toBe(
      "mcp-contract lint: FAIL: 7 findings at or above error (--fail-on error) · 7 errors, 1 warning, 1 info · tools/list ≈ 340 tokens for 4 tools (budget 10,000)",
    );
    // Every line but the summary is one command: no raw line break leaks from a message.
    for (const l of lines.slice(0, -1)) expect(l).toMatch(/^::(error|warning|notice)( [^:]*)?::/);
  });

  test("below the threshold: warnings and notices; --fail-on never; a live server has no file", () => {
    const never = renderGithub(withFailOn(poisoned.report, "never"), poisoned.context).trimEnd().split("\n");
    expect(never.filter((l) => l.startsWith("::error"))).toEqual([]);
    expect(never.filter((l) => l.startsWith("::warning") && l.includes("title=hidden-instructions"))).toHaveLength(1);
    expect(never.at(-1)).toStartWith("mcp-contract lint: reporting only (--fail-on never) · 7 errors");
    const published_ = renderGithub(published.report, published.context).trimEnd().split("\n");
    expect(published_.filter((l) => l.startsWith("::warning file=tests/fixtures/published/"))).toHaveLength(4);
    expect(published_.filter((l) => l.startsWith("::notice file=tests/fixtures/published/"))).toHaveLength(10);
    const liveLines = renderGithub(live.report, live.context).trimEnd().split("\n");
    expect(liveLines[0]).toMatch(/^::error title=tool-name-invalid::/);
    expect(liveLines.filter((l) => l.includes("file="))).toEqual([]);
    expect(renderGithub(clean.report, clean.context)).toBe(
      "mcp-contract lint: no findings · tools/list ≈ 64 tokens for 1 tool (budget 10,000)\n",
    );
  });
});

describe("renderReport", () => {
  test("the same format names as check's; each renders its format", () => {
    const context: ReportContext = poisoned.context;
    const { report } = poisoned;
    // One list of format names serves check, diff and lint: lint renders every one.
    for (const format of FORMATS) expect(renderReport(report, format, context, false).length).toBeGreaterThan(0);
    expect(renderReport(report, "text", context, false)).toBe(renderText(report, { color: false }));
    expect(renderReport(report, "text", context, true)).toBe(renderText(report, { color: true }));
    expect(renderReport(report, "json", context, false)).toBe(renderJson(report));
    expect(renderReport(report, "sarif", context, false)).toBe(renderSarif(report, context));
    expect(renderReport(report, "markdown", context, false)).toBe(renderMarkdown(report));
    expect(renderReport(report, "junit", context, false)).toBe(renderJunit(report, context));
    expect(renderReport(report, "github", context, false)).toBe(renderGithub(report, context));
  });

  test("the verdict line every format shares", () => {
    expect(verdictLine(poisoned.report)).toBe("FAIL: 7 findings at or above error (--fail-on error)");
    expect(verdictLine(published.report)).toBe("PASS: nothing at or above error (--fail-on error)");
    expect(verdictLine(withFailOn(published.report, "never"))).toBe("reporting only (--fail-on never)");
  });
});
