/**
 * SARIF 2.1.0 for GitHub code scanning and other SARIF viewers, for every kind: one run of
 * the mcp-contract driver whose rules are the whole catalog of the kind (the diff catalog for
 * check and diff, the lint catalog for lint), one result per change or finding, located at
 * the lockfile line when there is a lockfile (a live server has none: logical locations
 * only), notices as tool execution notifications and the verdict as run properties. Pure.
 *
 * Levels: check and diff, breaking → error, minor and patch → note (a compatible change is not
 * a warning: code scanning would open alerts for good news), and whatever fails the run (a
 * minor change under --fail-on minor) → error; lint, error → error, warning → warning, info →
 * note. Security drift carries the rule's `security-severity`, so code scanning files it as a
 * security alert. Exempt items stay in the log so that reviewers see them, as notes (whatever
 * their grade, so that no viewer gates a merge on them), with the reason in the message and
 * in properties.exempt; an ignored item (policy file) also carries an accepted external
 * suppression with the reason as justification, which viewers that honour suppressions show
 * as dismissed. Physical locations are relative to the repository root, with the %SRCROOT%
 * base declared in originalUriBaseIds (src/report/locate.ts).
 */
import { type DiffRule, LINT_LEVELS, type LintLevel, type LintRule } from "../rules/model.ts";
import { DIFF_RULES, LINT_RULES } from "../rules/registry.ts";
import { VERSION } from "../version.ts";
import type { ReportContext } from "./context.ts";
import { type ChangeLocation, ChangeLocator, directoryUri, SRCROOT } from "./locate.ts";
import { codeBlock, escapeMarkdown } from "./markdown.ts";
import {
  type AnyReport,
  type Grade,
  gradeOf,
  gradeRank,
  isChange,
  isCounted,
  isSecurity,
  itemsOf,
  type ReportItem,
} from "./model.ts";
import {
  escapeControls,
  escapeJsonText,
  exemptionLabel,
  INFORMATION_URI,
  itemMessage,
  lintGroupOf,
  renameHint,
  ruleHelpUri,
  tallyFields,
  verdictFields,
  witnessMeaning,
} from "./shared.ts";

export const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

const isLintLevel = (grade: Grade): grade is LintLevel => (LINT_LEVELS as readonly string[]).includes(grade);

export type SarifLevel = "error" | "warning" | "note" | "none";

/** By grade rank: lint's error, warning and info; check and diff's breaking, minor and patch. */
const LINT_SARIF_LEVELS: readonly SarifLevel[] = ["error", "warning", "note"];
const DIFF_SARIF_LEVELS: readonly SarifLevel[] = ["error", "note", "note"];

const sarifLevel = (grade: Grade) =>
  (isLintLevel(grade) ? LINT_SARIF_LEVELS : DIFF_SARIF_LEVELS)[gradeRank(grade)] as SarifLevel;

/** A result's level: exempt items are notes; what fails the run is an error; else by grade. */
function resultLevel(item: ReportItem, report: AnyReport): SarifLevel {
  if (item.exempt) return "note";
  if (isCounted(item, report.failOn)) return "error";
  return sarifLevel(gradeOf(item));
}

/** GitHub code scanning's 0–10 score for security alerts: security drift is high. */
const SECURITY_SEVERITY = "8.0";

/** The key under which results carry our own stable id (Change.fingerprint). */
export const FINGERPRINT_KEY = "mcpContract/v1";
/** The key under which lint results carry theirs (ReportFinding.fingerprint). */
export const LINT_FINGERPRINT_KEY = "mcpContractLint/v1";

/** "enum-value-removed" → "EnumValueRemoved" */
export function pascalCase(id: string): string {
  return id
    .split("-")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Ends a sentence with a period unless it already ends with punctuation. */
function sentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * Lint catalog prose as Markdown that renders as written: Markdown and HTML syntax escaped
 * outside `code spans` (the hidden-instructions rationale names `<IMPORTANT>`, which a viewer
 * would otherwise take for a tag and drop).
 */
function prose(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : escapeMarkdown(part)))
    .join("");
}

