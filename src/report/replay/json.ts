/** The replay report as JSON: the model as it is, with its version. Pure. */
import { REPLAY_REPORT_VERSION, type ReplayReport } from "../replay-model.ts";

export function renderReplayJson(report: ReplayReport): string {
  return `${JSON.stringify({ reportVersion: REPLAY_REPORT_VERSION, ...report }, null, 2)}\n`;
}
