/**
 * Reports a reviewer can read on a real release (tests/unit/report/volume-fixtures.ts): a
 * tool's hint changes on one line, the same change on many items collapsed into one run in
 * natural order, security drift in a SECURITY group of its own, duplicate identities, word
 * diffs of rewritten texts, and the "accept" snippet: in every format where each applies.
 *
 * Golden files live in tests/fixtures/golden/ (UPDATE_GOLDEN=1 rewrites them; review the diff).
 */
import { describe, expect, test } from "bun:test";
import { XMLParser } from "fast-xml-parser";
import { renderChangelog } from "../../../src/report/changelog.ts";
import { entriesOf, naturalCompare, rangeOf, sectionsOf } from "../../../src/report/entries.ts";
import { renderGithub } from "../../../src/report/github.ts";
import { renderJson } from "../../../src/report/json.ts";
import { renderJunit } from "../../../src/report/junit.ts";
import { renderMarkdown } from "../../../src/report/markdown.ts";
import type { Report } from "../../../src/report/model.ts";
import { buildSarif } from "../../../src/report/sarif.ts";
import { bumpLine } from "../../../src/report/shared.ts";
import { renderText } from "../../../src/report/text.ts";
import { expectGolden } from "../../helpers/golden.ts";
import { diffScenario } from "./report-fixtures.ts";
import { HINTED, volumeScenario } from "./volume-fixtures.ts";

const scenario = volumeScenario();
const { report, context } = scenario;
const text = renderText(report, { color: false });
const markdown = renderMarkdown(report);
const github = renderGithub(report, context);
const junit = renderJunit(report, context);
const json = JSON.parse(renderJson(report)) as {
  summary: Record<string, number>;
  changes: { rule: string; group?: string; target: { name: string } }[];
};
const sarif = buildSarif(report, context);
const changelog = renderChangelog(report);
/** The weather scenario (tests/unit/report/report-fixtures.ts). */
const diffScenarioSync = await diffScenario();

describe("golden files", () => {
  test("text, markdown, github and changelog of a real-sized release", () => {
    expectGolden("report-volume.txt", text);
    expectGolden("report-volume.md", markdown);
    expectGolden("report-volume.github.txt", github);
    expectGolden("report-volume.changelog.md", changelog);
    expectGolden("report-diff.changelog.md", renderChangelog(diffScenarioSync.report));
  });
});

describe("a tool's hint changes: one line", () => {
  // readOnlyHint true makes destructiveHint and idempotentHint mean nothing (issue #12, principle 9):
  // their changes are the read-only finding's note, so two hint rules remain per tool.
  test("the hint rules of one tool are one entry; the rules are all named", () => {
    const minor = sectionsOf(report).find((s) => s.key === "minor")!;
    const single = entriesOf({ ...report, changes: minor.items.filter((c) => c.target.name === "list_1") } as Report, [
      ...minor.items.filter((c) => c.target.name === "list_1"),
    ]);
    expect(single).toHaveLength(1);
    expect(single[0]).toMatchObject({
      kind: "hints",
      message: 'tool "list_1": now read-only, closed-world',
      rules: ["tool-now-read-only", "tool-no-longer-open-world"],
    });
    expect(single[0]?.items).toHaveLength(2);
  });

  test("in every format: text, markdown, github, junit, changelog", () => {
    // Six tools with the same new block: one run of one line.
    const line = `6 tools now read-only, closed-world: ${HINTED.join(", ")}`;
    expect(text).toContain(`  ▲ ${line} [tool-now-read-only, tool-no-longer-open-world]\n`);
    expect(text.match(/now read-only/g)).toHaveLength(1);
    expect(markdown.match(/now read-only, closed-world/g)).toHaveLength(2); // the row, and its list's summary
    expect(github.split("\n").filter((l) => l.includes("now read-only"))).toHaveLength(1);
    expect(changelog).toContain(
      '#### tool `list_1`\n\n- minor: now read-only, closed-world (So it no longer performs destructive updates and is now idempotent.)\n- patch: annotations.title added: "List list\\_1"\n',
    );
    const suite = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(
      renderJunit({ ...report, failOn: "minor" }, context),
    ).testsuites.testsuite;
    const list1 = suite.testcase.find((c: { name: string }) => c.name === "list_1");
    // One failure for the hint rules, typed by all of them.
    expect(list1.failure.type).toBe("tool-now-read-only tool-no-longer-open-world");
    expect(junit).toContain(
      '[minor] tool-now-read-only, tool-no-longer-open-world: tool "list_1": now read-only, closed-world',
    );
  });

  test("a lone hint change keeps its own line, with what caused it", () => {
    expect(text).toContain(
      '  ▲ tool "one_hint": no longer reaches an open world of external entities (openWorldHint absent → false) [tool-no-longer-open-world]\n',
    );
  });

  test("JSON and SARIF keep every change", () => {
    expect(
      json.changes.filter((c) => c.rule.startsWith("tool-now-") || c.rule.startsWith("tool-no-longer-")),
    ).toHaveLength(2 * HINTED.length + 1);
    expect(sarif.runs[0]!.results).toHaveLength(report.changes.length);
  });
});

