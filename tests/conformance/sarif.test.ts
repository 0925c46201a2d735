/**
 * The SARIF report: its structure (what GitHub code scanning reads), locations in the
 * lockfile, exemptions, and validity, checked three ways: the SARIF 2.1.0 JSON Schema (ajv),
 * and Microsoft's SARIF validator (`sarif-multitool validate`, with its GitHub ingestion
 * rules), on a check-style and a diff-style report.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { buildSarif, FINGERPRINT_KEY, pascalCase, renderSarif } from "../../src/report/sarif.ts";
import { DIFF_RULES as RULES } from "../../src/rules/registry.ts";
import { VERSION } from "../../src/version.ts";
import { noteIds, runSarifMultitool, sarifSchemaValidator, TOLERATED_NOTES } from "../helpers/sarif.ts";
import { checkScenario, diffScenario, type Scenario } from "../unit/report/report-fixtures.ts";

let diff: Scenario;
let check: Scenario;
beforeAll(async () => {
  [diff, check] = await Promise.all([diffScenario(), checkScenario()]);
});

type SarifLog = ReturnType<typeof buildSarif>;
type SarifResult = SarifLog["runs"][number]["results"][number];

function resultFor(log: SarifLog, rule: string, name?: string): SarifResult {
  const found = log.runs[0]!.results.find(
    (r) => r.ruleId === rule && (name === undefined || r.properties.target.name === name),
  );
  if (!found) throw new Error(`no result for ${rule}`);
  return found;
}

/** The 1-based line of the first `needle` after `from` in `text`. */
function lineOf(text: string, needle: string, from = ""): number {
  const offset = text.indexOf(needle, from ? text.indexOf(from) : 0);
  return text.slice(0, offset).split("\n").length;
}

