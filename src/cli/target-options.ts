/**
 * The TARGET flags every live command shares (snapshot, check, lint), and their
 * resolution into a Target. Kept in one place so the commands cannot drift apart.
 */
import { statSync } from "node:fs";
import { type Command, InvalidArgumentError, Option } from "@commander-js/extra-typings";
import { ERA_SETTINGS, type EraSetting } from "../connect/era.ts";
import { parseClientCapabilities, parseTarget, type Target } from "../connect/target.ts";
import type { ClientCapability } from "../contract/model.ts";
import { UsageError } from "../errors.ts";
import { type ConfiguredServer, lookupServer } from "./mcp-config.ts";

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Timers wait at most 2^31 - 1 ms; a longer --timeout would fire at once. */
export const MAX_TIMEOUT_SECONDS = Math.floor((2 ** 31 - 1) / 1000);
/** --max-response-size: the default, and the most a JavaScript string can sensibly hold. */
export const DEFAULT_MAX_RESPONSE_MIB = 64;
const MAX_RESPONSE_MIB_LIMIT = 1024;

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("expected a positive number of seconds.");
  if (n > MAX_TIMEOUT_SECONDS) {
    throw new InvalidArgumentError(
      `expected at most ${MAX_TIMEOUT_SECONDS} seconds (24.8 days), the longest a timer can wait.`,
    );
  }
  return n;
}

function mebibytes(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("expected a positive number of MiB, e.g. 256.");
  if (n > MAX_RESPONSE_MIB_LIMIT) {
    throw new InvalidArgumentError(`expected at most ${MAX_RESPONSE_MIB_LIMIT} MiB.`);
  }
  return n;
}

export function addTargetOptions<C extends Command<[string[]], Record<string, unknown>>>(command: C) {
  return command
    .addOption(
      new Option("--url <url>", "connect to a Streamable HTTP server (falls back to legacy SSE)").helpGroup("Target:"),
    )
    .addOption(
      new Option("--header <header>", 'HTTP header "Name: value" to send (repeatable)')
        .argParser(collect)
        .helpGroup("Target:"),
    )
    .addOption(
      new Option("--bearer <token>", "send Authorization: Bearer TOKEN")
        .env("MCP_CONTRACT_BEARER")
        .helpGroup("Target:"),
    )
    .addOption(
      new Option("--transport <kind>", "HTTP transport to use")
        .choices(["auto", "http", "sse"] as const)
        .default("auto" as const)
        .helpGroup("Target:"),
    )
    .addOption(new Option("--server <name>", "take the server from an MCP client config file").helpGroup("Target:"))
    .addOption(
      new Option(
        "--config <file>",
        "MCP client config file for --server and --all (default: the nearest .mcp.json, .vscode/mcp.json, .cursor/mcp.json)",
      ).helpGroup("Target:"),
    )
    .addOption(
      new Option("--env <KEY=VALUE>", "extra environment variable for a stdio server (repeatable)")
        .argParser(collect)
        .helpGroup("Target:"),
    )
    .addOption(new Option("--cwd <dir>", "working directory for a stdio server").helpGroup("Target:"))
    .addOption(
      new Option("--timeout <seconds>", "give up on the capture after this long")
        .argParser(seconds)
        .default(30)
        .helpGroup("Target:"),
    )
    .addOption(
      new Option(
        "--max-response-size <MiB>",
        "refuse a single server message (HTTP answer, SSE event, stdout line) larger than this",
      )
        .argParser(mebibytes)
        .default(DEFAULT_MAX_RESPONSE_MIB)
        .helpGroup("Target:"),
    )
    .addOption(
      new Option("--client-capabilities <list>", "declare client capabilities: roots,sampling,elicitation").helpGroup(
        "Target:",
      ),
    )
    .addOption(
      new Option(
        "--era <era>",
        "protocol era: modern (2026-07-28), legacy (initialize, 2025-11-25 and earlier), or auto: modern first (default auto)",
      )
        .choices(ERA_SETTINGS)
        .helpGroup("Target:"),
    );
}

export interface TargetOptionValues {
  url?: string;
  header?: string[];
  bearer?: string;
  transport: "auto" | "http" | "sse";
  server?: string;
  config?: string;
  env?: string[];
  cwd?: string;
  timeout: number;
  maxResponseSize?: number;
  clientCapabilities?: string;
  /** Undefined when not given: auto, or for `check` the baseline's. */
  era?: EraSetting;
  /** What else the command takes instead of a server, for the message when none is given. */
  alternatives?: string;
  /** Where a lockfile goes in this command, for the message when one is given as the server command. */
  lockfileGoes?: (file: string) => string;
}

export interface ResolvedTarget {
  target: Target;
  clientCapabilities: ClientCapability[];
  timeoutMs: number;
  /** The largest single server message, in bytes. */
  maxResponseBytes: number;
  /** The protocol era to speak; auto unless --era (or a baseline) says otherwise. */
  era: EraSetting;
  /** The names (never the values) of the environment variables and headers the capture was given. */
  given: { env: string[]; headers: string[] };
  /** Where the server's settings came from (--server), for --verbose. */
  notes: string[];
}

/** A server taken from a client config (--server, or one of --all's). */
export interface ConfiguredTarget {
  server: ConfiguredServer;
  notes: string[];
}

