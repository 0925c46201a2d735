/**
 * Benchmarks for mcp-contract. Prints figures; it is not a test and never fails on a number.
 * It exits non-zero only when something cannot run (a build fails, a command exits non-zero).
 *
 *   bun scripts/bench.ts                      every benchmark, 30 runs each (10 for captures)
 *   bun scripts/bench.ts --runs 50            more runs for the start-up benchmarks
 *   bun scripts/bench.ts --capture-runs 5     fewer runs for the capture benchmarks
 *   bun scripts/bench.ts --only startup,memory
 *   bun scripts/bench.ts --only goals --before /tmp/old/mcp-contract
 *                                             the goals of issue #18 as ratios, this build and an older one
 *   --bin PATH     measure this binary instead of dist/mcp-contract
 *   --tools N      tools in the big synthetic lockfiles of the goals (default 10000)
 *   --instructions also count the small goals' instructions under valgrind (callgrind): the
 *                  same figure however loaded the machine is
 *
 * Every benchmark is one function in BENCHMARKS below that returns rows for the table;
 * add new ones (e.g. diffing big lockfiles) the same way.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join, resolve } from "node:path";
import { serializeContract } from "../src/contract/canonical.ts";
import { goalsBenchmark } from "./bench-goals.ts";
import { COMPILE_FLAGS } from "./build.ts";
import { syntheticPair } from "./synthetic.ts";

const ROOT = resolve(import.meta.dir, "..");
const EXE = process.platform === "win32" ? "mcp-contract.exe" : "mcp-contract";
let BIN = join(ROOT, "dist", EXE);
const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const WEATHER = join(ROOT, "examples/weather-server.mjs");
const INITIALIZE = `${JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
})}\n`;
const INITIALIZED = `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`;

// ---------------------------------------------------------------------------------------------
// Options and context

interface Options {
  runs: number;
  captureRuns: number;
  memRuns: number;
  warmup: number;
  only: string[] | null;
  before?: string;
  tools: number;
  instructions: boolean;
}

function parseOptions(argv: string[]): Options {
  const opts: Options = {
    runs: 30,
    captureRuns: 10,
    memRuns: 5,
    warmup: 2,
    only: null,
    tools: 10_000,
    instructions: false,
  };
  const int = (flag: string, value: string | undefined, min: number): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) fail(`${flag} needs an integer >= ${min}, got ${value ?? "nothing"}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--runs") opts.runs = int(arg, argv[++i], 1);
    else if (arg === "--capture-runs") opts.captureRuns = int(arg, argv[++i], 1);
    else if (arg === "--mem-runs") opts.memRuns = int(arg, argv[++i], 1);
    else if (arg === "--warmup") opts.warmup = int(arg, argv[++i], 0);
    else if (arg === "--only") opts.only = (argv[++i] ?? "").split(",").filter(Boolean);
    else if (arg === "--before") opts.before = resolve(argv[++i] ?? fail("--before needs a binary"));
    else if (arg === "--bin") BIN = resolve(argv[++i] ?? fail("--bin needs a binary"));
    else if (arg === "--tools") opts.tools = int(arg, argv[++i], 1);
    else if (arg === "--instructions") opts.instructions = true;
    else if (arg === "-h" || arg === "--help") {
      console.log(
        "usage: bun scripts/bench.ts [--runs N=30] [--capture-runs N=10] [--mem-runs N=5] [--warmup N=2] [--only a,b] [--bin BIN] [--before BIN] [--tools N=10000] [--instructions]",
      );
      console.log(`benchmarks: ${BENCHMARKS.map((b) => b.name).join(", ")}`);
      process.exit(0);
    } else fail(`unknown argument: ${arg}`);
  }
  return opts;
}

interface Context {
  opts: Options;
  /** A scratch directory outside the repository, removed at the end. */
  tmp: string;
  /** The compiled hello-world, built once per bench run (see ensureHello). */
  hello?: string;
}

