/**
 * The replay report as GitHub workflow commands: one ::error per broken call (and per counted
 * schema change reaching it), naming the consumer and the recording line, ::warning per skipped
 * call, and a closing ::notice with the verdict. A recording inside the repository (a relative
 * path, as the CLI gives them: relative to the repository root) is annotated at the call's line;
 * one outside it is named in the title only. Pure.
 */
import { workflowCommand } from "../github.ts";
import type { ReplayReport } from "../replay-model.ts";
import { callTitle, findingLine, schemaLines, verdictLine } from "./shared.ts";

/** file= and line= for a recording inside the repository: `contracts/consumers/app/calls.jsonl:3`. */
function locationOf(at: string): { file?: string; line?: number } {
  const colon = at.lastIndexOf(":");
  const line = colon > 0 ? Number(at.slice(colon + 1)) : Number.NaN;
  const file = Number.isInteger(line) ? at.slice(0, colon) : at;
  if (file.startsWith("/") || /^[A-Za-z]:[\\/]/.test(file) || file.startsWith("..")) return {};
  return { file: file.replace(/\\/g, "/"), ...(Number.isInteger(line) && { line }) };
}

export function renderReplayGithub(report: ReplayReport): string {
  const lines: string[] = [];
  for (const section of report.sections) {
    for (const call of section.calls) {
      const title = `${section.consumer}: ${callTitle(call)}`;
      const where = { ...locationOf(call.at), title };
      for (const finding of call.findings) lines.push(workflowCommand("error", where, findingLine(finding)));
      for (const line of schemaLines(call)) lines.push(workflowCommand("error", where, `schema: ${line}`));
      if (call.status === "skipped") lines.push(workflowCommand("warning", where, `skipped: ${call.reason ?? ""}`));
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
