/**
 * `snapshot --all` and `check --all`: every server the MCP client configs define (see
 * mcp-config.ts for which files), one lockfile each, `DIR/<name>.contract.json`. One server
 * failing does not stop the others; the exit code is the highest of the servers' (3 a server
 * failed, 2 a lockfile or config entry is wrong, 1 a check failed, 0 all well), and a line per
 * server says how it went. Loaded only by --all.
 */
import { existsSync, mkdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { serializeContract } from "../contract/canonical.ts";
import type { Contract } from "../contract/model.ts";
import { CliError, UsageError } from "../errors.ts";
import { judgeComparison } from "../policy/judge-comparison.ts";
import type { FailOn } from "../report/model.ts";
import { type ServerCheck, writeAllReports } from "./config-all-report.ts";
import { readLockfile } from "./lockfile.ts";
import { type ConfigEntry, listConfiguredServers } from "./mcp-config.ts";
import { assertWritable, readRegularFile, writeFileAtomic } from "./output-file.ts";
import type { PreparedPolicy } from "./policy-options.ts";
import type { OutputPlan } from "./report-output.ts";
import { serverLabel, surfaceCounts } from "./summary.ts";
import { resolveTarget, type TargetOptionValues } from "./target-options.ts";
import { maskHeldSecrets, type Ui } from "./ui.ts";

type OptionSource = (name: string) => string | undefined;

/**
 * How many servers --all captures at once by default: captures mostly wait on servers starting
 * and answering, so twice the cores, at least 8 and at most 16 (--jobs N sets it). At least 8:
 * a client config's servers at once on a 2-core CI runner, where twice the cores (4) made eight
 * servers that each take 1 s to answer take 2.7 s instead of 1.5 s.
 */
export function defaultJobs(cores = availableParallelism()): number {
  return Math.min(16, Math.max(8, cores * 2));
}

/**
 * Run `work` on every plan, `jobs` at a time, and say what each said in the config's order: a
 * server's lines (its Ui calls) are held until every server before it has been said, so the
 * output reads as if they ran one by one. Progress lines are one per run, not one per server.
 */
async function inConfigOrder<T>(
  plans: readonly T[],
  jobs: number,
  ui: Ui,
  work: (plan: T, say: Ui) => Promise<void>,
): Promise<void> {
  const held: (() => void)[][] = plans.map(() => []);
  const finished = plans.map(() => false);
  let said = 0;
  const flush = () => {
    while (said < plans.length && finished[said]) {
      for (const line of held[said] as (() => void)[]) line();
      said++;
    }
  };
  let next = 0;
  const worker = async () => {
    while (next < plans.length) {
      const i = next++;
      await work(plans[i] as T, heldUi(ui, held[i] as (() => void)[]));
      finished[i] = true;
      flush();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, plans.length)) }, worker));
}

/** A Ui whose lines wait in `lines` until their turn; secrets and colours are the real one's. */
function heldUi(ui: Ui, lines: (() => void)[]): Ui {
  const held = Object.create(ui) as Ui;
  held.info = (text) => void lines.push(() => ui.info(text));
  held.warn = (text) => void lines.push(() => ui.warn(text));
  held.error = (text) => void lines.push(() => ui.error(text));
  held.debug = (text) => void lines.push(() => ui.debug(text));
  // One spinner cannot show several captures: the run's lines say how each went.
  held.progress = () => {};
  held.stopProgress = () => {};
  return held;
}

/** A server name as a file name: letters, digits, `.`, `_` and `-` kept, anything else `-`. */
export function lockfileName(server: string): string {
  const safe = server
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[.-]+/, "")
    .slice(0, 120);
  return `${safe === "" ? "server" : safe}.contract.json`;
}