/** One line of the results table. `values` are the raw samples, in `unit`. */
interface Row {
  name: string;
  unit: "ms" | "MiB";
  values: number[];
  note?: string;
}

interface Benchmark {
  name: string;
  title: string;
  run: (ctx: Context) => Promise<Row[]>;
}

class BenchError extends Error {}

function fail(message: string): never {
  throw new BenchError(message);
}

// ---------------------------------------------------------------------------------------------
// Statistics and process helpers

/** Percentile with linear interpolation between closest ranks, p in [0, 1]. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const idx = p * (sorted.length - 1);
  const lo = Math.floor(idx);
  const hi = Math.ceil(idx);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (idx - lo);
}

const mib = (bytes: number) => bytes / 1024 / 1024;

/** Run a command to completion; throw if it cannot start or exits non-zero. Returns wall time and rusage. */
function runOnce(cmd: string[]): { ms: number; maxRssBytes: number; stdout: string } {
  const t0 = performance.now();
  const proc = Bun.spawnSync(cmd, { cwd: ROOT, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const ms = performance.now() - t0;
  if (!proc.success) {
    fail(`${cmd.join(" ")} exited with ${proc.exitCode ?? proc.signalCode}:\n${proc.stderr.toString().trim()}`);
  }
  return { ms, maxRssBytes: proc.resourceUsage.maxRSS, stdout: proc.stdout.toString() };
}

/** Warm up, then time `runs` executions of `cmd` (wall time of the whole process, in ms). */
function timeCommand(cmd: string[], runs: number, warmup: number, before?: () => void): number[] {
  for (let i = 0; i < warmup; i++) {
    before?.();
    runOnce(cmd);
  }
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    before?.();
    times.push(runOnce(cmd).ms);
  }
  return times;
}

/** How long a server gets to exit by itself after its stdin closes (lifecycle mode). */
const EXIT_WAIT_MS = 5000;

interface ServerTiming {
  /** spawn → the `initialize` reply line on stdout */
  initMs: number;
  /** spawn → process exit, after `notifications/initialized` and closing stdin (lifecycle mode) */
  exitMs: number;
  maxRssBytes: number;
}

/**
 * Spawn an MCP stdio server, write one `initialize` request line, and time until the response
 * line arrives on stdout. Then either kill it, or (lifecycle) send `notifications/initialized`,
 * close stdin the way a client shuts down, and time until it exits by itself.
 */
async function timeServerOnce(cmd: string[], lifecycle: boolean): Promise<ServerTiming> {
  const t0 = performance.now();
  const proc = Bun.spawn(cmd, { cwd: ROOT, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  proc.stdin.write(INITIALIZE);
  proc.stdin.flush();
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let initMs = Number.NaN;
  let exitMs = Number.NaN;
  try {
    while (Number.isNaN(initMs)) {
      const { value, done } = await reader.read();
      if (done) fail(`${cmd.join(" ")} closed stdout before answering initialize`);
      buffer += decoder.decode(value, { stream: true });
      for (let nl = buffer.indexOf("\n"); nl !== -1 && Number.isNaN(initMs); nl = buffer.indexOf("\n")) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line) continue;
        const msg = JSON.parse(line) as { id?: unknown; result?: unknown };
        if (msg.id !== 1) continue;
        initMs = performance.now() - t0;
        if (!msg.result) fail(`${cmd.join(" ")} answered initialize with an error: ${line}`);
      }
    }
    if (lifecycle) {
      proc.stdin.write(INITIALIZED);
      await proc.stdin.end();
      // Keep draining stdout so that a chatty server cannot block on a full pipe.
      const drain = (async () => {
        while (!(await reader.read()).done) {}
      })();
      const timer = setTimeout(() => proc.kill(), EXIT_WAIT_MS);
      await proc.exited;
      exitMs = performance.now() - t0;
      clearTimeout(timer);
      await drain.catch(() => {});
      if (proc.signalCode) fail(`${cmd.join(" ")} did not exit within ${EXIT_WAIT_MS} ms of its stdin closing`);
    }
  } finally {
    reader.releaseLock();
    if (proc.exitCode === null && proc.signalCode === null) proc.kill();
    await proc.exited;
  }
  return { initMs, exitMs, maxRssBytes: proc.resourceUsage()?.maxRSS ?? Number.NaN };
}

async function timeServer(cmd: string[], runs: number, warmup: number, lifecycle = false): Promise<ServerTiming[]> {
  for (let i = 0; i < warmup; i++) await timeServerOnce(cmd, lifecycle);
  const out: ServerTiming[] = [];
  for (let i = 0; i < runs; i++) out.push(await timeServerOnce(cmd, lifecycle));
  return out;
}

/** Compile a hello-world with the release flags into the scratch directory (fresh every bench run). */
async function ensureHello(ctx: Context): Promise<string> {
  if (ctx.hello) return ctx.hello;
  const src = join(ctx.tmp, "hello.ts");
  const out = join(ctx.tmp, process.platform === "win32" ? "hello.exe" : "hello");
  writeFileSync(src, 'console.log("hi");\n');
  const proc = Bun.spawnSync([process.execPath, ...COMPILE_FLAGS, src, "--outfile", out], {
    cwd: ctx.tmp,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (!proc.success) fail(`compiling hello-world failed:\n${proc.stderr.toString()}`);
  ctx.hello = out;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Peak memory

/** How peak RSS is read: GNU time's %M if it works here, else getrusage via Bun.spawn. */
type RssMethod = "gnu-time" | "rusage";
let rssMethod: RssMethod | undefined;

function detectRssMethod(tmp: string): RssMethod {
  if (rssMethod) return rssMethod;
  rssMethod = "rusage";
  if (process.platform !== "win32" && existsSync("/usr/bin/time")) {
    const out = join(tmp, "time-probe");
    const probe = Bun.spawnSync(["/usr/bin/time", "-o", out, "-f", "%M", "true"], {
      stdout: "ignore",
      stderr: "ignore",
    });
    if (probe.success && existsSync(out) && /^\d+\s*$/.test(readFileSync(out, "utf8"))) rssMethod = "gnu-time";
  }
  return rssMethod;
}

/**
 * Peak RSS of `cmd` in MiB. Both methods report getrusage's ru_maxrss for the waited-for child,
 * which the kernel folds together with its reaped descendants: for a snapshot that is the larger of
 * mcp-contract and the server it spawned.
 */
function peakRss(cmd: string[], tmp: string): number {
  if (detectRssMethod(tmp) === "gnu-time") {
    const out = join(tmp, "time-out");
    const proc = Bun.spawnSync(["/usr/bin/time", "-o", out, "-f", "%M", ...cmd], {
      cwd: ROOT,
      stdout: "pipe",
      stderr: "pipe",
      stdin: "ignore",
    });
    if (!proc.success) fail(`${cmd.join(" ")} exited with ${proc.exitCode}:\n${proc.stderr.toString().trim()}`);
    const kib = Number(readFileSync(out, "utf8").trim().split("\n").pop());
    return kib / 1024;
  }
  return mib(runOnce(cmd).maxRssBytes);
}

/**
 * Linux only: the peak RSS of the process itself, excluding its children, by polling VmHWM
 * (a high-water mark, so the last sample before exit is the peak up to then) in /proc.
 */
async function ownPeakRss(cmd: string[]): Promise<number> {
  const proc = Bun.spawn(cmd, { cwd: ROOT, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  let hwmKib = 0;
  const sample = () => {
    try {
      const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"));
      if (m) hwmKib = Math.max(hwmKib, Number(m[1]));
    } catch {
      // Exited between samples.
    }
  };
  const timer = setInterval(sample, 2);
  const code = await proc.exited;
  clearInterval(timer);
  if (code !== 0) fail(`${cmd.join(" ")} exited with ${code}`);
  return hwmKib / 1024;
}

// ---------------------------------------------------------------------------------------------
// Benchmarks

function snapshotCmd(ctx: Context, server: string[]): { cmd: string[]; before: () => void } {
  const out = join(ctx.tmp, "bench.contract.json");
  // Remove the lockfile before each run so every run writes it (no "(unchanged)" short cut).
  return { cmd: [BIN, "snapshot", "-o", out, "--", ...server], before: () => rmSync(out, { force: true }) };
}

const BENCHMARKS: Benchmark[] = [
  {
    name: "goals",
    title: "Goals",
    async run(ctx) {
      const bins = [{ label: "this", path: BIN }];
      if (ctx.opts.before) bins.push({ label: "before", path: ctx.opts.before });
      await goalsBenchmark({
        bins,
        tmp: ctx.tmp,
        runs: ctx.opts.runs,
        bigRuns: 3,
        captureRuns: ctx.opts.captureRuns,
        tools: ctx.opts.tools,
        instructions: ctx.opts.instructions,
      });
      return [];
    },
  },
  {
    name: "startup",
    title: "Start-up",
    async run(ctx) {
      const hello = await ensureHello(ctx);
      const { runs, warmup } = ctx.opts;
      const version = runOnce([BIN, "--version"]).stdout.trim();
      return [
        {
          name: `mcp-contract --version (${version})`,
          unit: "ms",
          values: timeCommand([BIN, "--version"], runs, warmup),
        },
        { name: "hello-world, compiled the same way", unit: "ms", values: timeCommand([hello], runs, warmup) },
      ];
    },
  },
  {
    name: "capture",
    title: "Capture (snapshot of a stdio server) vs the server's own start-up",
    async run(ctx) {
      const { captureRuns: runs } = ctx.opts;
      const warmup = Math.min(1, ctx.opts.warmup);
      const rows: Row[] = [];
      for (const [label, server] of [
        ["server-everything", ["node", EVERYTHING, "stdio"]],
        ["weather-server.mjs", ["node", WEATHER]],
      ] as const) {
        const { cmd, before } = snapshotCmd(ctx, [...server]);
        // Interleaved, so that drift in the machine's load hits both sides alike.
        const capture: number[] = [];
        const init: number[] = [];
        const life: number[] = [];
        for (let i = 0; i < warmup + runs; i++) {
          before();
          const ms = runOnce(cmd).ms;
          const alone = await timeServerOnce([...server], true);
          if (i < warmup) continue;
          capture.push(ms);
          init.push(alone.initMs);
          life.push(alone.exitMs);
        }
        const [total, own] = [percentile(capture, 0.5), percentile(life, 0.5)];
        rows.push(
          { name: `snapshot ${label}`, unit: "ms", values: capture },
          { name: `  server alone: spawn → initialize reply`, unit: "ms", values: init },
          { name: `  server alone: spawn → init → stdin closed → exit`, unit: "ms", values: life },
          {
            name: `  → the server's own lifecycle is ${((100 * own) / total).toFixed(0)} % of the capture; the other ${(total - own).toFixed(0)} ms are mcp-contract (start-up, listing)`,
            unit: "ms",
            values: [],
          },
        );
      }
      return rows;
    },
  },
  {
    name: "diff",
    title: "diff of synthetic lockfiles (nested schemas, 5 % of tools changed)",
    async run(ctx) {
      const rows: Row[] = [];
      const small = join(ctx.tmp, "small.json");
      writeFileSync(small, serializeContract(syntheticPair(3)[0]));
      const { runs, warmup } = ctx.opts;
      rows.push(
        {
          name: "start-up: diff of two small files",
          unit: "ms",
          values: timeCommand([BIN, "diff", small, small], runs, warmup),
        },
        { name: "start-up: --version, same runs", unit: "ms", values: timeCommand([BIN, "--version"], runs, warmup) },
      );
      for (const tools of [1000, 10000]) {
        const [before, after] = syntheticPair(tools);
        const a = join(ctx.tmp, `diff-${tools}-a.json`);
        const b = join(ctx.tmp, `diff-${tools}-b.json`);
        writeFileSync(a, serializeContract(before));
        writeFileSync(b, serializeContract(after));
        const size = mib(statSync(a).size).toFixed(0);
        const n = tools === 1000 ? 5 : 3;
        for (const extra of [[], ["--no-witness"]]) {
          const cmd = [BIN, "diff", a, b, "--format", "json", ...extra];
          // Time and memory from separate runs: getrusage of children keeps the maximum over
          // every child the bench has reaped, so peak memory comes from GNU time per run.
          const times = Array.from({ length: n }, () => runOnce(cmd).ms);
          const rss = Array.from({ length: n }, () => peakRss(cmd, ctx.tmp));
          const label = `${tools.toLocaleString("en")} tools (${size} MiB each)${extra.length ? ", --no-witness" : ""}`;
          rows.push(
            { name: `${label}: wall`, unit: "ms", values: times },
            { name: `${label}: peak RSS`, unit: "MiB", values: rss },
          );
        }
      }
      return rows;
    },
  },
  {
    name: "lint",
    title: "lint of synthetic lockfiles (every rule, JSON report)",
    async run(ctx) {
      const rows: Row[] = [];
      for (const tools of [1000, 10000]) {
        const file = join(ctx.tmp, `lint-${tools}.json`);
        writeFileSync(file, serializeContract(syntheticPair(tools)[0]));
        const size = mib(statSync(file).size).toFixed(0);
        const n = tools === 1000 ? 5 : 3;
        // --fail-on never: the synthetic tools have findings, and the bench needs exit 0.
        const cmd = [BIN, "lint", "--from", file, "--format", "json", "--fail-on", "never"];
        const label = `${tools.toLocaleString("en")} tools (${size} MiB)`;
        rows.push(
          { name: `${label}: wall`, unit: "ms", values: Array.from({ length: n }, () => runOnce(cmd).ms) },
          { name: `${label}: peak RSS`, unit: "MiB", values: Array.from({ length: n }, () => peakRss(cmd, ctx.tmp)) },
        );
      }
      return rows;
    },
  },
  {
    name: "memory",
    title: "Peak memory (max RSS)",
    async run(ctx) {
      const hello = await ensureHello(ctx);
      const runs = ctx.opts.memRuns;
      const method = detectRssMethod(ctx.tmp) === "gnu-time" ? "/usr/bin/time -f %M" : "getrusage (Bun.spawn)";
      const repeat = (f: () => number) => Array.from({ length: runs }, f);
      const { cmd, before } = snapshotCmd(ctx, ["node", EVERYTHING, "stdio"]);
      const rows: Row[] = [
        { name: "mcp-contract --version", unit: "MiB", values: repeat(() => peakRss([BIN, "--version"], ctx.tmp)) },
        { name: "hello-world, compiled the same way", unit: "MiB", values: repeat(() => peakRss([hello], ctx.tmp)) },
        {
          name: "snapshot server-everything",
          unit: "MiB",
          values: repeat(() => {
            before();
            return peakRss(cmd, ctx.tmp);
          }),
          note: "includes the reaped server",
        },
      ];
      if (process.platform === "linux") {
        const own: number[] = [];
        for (let i = 0; i < runs; i++) {
          before();
          own.push(await ownPeakRss(cmd));
        }
        rows.push({ name: "  mcp-contract alone", unit: "MiB", values: own, note: "VmHWM, polled every 2 ms" });
      }
      const server = await timeServer(["node", EVERYTHING, "stdio"], runs, 0);
      const serverRss = server.map((t) => mib(t.maxRssBytes));
      rows.push({ name: "  server-everything alone", unit: "MiB", values: serverRss, note: "up to initialize" });
      rows.push({ name: `(method: ${method})`, unit: "MiB", values: [] });
      return rows;
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Output

function machineInfo(): string[] {
  const cpus = os.cpus();
  const node = Bun.spawnSync(["node", "--version"], { stdout: "pipe", stderr: "ignore" });
  return [
    `machine: ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${cpus.length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM`,
    `os:      ${os.type()} ${os.release()} ${os.arch()}`,
    `bun:     ${Bun.version}   node (servers): ${node.success ? node.stdout.toString().trim() : "not found"}`,
    `load:    ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} (1/5/15 min, at start; other work on the machine skews the figures)`,
    `sizes:   ${BIN} ${mib(statSync(BIN).size).toFixed(1)} MiB`,
  ];
}

function printTable(title: string, rows: Row[]): void {
  const width = Math.max(48, ...rows.map((r) => (r.values.length ? r.name.length + 1 : 0)));
  const num = (v: number) => (Number.isNaN(v) ? "-" : v.toFixed(1)).padStart(9);
  console.log(`\n${title}`);
  console.log(
    `${"".padEnd(width)} ${"runs".padStart(5)} ${"median".padStart(9)} ${"p10".padStart(9)} ${"p90".padStart(9)}  unit`,
  );
  console.log("-".repeat(width + 48));
  for (const row of rows) {
    if (row.values.length === 0) {
      console.log(row.name);
      continue;
    }
    const cells = [0.5, 0.1, 0.9].map((p) => num(percentile(row.values, p))).join(" ");
    console.log(
      `${row.name.padEnd(width)} ${String(row.values.length).padStart(5)} ${cells}  ${row.unit}${row.note ? `  (${row.note})` : ""}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------

async function ensureBinary(): Promise<void> {
  if (existsSync(BIN)) return;
  console.log(`dist/${EXE} is missing; building it (bun scripts/build.ts)`);
  const proc = Bun.spawnSync([process.execPath, join(ROOT, "scripts/build.ts")], {
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  });
  if (!proc.success || !existsSync(BIN)) fail("building the host binary failed");
}

async function main(): Promise<number> {
  const opts = parseOptions(process.argv.slice(2));
  const selected = opts.only ? BENCHMARKS.filter((b) => opts.only?.includes(b.name)) : BENCHMARKS;
  const unknown = opts.only?.filter((n) => !BENCHMARKS.some((b) => b.name === n)) ?? [];
  if (unknown.length) fail(`unknown benchmark(s): ${unknown.join(", ")}`);
  await ensureBinary();
  for (const file of [EVERYTHING, WEATHER]) if (!existsSync(file)) fail(`missing ${file}`);

  const ctx: Context = { opts, tmp: mkdtempSync(join(os.tmpdir(), "mcp-contract-bench-")) };
  try {
    console.log("mcp-contract benchmarks");
    for (const line of machineInfo()) console.log(line);
    console.log(
      `runs:    ${opts.runs} (start-up), ${opts.captureRuns} (capture), ${opts.memRuns} (memory); warm-up ${opts.warmup}`,
    );
    for (const bench of selected) {
      const rows = await bench.run(ctx);
      if (bench.name === "startup" && ctx.hello) {
        rows.push({
          name: `(hello-world binary: ${mib(statSync(ctx.hello).size).toFixed(1)} MiB)`,
          unit: "ms",
          values: [],
        });
      }
      if (rows.length) printTable(bench.title, rows);
    }
  } finally {
    rmSync(ctx.tmp, { recursive: true, force: true });
  }
  return 0;
}

try {
  process.exit(await main());
} catch (error) {
  console.error(`bench: ${error instanceof BenchError ? error.message : error instanceof Error ? error.stack : error}`);
  process.exit(1);
}
