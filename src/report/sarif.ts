/**
 * SARIF 2.1.0 for GitHub code scanning and other SARIF viewers: one run, the whole rule
 * catalog as the driver's rules, one result per change, located in the lockfile. Pure.
 *
 * Levels follow severity (breaking → error, minor → warning, patch → note). Exempt changes
 * stay in the log so that reviewers see them, as notes (whatever their severity, so that no
 * viewer gates a merge on them), with the reason in the message and in properties.exempt;
 * an ignored change (policy file) also carries an accepted external suppression with the
 * reason as justification, which viewers that honour suppressions show as dismissed.
 */
import { RULES, type Rule } from "../diff/catalog.ts";
import type { Severity } from "../diff/model.ts";
import { VERSION } from "../version.ts";
import type { ReportContext } from "./context.ts";
import { type ChangeLocation, ChangeLocator } from "./locate.ts";
import type { Report, ReportChange } from "./model.ts";
import { countsAsFailing, exemptionLabel, INFORMATION_URI, ruleHelpUri, witnessMeaning } from "./shared.ts";

export const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

export type SarifLevel = "error" | "warning" | "note" | "none";

export const SARIF_LEVEL: Record<Severity, SarifLevel> = { breaking: "error", minor: "warning", patch: "note" };

/** The key under which results carry our own stable id (Change.fingerprint). */
export const FINGERPRINT_KEY = "mcpContract/v1";

