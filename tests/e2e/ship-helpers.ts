/**
 * What the install-route tests share: the host binary they ship (the compiled one of
 * `npm run test:e2e`, MCP_CONTRACT_BIN, or one compiled once here), the system tools they
 * need (a clear failure when one is missing, never a silent skip), a release layout served
 * from 127.0.0.1, and a process runner.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { compile, writeArchive, writeChecksums } from "../../scripts/build.ts";
import { hostTarget } from "../../scripts/release-config.ts";
import { VERSION } from "../../src/version.ts";

export const ROOT = resolve(import.meta.dir, "../..");

const created: string[] = [];

/** A fresh temporary directory, removed by cleanupTempDirs (binaries and installs are large). */
export function tempDir(prefix = "mcp-contract-ship-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** For each test file's afterAll: remove the directories it made. */
export function cleanupTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

let hostBinary: Promise<string> | undefined;

/** Where binaries compiled for the tests go: .tmp/ship-PID/, one per test process. */
const BINARIES = join(ROOT, ".tmp");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The compiled host binary: MCP_CONTRACT_BIN when given, else compiled once per test process
 * into .tmp/ship-PID/ (the directories of processes that have ended are removed first).
 */
export function shippedBinary(): Promise<string> {
  hostBinary ??= (async () => {
    const given = process.env.MCP_CONTRACT_BIN;
    if (given) return resolve(ROOT, given);
    mkdirSync(BINARIES, { recursive: true });
    for (const entry of readdirSync(BINARIES)) {
      const pid = Number(/^ship-(\d+)$/.exec(entry)?.[1]);
      if (pid && pid !== process.pid && !alive(pid)) rmSync(join(BINARIES, entry), { recursive: true, force: true });
    }
    const out = join(BINARIES, `ship-${process.pid}`, "mcp-contract");
    await compile(out);
    return out;
  })();
  return hostBinary;
}

/** A system tool a test needs. Missing, the test fails and says how to get it (.ci/run installs them all). */
export function requireTool(name: string, debianPackage = name): string {
  const found = Bun.which(name);
  if (!found) {
    throw new Error(
      `${name} is not installed, and this test needs it: install it (apt-get install -y ${debianPackage}); .ci/run does.`,
    );
  }
  return found;
}

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

export async function run(
  cmd: string[],
  options: { cwd?: string; env?: Record<string, string | undefined>; stdin?: string; timeoutMs?: number } = {},
): Promise<Result> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: "1", ...options.env })) {
    if (v !== undefined) env[k] = v;
  }
  const proc = Bun.spawn(cmd, {
    cwd: options.cwd ?? ROOT,
    env,
    stdin: options.stdin === undefined ? "ignore" : new TextEncoder().encode(options.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => proc.kill("SIGKILL"), options.timeoutMs ?? 90_000);
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

export interface ReleaseServer {
  /** What MCP_CONTRACT_BASE_URL is set to: http://127.0.0.1:PORT/releases/download */
  base: string;
  /** The directory served as BASE/vVERSION/ for a version. */
  versionDir(version: string): string;
  /** Request paths served so far. */
  requests: string[];
  stop(): void;
}

/**
 * Serve a GitHub-releases layout from 127.0.0.1: ROOT/releases/download/vVERSION/… and
 * ROOT/releases/latest/download/VERSION, with the host archive of `binary` as VERSION.
 */
export async function serveRelease(binary: string): Promise<ReleaseServer> {
  const root = tempDir("mcp-contract-release-");
  const versionDir = (version: string) => join(root, "releases/download", `v${version}`);
  const dir = versionDir(VERSION);
  writeArchive(binary, hostTarget(), dir, { level: 1 });
  writeChecksums(dir);
  mkdirSync(join(root, "releases/latest/download"), { recursive: true });
  writeFileSync(join(root, "releases/latest/download/VERSION"), `${VERSION}\n`);
  const requests: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = decodeURIComponent(new URL(request.url).pathname);
      requests.push(path);
      const file = resolve(root, `.${path}`);
      if (!file.startsWith(`${root}/`) || !existsSync(file) || !statSync(file).isFile()) {
        return new Response("not found", { status: 404 });
      }
      return new Response(Bun.file(file));
    },
  });
  return {
    base: `http://127.0.0.1:${server.port}/releases/download`,
    versionDir,
    requests,
    stop: () => server.stop(true),
  };
}

/** A directory of symlinks to these commands only: a PATH without everything else. */
export function restrictedPath(commands: readonly string[]): string {
  const dir = tempDir("mcp-contract-path-");
  for (const name of commands) {
    const target = Bun.which(name);
    if (target) symlinkSync(target, join(dir, name));
  }
  return dir;
}

/** An executable `mcp-contract` on a PATH directory, running the shipped binary. */
export async function binaryOnPath(): Promise<string> {
  const dir = tempDir("mcp-contract-onpath-");
  symlinkSync(await shippedBinary(), join(dir, "mcp-contract"));
  return dir;
}

export function writeExecutable(path: string, text: string): void {
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

export function read(path: string): string {
  return readFileSync(path, "utf8");
}

export { VERSION };
