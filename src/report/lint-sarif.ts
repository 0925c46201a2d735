/**
 * SARIF 2.1.0 for lint: one run, the whole lint catalog as the driver's rules, one result per
 * finding. Findings on a lockfile (`lint --from FILE`) are located at its lines; a live
 * server has no file, so its results carry logical locations only. Pure.
 *
 * Levels follow the finding's level (error → error, warning → warning, info → note). Exempt
 * findings stay in the log as notes, with the reason in the message and in properties.exempt;
 * ignored ones (policy file) also carry an accepted external suppression, as in sarif.ts.
 */
import { LINT_RULES } from "../lint/catalog.ts";
import type { LintLevel, LintRule } from "../lint/model.ts";
import type { LintReportContext } from "./lint-formats.ts";
import type { LintReport, ReportFinding } from "./lint-model.ts";
import { findingLocator, findingMessage, isFailingFinding, lintGroupOf } from "./lint-shared.ts";
import { codeBlock, escapeMarkdown } from "./markdown.ts";
import { capitalize, pascalCase, type SarifLevel, sarifLog, sarifResult, sentence } from "./sarif.ts";
import { exemptionLabel, ruleHelpUri } from "./shared.ts";

export const LINT_SARIF_LEVEL: Record<LintLevel, SarifLevel> = { error: "error", warning: "warning", info: "note" };

/** The key under which lint results carry our own stable id (ReportFinding.fingerprint). */
export const LINT_FINGERPRINT_KEY = "mcpContractLint/v1";

/**
 * Catalog prose as Markdown that renders as written: Markdown and HTML syntax escaped outside
 * `code spans` (the hidden-instructions rationale names `<IMPORTANT>`, which a viewer would
 * otherwise take for a tag and drop).
 */
function prose(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : escapeMarkdown(part)))
    .join("");
}

function sarifRule(rule: LintRule) {
  const summary = sentence(capitalize(rule.summary));
  const helpUri = ruleHelpUri(rule.id);
  return {
    id: rule.id,
    name: pascalCase(rule.id),
    shortDescription: { text: summary },
    fullDescription: { text: sentence(rule.rationale) },
    helpUri,
    help: {
      text: `${summary} Level: ${rule.level} (${rule.group}).\n\n${rule.rationale}\n\nExample: ${rule.example}\n\nMore: ${helpUri}`,
      markdown: [
        `**${prose(summary)}** Level: **${rule.level}** (${rule.group}).`,
        "",
        prose(rule.rationale),
        "",
        "Example:",
        "",
        codeBlock(rule.example),
        "",
        `[Rule reference](${helpUri})`,
      ].join("\n"),
    },
    defaultConfiguration: { level: LINT_SARIF_LEVEL[rule.level] },
    properties: { tags: ["mcp", "lint", rule.group], level: rule.level, group: rule.group },
  };
}

function resultMessage(finding: ReportFinding): string {
  const parts = [sentence(findingMessage(finding))];
  if (finding.exempt) parts.push(`Does not count toward the verdict (${exemptionLabel(finding.exempt)}).`);
  return parts.join(" ");
}

export function buildLintSarif(report: LintReport, context: LintReportContext = {}) {
  const locator = findingLocator(context);
  const ruleIndex = new Map(LINT_RULES.map((rule, i) => [rule.id, i]));
  const results = report.findings.map((finding) => {
    const found = locator.locate(finding);
    return sarifResult({
      item: finding,
      ruleIndex: ruleIndex.get(finding.rule),
      level: finding.exempt ? "note" : LINT_SARIF_LEVEL[finding.level],
      message: resultMessage(finding),
      found,
      fingerprintKey: LINT_FINGERPRINT_KEY,
      properties: {
        level: finding.level,
        ...lintGroupOf(finding.rule),
        target: finding.target,
        path: finding.path,
        failing: isFailingFinding(finding, report),
        ...(finding.exempt && { exempt: finding.exempt }),
        ...(finding.evidence !== undefined && { evidence: finding.evidence }),
        ...(found && { lockfilePointer: found.pointer }),
      },
    });
  });
  return sarifLog(LINT_RULES.map(sarifRule), results, report.notices, {
    command: report.command,
    subject: report.subject,
    failOn: report.failOn,
    result: report.result,
    failing: report.failing,
    summary: report.summary,
    toolList: report.toolList,
    notices: report.notices,
  });
}

export function renderLintSarif(report: LintReport, context: LintReportContext = {}): string {
  return `${JSON.stringify(buildLintSarif(report, context), null, 2)}\n`;
}