describe("the same change on many items: one run, natural order", () => {
  test("100 resources removed: one line in text and one annotation, the range shown", () => {
    expect(text).toContain("  ✖ 100 resources removed: test://static/resource/1 … /100 [resource-removed]\n");
    expect(text).not.toContain("test://static/resource/10 ");
    const annotations = github.split("\n").filter((l) => l.includes("title=resource-removed"));
    expect(annotations).toHaveLength(1);
    // The annotation lists the first names in natural order.
    expect(annotations[0]).toContain(
      "%0A100 resources: test://static/resource/1, test://static/resource/2, test://static/resource/3,",
    );
    expect(annotations[0]).toContain(", …and 80 more");
  });

  test("Markdown: one row, every item in a collapsed list, in natural order", () => {
    expect(markdown).toContain(
      "| 100 resources |  | 100 resources removed: `test://static/resource/1` … `/100` (all listed below) |",
    );
    const list = markdown.slice(markdown.indexOf("<summary>100 resources: removed</summary>"));
    const names = [...list.matchAll(/^- `(test:\/\/static\/resource\/\d+)`$/gm)].map((m) => m[1]);
    expect(names).toHaveLength(100);
    expect(names.slice(0, 3)).toEqual([
      "test://static/resource/1",
      "test://static/resource/2",
      "test://static/resource/3",
    ]);
    expect(names.at(-1)).toBe("test://static/resource/100");
  });

  test("JSON, SARIF and JUnit list every item", () => {
    expect(json.changes.filter((c) => c.rule === "resource-removed")).toHaveLength(100);
    expect(sarif.runs[0]!.results.filter((r) => r.ruleId === "resource-removed")).toHaveLength(100);
    expect(junit.match(/<testcase classname="resource"/g)).toHaveLength(100);
  });

  test("natural order, ranges, and what stays one per line", () => {
    const sorted = ["a10", "a2", "a1", "b", "a02", "a"].sort(naturalCompare);
    expect(sorted).toEqual(["a", "a1", "a02", "a2", "a10", "b"]);
    expect(rangeOf(["x", "y"], (n) => n)).toBe("x, y");
    expect(rangeOf(["get_a", "get_b", "get_c", "get_d"], (n) => `"${n}"`)).toBe('"get_a", "get_b", "get_c", "get_d"');
    const long = Array.from({ length: 30 }, (_, i) => `tool_with_a_long_name_${i + 1}`);
    expect(rangeOf(long, (n) => n)).toBe("tool_with_a_long_name_1 … tool_with_a_long_name_30");
    // Changes with their own witness, rename hint or values are never folded into a run.
    const { report: weather } = diffScenarioSync;
    for (const entry of sectionsOf(weather).flatMap((s) => entriesOf(weather, s.items))) {
      expect(entry.kind).not.toBe("run");
    }
  });
});

describe("security drift: a group of its own, explained once", () => {
  test("text: a SECURITY section before BREAKING, the explanation once; counts apart", () => {
    expect(text.indexOf("SECURITY (3)\n")).toBeLessThan(text.indexOf("BREAKING (101)\n"));
    expect(text.match(/no version bump makes it safe/g)).toHaveLength(1);
    expect(text).toContain("3 security, 101 breaking, 13 minor, 9 patch · requires a MAJOR version bump\n");
    const breaking = text.slice(text.indexOf("BREAKING (101)"), text.indexOf("MINOR (13)"));
    expect(breaking).not.toContain("security-finding-introduced");
  });

  test("markdown: its own section and summary row; github: labelled security, explained in the summary", () => {
    expect(markdown).toContain("| 🛡️ security | 3 | 3 | 0 |\n| 🔴 breaking | 101 | 101 | 0 |");
    expect(markdown).toContain("<summary>🛡️ <strong>Security (3)</strong></summary>");
    expect(markdown.match(/no version bump makes it safe/g)).toHaveLength(1);
    const security = github.split("\n").filter((l) => l.includes("title=security-finding-introduced"));
    expect(security).toHaveLength(3);
    for (const line of security)
      expect(line).toMatch(/^::error .*::security: tool "(add|echo)": description now carries /);
    expect(github.trimEnd().split("\n").at(-1)).toContain(
      "3 security, 101 breaking, 13 minor, 9 patch (security drift fails like a breaking change; no version bump makes it safe)",
    );
  });

  test("junit, json, sarif and the changelog tell it apart too", () => {
    expect(junit).toContain('<property name="security" value="Security drift: ');
    expect(junit).toMatch(/type="security-finding-introduced">security: tool "add": description now carries/);
    expect(json.summary).toEqual({ breaking: 104, minor: 13, patch: 9, security: 3, total: 126 });
    expect(json.changes.filter((c) => c.group === "security")).toHaveLength(3);
    const result = sarif.runs[0]!.results.find((r) => r.ruleId === "security-finding-introduced")!;
    expect(result.level).toBe("error");
    expect(result.properties).toMatchObject({ severity: "breaking", group: "security" });
    expect(changelog).toContain("- **security**: description now carries hidden-instructions");
  });
});

