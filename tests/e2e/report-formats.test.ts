/**
 * The CI report formats through the command line: sarif, markdown, junit and github next to
 * each other in one run (`--format F=FILE` and the older `--format F --output FILE` pairs), the
 * job summary inside GitHub Actions, the error for an unknown format, -q, the changelog view,
 * and `check --update`. The formats themselves are tested in tests/unit/report/; locations in
 * a real git repository in tests/e2e/report-locations.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { BASE_TOOLS, baseTool, objectSchema, parseReport, withTool, writePair } from "./contract-builders.ts";
import { expectCleanFailure, runCli } from "./e2e-helpers.ts";

/** search: a required property added (breaking) and an optional one (minor), plus a new tool (minor). */
function pair() {
  const search = baseTool("search");
  const properties = search.inputSchema.properties as Record<string, object>;
  search.inputSchema = objectSchema({ ...properties, region: { type: "string" }, units: { type: "string" } }, [
    "q",
    "region",
  ]);
  return writePair(BASE_TOOLS, [...withTool(search), { name: "lookup", inputSchema: { type: "object" } }]);
}

describe("CI report formats", () => {
  test.concurrent("--format F=FILE: sarif, markdown and junit to files, github to stdout; the job summary gets Markdown", async () => {
    const { dir, before, after } = pair();
    const summary = join(dir, "step-summary.md");
    writeFileSync(summary, "# earlier step\n");
    const out = (name: string) => join(dir, name);
    const result = await runCli(
      [
        "diff",
        before,
        after,
        "--fail-on",
        "breaking",
        "--format",
        `sarif=${out("r.sarif")}`,
        "--format",
        `markdown=${out("r.md")}`,
        "--format",
        `junit=${out("r.xml")}`,
        "--format",
        "github",
      ],
      { env: { GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: undefined } },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);

    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^::error .*title=required-added::breaking: tool "search": property "region" added, and required/,
    );
    // A compatible change is a notice, not a warning.
    expect(lines[1]).toMatch(/^::notice .*title=tool-added::minor: tool "lookup": added$/);
    expect(lines.at(-1)).toMatch(/^mcp-contract diff: FAIL: 1 change at or above breaking/);

    const sarif = JSON.parse(readFileSync(out("r.sarif"), "utf8"));
    expect(sarif.version).toBe("2.1.0");
    expect(sarif.runs[0].results.map((r: { ruleId: string; level: string }) => `${r.ruleId}:${r.level}`)).toEqual([
      "required-added:error",
      "tool-added:note",
      "property-added:note",
    ]);

    const markdown = readFileSync(out("r.md"), "utf8");
    expect(markdown.startsWith("## ❌ mcp-contract diff: 1 change at or above breaking\n")).toBe(true);
    expect(readFileSync(summary, "utf8")).toBe(`# earlier step\n${markdown}\n`);

    const xml = readFileSync(out("r.xml"), "utf8");
    expect(XMLValidator.validate(xml)).toBe(true);
    const suite = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(xml).testsuites.testsuite;
    expect({ failures: suite.failures, errors: suite.errors }).toEqual({ failures: "1", errors: "0" });
  });

  test.concurrent("the older pairs: an --output takes the --format its extension names, not the one before it", async () => {
    const { dir, before, after } = pair();
    const [mixed, pairs, inferred] = await Promise.all([
      // Positional pairing would put the annotations into r.sarif and SARIF on stdout.
      runCli(["diff", before, after, "--format", "github", "--format", "sarif", "--output", join(dir, "r.sarif")]),
      runCli([
        ...["diff", before, after],
        ...["--format", "json", "--output", join(dir, "a.out"), "--format", "markdown", "--output", join(dir, "b.out")],
        ...["--format", "text"],
      ]),
      runCli(["diff", before, after, "--output", join(dir, "only.sarif")]),
    ]);
    for (const result of [mixed, pairs, inferred]) {
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
    }
    expect(mixed.stdout).toMatch(/^::error .*title=required-added::/);
    expect(JSON.parse(readFileSync(join(dir, "r.sarif"), "utf8")).version).toBe("2.1.0");
    // Extensions that name no format keep the pairs as written.
    expect(parseReport(readFileSync(join(dir, "a.out"), "utf8")).summary.total).toBe(3);
    expect(readFileSync(join(dir, "b.out"), "utf8")).toStartWith("## ⚠️ mcp-contract diff:");
    expect(pairs.stdout).toStartWith("mcp-contract diff");
    // No --format at all: the extension says.
    expect(inferred.stdout).toBe("");
    expect(JSON.parse(readFileSync(join(dir, "only.sarif"), "utf8")).version).toBe("2.1.0");
  });

  test.concurrent("the job summary is written only with --format github, and not at all outside Actions", async () => {
    const { dir, before, after } = pair();
    const summary = join(dir, "step-summary.md");
    const markdownOnly = await runCli(["diff", before, after, "--format", "markdown"], {
      env: { GITHUB_STEP_SUMMARY: summary },
    });
    expect(markdownOnly.code).toBe(0);
    // Reporting only, but a breaking change is listed: no green tick.
    expect(markdownOnly.stdout).toStartWith("## ⚠️ mcp-contract diff: 1 breaking change, reporting only\n");
    expect(existsSync(summary)).toBe(false);
    const outside = await runCli(["diff", before, after, "--format", "github"], {
      env: { GITHUB_STEP_SUMMARY: undefined },
    });
    expect(outside.code).toBe(0);
    expect(outside.stderr).toBe("");
  });

  test.concurrent("an unknown format lists every format (exit 2)", async () => {
    const { before, after } = pair();
    const result = await runCli(["diff", before, after, "--format", "html"]);
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain(
      'unknown --format "html"; choose from text, json, sarif, markdown, junit, github, changelog.',
    );
  });

  // check and diff pass the ReportContext to writeReports: annotations point at lockfile
  // lines and JUnit lists unchanged items too.
  test.concurrent("with the report context: file and line in annotations and SARIF, every item in JUnit", async () => {
    const { dir, before, after } = pair();
    const result = await runCli(
      ["diff", before, after, "--fail-on", "breaking", "--format", `junit=${join(dir, "r.xml")}`, "--format", "github"],
      { cwd: dir, env: { GITHUB_WORKSPACE: undefined } },
    );
    // On the NEW lockfile, the file a pull request changes.
    expect(result.stdout).toMatch(/^::error file=new\.json,line=\d+,col=\d+,title=required-added::/m);
    expect(result.stdout).toMatch(/^::notice file=new\.json,line=\d+,col=\d+,title=tool-added::/m);
    const suite = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(
      readFileSync(join(dir, "r.xml"), "utf8"),
    ).testsuites.testsuite;
    // search (failing), fetch (unchanged), lookup (added), the server
    expect(suite.tests).toBe("4");
  });
});

