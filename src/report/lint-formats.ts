/**
 * The lint report in each output format: the one entry point `mcp-contract lint` calls.
 * Pure (colour for text is decided by the caller).
 */
import type { Contract } from "../contract/model.ts";
import type { Format, ReportFile } from "./context.ts";
import { renderLintGithub } from "./lint-github.ts";
import { renderLintJson } from "./lint-json.ts";
import { renderLintJunit } from "./lint-junit.ts";
import { renderLintMarkdown } from "./lint-markdown.ts";
import type { LintReport } from "./lint-model.ts";
import { renderLintSarif } from "./lint-sarif.ts";
import { renderLintText } from "./lint-text.ts";

/**
 * What some formatters need beside the report. Everything is optional: a formatter renders
 * what it can without it.
 */
export interface LintReportContext {
  /** The linted lockfile (`lint --from FILE`), to point at lines (sarif, github); absent for a live server. */
  lockfile?: ReportFile;
  /** The linted surface, to list every item (junit); parsed from `lockfile.text` when absent. */
  contract?: Contract;
  /** The directory report paths are relative to (default: the process's working directory). */
  cwd?: string;
}

export function renderLintReport(
  report: LintReport,
  format: Format,
  context: LintReportContext,
  color: boolean,
): string {
  switch (format) {
    case "text":
      return renderLintText(report, { color });
    case "json":
      return renderLintJson(report);
    case "sarif":
      return renderLintSarif(report, context);
    case "markdown":
      return renderLintMarkdown(report);
    case "junit":
      return renderLintJunit(report, context);
    case "github":
      return renderLintGithub(report, context);
  }
}

export { renderLintMarkdown };
