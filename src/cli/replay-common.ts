/**
 * What `replay` and `can-i-deploy` share: reading recordings (files and directories), the replay
 * flags, sending the calls over a live session, and writing the replay report in every format.
 */
import { appendFileSync, readdirSync, realpathSync, statSync } from "node:fs";
import { basename, extname, isAbsolute, join, relative, resolve } from "node:path";
import { InvalidArgumentError, Option } from "@commander-js/extra-typings";
import { rpcCause, type Session } from "../connect/session.ts";
import type { Contract, Json } from "../contract/model.ts";
import { CliError, UsageError } from "../errors.ts";
import { parseCalls } from "../policy/calls.ts";
import type { LiveAnswer, ReplayCall } from "../replay/judge.ts";
import { FORMATS } from "../report/context.ts";
import { renderReplay } from "../report/replay/render.ts";
import type { CallOutcome, ReplayReport } from "../report/replay-model.ts";
import { mcpHeaderDeclarations } from "../schema/mcp-header.ts";
import { writeStdout } from "./globals.ts";
import { writeFileAtomic } from "./output-file.ts";
import { CALLS_MAX_BYTES, readUserFile } from "./read-user-file.ts";
import { dryRun, type Planned, planCalls, runCalls } from "./replay-run.ts";
import { type OutputPlan, repositoryRoot } from "./report-output.ts";
import { isTerminal, writeErr } from "./std-streams.ts";
import { type Ui, useColor } from "./ui.ts";

/** The recording files a --calls path names: the file, or a directory's *.jsonl and *.json files (recursively, sorted). */
export function recordingFiles(path: string, flag = "--calls"): string[] {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(path);
  } catch {
    throw new UsageError(
      `${flag} ${path}: no such file or directory. Record one with \`mcp-contract mock --contract mcp.contract.json --record ${path}\` (or \`mcp-contract record -o ${path} -- SERVER\`) while the consumer's tests run.`,
    );
  }
  if (!stats.isDirectory()) return [path];
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(jsonl|json)$/i.test(entry.name) && entry.name !== "consumer.json") files.push(full);
    }
  };
  walk(path);
  if (files.length === 0) {
    throw new UsageError(
      `${flag} ${path} is a directory without recordings (*.jsonl, *.json); give the files or a directory that holds them.`,
    );
  }
  return files;
}

const NAMED: Record<string, string> = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };

/** Read and check one recording: exit 2 with the file and line when it is cut short or hand-edited wrong. */
export function readRecording(file: string, consumer: string): ReplayCall[] {
  const text = readUserFile(file, {
    missing: `no recording at ${file}.`,
    aKind: "a recording",
    theKind: "the recording",
    maxBytes: CALLS_MAX_BYTES,
  });
  return parseCalls(text, file, { replay: true }).map((call) => {
    const key = NAMED[call.method] as string;
    const at = call.line === undefined ? file : `${file}:${call.line}`;
    if (typeof call.params[key] !== "string") {
      throw new UsageError(
        `${at}: a ${call.method} whose params have no string "${key}"; the recording was edited or cut. Record it again, or fix the line.`,
      );
    }
    if (call.result === undefined && call.error === undefined && call.line !== undefined) {
      throw new UsageError(
        `${at}: a ${call.method} with neither "result" nor "error"; the recording was cut before its answer. Record it again, or remove the line.`,
      );
    }
    return { ...call, consumer, file };
  });
}

/** A consumer's name from a --calls path: the directory's or file's name without its extension. */
export function consumerNameOf(path: string): string {
  const name = basename(path.replace(/[/\\]+$/, ""));
  return name.slice(0, name.length - extname(name).length) || name;
}

export interface ReplayFlagValues {
  allow?: string[];
  allowDestructive?: boolean;
  dryRun?: boolean;
  exact?: boolean;
  setup?: string[];
  callTimeout: number;
  budget: number;
  concurrency: number;
}

const collectList = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean),
];
const collect = (value: string, previous: string[] = []) => [...previous, value];

function positiveSeconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 2_000_000)
    throw new InvalidArgumentError("expected a positive number of seconds.");
  return n;
}

