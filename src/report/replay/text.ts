/** The replay report as text for a terminal or a log. Pure (colour decided by the caller). */

import type { ReplayReport } from "../replay-model.ts";
import { escapeControls } from "../shared.ts";
import { renderText } from "../text.ts";
import { callTitle, findingLine, schemaLines, sectionLine, verdictLine } from "./shared.ts";

export function renderReplayText(report: ReplayReport, { color }: { color: boolean }): string {
  const paint = (code: string, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const lines: string[] = [];
  const title =
    report.command === "can-i-deploy"
      ? `can-i-deploy to ${report.environment ?? "?"}: ${report.target}`
      : `replay against ${report.target}${report.offline ? " (dry run: nothing sent)" : ""}`;
  lines.push(escapeControls(title), "");
  for (const section of report.sections) {
    lines.push(paint("1", escapeControls(sectionLine(section))));
    if (section.environments) lines.push(`  environments: ${section.environments.join(", ")}`);
    lines.push(`  recordings: ${section.files.join(", ")}`);
    for (const call of section.calls) {
      const mark =
        call.status === "broken" || (call.schema?.length ?? 0) > 0
          ? paint("31", "✗")
          : call.status === "kept"
            ? paint("32", "✓")
            : call.status === "skipped"
              ? paint("33", "-")
              : "·";
      const ms = call.ms !== undefined ? ` ${call.ms} ms` : "";
      lines.push(`  ${mark} ${escapeControls(callTitle(call))}${ms}`);
      if (call.reason) lines.push(`      ${escapeControls(call.reason)}`);
      for (const finding of call.findings) lines.push(`      ${escapeControls(findingLine(finding))}`);
      for (const line of schemaLines(call)) lines.push(`      schema: ${escapeControls(line)}`);
    }
    if (section.schema) {
      lines.push("  schema judgement (check --calls):");
      for (const line of renderText(section.schema, { color }).trimEnd().split("\n")) lines.push(`    ${line}`);
    }
    lines.push("");
  }
  for (const notice of report.notices) lines.push(`note: ${escapeControls(notice)}`);
  lines.push(paint(report.result === "fail" ? "31" : "32", verdictLine(report)));
  return `${lines.join("\n")}\n`;
}
