/**
 * The Markdown lint report, ready for a pull-request comment or a GitHub job summary: the
 * verdict as a heading, a summary table per level, the tool-list estimate, then one
 * collapsible section per level with a row per finding. Everything that comes from a server
 * is escaped (markdown.ts), and invisible characters in names are spelled out, so that a
 * poisoned name cannot hide in the table. Pure.
 */
import { LINT_LEVELS, type LintLevel } from "../lint/model.ts";
import { visible } from "../lint/text-scan.ts";
import type { LintReport, ReportFinding } from "./lint-model.ts";
import { isFailingFinding, toolListLine } from "./lint-shared.ts";
import { codeSpan, describeSide, escapeMarkdown, target } from "./markdown.ts";
import { pointerToDisplay } from "./paths.ts";
import { exemptionLabel, INFORMATION_URI, plural, ruleHelpUri } from "./shared.ts";

export interface LintMarkdownOptions {
  /**
   * At most this many findings are listed per level (the counts stay complete), so that the
   * report fits a pull-request comment (GitHub allows 65,536 characters). Default 100.
   */
  maxFindingsPerLevel?: number;
}

const TITLES: Record<LintLevel, { label: string; icon: string }> = {
  error: { label: "Errors", icon: "🔴" },
  warning: { label: "Warnings", icon: "🟡" },
  info: { label: "Info", icon: "⚪" },
};

function heading(report: LintReport): string {
  if (report.result === "fail") {
    return report.failing === 0
      ? "## ❌ mcp-contract lint: failed (see the notices)"
      : `## ❌ mcp-contract lint: ${plural(report.failing, "finding")} at or above ${report.failOn}`;
  }
  if (report.findings.length === 0) return "## ✅ mcp-contract lint: no findings";
  if (report.failOn === "never") return "## ✅ mcp-contract lint: reporting only";
  return `## ✅ mcp-contract lint: nothing at or above ${report.failOn}`;
}

function verdict(report: LintReport): string {
  if (report.failOn === "never") return "Reporting only (`--fail-on never`).";
  if (report.result === "fail" && report.failing === 0) return "**FAIL**: see the notices above.";
  return report.result === "fail"
    ? `**FAIL**: ${plural(report.failing, "finding")} at or above **${report.failOn}** (\`--fail-on ${report.failOn}\`).`
    : `**PASS**: nothing at or above **${report.failOn}** (\`--fail-on ${report.failOn}\`).`;
}

function status(finding: ReportFinding, report: LintReport): string {
  if (finding.exempt) return finding.exempt.kind === "ignored" ? "⏭️ ignored" : "⏭️ out of scope";
  return isFailingFinding(finding, report) ? "❌ fails" : "";
}

function findingCell(finding: ReportFinding): string {
  const parts = [escapeMarkdown(finding.message)];
  if (finding.exempt) parts.push(`*${escapeMarkdown(exemptionLabel(finding.exempt))}*`);
  return parts.join("<br>");
}

function section(report: LintReport, level: LintLevel, all: ReportFinding[], max: number): string[] {
  const { label, icon } = TITLES[level];
  const failing = (f: ReportFinding) => isFailingFinding(f, report);
  // Failing findings first when the list is cut, so that none of them is hidden.
  const findings = all.length <= max ? all : [...all.filter(failing), ...all.filter((f) => !failing(f))].slice(0, max);
  const open = findings.some(failing) ? " open" : "";
  const out = [
    `<details${open}>`,
    `<summary>${icon} <strong>${label} (${all.length})</strong></summary>`,
    "",
    "| status | rule | target | location | finding |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const finding of findings) {
    const where = finding.path === "" ? "" : codeSpan(visible(pointerToDisplay(finding.path)));
    const rule = `[${codeSpan(finding.rule)}](${ruleHelpUri(finding.rule)})`;
    const item = target({ target: { kind: finding.target.kind, name: visible(finding.target.name) } });
    out.push(`| ${status(finding, report)} | ${rule} | ${item} | ${where} | ${findingCell(finding)} |`);
  }
  if (all.length > findings.length) {
    out.push(
      "",
      `…and ${plural(all.length - findings.length, `more ${level} finding`)}, not listed here: see the text or JSON report for all of them.`,
    );
  }
  out.push("", "</details>", "");
  return out;
}

export function renderLintMarkdown(report: LintReport, options: LintMarkdownOptions = {}): string {
  const max = Math.max(1, options.maxFindingsPerLevel ?? 100);
  const out: string[] = [heading(report), "", describeSide(report.subject), ""];
  for (const notice of report.notices) out.push(`> ⚠️ ${escapeMarkdown(notice)}`);
  if (report.notices.length > 0) out.push("");
  const estimate = `${escapeMarkdown(toolListLine(report.toolList))}.`;
  if (report.findings.length === 0) {
    out.push(report.result === "fail" ? `${verdict(report)} No findings.` : "No findings.", "", estimate, "");
    return `${out.join("\n")}\n`;
  }
  out.push(verdict(report), "");
  out.push("| level | findings | failing | exempt |", "| --- | ---: | ---: | ---: |");
  for (const level of LINT_LEVELS) {
    const findings = report.findings.filter((f) => f.level === level);
    const failing = findings.filter((f) => isFailingFinding(f, report)).length;
    const exempt = findings.filter((f) => f.exempt).length;
    out.push(`| ${TITLES[level].icon} ${level} | ${findings.length} | ${failing} | ${exempt} |`);
  }
  const exemptTotal = report.findings.filter((f) => f.exempt).length;
  out.push(`| **total** | **${report.summary.total}** | **${report.failing}** | **${exemptTotal}** |`, "");
  if (exemptTotal > 0) {
    out.push("Exempt findings (ignored by the policy) are listed but do not count toward the verdict.", "");
  }
  out.push(estimate, "");
  for (const level of LINT_LEVELS) {
    const findings = report.findings.filter((f) => f.level === level);
    if (findings.length > 0) out.push(...section(report, level, findings, max));
  }
  out.push(
    `<sub>Generated by [mcp-contract](${INFORMATION_URI}). Rule reference: [docs/rules.md](${INFORMATION_URI}/blob/main/docs/rules.md).</sub>`,
  );
  return `${out.join("\n")}\n`;
}