/** "enum-value-removed" → "EnumValueRemoved" */
export function pascalCase(id: string): string {
  return id
    .split("-")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Ends a sentence with a period unless it already ends with punctuation. */
export function sentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function severityText(rule: Rule, strong: (s: string) => string): string {
  return rule.group === "schema" && rule.input !== rule.output
    ? `Severity: ${strong(rule.input)} on input (what callers send), ${strong(rule.output)} on output (what callers receive).`
    : `Severity: ${strong(rule.input)}.`;
}

function sarifRule(rule: Rule) {
  const summary = sentence(capitalize(rule.summary));
  const helpUri = ruleHelpUri(rule.id);
  return {
    id: rule.id,
    name: pascalCase(rule.id),
    shortDescription: { text: summary },
    fullDescription: { text: sentence(rule.rationale) },
    helpUri,
    help: {
      text: `${summary} ${severityText(rule, (s) => s)}\n\n${rule.rationale}\n\nExample: ${rule.example}\n\nMore: ${helpUri}`,
      markdown: [
        `**${summary}** ${severityText(rule, (s) => `**${s}**`)}`,
        "",
        rule.rationale,
        "",
        "Example:",
        "",
        "```",
        rule.example,
        "```",
        "",
        `[Rule reference](${helpUri})`,
      ].join("\n"),
    },
    // Schema rules default to their input severity; the level of each result is its own.
    defaultConfiguration: { level: SARIF_LEVEL[rule.input] },
    properties: {
      tags: ["mcp", "compatibility", rule.group],
      severity: rule.group === "schema" ? { input: rule.input, output: rule.output } : rule.input,
    },
  };
}

function resultMessage(change: ReportChange): string {
  const parts = [sentence(change.message)];
  if (change.renamedTo) {
    parts.push(
      `Possibly renamed to ${JSON.stringify(change.renamedTo)} (the removal still breaks callers of the old name).`,
    );
  }
  if (change.witness !== undefined) {
    parts.push(`Witness (${witnessMeaning(change)}): ${JSON.stringify(change.witness)}.`);
  }
  if (change.note) parts.push(`Note: ${sentence(change.note)}`);
  if (change.exempt) parts.push(`Does not count toward the verdict (${exemptionLabel(change.exempt)}).`);
  return parts.join(" ");
}

export function logicalLocation(change: Pick<ReportChange, "target" | "path">) {
  const { kind, name } = change.target;
  return {
    name: kind === "server" ? "server" : name,
    fullyQualifiedName: kind === "server" ? `server${change.path}` : `${kind}/${name}${change.path}`,
    kind: kind === "resource" || kind === "resourceTemplate" ? "resource" : kind === "server" ? "module" : "member",
  };
}

export function physicalLocation(found: ChangeLocation) {
  return {
    artifactLocation: { uri: found.uri },
    // One line: the member name (or value) that starts the located node; a multi-line
    // region would cover a whole tool.
    region: {
      startLine: found.line,
      startColumn: found.column,
      ...(found.endLine === found.line && { endColumn: found.endColumn }),
    },
  };
}

export function buildSarif(report: Report, context: ReportContext = {}) {
  const locator = new ChangeLocator(context);
  const ruleIndex = new Map(RULES.map((rule, i) => [rule.id, i]));
  const results = report.changes.map((change) => {
    const found = locator.locate(change);
    return sarifResult({
      item: change,
      ruleIndex: ruleIndex.get(change.rule),
      level: change.exempt ? "note" : SARIF_LEVEL[change.severity],
      message: resultMessage(change),
      found,
      fingerprintKey: FINGERPRINT_KEY,
      properties: {
        severity: change.severity,
        ...(change.direction && { direction: change.direction }),
        target: change.target,
        path: change.path,
        failing: countsAsFailing(change, report.failOn),
        ...(change.exempt && { exempt: change.exempt }),
        ...(change.witness !== undefined && { witness: change.witness }),
        ...(found && { lockfilePointer: found.pointer }),
      },
    });
  });
  return sarifLog(RULES.map(sarifRule), results, report.notices, {
    command: report.command,
    baseline: report.baseline,
    current: report.current,
    failOn: report.failOn,
    result: report.result,
    requiredBump: report.requiredBump,
    failing: report.failing,
    summary: report.summary,
    notices: report.notices,
  });
}

/** What one SARIF result is made of; the same for a change and a lint finding. */
export interface ResultParts<P extends object> {
  item: Pick<ReportChange, "rule" | "target" | "path" | "fingerprint" | "exempt">;
  ruleIndex: number | undefined;
  level: SarifLevel;
  message: string;
  found: ChangeLocation | undefined;
  fingerprintKey: string;
  properties: P;
}

/**
 * One result: at the lockfile line when located, always with a logical location, a stable
 * fingerprint, and an accepted suppression (with the reason) for what the policy ignores.
 */
export function sarifResult<P extends object>(parts: ResultParts<P>) {
  const { item, found } = parts;
  return {
    ruleId: item.rule,
    ...(parts.ruleIndex !== undefined && { ruleIndex: parts.ruleIndex }),
    level: parts.level,
    message: { text: parts.message },
    locations: [
      {
        ...(found && { physicalLocation: physicalLocation(found) }),
        logicalLocations: [logicalLocation(item)],
      },
    ],
    partialFingerprints: { [parts.fingerprintKey]: item.fingerprint },
    ...(item.exempt?.kind === "ignored" && {
      suppressions: [{ kind: "external", status: "accepted", justification: item.exempt.reason }],
    }),
    properties: parts.properties,
  };
}

/**
 * The log around a run's rules and results, the same for check, diff and lint: one run of the
 * mcp-contract driver, notices as tool execution notifications, the verdict as run properties.
 */
export function sarifLog<R, T>(rules: R[], results: T[], notices: readonly string[], properties: object) {
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "mcp-contract",
            version: VERSION,
            semanticVersion: VERSION,
            informationUri: INFORMATION_URI,
            rules,
          },
        },
        invocations: [
          {
            executionSuccessful: true,
            ...(notices.length > 0 && {
              toolExecutionNotifications: notices.map((notice) => ({
                level: "warning",
                message: { text: sentence(notice) },
              })),
            }),
          },
        ],
        columnKind: "utf16CodeUnits",
        results,
        properties,
      },
    ],
  };
}

export function renderSarif(report: Report, context: ReportContext = {}): string {
  return `${JSON.stringify(buildSarif(report, context), null, 2)}\n`;
}
