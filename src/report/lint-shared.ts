/**
 * Small pieces the lint report formatters share: counts, the verdict, the tool-list
 * estimate, and where a finding is in the linted lockfile. The lint counterpart of
 * shared.ts (whose generic helpers the lint formatters import directly). Pure.
 */
import { findLintRule } from "../lint/catalog.ts";
import { LINT_LEVELS, type LintGroup, type LintLevel } from "../lint/model.ts";
import { show } from "../lint/rules-protocol.ts";
import type { LintReportContext } from "./lint-formats.ts";
import { findingCounts, isLintFailing, type LintReport, type ReportFinding, type ToolListSize } from "./lint-model.ts";
import { ChangeLocator } from "./locate.ts";
import { kindWord, plural } from "./shared.ts";

/** "12,431" — grouped by hand, so the output does not depend on the runtime's locale data. */
export function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** `{ group }` of a catalog rule, to spread into an object; empty for an id the catalog does not know. */
export function lintGroupOf(rule: string): { group?: LintGroup } {
  const group = findLintRule(rule)?.group;
  return group ? { group } : {};
}

/**
 * The finding's message, naming its item when the message does not already start with it:
 * the security rules say where in the item ("description: …"), not which item, and a text,
 * annotation or SARIF message must stand on its own. `tool "add": description: …`
 */
export function findingMessage(finding: ReportFinding): string {
  const { kind, name } = finding.target;
  if (kind === "server" || finding.message.startsWith(`${kindWord(kind)} `)) return finding.message;
  return `${kindWord(kind)} ${show(name)}: ${finding.message}`;
}

/** "2 errors", "1 warning", "3 info" (info is uncountable). */
export function levelCount(n: number, level: LintLevel): string {
  return level === "info" ? `${n} info` : plural(n, level);
}

/** "2 errors, 1 warning, 3 info" */
export function lintCountsLine(report: LintReport): string {
  return LINT_LEVELS.map((level) => levelCount(report.summary[level], level)).join(", ");
}

/** "tools/list ≈ 2,431 tokens for 14 tools (budget 10,000)" */
export function toolListLine(toolList: ToolListSize): string {
  const over = toolList.tokens > toolList.budget;
  return `tools/list ≈ ${thousands(toolList.tokens)} tokens for ${plural(toolList.tools, "tool")} (${over ? "over the budget of" : "budget"} ${thousands(toolList.budget)})`;
}

/** The verdict in one sentence, without a mark: "FAIL: 2 findings at or above error (--fail-on error)". */
export function lintVerdictLine(report: LintReport): string {
  if (report.failOn === "never") return "reporting only (--fail-on never)";
  if (report.result === "fail") {
    return report.failing === 0
      ? "FAIL: see the notices"
      : `FAIL: ${plural(report.failing, "finding")} at or above ${report.failOn} (--fail-on ${report.failOn})`;
  }
  return `PASS: nothing at or above ${report.failOn} (--fail-on ${report.failOn})`;
}

/** Counts toward the verdict: not exempt, and at or above the report's threshold. */
export function isFailingFinding(finding: ReportFinding, report: Pick<LintReport, "failOn">): boolean {
  return findingCounts(finding, report.failOn);
}

/** Exempt, but at or above the threshold: would fail without its exemption. */
export function isWaivedFinding(finding: ReportFinding, report: Pick<LintReport, "failOn">): boolean {
  return finding.exempt !== undefined && isLintFailing(finding.level, report.failOn);
}

/**
 * Locates findings in the linted lockfile. The lockfile is given to the ChangeLocator as its
 * only ("current") side: finding paths are valid in that very file, so they are followed as
 * they are (a baseline side would remap prompt argument indexes through a second surface).
 */
export function findingLocator(context: LintReportContext): ChangeLocator {
  return new ChangeLocator({
    ...(context.lockfile && { current: context.lockfile }),
    ...(context.cwd !== undefined && { cwd: context.cwd }),
  });
}
