/**
 * Provider verification, decided without I/O: which recorded calls may be re-sent to the live
 * server (safety), and whether each live answer still gives the consumer what it read (the
 * judgement). The CLI (src/cli/replay-run.ts) sends the calls and hands the answers here.
 *
 * Safety follows the tool annotations of the CURRENT surface, with the spec's defaults:
 * `readOnlyHint` false and `destructiveHint` true when absent, the latter meaningful only for a
 * tool that is not read-only. resources/read and prompts/get are read-only by the spec.
 */
import { type Contract, isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import type { RecordedCall } from "../policy/calls.ts";
import { type ReplayFinding, shown } from "../report/replay-model.ts";
import { blockTypeDrift, shapeDrift, shapeOf, valueDrift } from "./shape.ts";

/** A recorded call as replay reads it: the recording, plus who recorded it and in which file. */
export interface ReplayCall extends RecordedCall {
  consumer: string;
  file: string;
}

/** The name a call reaches: a tool or prompt name, or a resource URI. */
export function callTarget(call: { method: string; params: JsonObject }): string {
  const value = call.method === "resources/read" ? call.params.uri : call.params.name;
  return typeof value === "string" ? value : "";
}

/** `calls.jsonl:12`. */
export function atOf(call: ReplayCall): string {
  return call.line === undefined ? call.file : `${call.file}:${call.line}`;
}

export interface SafetyOptions {
  /** --allow NAME,...: tools that are not read-only but may be called. */
  allow: ReadonlySet<string>;
  /** --allow-destructive: named destructive tools may be called too. */
  allowDestructive: boolean;
}

/**
 * Whether a call may be sent: `send` (with `pipelined`: it changes nothing, so it may run beside
 * others), `skip` with the reason, or `gone`: what it called is no longer there, a finding.
 */
export type Safety =
  | { decision: "send"; pipelined: boolean }
  | { decision: "skip"; reason: string }
  | { decision: "gone"; finding: ReplayFinding };

export function safetyOf(call: RecordedCall, surface: Contract, options: SafetyOptions): Safety {
  const name = callTarget(call);
  if (call.method === "resources/read") return { decision: "send", pipelined: true };
  if (call.method === "prompts/get") {
    if (surface.prompts.some((p) => p.name === name)) return { decision: "send", pipelined: true };
    return {
      decision: "gone",
      finding: {
        kind: "replay-target-gone",
        message: `the prompt ${name} is no longer on the server's surface, and the consumer gets it.`,
      },
    };
  }
  const tool = surface.tools.find((t) => t.name === name);
  if (!tool) {
    return {
      decision: "gone",
      finding: {
        kind: "replay-target-gone",
        message: `the tool ${name} is no longer on the server's surface, and the consumer calls it.`,
      },
    };
  }
  const annotations = isJsonObject(tool.annotations) ? tool.annotations : {};
  if (annotations.readOnlyHint === true) return { decision: "send", pipelined: true };
  // Not read-only: destructive unless it says destructiveHint: false (the spec's default is true).
  const destructive = annotations.destructiveHint !== false;
  const allowed = options.allow.has(name);
  if (!allowed) {
    return {
      decision: "skip",
      reason: `${name} is not marked readOnlyHint: true on the current surface${destructive ? " (and may be destructive)" : ""}; name it with --allow ${name} to call it${destructive ? " (with --allow-destructive)" : ""}.`,
    };
  }
  if (destructive && !options.allowDestructive) {
    return {
      decision: "skip",
      reason: `${name} may be destructive (destructiveHint is ${annotations.destructiveHint === true ? "true" : "absent, which means true"}); --allow names it, and --allow-destructive must be given too.`,
    };
  }
  // Allowed, but it may change state: never beside other calls, in recorded order.
  return { decision: "send", pipelined: false };
}

/** What the live server answered: a result, a JSON-RPC error, or no answer (timeout, connection failure). */
export type LiveAnswer =
  | { result: JsonObject }
  | { error: { code: number; message: string } }
  | { failed: "timeout" | "server"; message: string };

/** Checks a value against a schema: true, false, or undefined when undecidable. */
export type Validate = (schema: Json, value: Json) => boolean | undefined;

export interface JudgeOptions {
  /** --exact: values must equal the recorded ones too. */
  exact: boolean;
  validate: Validate;
}

/** Judge one live answer against the recorded one and the current surface; no findings: the call is kept. */
export function judgeAnswer(
  call: RecordedCall,
  live: LiveAnswer,
  surface: Contract,
  options: JudgeOptions,
): ReplayFinding[] {
  const name = callTarget(call);
  const what = call.method === "tools/call" ? `the call to ${name}` : `${call.method} ${name}`;
  if ("failed" in live) {
    return [{ kind: live.failed === "timeout" ? "replay-timeout" : "replay-server-failed", message: live.message }];
  }
  if (call.error !== undefined) {
    // It failed when recorded: the consumer handles a failure; an answer now is no break.
    return [];
  }
  if ("error" in live) {
    return [
      {
        kind: "replay-call-refused",
        before: "a result",
        after: `error ${live.error.code}`,
        message: `${what} succeeded when recorded and is now refused: error ${live.error.code}: ${truncate(live.error.message)}.`,
      },
    ];
  }
  const recorded = call.result;
  const result = live.result;
  const findings: ReplayFinding[] = [];
  if (call.method === "tools/call" && result.isError === true && recorded?.isError !== true) {
    findings.push({
      kind: "replay-call-failed",
      path: "/isError",
      before: "false",
      after: "true",
      message: `${what} succeeded when recorded and now answers isError: true${errorText(result)}.`,
    });
    // An error result has another shape by nature; the failure is the finding.
    return findings;
  }
  if (call.method === "tools/call" && result.structuredContent !== undefined) {
    const tool = surface.tools.find((t) => t.name === name);
    if (tool?.outputSchema !== undefined) {
      const valid = options.validate(tool.outputSchema as Json, result.structuredContent as Json);
      if (valid === false) {
        findings.push({
          kind: "replay-invalid-output",
          path: "/structuredContent",
          message: `${what} answered structuredContent that its current outputSchema does not accept (clients that validate it, as the official SDKs do, reject the answer).`,
        });
      }
    }
  }
  // Without a recorded answer (a hand-written {method, params}), only acceptance can be judged.
  if (recorded === undefined) return findings;
  for (const drift of blockTypeDrift(recorded, result)) {
    const [before, after] = [drift.before.join(""), drift.after.join("")];
    findings.push({
      kind: "replay-type-changed",
      path: drift.path,
      before,
      after,
      message: `${drift.path} was a ${before} block when recorded and is now a ${after} block.`,
    });
  }
  for (const drift of shapeDrift(shapeOf(recorded), shapeOf(result))) {
    const before = drift.before.join(" | ");
    if (drift.after.length === 0) {
      findings.push({
        kind: "replay-field-missing",
        path: drift.path,
        before,
        after: "(absent)",
        message: `${drift.path} (${before}) was in the answer the consumer recorded and is gone.`,
      });
    } else {
      const after = drift.after.join(" | ");
      findings.push({
        kind: "replay-type-changed",
        path: drift.path,
        before,
        after,
        message: `${drift.path} was ${before} when recorded and is now ${after}.`,
      });
    }
  }
  if (options.exact) {
    const reported = findings.flatMap((f) => (f.path === undefined ? [] : [f.path]));
    for (const diff of valueDrift(recorded, result)) {
      // A field already reported as missing or retyped is not reported again as a value.
      const asShape = asShapePath(diff.path);
      if (reported.some((p) => asShape === p || asShape.startsWith(`${p}/`))) continue;
      findings.push({
        kind: "replay-value-changed",
        path: diff.path,
        before: shown(diff.before),
        after: shown(diff.after),
        message: `${diff.path} was ${shown(diff.before)} when recorded and is now ${shown(diff.after)} (--exact).`,
      });
    }
  }
  return findings;
}

/** A positional path as shapeOf writes it: inside structuredContent, array indexes are `*`. */
function asShapePath(path: string): string {
  const segments = path.split("/");
  if (segments[1] !== "structuredContent") return path;
  return segments.map((s, i) => (i > 1 && /^\d+$/.test(s) ? "*" : s)).join("/");
}

function truncate(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** ": <the first text block>", when the error result has one. */
function errorText(result: JsonObject): string {
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content.find((block) => isJsonObject(block) && typeof block.text === "string");
  return isJsonObject(text) ? `: ${truncate(text.text as string)}` : "";
}