/** The flags of the replay itself (shared by replay and can-i-deploy). */
export function replayOptions(): Option[] {
  const group = "Replay:";
  return [
    new Option(
      "--allow <names>",
      "also call these tools, which are not marked readOnlyHint: true (comma-separated, repeatable)",
    )
      .argParser(collectList)
      .helpGroup(group),
    new Option("--allow-destructive", "let --allow name destructive tools (destructiveHint true, or absent)").helpGroup(
      group,
    ),
    new Option(
      "--setup <file>",
      "recorded calls to run first, in order, under the same rules; their answers are not judged (repeatable)",
    )
      .argParser(collect)
      .helpGroup(group),
    new Option("--dry-run", "print what would be sent and what is skipped; send no recorded call").helpGroup(group),
    new Option("--exact", "values must equal the recorded ones too, not only their shape").helpGroup(group),
    new Option("--call-timeout <seconds>", "fail a call the server has not answered after this long")
      .argParser(positiveSeconds)
      .default(10)
      .helpGroup(group),
    new Option("--budget <seconds>", "the most the whole replay may take; calls not sent by then fail")
      .argParser(positiveSeconds)
      .default(300)
      .helpGroup(group),
    new Option("--concurrency <n>", "read-only calls in flight at once")
      .argParser((value: string) => {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 1 || n > 256)
          throw new InvalidArgumentError("expected a whole number from 1 to 256.");
        return n;
      })
      .default(16)
      .helpGroup(group),
  ];
}

/** A live answer from a rejection of session.request: the server's JSON-RPC error, or the session's failure. */
export function classifyFailure(error: unknown): LiveAnswer {
  const rpc = rpcCause(error);
  if (rpc) return { error: { code: rpc.code, message: rpc.rpcMessage } };
  const message = error instanceof Error ? error.message : String(error);
  return { failed: /timed out|timeout|did not answer/i.test(message) ? "timeout" : "server", message };
}

/** One consumer's calls to replay. */
export interface ConsumerCalls {
  consumer: string;
  files: string[];
  calls: ReplayCall[];
  environments?: string[];
}

/** The plan for each consumer: the --setup calls once before everything (in the first plan), then its own. */
export function planAll(
  consumers: readonly ConsumerCalls[],
  setup: readonly ReplayCall[],
  surface: Contract,
  flags: ReplayFlagValues,
): Planned[][] {
  const safety = { allow: new Set(flags.allow ?? []), allowDestructive: Boolean(flags.allowDestructive) };
  return consumers.map((c, i) => planCalls(i === 0 ? setup : [], c.calls, surface, safety));
}

export { dryRun };

/** Send every consumer's planned calls over one session, consumers one after another. */
export async function replayAll(
  plans: readonly Planned[][],
  surface: Contract,
  session: Pick<Session, "request" | "extendDeadline" | "paramHeaders">,
  flags: ReplayFlagValues,
) {
  // --timeout bounded the capture; the replay is bounded by its own budget (and each call by its timeout).
  session.extendDeadline((flags.budget + flags.callTimeout) * 1000);
  // Arguments a tool mirrors into Mcp-Param-* headers (modern Streamable HTTP).
  for (const tool of surface.tools) {
    const declared = mcpHeaderDeclarations(tool.inputSchema as Json | undefined).flatMap((d) =>
      d.problem === undefined && typeof d.value === "string" && d.property?.length
        ? [{ header: d.value, property: d.property }]
        : [],
    );
    if (declared.length > 0) session.paramHeaders.set(tool.name, declared);
  }
  const send = (method: string, params: Record<string, Json>) => session.request(method, params);
  const { validatorFor } = await import("../schema/witness/validators.ts");
  const validate = (schema: Json, value: Json) => {
    try {
      return validatorFor(schema)?.(value);
    } catch {
      return undefined; // a schema no validator can compile: undecided, never a crash
    }
  };
  const outcomes = [];
  const started = performance.now();
  const budgetMs = flags.budget * 1000;
  for (const planned of plans) {
    outcomes.push(
      await runCalls(planned, surface, send, {
        allow: new Set(flags.allow ?? []),
        allowDestructive: Boolean(flags.allowDestructive),
        exact: Boolean(flags.exact),
        callTimeoutMs: flags.callTimeout * 1000,
        // One budget for the whole replay, every consumer included.
        budgetMs: Math.max(0, budgetMs - (performance.now() - started)),
        concurrency: flags.concurrency,
        validate,
        classify: classifyFailure,
      }),
    );
  }
  return outcomes;
}

/** The --setup recordings' calls, in order: run before every consumer's own. */
export function readSetup(paths: readonly string[] | undefined): ReplayCall[] {
  return (paths ?? []).flatMap((path) =>
    recordingFiles(path, "--setup").flatMap((file) => readRecording(file, "setup")),
  );
}