/** The names before "=" (env) or ":" (headers), each once, sorted; header names compared case-insensitively. */
function givenNames(pairs: readonly string[], sep: string, fold: boolean): string[] {
  const names = new Map<string, string>();
  for (const pair of pairs) {
    const name = pair.slice(0, Math.max(0, pair.indexOf(sep))).trim();
    if (name !== "" && !names.has(fold ? name.toLowerCase() : name)) names.set(fold ? name.toLowerCase() : name, name);
  }
  return [...names.values()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** --server NAME: look it up, and say in --verbose which file it came from. */
function configuredTarget(name: string, config: string | undefined): ConfiguredTarget {
  const found = lookupServer(name, { config });
  const notes = [`--server ${name}: from ${found.file.shown}`];
  for (const other of found.shadowed)
    notes.push(`--server ${name}: also defined in ${other.shown}, not used (the first file wins)`);
  return { server: found.server, notes };
}

export function resolveTarget(
  commandArgs: string[],
  opts: TargetOptionValues,
  optionSource: (name: string) => string | undefined,
  fromConfig?: ConfiguredTarget,
): ResolvedTarget {
  // A bearer from the environment is for HTTP targets; it must not break a stdio one.
  const bearerFromEnv = optionSource("bearer") === "env";
  let flags = { ...opts, bearer: opts.bearer };
  let command = commandArgs;
  let notes: string[] = [];
  if (opts.server || fromConfig) {
    if (command.length || opts.url)
      throw new UsageError("give --server NAME alone, without a command after `--` or --url.");
    const found = fromConfig ?? configuredTarget(opts.server as string, opts.config);
    const configured = found.server;
    notes = found.notes;
    command = configured.command ?? [];
    flags = {
      ...flags,
      url: configured.url,
      header: [...(configured.headers ?? []), ...(opts.header ?? [])],
      env: [...(configured.env ?? []), ...(opts.env ?? [])],
      cwd: opts.cwd ?? configured.cwd,
      transport: opts.transport !== "auto" ? opts.transport : (configured.transport ?? "auto"),
    };
  }
  if (command.length && bearerFromEnv) flags.bearer = undefined;
  // Only what was typed after the command: a config file's server says nothing of our flags.
  if (!opts.server && !fromConfig) rejectLockfileAsCommand(command, opts.lockfileGoes);
  const target = parseTarget(command, flags);
  const headerNames = [...(flags.header ?? []), ...(flags.bearer ? ["Authorization: "] : [])];
  return {
    target,
    given:
      target.kind === "stdio"
        ? { env: givenNames(flags.env ?? [], "=", false), headers: [] }
        : { env: [], headers: givenNames(headerNames, ":", true) },
    notes,
    clientCapabilities: parseClientCapabilities(opts.clientCapabilities),
    timeoutMs: Math.round(opts.timeout * 1000),
    maxResponseBytes: Math.round((opts.maxResponseSize ?? DEFAULT_MAX_RESPONSE_MIB) * 1024 * 1024),
    era: opts.era ?? "auto",
  };
}

/**
 * A lone `*.json` where the server command goes (`lint mcp.contract.json`) is a lockfile in the
 * wrong place: without this, the spawn fails with "permission denied" or "command not found",
 * which points at the wrong fix. An executable of that name is still run.
 */
function rejectLockfileAsCommand(command: readonly string[], goes: ((file: string) => string) | undefined): void {
  const [file] = command;
  if (command.length !== 1 || file === undefined || !/\.json$/i.test(file) || isExecutableFile(file)) return;
  throw new UsageError(
    `${file} is a JSON file, not a server command: ${goes ? goes(file) : "lockfiles go to this command's file options (see --help)"}. A live server's command goes after \`--\`, e.g. \`-- node dist/server.js\`.`,
  );
}

function isExecutableFile(path: string): boolean {
  try {
    const stat = statSync(path);
    return stat.isFile() && (stat.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/**
 * Target flags given on the command line when nothing is captured (check --against, lint
 * --from): a usage error that names them, rather than silently ignoring a --bearer or --env.
 */
/**
 * `--against FILE` names the second surface instead of a live server: refuses a server given too
 * (after \`--\`, --url or --server) and the flags only a live capture reads.
 */
export function rejectLiveBesideAgainst(
  commandArgs: readonly string[],
  options: { url?: string | undefined; server?: string | undefined },
  optionSource: (name: string) => string | undefined,
): void {
  if (commandArgs.length || options.url || options.server) {
    throw new UsageError("give either --against FILE or a live server (after `--`, --url or --server), not both.");
  }
  rejectLiveOnlyFlags(optionSource, "--against FILE");
}

export function rejectLiveOnlyFlags(optionSource: (name: string) => string | undefined, instead: string): void {
  const liveOnly = [
    "header",
    "bearer",
    "transport",
    "env",
    "cwd",
    "timeout",
    "maxResponseSize",
    "clientCapabilities",
    "era",
    "config",
  ].filter((name) => optionSource(name) === "cli");
  if (liveOnly.length === 0) return;
  const flags = liveOnly.map((n) => `--${n.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(", ");
  throw new UsageError(
    `${flags} ${liveOnly.length === 1 ? "applies" : "apply"} only when a live server is captured; with ${instead} nothing is.`,
  );
}

/** `--jobs N` of snapshot --all and check --all: how many servers are captured at once. */
export function jobsOption() {
  return new Option(
    "--jobs <n>",
    "with --all: how many servers to capture at once (default: twice the cores, at least 8, at most 16)",
  ).argParser((text: string) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1 || n > 64) {
      throw new UsageError(`--jobs takes a whole number from 1 to 64, got ${JSON.stringify(text)}.`);
    }
    return n;
  });
}
