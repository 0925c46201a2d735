/**
 * The replay report as GitHub workflow commands: one ::error per broken call (and per counted
 * schema change reaching it), naming the consumer and the recording line, ::warning per skipped
 * call, and a closing ::notice with the verdict. Recordings are not annotated by line: they are
 * not the file a provider's pull request changes. Pure.
 */
import { workflowCommand } from "../github.ts";
import type { ReplayReport } from "../replay-model.ts";
import { callTitle, findingLine, schemaLines, verdictLine } from "./shared.ts";

export function renderReplayGithub(report: ReplayReport): string {
  const lines: string[] = [];
  for (const section of report.sections) {
    for (const call of section.calls) {
      const title = `${section.consumer}: ${callTitle(call)}`;
      for (const finding of call.findings) lines.push(workflowCommand("error", { title }, findingLine(finding)));
      for (const line of schemaLines(call)) lines.push(workflowCommand("error", { title }, `schema: ${line}`));
      if (call.status === "skipped") lines.push(workflowCommand("warning", { title }, `skipped: ${call.reason ?? ""}`));
    }
    if (section.schema && section.schema.result === "fail" && !section.calls.some((c) => c.schema?.length)) {
      lines.push(
        workflowCommand(
          "error",
          { title: section.consumer },
          `schema: ${section.schema.failing} breaking change(s) the recorded calls depend on`,
        ),
      );
    }
  }
  lines.push(
    workflowCommand(report.result === "fail" ? "error" : "notice", { title: report.command }, verdictLine(report)),
  );
  return `${lines.join("\n")}\n`;
}
