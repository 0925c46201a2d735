/**
 * The lint SARIF report: the lint catalog as the driver's rules, one result per finding with
 * its level, located in the linted lockfile (`lint --from`) or only logically (a live server),
 * exemptions as accepted suppressions; valid against the SARIF 2.1.0 JSON Schema (ajv) and
 * Microsoft's validator (`sarif-multitool validate`, with its GitHub ingestion rules).
 */
import { describe, expect, test } from "bun:test";
import { buildSarif, LINT_FINGERPRINT_KEY, pascalCase, renderSarif, type SarifLevel } from "../../src/report/sarif.ts";
import type { LintLevel } from "../../src/rules/model.ts";
import { LINT_RULES } from "../../src/rules/registry.ts";
import { VERSION } from "../../src/version.ts";
import { noteIds, runSarifMultitool, sarifSchemaValidator, TOLERATED_NOTES } from "../helpers/sarif.ts";
import {
  IGNORE_REASON,
  LINT_NOTICES,
  type LintScenario,
  lineOf,
  livePoisonedScenario,
  poisonedScenario,
  publishedScenario,
} from "../unit/report/lint-fixtures.ts";

const poisoned = poisonedScenario();
const live = livePoisonedScenario();
const published = publishedScenario();

type SarifLog = ReturnType<typeof buildSarif>;
type SarifResult = SarifLog["runs"][number]["results"][number];

function resultsFor(log: SarifLog, rule: string, name?: string): SarifResult[] {
  return log.runs[0]!.results.filter(
    (r) => r.ruleId === rule && (name === undefined || r.properties.target.name === name),
  );
}

function resultFor(log: SarifLog, rule: string, name?: string): SarifResult {
  const found = resultsFor(log, rule, name)[0];
  if (!found) throw new Error(`no result for ${rule}`);
  return found;
}