describe("SARIF structure", () => {
  test("one run; the driver names the tool and carries the whole rule catalog", () => {
    const log = buildSarif(diff.report, diff.context);
    expect(log.$schema).toBe("https://json.schemastore.org/sarif-2.1.0.json");
    expect(log.version).toBe("2.1.0");
    expect(log.runs).toHaveLength(1);
    const driver = log.runs[0]!.tool.driver;
    expect(driver).toMatchObject({
      name: "mcp-contract",
      version: VERSION,
      semanticVersion: VERSION,
      informationUri: "https://github.com/mcp-contract/mcp-contract",
    });
    expect(driver.rules.map((r) => r.id)).toEqual(RULES.map((r) => r.id));
    // Check and diff: a compatible change is no warning (code scanning would open alerts for good news).
    const levels: Record<string, string> = { breaking: "error", minor: "note", patch: "note" };
    for (const [i, rule] of driver.rules.entries()) {
      const source = RULES[i]!;
      expect(rule.name).toMatch(/^([A-Z][a-z]*)+$/);
      expect(rule.shortDescription.text.toLowerCase()).toContain(source.summary.toLowerCase());
      expect(rule.fullDescription.text).toContain(source.rationale.replace(/\.$/, ""));
      expect(rule.help.text).toContain(source.example);
      expect(rule.help.markdown).toContain(`\`\`\`\n${source.example}\n\`\`\``);
      expect(rule.help.text).toContain(`Severity: ${source.input}`);
      expect(rule.defaultConfiguration.level as string).toBe(levels[source.input] as string);
      expect(rule.properties.tags).toContain(source.group);
    }
    expect(pascalCase("enum-value-removed")).toBe("EnumValueRemoved");
    const schemaRule = driver.rules.find((r) => r.id === "enum-value-added")!;
    expect(schemaRule.help.text).toContain("minor on input (what callers send), breaking on output");
    expect(schemaRule.defaultConfiguration.level).toBe("note"); // schema rules: the input severity (minor)
    // Security drift is a security alert for code scanning.
    const security = driver.rules.find((r) => r.id === "security-finding-introduced")!;
    expect(security.properties).toMatchObject({
      "security-severity": "8.0",
      tags: ["mcp", "compatibility", "security"],
    });
  });

  test("each result: rule index, level by severity, message with witness, fingerprint, location in the lockfile", () => {
    const log = buildSarif(diff.report, diff.context);
    const results = log.runs[0]!.results;
    expect(results).toHaveLength(diff.report.changes.length);
    const rules = log.runs[0]!.tool.driver.rules;
    for (const [i, result] of results.entries()) {
      const change = diff.report.changes[i]!;
      expect(rules[result.ruleIndex as number]?.id).toBe(result.ruleId);
      expect(result.partialFingerprints).toEqual({ [FINGERPRINT_KEY]: change.fingerprint });
      expect(result.message.text.startsWith(change.message)).toBe(true);
      expect(result.message.text).toMatch(/\.$/);
      expect(result.locations[0]?.physicalLocation?.artifactLocation.uri).toMatch(
        /^(mcp|build\/next)\.contract\.json$/,
      );
    }

    const removed = resultFor(log, "enum-value-removed");
    expect(removed.level).toBe("error");
    expect(removed.message.text).toContain(
      'Witness (arguments the old schema accepted and the new one rejects): {"city"',
    );
    // On the NEW lockfile (the file a pull request changes), where the item exists there.
    expect(removed.locations[0]).toEqual({
      physicalLocation: {
        artifactLocation: { uri: "build/next.contract.json", uriBaseId: "%SRCROOT%" },
        // The enum spans several lines: the region is its first line, from the member name on.
        region: { startLine: lineOf(diff.currentText, '"enum"', '"units"'), startColumn: 13 },
      },
      logicalLocations: [
        {
          name: "get_forecast",
          fullyQualifiedName: "tool/get_forecast/inputSchema/properties/units/enum",
          kind: "member",
        },
      ],
    });
    const mime = resultFor(log, "resource-mime-type-changed").locations[0]?.physicalLocation?.region;
    const member = '"mimeType": "text/csv"';
    expect(mime).toEqual({
      startLine: lineOf(diff.currentText, member, '"uri": "weather://stations"'),
      startColumn: 7,
      endColumn: 7 + member.length, // a one-line value: the region ends with it
    });
    // Levels: breaking error, minor and patch note; what fails the run is an error whatever its severity.
    expect(resultFor(log, "maximum-raised").level).toBe("note");
    expect(resultFor(log, "tool-added").level).toBe("note");
    expect(resultFor(log, "server-info-changed").level).toBe("note");
    const strict = buildSarif({ ...diff.report, failOn: "minor" }, diff.context);
    expect(resultFor(strict, "maximum-raised").level).toBe("error");
    expect(resultFor(strict, "server-info-changed").level).toBe("note");
    // Removed items exist only in the old file, which is the working tree's here.
    expect(resultFor(log, "tool-removed").locations[0]?.physicalLocation?.artifactLocation.uri).toBe(
      "mcp.contract.json",
    );
    // The base every relative URI is resolved against: the repository root (here the working directory).
    expect(log.runs[0]!.originalUriBaseIds).toEqual({ "%SRCROOT%": { uri: "file:///repo/" } });
    const capability = resultFor(log, "capability-added");
    expect(capability.locations[0]?.logicalLocations[0]).toMatchObject({
      fullyQualifiedName: "server/capabilities/logging",
      kind: "module",
    });
    expect(capability.locations[0]?.physicalLocation?.region.startLine).toBe(lineOf(diff.currentText, '"logging"'));
    const resource = resultFor(log, "resource-added");
    expect(resource.locations[0]?.physicalLocation?.artifactLocation.uri).toBe("build/next.contract.json");
    expect(resource.locations[0]?.logicalLocations[0]?.kind).toBe("resource");
  });

  test("exempt changes are notes; ignored ones also carry an accepted external suppression", () => {
    const log = buildSarif(diff.report, diff.context);
    const ignored = resultFor(log, "required-added");
    expect(ignored.level).toBe("note");
    expect(ignored.properties).toMatchObject({ severity: "breaking", failing: false, exempt: { kind: "ignored" } });
    expect(ignored.suppressions).toEqual([
      { kind: "external", status: "accepted", justification: "days is always sent by our client (JIRA-123)" },
    ]);
    expect(ignored.message.text).toContain("Does not count toward the verdict (ignored: days is always sent");
    const outOfScope = resultFor(log, "pattern-added");
    expect(outOfScope.level).toBe("note");
    expect(outOfScope.suppressions).toBeUndefined();
    expect(outOfScope.properties).toMatchObject({
      failing: false,
      exempt: { kind: "out-of-scope", reason: "set_alert is not in --used tools.json" },
    });
    expect(resultFor(log, "enum-value-removed").properties.failing).toBe(true);
  });

  test("notices become tool execution notifications; the verdict is in the run's properties", () => {
    const run = buildSarif(diff.report, diff.context).runs[0]!;
    expect(run.invocations[0]?.toolExecutionNotifications?.map((n) => n.level)).toEqual(["warning", "warning"]);
    expect(run.properties).toMatchObject({
      command: "diff",
      result: "fail",
      failOn: "breaking",
      requiredBump: "major",
    });
    const checkRun = buildSarif(check.report, check.context).runs[0]!;
    expect(checkRun.invocations[0]?.toolExecutionNotifications).toBeUndefined();
  });

  test("check against a live server: added items point at the baseline's list", () => {
    const log = buildSarif(check.report, check.context);
    const added = resultFor(log, "tool-added");
    expect(added.locations[0]?.physicalLocation).toEqual({
      artifactLocation: { uri: "mcp.contract.json", uriBaseId: "%SRCROOT%" },
      region: { startLine: lineOf(check.baselineText, '"tools": ['), startColumn: 3 },
    });
  });

  test("without a context, results keep their logical locations and no physical one", () => {
    const log = buildSarif(diff.report);
    for (const result of log.runs[0]!.results) {
      expect(result.locations[0]?.physicalLocation).toBeUndefined();
      expect(result.locations[0]?.logicalLocations).toHaveLength(1);
    }
  });
});

describe("SARIF validity", () => {
  test("matches the SARIF 2.1.0 JSON Schema", () => {
    const validate = sarifSchemaValidator();
    for (const scenario of [diff, check]) {
      expect(validate(JSON.parse(renderSarif(scenario.report, scenario.context)))).toBe("");
    }
  });

  // One validator run for both reports (it takes a few seconds); tests/helpers/sarif.ts adds
  // a canary file with a known error, which proves the validator really analysed the logs.
  test(
    "sarif-multitool validate (SARIF and GitHub rules): no errors, no warnings",
    async () => {
      const run = await runSarifMultitool({
        check: renderSarif(check.report, check.context),
        diff: renderSarif(diff.report, diff.context),
      });
      expect(run.code).toBe(0);
      expect(run.output).toContain("3 files scanned");
      expect(run.canaryCaught).toBe(true);
      // Every log gets lines (at least the note that it has no version control provenance).
      for (const name of ["check", "diff"]) expect(run.linesFor(name).length).toBeGreaterThan(0);
      const ours = [...run.linesFor("check"), ...run.linesFor("diff")];
      expect(ours.filter((line) => line.includes(": error "))).toEqual([]);
      expect(ours.filter((line) => line.includes(": warning "))).toEqual([]);
      // Notes remain: advice that does not apply here (message ids, rule id style, snippets, unreachable URLs).
      for (const note of noteIds(ours)) expect(TOLERATED_NOTES).toContain(note);
    },
    { timeout: 120_000 },
  );
});
