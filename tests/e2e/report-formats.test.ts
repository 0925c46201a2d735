/**
 * The CI report formats through the command line: sarif, markdown, junit and github next to
 * each other in one run, the job summary inside GitHub Actions, and the error for an
 * unknown format. The formats themselves are tested in tests/unit/report/.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { BASE_TOOLS, baseTool, objectSchema, withTool, writePair } from "./contract-builders.ts";
import { expectCleanFailure, runCli } from "./e2e-helpers.ts";

/** search: a required property added (breaking), plus a new tool (minor). */
function pair() {
  const search = baseTool("search");
  const properties = search.inputSchema.properties as Record<string, object>;
  search.inputSchema = objectSchema({ ...properties, region: { type: "string" } }, ["q", "region"]);
  return writePair(BASE_TOOLS, [...withTool(search), { name: "lookup", inputSchema: { type: "object" } }]);
}

describe("CI report formats", () => {
  test.concurrent("sarif, markdown and junit to files and github to stdout in one run; the job summary gets Markdown", async () => {
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
        ...["--format", "sarif", "--output", out("r.sarif")],
        ...["--format", "markdown", "--output", out("r.md")],
        ...["--format", "junit", "--output", out("r.xml")],
        ...["--format", "github"],
      ],
      { env: { GITHUB_STEP_SUMMARY: summary } },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);

    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^::error .*title=required-added::breaking: tool "search": property "region" is now required/,
    );
    expect(lines[1]).toMatch(/^::warning .*title=tool-added::minor: tool "lookup": added$/);
    expect(lines.at(-1)).toMatch(/^mcp-contract diff: FAIL: 1 change at or above breaking/);

    const sarif = JSON.parse(readFileSync(out("r.sarif"), "utf8"));
    expect(sarif.version).toBe("2.1.0");
    expect(sarif.runs[0].results.map((r: { ruleId: string; level: string }) => `${r.ruleId}:${r.level}`)).toEqual([
      "required-added:error",
      "tool-added:warning",
      "property-added:warning",
    ]);

    const markdown = readFileSync(out("r.md"), "utf8");
    expect(markdown.startsWith("## ❌ mcp-contract diff: 1 change at or above breaking\n")).toBe(true);
    expect(readFileSync(summary, "utf8")).toBe(`# earlier step\n${markdown}\n`);

    const xml = readFileSync(out("r.xml"), "utf8");
    expect(XMLValidator.validate(xml)).toBe(true);
    const suite = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(xml).testsuites.testsuite;
    expect({ failures: suite.failures, errors: suite.errors }).toEqual({ failures: "1", errors: "0" });
  });

  test.concurrent("the job summary is written only with --format github, and not at all outside Actions", async () => {
    const { dir, before, after } = pair();
    const summary = join(dir, "step-summary.md");
    const markdownOnly = await runCli(["diff", before, after, "--format", "markdown"], {
      env: { GITHUB_STEP_SUMMARY: summary },
    });
    expect(markdownOnly.code).toBe(0);
    expect(markdownOnly.stdout).toStartWith("## ✅ mcp-contract diff: reporting only");
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
    expect(result.stderr).toContain('unknown --format "html"; choose from text, json, sarif, markdown, junit, github.');
  });

  // check and diff pass the ReportContext to writeReports: annotations point at lockfile
  // lines and JUnit lists unchanged items too.
  test.concurrent("with the report context: file and line in annotations and SARIF, every item in JUnit", async () => {
    const { dir, before, after } = pair();
    const result = await runCli(
      [
        "diff",
        before,
        after,
        "--fail-on",
        "breaking",
        "--format",
        "junit",
        "--output",
        join(dir, "r.xml"),
        "--format",
        "github",
      ],
      { cwd: dir },
    );
    expect(result.stdout).toMatch(/^::error file=old\.json,line=\d+,col=\d+,title=required-added::/m);
    expect(result.stdout).toMatch(/^::warning file=new\.json,line=\d+,col=\d+,title=tool-added::/m);
    const suite = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(
      readFileSync(join(dir, "r.xml"), "utf8"),
    ).testsuites.testsuite;
    // search (failing), fetch (unchanged), lookup (added), the server
    expect(suite.tests).toBe("4");
  });
});
