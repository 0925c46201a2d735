/** What every replay format says the same way: status words, call titles, verdict lines. Pure. */
import type { CallOutcome, ConsumerSection, ReplayFinding, ReplayReport } from "../replay-model.ts";

export function callTitle(call: CallOutcome): string {
  return `${call.setup ? "setup " : ""}${call.method} ${call.target} (${call.at})`;
}

export function findingLine(finding: ReplayFinding): string {
  return `${finding.kind}: ${finding.message}`;
}

/** Schema changes of can-i-deploy that reach a call, as lines. */
export function schemaLines(call: CallOutcome): string[] {
  return (call.schema ?? []).map(
    (hit) => `${hit.rule} (${hit.severity})${hit.path ? ` at ${hit.path}` : ""}: ${hit.message}`,
  );
}

/** Whether a call fails its consumer: a replay finding, or a counted schema change reaching it. */
export function callFails(call: CallOutcome): boolean {
  return call.status === "broken" || (call.schema?.length ?? 0) > 0;
}

export function sectionLine(section: ConsumerSection): string {
  const { kept, broken, skipped, planned, schemaFailing } = section.summary;
  const parts = [
    ...(kept || !planned ? [`${kept} kept`] : []),
    ...(broken ? [`${broken} broken`] : []),
    ...(skipped ? [`${skipped} skipped`] : []),
    ...(planned ? [`${planned} not replayed`] : []),
    ...(section.schema ? [`${schemaFailing} breaking schema change${schemaFailing === 1 ? "" : "s"}`] : []),
  ];
  return `${section.consumer}: ${section.result === "fail" ? "would break" : "ok"} (${parts.join(", ")})`;
}

export function verdictLine(report: ReplayReport): string {
  const where = report.environment !== undefined ? ` in ${report.environment}` : "";
  const { consumers, failing } = report.summary;
  if (consumers === 0) return `no consumer${where} to judge.`;
  if (report.command === "can-i-deploy") {
    return failing > 0
      ? `no: ${failing} of ${consumers} consumer${consumers === 1 ? "" : "s"}${where} would break.`
      : consumers === 1
        ? `yes: the one consumer${where} would not break.`
        : `yes: none of the ${consumers} consumers${where} would break.`;
  }
  if (report.offline) {
    const planned = report.sections.reduce((n, s) => n + s.summary.planned, 0);
    const gone =
      failing > 0 ? `; ${failing} consumer${failing === 1 ? " calls" : "s call"} what is no longer there` : "";
    return `dry run: ${planned} call${planned === 1 ? "" : "s"} would be sent, ${report.summary.skipped} skipped; no answer was judged${gone}.`;
  }
  return failing > 0
    ? `${failing} of ${consumers} consumer${consumers === 1 ? "" : "s"} would break.`
    : "every replayed call kept the shape its consumer saw.";
}