describe("duplicate identities show in every format", () => {
  const rule = "tool-duplicate-added";
  test("text, markdown, github (on the duplicate's own line), junit, json, sarif, changelog", () => {
    const message = 'tool "echo": another tool with the same name was added (2 tools share it now';
    expect(text).toContain(`  ✖ ${message}`);
    expect(markdown).toContain(`[\`${rule}\`]`);
    const lines = scenario.newText.split("\n");
    const echoes = lines.flatMap((l, i) => (l.includes('"name": "echo"') ? [i + 1] : []));
    expect(echoes).toHaveLength(2);
    // The annotation is on the second copy (the one that was added), not the first.
    expect(github).toMatch(
      new RegExp(
        `^::error file=mcp\\.contract\\.json,line=${(echoes[1] as number) - 1},col=5,title=${rule}::breaking: `,
        "m",
      ),
    );
    expect(junit).toContain(`type="${rule}"`);
    expect(json.changes.filter((c) => c.rule === rule)).toHaveLength(1);
    expect(sarif.runs[0]!.results.filter((r) => r.ruleId === rule)).toHaveLength(1);
    expect(changelog).toContain("#### tool `echo`\n\n- **security**");
    expect(changelog).toContain("- **breaking**: another tool with the same name was added");
  });
});

describe("rewritten texts: the window that differs, as a word diff", () => {
  test("a description changed in the middle of a long sentence", () => {
    expect(text).toContain(
      '  · tool "search_files": description changed: …every entry whose name is matching a [-pattern-]{+glob+} given by the caller. [description-changed]\n',
    );
    const change = report.changes.find((c) => c.target.name === "search_files")!;
    expect(change.before).toStartWith("Recursively search");
    expect(change.after).toStartWith("Recursively search");
  });
});

describe("the accept snippet and --update", () => {
  test("text and markdown offer the policy entries of what fails, at most 20, in report order", () => {
    expect(text).toContain(
      'accept: if these changes are intended, add to "ignore" in mcp-contract.config.json (and write the reasons):\n  { "rule": "security-finding-introduced", "fingerprint": ',
    );
    expect(text).toContain("  …and 84 more: their fingerprints are in the JSON report (--format json)\n");
    const removed = text.split("\n").filter((l) => l.includes('"rule": "resource-removed"'));
    expect(removed[1]).toContain("test://static/resource/2)");
    expect(markdown).toContain("<summary>Accept these 104 changes</summary>");
    expect(markdown).toContain("(the first 20; the others' fingerprints are in the JSON report)");
    // Nothing to accept when nothing fails.
    expect(renderText({ ...report, failOn: "never" }, { color: false })).not.toContain("accept:");
  });

  test("an accepted report says what it accepted and passes, in every format", () => {
    const accepted: Report = { ...report, result: "pass", accepted: { file: "mcp.contract.json", outcome: "updated" } };
    const line = "accepted 104 breaking, 13 minor and 9 patch changes into mcp.contract.json (--update)";
    expect(renderText(accepted, { color: false })).toContain(`✔ ${line}\n`);
    expect(renderText(accepted, { color: false })).not.toContain("FAIL");
    expect(renderMarkdown(accepted)).toStartWith(`## ✅ mcp-contract diff: ${line}`);
    const annotations = renderGithub(accepted, context).trimEnd().split("\n");
    expect(annotations.at(-1)).toContain(line);
    expect(annotations.filter((l) => l.startsWith("::error"))).toEqual([]);
    expect(JSON.parse(renderJson(accepted)).accepted).toEqual({ file: "mcp.contract.json", outcome: "updated" });
  });
});

describe("the bump, below 1.0.0, agrees with --enforce-semver", () => {
  test("the line names the bump that gets to the next allowed version", () => {
    const line = (version: string, next: string, bump: Report["changeLevel"]) =>
      bumpLine({
        ...report,
        changeLevel: bump,
        nextVersion: next,
        baseline: { ...report.baseline, server: { version } },
      });
    expect(line("0.4.2", "0.5.0", "major")).toBe(
      "requires a MINOR version bump (to 0.5.0: below 1.0.0 a minor bump may break)",
    );
    expect(line("0.4.2", "0.4.3", "minor")).toBe(
      "requires a PATCH version bump (to 0.4.3: below 1.0.0 a patch bump may add)",
    );
    expect(line("0.0.3", "0.0.4", "major")).toBe(
      "requires a PATCH version bump (to 0.0.4: every 0.0.z release may break)",
    );
    expect(line("1.4.2", "2.0.0", "major")).toBe("requires a MAJOR version bump (to 2.0.0)");
    expect(bumpLine(report)).toBe("requires a MAJOR version bump");
  });
});
