/**
 * The host × outcome summary of a lint report run with --hosts: one line per host profile
 * ("gemini-parameters: 3 tools rejected, whole list fails"), the same in text and Markdown. Pure.
 */
import type { LintReport } from "./model.ts";

export function hostSummaryLines(report: LintReport): string[] {
  return (report.hosts ?? []).map((outcome) => outcome.line);
}