const flagName = (name: string) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Refuse flags that name one server or one lockfile, or that would apply to every server alike. */
function rejectSingleServerFlags(
  commandArgs: string[],
  opts: TargetOptionValues,
  source: OptionSource,
  oneFile: string[],
) {
  if (commandArgs.length || opts.url || opts.server) {
    throw new UsageError(
      "--all captures every server of the MCP client config; give no command after `--`, --url or --server with it.",
    );
  }
  const files = oneFile.filter((name) => source(name) === "cli");
  if (files.length) {
    throw new UsageError(
      `${files.map(flagName).join(", ")} ${files.length === 1 ? "names" : "name"} one lockfile, and --all uses one per server: DIR/<name>.contract.json (--dir DIR). Drop ${files.length === 1 ? "it" : "them"}, or work on one server with --server NAME.`,
    );
  }
  const perServer = ["header", "bearer", "env", "cwd"].filter((name) => source(name) === "cli");
  if (perServer.length) {
    throw new UsageError(
      `${perServer.map(flagName).join(", ")} cannot be combined with --all: each server's settings come from its config entry (env, headers, cwd). Put them there, or capture that server alone with --server NAME.`,
    );
  }
}

interface Planned {
  entry: ConfigEntry;
  lockfile: string;
}

/** The servers and their lockfiles; two names that would share a file are refused up front. */
function planServers(opts: TargetOptionValues, dir: string): Planned[] {
  const entries = listConfiguredServers({ config: opts.config });
  const byFile = new Map<string, string>();
  return entries.map((entry) => {
    const file = lockfileName(entry.name);
    // Case-insensitive file systems (macOS, Windows) would write both to one file.
    const other = byFile.get(file.toLowerCase());
    if (other !== undefined) {
      throw new UsageError(
        `the servers ${JSON.stringify(other)} and ${JSON.stringify(entry.name)} would both be written to ${join(dir, file)}; rename one of them in ${entry.file.shown}.`,
      );
    }
    byFile.set(file.toLowerCase(), entry.name);
    return { entry, lockfile: join(dir, file) };
  });
}

/** The exit code of a failure: a CliError's own; anything else is a bug and is rethrown. */
function failureCode(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  throw error;
}

function resolveEntry(
  entry: ConfigEntry,
  opts: TargetOptionValues,
  source: OptionSource,
  extra: Partial<TargetOptionValues> = {},
) {
  return resolveTarget([], { ...opts, ...extra, server: entry.name }, source, {
    server: entry.resolve(),
    notes: [`${entry.name}: from ${entry.file.shown}`],
  });
}

export async function snapshotAll(
  commandArgs: string[],
  opts: TargetOptionValues & { dir: string; jobs?: number },
  source: OptionSource,
  ui: Ui,
): Promise<number> {
  rejectSingleServerFlags(commandArgs, opts, source, ["output"]);
  const planned = planServers(opts, opts.dir);
  try {
    mkdirSync(opts.dir, { recursive: true });
  } catch {
    // assertWritable below says what is wrong with the directory.
  }
  const { captureTarget } = await import("./capture-target.ts");
  let worst = 0;
  let failed = 0;
  await inConfigOrder(planned, opts.jobs ?? defaultJobs(), ui, async ({ entry, lockfile }, say) => {
    try {
      assertWritable(lockfile, "--dir");
      const resolved = resolveEntry(entry, opts, source);
      const { contract, elapsedMs, closed } = await captureTarget(resolved, say);
      // Written while the server shuts down; this server's turn ends once it is gone.
      try {
        const text = serializeContract(contract);
        let destination = lockfile;
        if (readRegularFile(lockfile) === text) destination = `${lockfile} (unchanged)`;
        else writeFileAtomic(lockfile, text);
        say.info(
          `${ui.green("✔")} ${entry.name}: captured ${surfaceCounts(contract)} from ${serverLabel(contract)} → ${destination} ${ui.dim(`in ${(elapsedMs / 1000).toFixed(1)} s`)}`,
        );
      } finally {
        await closed;
      }
    } catch (error) {
      const code = failureCode(error);
      worst = Math.max(worst, code);
      failed++;
      say.error(`${entry.name}: ${(error as Error).message} (exit ${code})`);
    }
  });
  const total = planned.length;
  const summary = `${total - failed} of ${total} server${total === 1 ? "" : "s"} captured into ${opts.dir}${failed ? `; ${failed} failed` : ""}`;
  if (failed) ui.error(summary);
  else ui.info(summary);
  return worst;
}

