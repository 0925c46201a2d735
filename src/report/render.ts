/**
 * The one format switch: any report (check, diff or lint) in any output format, as
 * `--format` names it. Pure (colour for text is decided by the caller, from where the text goes).
 */
import { renderChangelog } from "./changelog.ts";
import type { Format, ReportContext } from "./context.ts";
import { renderGithub } from "./github.ts";
import { renderJson } from "./json.ts";
import { renderJunit } from "./junit.ts";
import { renderMarkdown } from "./markdown.ts";
import type { AnyReport } from "./model.ts";
import { renderSarif } from "./sarif.ts";
import { renderText } from "./text.ts";

export function renderReport(report: AnyReport, format: Format, context: ReportContext, color: boolean): string {
  switch (format) {
    case "text":
      return renderText(report, { color });
    case "json":
      return renderJson(report);
    case "sarif":
      return renderSarif(report, context);
    case "markdown":
      return renderMarkdown(report);
    case "junit":
      return renderJunit(report, context);
    case "github":
      return renderGithub(report, context);
    case "changelog":
      return renderChangelog(report);
  }
}