/**
 * Inside a capture's open session (captureTarget's work): the consumers' calls planned against the
 * surface just captured, then replayed over that session, or only listed with --dry-run. A note
 * on calls recorded in the other era goes to `notices`.
 */
export async function replayOnSession(
  session: Pick<Session, "request" | "extendDeadline" | "paramHeaders" | "era">,
  surface: Contract,
  consumers: readonly ConsumerCalls[],
  setup: readonly ReplayCall[],
  flags: ReplayFlagValues,
  ui: Ui,
  notices: string[],
): Promise<CallOutcome[][]> {
  const planned = planAll(consumers, setup, surface, flags);
  if (flags.dryRun) return planned.map(dryRun);
  const said = eraNotice(consumers, session.era);
  if (said) notices.push(said);
  const sent = planned.flat().filter((p) => !p.outcome).length;
  ui.progress(`replaying ${sent} recorded calls`);
  const started = performance.now();
  const outcomes = await replayAll(planned, surface, session, flags);
  ui.debug(`replayed ${sent} calls in ${Math.round(performance.now() - started)} ms`);
  return outcomes;
}

/** Calls recorded in another protocol era than the replay speaks: said, since the server may answer the eras differently. */
export function eraNotice(consumers: readonly ConsumerCalls[], era: string | undefined): string | undefined {
  if (era === undefined) return undefined;
  const other = consumers.flatMap((c) => c.calls).filter((call) => call.era !== undefined && call.era !== era);
  if (other.length === 0) return undefined;
  const eras = [...new Set(other.map((call) => call.era as string))];
  const fix = eras.length === 1 ? ` (--era ${eras[0]} replays them in theirs, if the server speaks it)` : "";
  return `${other.length} call${other.length === 1 ? " was" : "s were"} recorded in the ${eras.join(" and ")} era and replayed in the ${era} era${fix}.`;
}

/** The formats a replay report renders in (not changelog: a replay changes nothing to release). */
export function assertReplayFormats(plans: readonly OutputPlan[], command: string): void {
  for (const plan of plans) {
    if (plan.format === "changelog") {
      throw new UsageError(
        `${command} has no changelog report; choose from ${FORMATS.filter((f) => f !== "changelog").join(", ")}.`,
      );
    }
  }
}

/** Write the replay report in every planned format; a github report in Actions also fills the job summary. */
export async function writeReplayReports(
  report: ReplayReport,
  plans: readonly OutputPlan[],
  colorMode: "auto" | "always" | "never",
): Promise<void> {
  const located = plans.some((p) => p.format === "github" || p.format === "sarif") ? relativeToRoot(report) : report;
  for (const plan of plans) {
    const color = !plan.file && plan.format === "text" && useColor(colorMode, { isTTY: isTerminal(1) });
    const pointing = plan.format === "github" || plan.format === "sarif";
    const text = renderReplay(pointing ? located : report, plan.format, color);
    if (plan.file) writeFileAtomic(plan.file, text);
    else await writeStdout(text);
  }
  const summary = process.env.GITHUB_STEP_SUMMARY;
  if (summary && plans.some((p) => p.format === "github")) {
    try {
      appendFileSync(summary, `${renderReplay(report, "markdown", false)}\n`);
    } catch (error) {
      writeErr(
        `warning: cannot append the report to the job summary ${summary} (GITHUB_STEP_SUMMARY): ${(error as Error).message}\n`,
      );
    }
  }
}

/**
 * Recordings as annotations and SARIF point at them: relative to the repository root
 * (GITHUB_WORKSPACE, else git's top level), or absolute when outside it.
 */
function relativeToRoot(report: ReplayReport): ReplayReport {
  const root = repositoryRoot(process.cwd());
  if (root === undefined) return report;
  const at = (value: string) => {
    const colon = value.lastIndexOf(":");
    const hasLine = colon > 0 && /^\d+$/.test(value.slice(colon + 1));
    const file = hasLine ? value.slice(0, colon) : value;
    let full = resolve(file);
    try {
      full = realpathSync(full);
    } catch {
      // as given
    }
    const inside = relative(root, full);
    const shown = inside.startsWith("..") || isAbsolute(inside) ? full : inside;
    return hasLine ? `${shown}${value.slice(colon)}` : shown;
  };
  return {
    ...report,
    sections: report.sections.map((s) => ({ ...s, calls: s.calls.map((c) => ({ ...c, at: at(c.at) })) })),
  };
}

/** The verdict as an exit code: 1 when a consumer would break. */
export function exitCodeOf(report: ReplayReport): number {
  return report.result === "fail" ? 1 : 0;
}

export { CliError };