/** What a reporting descriptor is made of, for a rule of either catalog. */
interface RuleParts<P extends object> {
  rule: { id: string; summary: string; rationale: string; example: string };
  /** The rule's severity or level, in a sentence; `strong` marks the values. */
  grading: (strong: (s: string) => string) => string;
  /** Catalog prose → Markdown. */
  markdown: (text: string) => string;
  level: SarifLevel;
  properties: P;
}

function reportingDescriptor<P extends object>({ rule, grading, markdown, level, properties }: RuleParts<P>) {
  const summary = sentence(capitalize(rule.summary));
  const helpUri = ruleHelpUri(rule.id);
  return {
    id: rule.id,
    name: pascalCase(rule.id),
    shortDescription: { text: summary },
    fullDescription: { text: sentence(rule.rationale) },
    helpUri,
    help: {
      text: `${summary} ${grading((s) => s)}\n\n${rule.rationale}\n\nExample: ${rule.example}\n\nMore: ${helpUri}`,
      markdown: [
        `**${markdown(summary)}** ${grading((s) => `**${s}**`)}`,
        "",
        markdown(rule.rationale),
        "",
        "Example:",
        "",
        codeBlock(rule.example),
        "",
        `[Rule reference](${helpUri})`,
      ].join("\n"),
    },
    defaultConfiguration: { level },
    properties,
  };
}

function diffRuleDescriptor(rule: DiffRule) {
  return reportingDescriptor({
    rule,
    grading: (strong) =>
      rule.group === "schema" && rule.input !== rule.output
        ? `Severity: ${strong(rule.input)} on input (what callers send), ${strong(rule.output)} on output (what callers receive).`
        : `Severity: ${strong(rule.input)}.`,
    // Diff catalog prose is Markdown as written.
    markdown: (text) => text,
    // Schema rules default to their input severity; the level of each result is its own.
    level: sarifLevel(rule.input),
    properties: {
      tags: ["mcp", "compatibility", rule.group],
      severity: rule.group === "schema" ? { input: rule.input, output: rule.output } : rule.input,
      ...(rule.group === "security" && { "security-severity": SECURITY_SEVERITY }),
    },
  });
}

function lintRuleDescriptor(rule: LintRule) {
  return reportingDescriptor({
    rule,
    grading: (strong) => `Level: ${strong(rule.level)} (${rule.group}).`,
    markdown: prose,
    level: sarifLevel(rule.level),
    properties: {
      tags: ["mcp", "lint", rule.group],
      level: rule.level,
      group: rule.group,
      // Host rules (lint --hosts): the host profile, and where the constraint is documented.
      ...(rule.host !== undefined && { host: rule.host, sources: rule.sources, checked: rule.checked }),
    },
  });
}

function resultMessage(item: ReportItem): string {
  const parts = [sentence(itemMessage(item))];
  if (isChange(item)) {
    if (item.renamedTo) parts.push(`${capitalize(renameHint(JSON.stringify(item.renamedTo)))}.`);
    if (item.witness !== undefined) parts.push(`Witness (${witnessMeaning(item)}): ${JSON.stringify(item.witness)}.`);
    if (item.note) parts.push(`Note: ${sentence(item.note)}`);
  }
  if (item.exempt) parts.push(`Does not count toward the verdict (${exemptionLabel(item.exempt)}).`);
  // Viewers show message text as it is: control and bidi characters escaped, never raw.
  return escapeControls(parts.join(" "));
}

function logicalLocation(item: Pick<ReportItem, "target" | "path">) {
  const { kind, name } = item.target;
  return {
    name: kind === "server" ? "server" : escapeControls(name),
    fullyQualifiedName: escapeControls(kind === "server" ? `server${item.path}` : `${kind}/${name}${item.path}`),
    kind: kind === "resource" || kind === "resourceTemplate" ? "resource" : kind === "server" ? "module" : "member",
  };
}

