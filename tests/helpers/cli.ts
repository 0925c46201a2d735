/**
 * Run mcp-contract as a user would: the compiled binary when MCP_CONTRACT_BIN is set
 * (npm run test:e2e), otherwise main.ts under Bun (npm test).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

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

/** Start the fixture server over HTTP (or legacy SSE) and return its base URL. */
export async function startHttpFixture(config: object): Promise<{ url: string; stop: () => Promise<void> }> {
  const proc = Bun.spawn([BUN, FIXTURE_SERVER], {
    env: { ...process.env, FIXTURE: JSON.stringify({ transport: "http", ...config }) },
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  const reader = proc.stdout.getReader();
  let text = "";
  const deadline = Date.now() + 15_000;
  while (!/listening (\S+)/.test(text)) {
    if (Date.now() > deadline) throw new Error(`fixture did not start: ${text}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`fixture exited before listening: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const url = (/listening (\S+)/.exec(text) as RegExpExecArray)[1] as string;
  return {
    url,
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

export function tempDir(prefix = "mcp-contract-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
