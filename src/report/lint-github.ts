/**
 * GitHub Actions workflow commands for lint: one annotation per finding, placed on the line
 * of the linted lockfile when there is one (`::error file=mcp.contract.json,line=12,col=5,
 * title=rule::message`), then the notices and a summary line. Pure.
 *
 * Findings that count toward the verdict are errors; other error- and warning-level findings
 * are warnings, info findings notices. Exempt findings never count: they say why in the
 * message. Escaping is github.ts's (@actions/core's).
 */

import { workflowCommand } from "./github.ts";
import type { LintReportContext } from "./lint-formats.ts";
import type { LintReport, ReportFinding } from "./lint-model.ts";
import {
  findingLocator,
  findingMessage,
  isFailingFinding,
  lintCountsLine,
  lintVerdictLine,
  toolListLine,
} from "./lint-shared.ts";
import { exemptionLabel } from "./shared.ts";

function commandFor(finding: ReportFinding, report: LintReport): "error" | "warning" | "notice" {
  if (isFailingFinding(finding, report)) return "error";
  return finding.level === "info" ? "notice" : "warning";
}

function message(finding: ReportFinding): string {
  const lines = [`${finding.level}: ${findingMessage(finding)}`];
  if (finding.exempt) lines.push(`does not count: ${exemptionLabel(finding.exempt)}`);
  return lines.join("\n");
}

export function renderLintGithub(report: LintReport, context: LintReportContext = {}): string {
  const locator = findingLocator(context);
  const out: string[] = [];
  for (const finding of report.findings) {
    const found = locator.locate(finding);
    out.push(
      workflowCommand(
        commandFor(finding, report),
        { file: found?.file, line: found?.line, col: found?.column, title: finding.rule },
        message(finding),
      ),
    );
  }
  for (const notice of report.notices) out.push(workflowCommand("warning", { title: "mcp-contract" }, notice));
  const summary =
    report.findings.length === 0
      ? `mcp-contract lint: no findings${report.result === "fail" ? ` · ${lintVerdictLine(report)}` : ""}`
      : `mcp-contract lint: ${lintVerdictLine(report)} · ${lintCountsLine(report)}`;
  out.push(`${summary} · ${toolListLine(report.toolList)}`);
  return `${out.join("\n")}\n`;
}
