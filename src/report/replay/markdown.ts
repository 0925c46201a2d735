/** The replay report as Markdown (pull-request comments, the GitHub job summary). Pure. */
import { escapeMarkdown, renderMarkdown } from "../markdown.ts";
import type { ReplayReport } from "../replay-model.ts";
import { callTitle, findingLine, schemaLines, sectionLine, verdictLine } from "./shared.ts";

export function renderReplayMarkdown(report: ReplayReport): string {
  const out: string[] = [];
  const title =
    report.command === "can-i-deploy"
      ? `## can-i-deploy to ${escapeMarkdown(report.environment ?? "")}: ${report.result === "fail" ? "no" : "yes"}`
      : `## Replay: ${report.result === "fail" ? "a consumer would break" : "every consumer kept"}`;
  out.push(title, "", `Against ${escapeMarkdown(report.target)}${report.offline ? " (nothing was sent)" : ""}.`, "");
  for (const section of report.sections) {
    out.push(`### ${escapeMarkdown(sectionLine(section))}`, "");
    if (section.calls.length > 0) {
      out.push("| | Call | Outcome |", "|---|---|---|");
      for (const call of section.calls) {
        const bad = call.status === "broken" || (call.schema?.length ?? 0) > 0;
        const mark = bad ? "❌" : call.status === "kept" ? "✅" : call.status === "skipped" ? "⏭️" : "·";
        const detail = [
          ...(call.reason ? [call.reason] : []),
          ...call.findings.map(findingLine),
          ...schemaLines(call).map((l) => `schema: ${l}`),
        ];
        out.push(
          `| ${mark} | ${escapeMarkdown(callTitle(call))} | ${escapeMarkdown(detail.join("\n") || call.status)} |`,
        );
      }
      out.push("");
    }
    if (section.schema) {
      out.push("<details><summary>Schema judgement (check --calls)</summary>", "");
      out.push(renderMarkdown(section.schema).replace(/^(#+) /gm, "$1## "), "</details>", "");
    }
  }
  for (const notice of report.notices) out.push(`> ${escapeMarkdown(notice)}`, "");
  out.push(`**${escapeMarkdown(verdictLine(report))}**`);
  return `${out.join("\n")}\n`;
}