describe("everyday output", () => {
  test.concurrent("-q prints no report unless a format is asked for; files are still written", async () => {
    const { dir, before, after } = pair();
    const [quiet, asked, file] = await Promise.all([
      runCli(["-q", "diff", before, after, "--fail-on", "breaking"]),
      runCli(["diff", before, after, "-q", "--format", "text"]),
      runCli(["-q", "diff", before, after, "--format", `json=${join(dir, "r.json")}`]),
    ]);
    expect({ code: quiet.code, stdout: quiet.stdout, stderr: quiet.stderr }).toEqual({
      code: 1,
      stdout: "",
      stderr: "",
    });
    expect(asked.stdout).toStartWith("mcp-contract diff");
    expect(file.stdout).toBe("");
    expect(parseReport(readFileSync(join(dir, "r.json"), "utf8")).summary.breaking).toBe(1);
  });

  test.concurrent("--format changelog: release notes grouped by item", async () => {
    const { before, after } = pair();
    const result = await runCli(["diff", before, after, "--format", "changelog"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toStartWith("## Changes in fixture 1.0.0\n");
    expect(result.stdout).toContain("### Tools\n\nAdded (minor):\n\n- `lookup`\n");
    expect(result.stdout).toContain(
      '#### tool `search`\n\n- **breaking**: property "region" added, and required at inputSchema\n- minor: property "units" added at inputSchema.properties.units\n',
    );
  });

  test.concurrent("text: the policy entries that would accept what fails, with their fingerprints", async () => {
    const { before, after } = pair();
    const [text, json] = await Promise.all([
      runCli(["diff", before, after, "--fail-on", "breaking"]),
      runCli(["diff", before, after, "--format", "json"]),
    ]);
    const fingerprint = parseReport(json.stdout).changes.find((c) => c.rule === "required-added")?.fingerprint;
    expect(text.stdout).toContain(
      `accept: if these changes are intended, add to "ignore" in mcp-contract.config.json (and write the reasons):\n  { "rule": "required-added", "fingerprint": "${fingerprint}", "reason": "TODO (tool search): why it is fine" }\n`,
    );
  });
});

describe("check --update", () => {
  test.concurrent("accepts the changes, says what it accepted, and exits 0; unchanged bytes are not rewritten", async () => {
    const { before, after } = pair();
    const first = await runCli(["check", "--baseline", before, "--against", after, "--update"]);
    expect(first.code).toBe(0);
    // Said once: by the text report on stdout, not again on stderr (issue #29).
    expect(first.stderr).toBe("");
    expect(first.stdout).toContain(`✔ accepted 1 breaking and 2 minor changes into ${before} (--update)\n`);
    expect(first.stdout).not.toContain("FAIL");
    expect(first.stdout).not.toContain("accept:");
    const json = await runCli(["check", "--baseline", before, "--against", after, "--format", "json"]);
    expect(parseReport(json.stdout).summary.total).toBe(0);

    const mtime = statSync(before).mtimeMs;
    await Bun.sleep(20);
    const again = await runCli(["check", "--baseline", before, "--against", after, "--update", "--format", "json"]);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(`${before} is up to date: nothing to accept\n`);
    expect(statSync(before).mtimeMs).toBe(mtime);
    expect((JSON.parse(again.stdout) as { accepted: unknown; result: string }).accepted).toEqual({
      file: before,
      outcome: "unchanged",
    });
  });

  test.concurrent("with no lockfile yet, it creates one (and its directory)", async () => {
    const { dir, after } = pair();
    const baseline = join(dir, "contracts", "new.contract.json");
    const result = await runCli(["check", "--baseline", baseline, "--against", after, "--update"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain(`✔ created ${baseline} with the current surface (--update)`);
    const check = await runCli(["check", "--baseline", baseline, "--against", after, "--format", "json"]);
    expect(check.code).toBe(0);
    expect(parseReport(check.stdout).summary.total).toBe(0);
  });
});
