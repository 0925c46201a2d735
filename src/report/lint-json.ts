/** The machine lint report: a documented, stable shape (docs/lint-report.schema.json). */
import { VERSION } from "../version.ts";
import type { LintReport } from "./lint-model.ts";
import { lintGroupOf } from "./lint-shared.ts";

/** Bump when the JSON lint report's shape changes incompatibly (docs/lint-report.schema.json). */
export const LINT_REPORT_VERSION = 1;

export function renderLintJson(report: LintReport): string {
  const document = {
    reportVersion: LINT_REPORT_VERSION,
    tool: { name: "mcp-contract", version: VERSION },
    command: report.command,
    subject: report.subject,
    failOn: report.failOn,
    result: report.result,
    summary: report.summary,
    toolList: report.toolList,
    findings: report.findings.map((f) => ({
      rule: f.rule,
      level: f.level,
      ...lintGroupOf(f.rule),
      target: f.target,
      path: f.path,
      message: f.message,
      ...(f.evidence !== undefined ? { evidence: f.evidence } : {}),
      fingerprint: f.fingerprint,
      ...(f.exempt ? { exempt: { kind: f.exempt.kind, reason: f.exempt.reason } } : {}),
    })),
    notices: report.notices,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
