/**
 * Re-sending recorded calls to a live session and judging each answer (src/replay/judge.ts).
 *
 * - Calls the judge deems read-only are pipelined (up to `concurrency` in flight; the session
 *   matches answers by id), so a thousand calls cost about what the server needs to answer them.
 *   A call that may change state (named by --allow) waits for those in flight, runs alone, and
 *   the next ones wait for it: recorded order is kept wherever it can matter.
 * - Every call has its own timeout; the whole replay has a budget, after which the calls not yet
 *   sent are failures (not silently dropped). A call that hangs fails alone; the others go on.
 * - --setup calls run first, one at a time, under the same safety rules; their answers are not
 *   judged, but one that fails is reported (what it was to prepare is not there).
 */

import { isSecretParameter } from "../connect/target.ts";
import type { Contract, JsonObject } from "../contract/model.ts";
import { PER_MESSAGE_META_KEYS } from "../contract/noise.ts";
import {
  atOf,
  callTarget,
  judgeAnswer,
  type LiveAnswer,
  type ReplayCall,
  type SafetyOptions,
  safetyOf,
  type Validate,
} from "../replay/judge.ts";
import type { CallOutcome, ReplayFinding } from "../report/replay-model.ts";

/** Sends one request on the live session; rejects with the session's error. */
export type Send = (method: string, params: JsonObject) => Promise<JsonObject>;

export interface RunOptions extends SafetyOptions {
  exact: boolean;
  callTimeoutMs: number;
  budgetMs: number;
  /** Read-only calls in flight at once. */
  concurrency: number;
  validate: Validate;
  /** Turns a rejection of `send` into an answer: a JSON-RPC error, or a failure of the connection. */
  classify: (error: unknown) => LiveAnswer;
  /** Milliseconds since some origin (performance.now), for the budget and timings. */
  now?: () => number;
}

/** What is planned for each call before anything is sent (also what --dry-run prints). */
export interface Planned {
  call: ReplayCall;
  setup: boolean;
  outcome?: CallOutcome;
  pipelined: boolean;
}

/** Decide for every call whether it is sent; those that are not get their outcome now. */
export function planCalls(
  setup: readonly ReplayCall[],
  calls: readonly ReplayCall[],
  surface: Contract,
  options: SafetyOptions,
): Planned[] {
  const plan = (call: ReplayCall, isSetup: boolean): Planned => {
    const base = {
      at: atOf(call),
      method: call.method,
      target: callTarget(call),
      ...(isSetup && { setup: true as const }),
    };
    const safety = safetyOf(call, surface, options);
    if (safety.decision === "skip") {
      return {
        call,
        setup: isSetup,
        pipelined: false,
        outcome: { ...base, status: "skipped", reason: safety.reason, findings: [] },
      };
    }
    if (safety.decision === "gone") {
      return {
        call,
        setup: isSetup,
        pipelined: false,
        outcome: { ...base, status: "broken", findings: [safety.finding] },
      };
    }
    return { call, setup: isSetup, pipelined: !isSetup && safety.pipelined };
  };
  return [...setup.map((c) => plan(c, true)), ...calls.map((c) => plan(c, false))];
}

/** --dry-run: what would be sent, without sending it. */
export function dryRun(planned: readonly Planned[]): CallOutcome[] {
  return planned.map(
    ({ call, setup, outcome, pipelined }) =>
      outcome ?? {
        at: atOf(call),
        method: call.method,
        target: callTarget(call),
        ...(setup && { setup: true as const }),
        status: "planned",
        reason: `would send ${call.method} ${JSON.stringify(shownParams(replayParams(call.params)))}${pipelined ? "" : " (alone, in order)"}`,
        findings: [],
      },
  );
}

/** The params as a report shows them: arguments named like credentials (api_key, token) as ***, as everywhere in output. */
function shownParams(params: JsonObject): JsonObject {
  const args = params.arguments;
  if (args === null || typeof args !== "object" || Array.isArray(args)) return params;
  const masked = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, isSecretParameter(k) ? "***" : v]));
  return { ...params, arguments: masked as JsonObject };
}