export interface CheckAllOptions {
  dir: string;
  failOn: FailOn;
  witness: boolean;
  policy: PreparedPolicy;
  plans: OutputPlan[];
  color: "auto" | "always" | "never";
  /** --jobs: servers captured at once. */
  jobs?: number;
  /** --hosts: host profiles whose new rejections are breaking (else the policy file's "hosts"). */
  hosts?: readonly string[];
}

export async function checkAll(
  commandArgs: string[],
  opts: TargetOptionValues,
  source: OptionSource,
  ui: Ui,
  all: CheckAllOptions,
): Promise<number> {
  rejectSingleServerFlags(commandArgs, opts, source, ["baseline", "baselineRef", "against", "update", "calls"]);
  const planned = planServers(opts, all.dir);
  const { captureTarget } = await import("./capture-target.ts");
  // One slot per server, in the config's order, whatever order the captures finish in.
  const results: ServerCheck[] = new Array(planned.length);
  const indexOf = new Map(planned.map((p, i) => [p, i]));
  await inConfigOrder(planned, all.jobs ?? defaultJobs(), ui, async (plan, say) => {
    const { entry, lockfile } = plan;
    const at = indexOf.get(plan) as number;
    const base = { name: entry.name, config: entry.file.shown, lockfile };
    if (!existsSync(lockfile)) {
      const config = opts.config ? ` --config ${opts.config}` : "";
      results[at] = {
        ...base,
        status: "missing",
        exitCode: 2,
        error: `no lockfile at ${lockfile} for the server ${JSON.stringify(entry.name)}. Create it with \`mcp-contract snapshot --server ${entry.name}${config} -o ${lockfile}\` (\`mcp-contract snapshot --all --dir ${all.dir}${config}\` would re-capture every server).`,
      };
      return;
    }
    try {
      const read = readLockfile(lockfile, "baseline");
      const baseline: Contract = read.contract;
      // Capture the way the baseline was captured, unless told otherwise.
      const resolved = resolveEntry(entry, opts, source, {
        clientCapabilities: opts.clientCapabilities ?? baseline.capture.clientCapabilities.join(","),
        era: opts.era ?? baseline.capture.era,
      });
      const captured = await captureTarget(resolved, say);
      const current = captured.contract;
      try {
        const verdict = await judgeComparison({
          command: "check",
          baseline: { contract: baseline, source: lockfile },
          current: { contract: current, source: `live --server ${entry.name}` },
          policy: all.policy,
          failOn: all.failOn,
          witness: all.witness,
          ...(all.hosts && { hosts: all.hosts }),
        });
        if (verdict.warning) say.warn(`${entry.name}: ${verdict.warning}`);
        results[at] = {
          ...base,
          status: verdict.report.result,
          exitCode: verdict.exitCode,
          report: verdict.report,
          context: { baseline: read.file, baselineContract: baseline, currentContract: current },
        };
      } finally {
        await captured.closed;
      }
    } catch (error) {
      const code = failureCode(error);
      // The report goes to stdout and files, not through the Ui: mask what the Ui would.
      results[at] = {
        ...base,
        status: "error",
        exitCode: code,
        error: maskHeldSecrets((error as Error).message).value,
      };
    }
  });
  await writeAllReports(results, all.plans, all.color);
  for (const r of results) {
    if (r.status === "missing" || r.status === "error") ui.error(`${r.name}: ${r.error}`);
  }
  return Math.max(0, ...results.map((r) => r.exitCode));
}
