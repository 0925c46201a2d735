/** The one format switch of the replay report (replay, can-i-deploy). Pure. */
import type { Format } from "../context.ts";
import type { ReplayReport } from "../replay-model.ts";
import { renderReplayGithub } from "./github.ts";
import { renderReplayJson } from "./json.ts";
import { renderReplayJunit } from "./junit.ts";
import { renderReplayMarkdown } from "./markdown.ts";
import { renderReplaySarif } from "./sarif.ts";
import { renderReplayText } from "./text.ts";

export function renderReplay(report: ReplayReport, format: Format, color: boolean): string {
  switch (format) {
    case "text":
      return renderReplayText(report, { color });
    case "json":
      return renderReplayJson(report);
    case "markdown":
      return renderReplayMarkdown(report);
    case "junit":
      return renderReplayJunit(report);
    case "sarif":
      return renderReplaySarif(report);
    case "github":
      return renderReplayGithub(report);
    case "changelog":
      // The CLI refuses it before anything runs (assertReplayFormats).
      return renderReplayMarkdown(report);
  }
}
