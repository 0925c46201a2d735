/**
 * The replay report model (`replay`, `can-i-deploy`): per consumer, each recorded call with what
 * became of it (kept, broken, skipped) and the findings that broke it; for can-i-deploy also the
 * schema judgement of `check --calls` for that consumer. The judge (src/replay/) fills it; the
 * formatters in src/report/replay/ only render it. Pure types and functions.
 */
import type { Json } from "../contract/model.ts";
import { isCounted, type Report } from "./model.ts";

/** Bump when the JSON replay report's shape changes incompatibly. */
export const REPLAY_REPORT_VERSION = 1;

/**
 * What can break a consumer's call on replay. Each is a failure; they are not rules of the diff
 * and lint registry, because they judge an answer, not a surface.
 */
export const REPLAY_FINDINGS = {
  "replay-target-gone": "the tool or prompt the consumer called is no longer on the server's surface",
  "replay-call-refused": "a call that succeeded when recorded is now refused with a JSON-RPC error",
  "replay-call-failed": "a tool call that succeeded when recorded now answers isError: true",
  "replay-timeout": "the server did not answer the call within the per-call timeout or the replay's budget",
  "replay-server-failed": "the connection to the server failed during the call",
  "replay-invalid-output": "structuredContent is not valid against the tool's current outputSchema",
  "replay-field-missing": "a field the consumer received is no longer in the answer",
  "replay-type-changed": "a field the consumer received now has a JSON type it never saw there",
  "replay-value-changed": "with --exact: a value differs from the recorded one",
} as const;
export type ReplayFindingKind = keyof typeof REPLAY_FINDINGS;

export interface ReplayFinding {
  kind: ReplayFindingKind;
  /** JSON Pointer into the answer (e.g. /structuredContent/days/*\/highC), when the finding is about a field. */
  path?: string;
  /** What the consumer saw: types ("number") or, with --exact, the value; absent for a call-level finding. */
  before?: string;
  after?: string;
  message: string;
}

/** kept: every check passed; broken: a finding; skipped: not sent, with the reason; planned: --dry-run. */
export type CallStatus = "kept" | "broken" | "skipped" | "planned";

export interface CallOutcome {
  /** `calls.jsonl:12`: the file and line the call was recorded on. */
  at: string;
  method: string;
  /** The tool or prompt name, or the resource URI. */
  target: string;
  /** Run first (--setup), its answer not judged. */
  setup?: true;
  status: CallStatus;
  /** Why a call was skipped, or what a dry run would send. */
  reason?: string;
  findings: ReplayFinding[];
  /** How long the answer took, in milliseconds (not for skipped or planned calls). */
  ms?: number;
  /** can-i-deploy: the counted schema changes (`check --calls`) that reach this call. */
  schema?: SchemaHit[];
}

/** A schema change that reaches a recorded call, as the call's test case shows it. */
export interface SchemaHit {
  rule: string;
  severity: string;
  path: string;
  message: string;
}

export interface ConsumerSection {
  /** The consumer's name (its manifest's, else the recording files'). */
  consumer: string;
  /** Its environments (can-i-deploy). */
  environments?: string[];
  /** Where its recordings came from. */
  files: string[];
  calls: CallOutcome[];
  /** can-i-deploy: the schema judgement of `check --calls` with this consumer's recordings. */
  schema?: Report;
  summary: { kept: number; broken: number; skipped: number; planned: number; schemaFailing: number };
  result: "pass" | "fail";
}

export interface ReplayReport {
  command: "replay" | "can-i-deploy";
  /** The live server's description, or the --against lockfile. */
  target: string;
  /** can-i-deploy --to ENV. */
  environment?: string;
  /** The server was not called (--dry-run, or can-i-deploy --against). */
  offline: boolean;
  exact: boolean;
  sections: ConsumerSection[];
  notices: string[];
  summary: { consumers: number; failing: number; kept: number; broken: number; skipped: number };
  result: "pass" | "fail";
}

export function buildSection(
  consumer: string,
  files: string[],
  calls: CallOutcome[],
  schema?: Report,
  environments?: string[],
): ConsumerSection {
  // A call a counted schema change reaches is broken whatever its replay said (can-i-deploy).
  const hit = (c: CallOutcome) => (c.schema?.length ?? 0) > 0;
  const count = (status: CallStatus) => calls.filter((c) => c.status === status && !c.setup && !hit(c)).length;
  const schemaFailing = schema ? schema.changes.filter((c) => isCounted(c, schema.failOn)).length : 0;
  // A setup call that broke also fails the run: what it was to prepare is not there.
  const broken = calls.filter((c) => c.status === "broken" || hit(c)).length;
  const summary = { kept: count("kept"), broken, skipped: count("skipped"), planned: count("planned"), schemaFailing };
  const failing = broken > 0 || (schema !== undefined && schema.result === "fail");
  return {
    consumer,
    ...(environments && { environments }),
    files,
    calls,
    ...(schema && { schema }),
    summary,
    result: failing ? "fail" : "pass",
  };
}

export function buildReplayReport(
  command: ReplayReport["command"],
  target: string,
  sections: ConsumerSection[],
  options: { offline: boolean; exact: boolean; environment?: string; notices?: string[] },
): ReplayReport {
  const sum = (key: "kept" | "broken" | "skipped") => sections.reduce((n, s) => n + s.summary[key], 0);
  const failing = sections.filter((s) => s.result === "fail").length;
  return {
    command,
    target,
    ...(options.environment !== undefined && { environment: options.environment }),
    offline: options.offline,
    exact: options.exact,
    sections,
    notices: options.notices ?? [],
    summary: { consumers: sections.length, failing, kept: sum("kept"), broken: sum("broken"), skipped: sum("skipped") },
    result: failing > 0 ? "fail" : "pass",
  };
}

/** A value as a finding shows it: JSON, cut to a readable length. */
export function shown(value: Json | undefined): string {
  if (value === undefined) return "(absent)";
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