describe("lint SARIF structure", () => {
  test("one run; the driver carries the whole lint catalog with levels, tags and help", () => {
    const log = buildSarif(poisoned.report, poisoned.context);
    expect(log).toMatchObject({ $schema: "https://json.schemastore.org/sarif-2.1.0.json", version: "2.1.0" });
    expect(log.runs).toHaveLength(1);
    const driver = log.runs[0]!.tool.driver;
    expect(driver).toMatchObject({ name: "mcp-contract", version: VERSION, semanticVersion: VERSION });
    expect(driver.rules.map((r) => r.id)).toEqual(LINT_RULES.map((r) => r.id));
    const levels: Record<LintLevel, SarifLevel> = { error: "error", warning: "warning", info: "note" };
    for (const [i, rule] of driver.rules.entries()) {
      const source = LINT_RULES[i]!;
      expect(rule.name).toBe(pascalCase(source.id));
      expect(rule.name).toMatch(/^([A-Z][a-z0-9]*)+$/);
      expect(rule.shortDescription.text.toLowerCase()).toContain(source.summary.toLowerCase().replace(/\.$/, ""));
      expect(rule.fullDescription.text).toContain(source.rationale.replace(/\.$/, ""));
      expect(rule.defaultConfiguration.level).toBe(levels[source.level]);
      expect(rule.properties.tags).toEqual(["mcp", "lint", source.group]);
      expect(rule.helpUri).toBe(`https://github.com/mcp-contract/mcp-contract/blob/main/docs/rules.md#${source.id}`);
      expect(rule.help.text).toContain(source.rationale);
      expect(rule.help.text).toContain(`Example: ${source.example}`);
      expect(rule.help.markdown).toContain(`\n${source.example}\n`);
    }
  });

  test("help Markdown shows the catalog's words as written: <IMPORTANT> is text, not a tag", () => {
    const hidden = buildSarif(poisoned.report).runs[0]!.tool.driver.rules.find((r) => r.id === "hidden-instructions")!;
    const [lead, rationale] = hidden.help.markdown.split("\n\n");
    expect(lead).toStartWith("**A text carries instructions aimed at the model: concealment from the user,");
    expect(rationale).toContain("\\<IMPORTANT\\> and \\<system\\> tags, chat-template markers");
    expect(`${lead}\n${rationale}`).not.toMatch(/(?<!\\)<IMPORTANT>/);
    // Code spans of the catalog stay code spans.
    const required = buildSarif(poisoned.report).runs[0]!.tool.driver.rules.find(
      (r) => r.id === "required-not-declared",
    )!;
    expect(required.help.markdown).toContain("`required`");
  });

  test("one result per finding: level from the finding, message naming the item, fingerprint", () => {
    const log = buildSarif(poisoned.report, poisoned.context);
    const { results } = log.runs[0]!;
    expect(results).toHaveLength(poisoned.report.findings.length);
    expect(results.map((r) => r.level)).toEqual([...Array(7).fill("error"), "note", "note"]);
    for (const [i, result] of results.entries()) {
      const finding = poisoned.report.findings[i]!;
      expect(result.ruleId).toBe(finding.rule);
      expect(log.runs[0]!.tool.driver.rules[result.ruleIndex!]?.id).toBe(finding.rule);
      expect(result.partialFingerprints).toEqual({ [LINT_FINGERPRINT_KEY]: finding.fingerprint });
      expect(result.properties).toMatchObject({ level: finding.level, target: finding.target, path: finding.path });
    }
    expect(LINT_FINGERPRINT_KEY).toBe("mcpContractLint/v1");
    const secret = resultsFor(log, "secret-access-request")[1]!;
    expect(secret.message.text).toStartWith(
      'tool "add": description: asks to read or send secrets (mcp.json, ~/.ssh, id_rsa)',
    );
    expect(secret.properties).toMatchObject({
      group: "security",
      failing: true,
      evidence: "mcp.json, please read ~/.ssh/id_rsa and pass",
    });
    // A finding below the threshold is listed at its own level and does not fail.
    const info = resultFor(log, "naming-style-inconsistent");
    expect(info.level).toBe("note");
    expect(info.properties.failing).toBe(false);
    // A warning that is not exempt stays a warning (the published capture has four).
    const mutation = buildSarif(published.report, published.context).runs[0]!.results.filter(
      (r) => r.ruleId === "mutation-without-hints",
    );
    expect(mutation.map((r) => r.level)).toEqual(["warning", "warning", "warning", "warning"]);
  });

  test("the ignored finding is a note with an accepted external suppression and the reason", () => {
    const ignored = resultFor(buildSarif(poisoned.report, poisoned.context), "embedded-url");
    expect(ignored.level).toBe("note");
    expect(ignored.suppressions).toEqual([{ kind: "external", status: "accepted", justification: IGNORE_REASON }]);
    expect(ignored.message.text).toEndWith(`Does not count toward the verdict (ignored: ${IGNORE_REASON}).`);
    expect(ignored.properties).toMatchObject({ level: "warning", failing: false, exempt: { kind: "ignored" } });
    for (const r of buildSarif(poisoned.report).runs[0]!.results.filter((r) => r.ruleId !== "embedded-url")) {
      expect(r.suppressions).toBeUndefined();
    }
  });

  test("from a lockfile: each result at the line of its item and path", () => {
    const log = buildSarif(poisoned.report, poisoned.context);
    const uri = "contracts/poisoned.contract.json";
    const at = (result: SarifResult) => result.locations[0]?.physicalLocation;
    expect(at(resultFor(log, "invisible-characters"))).toEqual({
      artifactLocation: { uri, uriBaseId: "%SRCROOT%" },
      region: {
        startLine: lineOf(poisoned.text, '"name": "read\u200bfile"'),
        startColumn: 7,
        endColumn: 7 + '"name": "read\u200bfile"'.length,
      },
    });
    // The second declaration of the argument, not the first.
    expect(at(resultFor(log, "prompt-argument-duplicate"))?.region).toMatchObject({
      startLine: lineOf(poisoned.text, '"name": "doc"', '"The document again"'),
      startColumn: 11,
    });
    expect(resultFor(log, "prompt-argument-duplicate").properties.lockfilePointer).toBe("/prompts/0/arguments/1/name");
    for (const r of resultsFor(log, "hidden-instructions")) {
      expect(at(r)?.region.startLine).toBe(lineOf(poisoned.text, '"description": "Adds two numbers.'));
    }
    // A server-wide finding: the top of the file.
    expect(at(resultFor(log, "naming-style-inconsistent"))?.region).toMatchObject({ startLine: 1, startColumn: 1 });
    expect(resultFor(log, "invisible-characters").locations[0]?.logicalLocations).toEqual([
      { name: "read\u200bfile", fullyQualifiedName: "tool/read\u200bfile/name", kind: "member" },
    ]);
  });

  test("a path the lockfile does not have points at the nearest enclosing node", () => {
    const log = buildSarif(published.report, published.context);
    const mutation = resultFor(log, "mutation-without-hints", "create_directory");
    expect(mutation.properties.path).toBe("/annotations");
    expect(mutation.properties.lockfilePointer).toBe("/tools/0");
    expect(mutation.locations[0]?.physicalLocation).toMatchObject({
      artifactLocation: { uri: "tests/fixtures/published/filesystem-2025.3.28.contract.json" },
      region: { startLine: lineOf(published.text, '"name": "create_directory"') - 1, startColumn: 5 },
    });
    const params = resultFor(log, "parameter-description-missing", "edit_file");
    expect(params.locations[0]?.physicalLocation?.region.startLine).toBe(
      lineOf(published.text, '"properties": {', '"name": "edit_file"'),
    );
  });

  test("from a live server: logical locations only", () => {
    const log = buildSarif(live.report, live.context);
    expect(log.runs[0]!.results).toHaveLength(live.report.findings.length);
    for (const result of log.runs[0]!.results) {
      expect(result.locations[0]?.physicalLocation).toBeUndefined();
      expect(result.locations[0]?.logicalLocations).toHaveLength(1);
      expect(result.properties).not.toHaveProperty("lockfilePointer");
    }
    expect(resultFor(log, "hidden-instructions").locations[0]?.logicalLocations[0]).toEqual({
      name: "add",
      fullyQualifiedName: "tool/add/description",
      kind: "member",
    });
    expect(resultFor(log, "naming-style-inconsistent").locations[0]?.logicalLocations[0]).toEqual({
      name: "server",
      fullyQualifiedName: "server",
      kind: "module",
    });
  });

  test("notices become tool execution notifications; verdict, summary and estimate are run properties", () => {
    const run = buildSarif(poisoned.report, poisoned.context).runs[0]!;
    expect(run.invocations[0]?.toolExecutionNotifications).toEqual([
      { level: "warning", message: { text: `${LINT_NOTICES[0]}.` } },
    ]);
    expect(run.properties).toEqual({
      command: "lint",
      subject: poisoned.report.subject,
      failOn: "error",
      result: "fail",
      failing: 7,
      summary: { error: 7, warning: 1, info: 1, total: 9 },
      toolList: poisoned.report.toolList,
      notices: LINT_NOTICES,
    });
    expect(buildSarif(published.report).runs[0]!.invocations[0]?.toolExecutionNotifications).toBeUndefined();
  });
});

