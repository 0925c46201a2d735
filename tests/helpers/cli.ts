/**
 * Run mcp-contract as a user would: the compiled binary when MCP_CONTRACT_BIN is set
 * (npm run test:e2e), otherwise main.ts under Bun (npm test).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { limit } from "./clock.ts";

export const ROOT = resolve(import.meta.dir, "../..");
export const BIN = process.env.MCP_CONTRACT_BIN ? resolve(ROOT, process.env.MCP_CONTRACT_BIN) : undefined;
export const FIXTURE_SERVER = join(ROOT, "tests/fixtures/fixture-server.ts");
/** Bun runs the TypeScript fixture servers directly. */
export const BUN = process.execPath;

/** The argv prefix that runs mcp-contract: the binary, or Bun with main.ts. */
export function cliCommand(): string[] {
  return BIN ? [BIN] : [BUN, join(ROOT, "main.ts")];
}

/** Quote words for a POSIX shell, for tests that need one (ulimit, pipes, redirections). */
export function shellQuote(words: string[]): string {
  return words.map((w) => `'${w.replaceAll("'", "'\\''")}'`).join(" ");
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  timeoutMs?: number;
}

export function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  return runProcess([...cliCommand(), ...args], options);
}

/** Run a POSIX shell script in which the function `cli` runs mcp-contract. */
export function runShell(script: string, options: RunOptions = {}): Promise<CliResult> {
  return runProcess(["sh", "-c", `cli() { ${shellQuote(cliCommand())} "$@"; }\n${script}`], options);
}

async function runProcess(cmd: string[], options: RunOptions): Promise<CliResult> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", ...options.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  const proc = Bun.spawn(cmd, {
    cwd: options.cwd ?? ROOT,
    env: env as Record<string, string>,
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  const timer = setTimeout(() => proc.kill("SIGKILL"), options.timeoutMs ?? 45_000);
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** The TARGET arguments that start the fixture server over stdio with this configuration. */
export function fixtureTarget(config: object = {}): string[] {
  return ["--env", `FIXTURE=${JSON.stringify(config)}`, "--", BUN, FIXTURE_SERVER];
}

/** A server process started for a test: the URL it printed, and how to stop it. */
export interface Listening {
  url: string;
  stop: () => Promise<void>;
}

/**
 * Start `argv` and wait until it prints `listening URL` on stdout (or `on: "stderr"`, as
 * `mcp-contract mock --http` does): the fixtures and the mock all say where they listen that way.
 * The other stream is ignored unless `other: "inherit"` shows it in the test's output.
 */
export async function startListening(
  argv: string[],
  options: { on?: "stdout" | "stderr"; other?: "ignore" | "inherit"; env?: Record<string, string | undefined> } = {},
): Promise<Listening> {
  const on = options.on ?? "stdout";
  const other = options.other ?? "ignore";
  const proc = Bun.spawn(argv, {
    ...(options.env && { env: options.env }),
    stdin: "ignore",
    stdout: on === "stdout" ? "pipe" : other,
    stderr: on === "stderr" ? "pipe" : other,
  });
  const reader = (on === "stdout" ? proc.stdout : proc.stderr) as ReadableStream<Uint8Array>;
  const read = reader.getReader();
  let text = "";
  const deadline = Date.now() + limit(15_000);
  while (!/listening (\S+)/.test(text)) {
    if (Date.now() > deadline) throw new Error(`${argv.join(" ")} did not start: ${text}`);
    const { value, done } = await read.read();
    if (done) throw new Error(`${argv.join(" ")} exited before listening: ${text}`);
    text += new TextDecoder().decode(value);
  }
  read.releaseLock();
  return {
    url: (/listening (\S+)/.exec(text) as RegExpExecArray)[1] as string,
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** Start the fixture server over HTTP (or legacy SSE) and return its base URL. */
export function startHttpFixture(config: object): Promise<Listening> {
  return startListening([BUN, FIXTURE_SERVER], {
    env: { ...process.env, FIXTURE: JSON.stringify({ transport: "http", ...config }) },
  });
}

export function tempDir(prefix = "mcp-contract-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