function physicalLocation(found: ChangeLocation) {
  return {
    artifactLocation: { uri: found.uri, ...(found.uriBaseId && { uriBaseId: found.uriBaseId }) },
    // One line: the member name (or value) that starts the located node; a multi-line
    // region would cover a whole tool.
    region: {
      startLine: found.line,
      startColumn: found.column,
      ...(found.endLine === found.line && { endColumn: found.endColumn }),
    },
  };
}

/** The result's own properties: its grade, target and path, whether it counts, and what explains it. */
function resultProperties(item: ReportItem, report: AnyReport, found: ChangeLocation | undefined) {
  const grade = isChange(item)
    ? {
        severity: item.severity,
        ...(item.direction && { direction: item.direction }),
        ...(isSecurity(item) && { group: "security" }),
      }
    : { level: item.level, ...lintGroupOf(item.rule) };
  return {
    ...grade,
    target: item.target,
    path: item.path,
    failing: isCounted(item, report.failOn),
    ...(item.exempt && { exempt: item.exempt }),
    ...(isChange(item) && item.witness !== undefined && { witness: item.witness }),
    ...(!isChange(item) && item.evidence !== undefined && { evidence: item.evidence }),
    ...(found && { lockfilePointer: found.pointer }),
  };
}

/**
 * One result: at the lockfile line when located, always with a logical location, a stable
 * fingerprint, and an accepted suppression (with the reason) for what the policy ignores.
 */
function sarifResult(item: ReportItem, report: AnyReport, ruleIndex: number | undefined, found?: ChangeLocation) {
  return {
    ruleId: item.rule,
    ...(ruleIndex !== undefined && { ruleIndex }),
    level: resultLevel(item, report),
    message: { text: resultMessage(item) },
    locations: [
      {
        ...(found && { physicalLocation: physicalLocation(found) }),
        logicalLocations: [logicalLocation(item)],
      },
    ],
    partialFingerprints: { [report.command === "lint" ? LINT_FINGERPRINT_KEY : FINGERPRINT_KEY]: item.fingerprint },
    ...(item.exempt?.kind === "ignored" && {
      suppressions: [{ kind: "external", status: "accepted", justification: item.exempt.reason }],
    }),
    properties: resultProperties(item, report, found),
  };
}

export function buildSarif(report: AnyReport, context: ReportContext = {}) {
  const locator = new ChangeLocator(context, report);
  const catalog: readonly { id: string }[] = report.command === "lint" ? LINT_RULES : DIFF_RULES;
  const ruleIndex = new Map(catalog.map((rule, i) => [rule.id, i]));
  const located = itemsOf(report).map((item) => ({ item, found: locator.locate(item) }));
  const results = located.map(({ item, found }) => sarifResult(item, report, ruleIndex.get(item.rule), found));
  const based = located.some(({ found }) => found?.uriBaseId !== undefined);
  const notices = report.notices;
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
            rules: report.command === "lint" ? LINT_RULES.map(lintRuleDescriptor) : DIFF_RULES.map(diffRuleDescriptor),
          },
        },
        invocations: [
          {
            executionSuccessful: true,
            ...(notices.length > 0 && {
              toolExecutionNotifications: notices.map((notice) => ({
                level: "warning",
                message: { text: escapeControls(sentence(notice)) },
              })),
            }),
          },
        ],
        ...(based && { originalUriBaseIds: { [SRCROOT]: { uri: directoryUri(locator.base) } } }),
        columnKind: "utf16CodeUnits",
        results,
        properties: { ...verdictFields(report), failing: report.failing, ...tallyFields(report), notices },
      },
    ],
  };
}

/** The log as JSON text, with control and bidi characters in any string as `\u` escapes (escapeJsonText). */
export function renderSarif(report: AnyReport, context: ReportContext = {}): string {
  return `${escapeJsonText(JSON.stringify(buildSarif(report, context), null, 2))}\n`;
}