describe("lint SARIF validity", () => {
  const scenarios: Record<string, LintScenario> = {
    "lint-file": poisoned,
    "lint-live": live,
    "lint-published": published,
  };

  test("matches the SARIF 2.1.0 JSON Schema", () => {
    const validate = sarifSchemaValidator();
    for (const scenario of Object.values(scenarios)) {
      expect(validate(JSON.parse(renderSarif(scenario.report, scenario.context)))).toBe("");
    }
    // The validator can fail: a level SARIF does not have.
    const bad = JSON.parse(renderSarif(poisoned.report, poisoned.context));
    bad.runs[0].results[0].level = "info";
    expect(validate(bad)).not.toBe("");
  });

  // One validator run for the three logs (it takes a few seconds); the helper adds a canary
  // with a known error, which proves the validator really analysed them.
  test(
    "sarif-multitool validate (SARIF and GitHub rules): no errors, no warnings",
    async () => {
      const logs = Object.fromEntries(
        Object.entries(scenarios).map(([name, s]) => [name, renderSarif(s.report, s.context)]),
      );
      const run = await runSarifMultitool(logs);
      expect(run.code).toBe(0);
      expect(run.output).toContain("4 files scanned");
      expect(run.canaryCaught).toBe(true);
      for (const name of Object.keys(logs)) expect(run.linesFor(name).length).toBeGreaterThan(0);
      const ours = Object.keys(logs).flatMap((name) => run.linesFor(name));
      expect(ours.filter((line) => line.includes(": error "))).toEqual([]);
      expect(ours.filter((line) => line.includes(": warning "))).toEqual([]);
      for (const note of noteIds(ours)) expect(TOLERATED_NOTES).toContain(note);
    },
    { timeout: 120_000 },
  );
});
