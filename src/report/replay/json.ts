/**
 * The replay report as JSON, in the shape docs/replay-report.schema.json documents: the model as
 * it is, with its version and the tool, and each can-i-deploy consumer's schema judgement as the
 * check JSON report (docs/report.schema.json). Pure.
 */
import { VERSION } from "../../version.ts";
import { renderJson } from "../json.ts";
import { REPLAY_REPORT_VERSION, type ReplayReport } from "../replay-model.ts";
import { escapeJsonText } from "../shared.ts";

export function renderReplayJson(report: ReplayReport): string {
  const sections = report.sections.map((section) =>
    section.schema ? { ...section, schema: JSON.parse(renderJson(section.schema)) as unknown } : section,
  );
  const json = {
    reportVersion: REPLAY_REPORT_VERSION,
    tool: { name: "mcp-contract", version: VERSION },
    ...report,
    sections,
  };
  // Recorded and live answers are server text: control and bidi characters as `\u` escapes.
  return `${escapeJsonText(JSON.stringify(json, null, 2))}\n`;
}
