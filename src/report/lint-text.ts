/** The human lint report: grouped by level, one line per finding, then counts, tool-list size and verdict. */
import { LINT_LEVELS, type LintLevel } from "../lint/model.ts";
import type { LintReport, ReportFinding } from "./lint-model.ts";
import { findingMessage, lintCountsLine, toolListLine } from "./lint-shared.ts";
import { exemptionLabel } from "./shared.ts";
import { describeSide, paint, pushNotices, type TextStyle, verdictText } from "./text.ts";

const HEADINGS: Record<LintLevel, { label: string; mark: string; color: string }> = {
  error: { label: "ERROR", mark: "✖", color: "31" },
  warning: { label: "WARNING", mark: "▲", color: "33" },
  info: { label: "INFO", mark: "·", color: "36" },
};

function renderFinding(finding: ReportFinding, style: TextStyle): string {
  const heading = HEADINGS[finding.level];
  const mark = paint(style, heading.color, heading.mark);
  const rule = paint(style, "2", `[${finding.rule}]`);
  // Exempt findings are listed, marked "(ignored: …)"; they do not count toward FAIL.
  const exempt = finding.exempt ? ` ${paint(style, "2", `(${exemptionLabel(finding.exempt)})`)}` : "";
  return `  ${mark} ${findingMessage(finding)} ${rule}${exempt}`;
}

export function renderLintText(report: LintReport, style: TextStyle): string {
  const out: string[] = [`${paint(style, "1", "mcp-contract lint")}  ${describeSide(report.subject)}`, ""];
  const estimate = paint(style, "2", toolListLine(report.toolList));
  if (report.findings.length === 0) {
    out.push(`${paint(style, "32", "✔")} no findings`, estimate);
    if (report.result === "fail") out.push(paint(style, "1;31", "✖ FAIL: see the notices below"));
    pushNotices(out, report, style);
    return `${out.join("\n")}\n`;
  }
  for (const level of LINT_LEVELS) {
    const findings = report.findings.filter((f) => f.level === level);
    if (findings.length === 0) continue;
    const heading = HEADINGS[level];
    out.push(paint(style, `1;${heading.color}`, `${heading.label} (${findings.length})`));
    for (const finding of findings) out.push(renderFinding(finding, style));
    out.push("");
  }
  const exempt = report.findings.filter((f) => f.exempt).length;
  out.push(`${lintCountsLine(report)}${exempt ? ` · ${exempt} exempt (not counted)` : ""}`);
  out.push(estimate);
  out.push(verdictText(report, "finding", style));
  pushNotices(out, report, style);
  return `${out.join("\n")}\n`;
}
