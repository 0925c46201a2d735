/**
 * Shared pieces of the snapshot end-to-end tests: fixture configurations, lockfile
 * reading, and the checks every failure must pass (exit code, one clear message, no stack
 * trace, nothing left behind in the output directory).
 */
import { expect } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { surfaceHashes } from "../../src/contract/hashes.ts";
import { type CliResult, fixtureTarget, runCli } from "../helpers/cli.ts";
import { limit } from "../helpers/clock.ts";

export type { CliResult, Listening } from "../helpers/cli.ts";
export {
  BIN,
  BUN,
  FIXTURE_SERVER,
  fixtureTarget,
  ROOT,
  runCli,
  startHttpFixture,
  startListening,
  tempDir,
} from "../helpers/cli.ts";

/** A surface with every kind of item, deliberately out of order, with nested schema detail. */
export const RICH = {
  instructions: "Use search before fetch.",
  tools: [
    {
      name: "zeta",
      title: "Zeta",
      description: "Last by name",
      inputSchema: {
        type: "object",
        properties: {
          when: { type: "string", format: "date-time" },
          nested: {
            type: "object",
            properties: { b: { type: "integer" }, a: { type: "array", items: { enum: ["y", "x"] } } },
            required: ["b", "a"],
          },
        },
        required: ["when", "nested"],
      },
      outputSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
      annotations: { readOnlyHint: true, destructiveHint: false },
      _meta: { "acme/tier": "gold" },
    },
    {
      name: "alpha",
      description: "First by name",
      inputSchema: { type: "object", properties: { q: { type: "string", default: "all" } } },
    },
    {
      name: "Mid",
      description: "Upper case sorts before lower case",
      inputSchema: { type: "object", properties: { n: { type: "number", minimum: 0 } }, required: ["n"] },
    },
  ],
  resources: [
    { uri: "fixture://res/zz", name: "zz", mimeType: "text/plain" },
    { uri: "fixture://res/aa", name: "aa", description: "first", mimeType: "application/json" },
  ],
  resourceTemplates: [
    { uriTemplate: "fixture://tpl/{z}", name: "tz" },
    { uriTemplate: "fixture://tpl/{a}", name: "ta", mimeType: "text/plain" },
  ],
  prompts: [
    { name: "review", description: "Review code", arguments: [{ name: "diff", required: true }] },
    { name: "explain", arguments: [{ name: "topic", description: "What to explain" }] },
  ],
};

export const RICH_COUNTS = "3 tools, 2 resources, 2 templates, 2 prompts";

export interface Lockfile {
  lockfileVersion: number;
  server: Record<string, unknown>;
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  instructions?: string;
  capture: { clientCapabilities: string[]; env?: string[]; headers?: string[] };
  tools: { name: string; [k: string]: unknown }[];
  resources: { uri: string; [k: string]: unknown }[];
  resourceTemplates: { uriTemplate: string; [k: string]: unknown }[];
  prompts: { name: string; [k: string]: unknown }[];
  /** Content hashes by list and item identity (src/contract/hashes.ts). */
  hashes?: Record<string, Record<string, string | string[]>>;
}

/** A lockfile's text without its trailing content hashes (byte for byte otherwise). */
export function withoutHashes(text: string): string {
  const at = text.indexOf(',\n  "hashes": {');
  return at === -1 ? text : `${text.slice(0, at)}\n}\n`;
}

/**
 * A capture of `mock --contract` is that lockfile byte for byte: the mock serves each item as
 * stored, and an item hashes the same as sent and as stored (its sets in the lockfile's order,
 * src/contract/hashes.ts). A lockfile written before content hashes has none, and the capture
 * adds them: byte for byte but for that section, which holds the stored items' hashes.
 */
export function expectMockCapture(name: string, captured: string, lockfile: string): void {
  if (JSON.parse(lockfile).hashes !== undefined) {
    expect({ name, same: captured === lockfile }).toEqual({ name, same: true });
    return;
  }
  expect({ name, same: withoutHashes(captured) === lockfile }).toEqual({ name, same: true });
  expect(JSON.parse(captured).hashes).toEqual(surfaceHashes(JSON.parse(lockfile)).hashes);
}

export function readLockfile(path: string): Lockfile {
  return JSON.parse(readFileSync(path, "utf8")) as Lockfile;
}

/** `snapshot -o OUT [...extra] --env FIXTURE=... -- bun fixture-server.ts` */
export function snapshotFixture(config: object, output: string, extra: string[] = [], timeoutMs?: number) {
  return runCli(["snapshot", "-o", output, ...extra, ...fixtureTarget(config)], { timeoutMs });
}

export function stderrLines(result: CliResult): string[] {
  return result.stderr.split("\n").filter((line) => line !== "");
}

/** The summary line a successful snapshot prints, for a server named fixture 1.0.0. */
export function summaryPattern(counts: string, destination: string): RegExp {
  const quote = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(
    `^captured ${quote(counts)} from fixture 1\\.0\\.0 \\(protocol \\d{4}-\\d{2}-\\d{2}\\) → ${quote(destination)} in \\d+\\.\\d s$`,
  );
}

/**
 * What every failure must look like: the documented exit code, nothing on stdout, one
 * `error:` message (a paragraph, possibly followed by the server's quoted stderr lines),
 * no stack trace and no "internal error".
 */
export function expectCleanFailure(result: CliResult, exitCode: 2 | 3): void {
  expect({ code: result.code, stdout: result.stdout }).toEqual({ code: exitCode, stdout: "" });
  expect(result.stderr.startsWith("error: ")).toBe(true);
  expect(result.stderr.match(/^error: /gm)).toHaveLength(1);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stderr).not.toMatch(/internal error|Error:|undefined|\[object Object\]/);
  // One paragraph: no blank line inside the message.
  expect(result.stderr.trimEnd()).not.toContain("\n\n");
}

export function listDir(dir: string): string[] {
  return readdirSync(dir).sort();
}

export interface StartedProcess {
  pid: number;
  grandchild?: number;
}

/** The fixture's pidFile: one line per server process started. */
export function readPids(file: string): StartedProcess[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as StartedProcess);
}

export function allPids(started: StartedProcess[]): number[] {
  return started.flatMap((p) => (p.grandchild ? [p.pid, p.grandchild] : [p.pid]));
}

/** Alive and not a zombie (an orphan that init has not reaped yet is dead to us). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return existsSync(`/proc/${pid}`) || process.platform !== "linux";
  }
}

/** The pids still alive after waiting up to `ms` for them to go. */
export async function survivors(pids: number[], ms = 3000): Promise<number[]> {
  const deadline = Date.now() + limit(ms);
  let alive = pids.filter(isAlive);
  while (alive.length && Date.now() < deadline) {
    await Bun.sleep(100);
    alive = alive.filter(isAlive);
  }
  return alive;
}

/** Test cleanup: SIGKILL processes a test started (by pid, never by name). */
export function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** A localhost port nobody listens on: bind it, note it, let it go. */
export function freePort(): number {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}

export function joinPath(...parts: string[]): string {
  return join(...parts);
}