/** The params as recorded, without the envelope of the recorded message (the session adds its own). */
export function replayParams(params: JsonObject): JsonObject {
  const meta = params._meta;
  if (meta === null || typeof meta !== "object" || Array.isArray(meta)) return params;
  const kept = Object.entries(meta).filter(([key]) => !PER_MESSAGE_META_KEYS.has(key));
  const { _meta: _, ...rest } = params;
  return kept.length > 0 ? { ...rest, _meta: Object.fromEntries(kept) as JsonObject } : rest;
}

/** Send the planned calls and judge every answer; outcomes in the planned order. */
export async function runCalls(
  planned: readonly Planned[],
  surface: Contract,
  send: Send,
  options: RunOptions,
): Promise<CallOutcome[]> {
  const now = options.now ?? (() => performance.now());
  const budgetEnds = now() + options.budgetMs;
  const outcomes: (CallOutcome | undefined)[] = planned.map((p) => p.outcome);
  const inFlight = new Set<Promise<void>>();

  const one = async (index: number): Promise<void> => {
    const { call, setup } = planned[index] as Planned;
    const base = {
      at: atOf(call),
      method: call.method,
      target: callTarget(call),
      ...(setup && { setup: true as const }),
    };
    const left = budgetEnds - now();
    if (left <= 0) {
      outcomes[index] = {
        ...base,
        status: "broken",
        findings: [
          {
            kind: "replay-timeout",
            message: `not sent: the replay's budget (--budget, ${seconds(options.budgetMs)}) ran out first.`,
          },
        ],
      };
      return;
    }
    const started = now();
    const limit = Math.min(options.callTimeoutMs, left);
    const answer = await answerWithin(send(call.method, replayParams(call.params)), limit, options.classify, () =>
      limit < options.callTimeoutMs
        ? `no answer before the replay's budget (--budget, ${seconds(options.budgetMs)}) ran out.`
        : `no answer within ${seconds(limit)} (--call-timeout); the other calls were judged without it.`,
    );
    const ms = Math.round(now() - started);
    let findings: ReplayFinding[];
    if (setup) {
      // A setup call's answer is not judged, only that it was accepted.
      findings =
        "result" in answer
          ? answer.result.isError === true
            ? [{ kind: "replay-call-failed", message: "the setup call answered isError: true." }]
            : []
          : judgeAnswer({ ...call, result: undefined, error: undefined }, answer, surface, {
              exact: false,
              validate: options.validate,
            });
    } else {
      findings = judgeAnswer(call, answer, surface, { exact: options.exact, validate: options.validate });
    }
    outcomes[index] = { ...base, status: findings.length > 0 ? "broken" : "kept", findings, ms };
  };

  for (let index = 0; index < planned.length; index++) {
    const item = planned[index] as Planned;
    if (item.outcome) continue;
    if (!item.pipelined) {
      // Alone and in order: after everything before it, before everything after it.
      await Promise.all(inFlight);
      await one(index);
      continue;
    }
    while (inFlight.size >= options.concurrency) await Promise.race(inFlight);
    const running: Promise<void> = one(index).finally(() => inFlight.delete(running));
    inFlight.add(running);
  }
  await Promise.all(inFlight);
  return outcomes as CallOutcome[];
}

/** The answer, or a timeout once `ms` have passed (the request stays with the session; its answer is ignored). */
async function answerWithin(
  request: Promise<JsonObject>,
  ms: number,
  classify: (error: unknown) => LiveAnswer,
  timeoutMessage: () => string,
): Promise<LiveAnswer> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<LiveAnswer>((resolve) => {
    timer = setTimeout(() => resolve({ failed: "timeout", message: timeoutMessage() }), ms);
  });
  try {
    return await Promise.race([
      request.then(
        (result): LiveAnswer => ({ result }),
        (error: unknown) => classify(error),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
