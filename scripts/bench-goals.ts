/**
 * The speed goals of issues #18 and #33, each printed as a ratio against its floor, measured in one
 * interleaved run (every round runs every command once, so load on the machine hits all alike):
 *
 *   --version                       ≤ 1.3 × a compiled hello-world
 *   diff of a typical real pair     ≤ 4   × hello-world (issue #33's goal 4; #18 asked 1.5 ×)
 *   diff of the witness-heaviest    ≤ 4   × hello-world
 *   10,000-tool diff with witnesses ≤ 1.5 × the parse floor (a binary that reads and parses both files)
 *   lint of 10,000 tools            ≤ 2   × the parse floor of its one file
 *   lint of 10,000 distinct tools   ≤ 3   × the parse floor, time (issue #33: no two schemas alike)
 *   peak memory of both             ≤ 2   × the parse floor's
 *   snapshot --all of eight servers ≤ 1.5 × one of them captured alone (each takes about 1 s to answer)
 *   capture                         ≤ 1.1 × the server's own lifecycle as a minimal client sees it
 *                                           (spawn → initialize → every list → stdin closed → exit)
 *   beside it, not judged: capture − shutdown grace against the server's spawn → last list reply
 *                                           (our start-up, the era probe and the kill, which the grace does not hide)
 *
 * With `--before BIN` the same rounds also run an older build, so before and after come from
 * the same run. Medians throughout.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { EXIT_GRACE_MS } from "../src/connect/stdio-transport.ts";
import { serializeContract } from "../src/contract/canonical.ts";
import { COMPILE_FLAGS } from "./build.ts";
import { syntheticPair } from "./synthetic.ts";

const ROOT = resolve(import.meta.dir, "..");
const PUBLISHED = join(ROOT, "tests/fixtures/published");
/** The typical pair: a year of a published server's releases (tools added, schemas reworded). */
const TYPICAL = ["filesystem-2025.3.28", "filesystem-2025.8.21"].map((n) => join(PUBLISHED, `${n}.contract.json`));
/** The published pair with the most witnesses (a breaking minItems change to witness). */
const WITNESSED = ["filesystem-2025.8.21", "filesystem-2026.8.31"].map((n) => join(PUBLISHED, `${n}.contract.json`));
const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
/** The test tiers' stdio server: its slow-start mode answers nothing until its delay is over. */
const FIXTURE_SERVER = join(ROOT, "tests/fixtures/fixture-server.ts");
/** Issue #33's goal 1: this many servers, each this slow to answer, captured by `snapshot --all`. */
const ALL_SERVERS = 8;
const SLOW_START_MS = 1000;

export interface GoalOptions {
  /** Binaries to measure: the current build first, then optionally an older one. */
  bins: { label: string; path: string }[];
  tmp: string;
  runs: number;
  bigRuns: number;
  captureRuns: number;
  tools: number;
  /** Also count instructions of the small goals under callgrind (needs valgrind). */
  instructions?: boolean;
}

interface Sample {
  ms: number;
  mib: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2
    ? (sorted[Math.floor(mid)] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** Wall time of one run, and its peak RSS from GNU time when it is there (else NaN). */
function run(cmd: string[], tmp: string, okCodes = [0]): Sample {
  const timeFile = join(tmp, "goal-time");
  const gnuTime = existsSync("/usr/bin/time");
  const argv = gnuTime ? ["/usr/bin/time", "-o", timeFile, "-f", "%M", ...cmd] : cmd;
  const t0 = performance.now();
  const proc = Bun.spawnSync(argv, { cwd: ROOT, stdout: "ignore", stderr: "pipe", stdin: "ignore" });
  const ms = performance.now() - t0;
  if (!okCodes.includes(proc.exitCode ?? -1)) {
    throw new Error(
      `${cmd.join(" ")} exited with ${proc.exitCode ?? proc.signalCode}:\n${proc.stderr.toString().trim()}`,
    );
  }
  const mib = gnuTime ? Number(readFileSync(timeFile, "utf8").trim().split("\n").pop()) / 1024 : Number.NaN;
  return { ms, mib };
}

function compile(source: string, out: string, tmp: string): string {
  const src = join(tmp, `${out}.ts`);
  const bin = join(tmp, out);
  writeFileSync(src, source);
  const proc = Bun.spawnSync([process.execPath, ...COMPILE_FLAGS, src, "--outfile", bin], { cwd: tmp, stderr: "pipe" });
  if (!proc.success) throw new Error(`compiling ${out} failed:\n${proc.stderr.toString()}`);
  return bin;
}

/** Run every command once per round, `rounds` times; the samples of each, by name. */
function interleave(commands: Record<string, string[]>, rounds: number, tmp: string, warmup = 1) {
  const samples: Record<string, Sample[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let i = 0; i < warmup + rounds; i++) {
    for (const [name, cmd] of Object.entries(commands)) {
      // lint exits 1 on findings at --fail-on; the bench passes never, but a diff may exit 1 too.
      const sample = run(cmd, tmp, [0, 1]);
      if (i >= warmup) samples[name]?.push(sample);
    }
  }
  return samples;
}

interface GoalLine {
  goal: string;
  /** Undefined: a view printed beside the goals, not judged. */
  limit: number | undefined;
  ratios: { label: string; ratio: number; detail: string }[];
}

function printGoals(lines: GoalLine[]): void {
  console.log("\nGoals (issues #18 and #33): ratios of medians, measured interleaved in this run");
  for (const line of lines) {
    const limit = line.limit;
    console.log(`  ${line.goal} (${limit === undefined ? "not a goal" : `goal ≤ ${limit}×`})`);
    for (const r of line.ratios) {
      const mark = limit === undefined ? "      " : r.ratio <= limit ? "meets " : "misses";
      console.log(`    ${r.label.padEnd(8)} ${r.ratio.toFixed(2).padStart(6)}×  ${mark}  ${r.detail}`);
    }
  }
}

/**
 * Instructions one run executes, all threads (the JIT's too), counted by callgrind: the same
 * whatever else the machine runs, unlike time. Not a time: page faults and waiting on the
 * disk are not in it, so a ratio of instructions runs above the ratio of times.
 */
function instructionsOf(cmd: string[]): number {
  const proc = Bun.spawnSync(
    ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--smc-check=all", ...cmd],
    {
      cwd: ROOT,
      stdout: "ignore",
      stderr: "pipe",
    },
  );
  const refs = /refs:\s+([\d,]+)/.exec(proc.stderr.toString())?.[1];
  if (refs === undefined) throw new Error(`valgrind did not count ${cmd.join(" ")}: is valgrind installed?`);
  return Number(refs.replaceAll(",", ""));
}

/** The small goals' commands in instructions, against hello-world's: printed beside the goals, not judged. */
function instructionCounts(hello: string, bins: GoalOptions["bins"]): string[] {
  const h = instructionsOf([hello]);
  const m = (n: number) => `${(n / 1e6).toFixed(1)}M`;
  const out = [
    `\nInstructions (callgrind, all threads), against hello-world's ${m(h)}: not the goals, a steady view of them`,
  ];
  for (const [what, args] of [
    ["--version", ["--version"]],
    ["diff of the typical pair", ["diff", ...TYPICAL]],
    ["diff of the witness-heaviest pair", ["diff", ...WITNESSED]],
  ] as const) {
    out.push(`  ${what}`);
    for (const bin of bins) {
      const n = instructionsOf([bin.path, ...args]);
      out.push(`    ${bin.label.padEnd(8)} ${(n / h).toFixed(2).padStart(6)}×  ${m(n)}`);
    }
  }
  return out;
}

/**
 * A stdio server on its own, driven by a minimal client (no SDK): spawn → the last list reply
 * (`lastList`), then stdin closed → the process gone (`exit`; SIGKILL after 5 s), both from the spawn.
 */
async function serverAlone(cmd: string[]): Promise<{ lastList: number; exit: number }> {
  const t0 = performance.now();
  const proc = Bun.spawn(cmd, { cwd: ROOT, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let id = 0;
  const send = (message: object) => {
    proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    proc.stdin.flush();
  };
  const replies = new Map<number, (result: Record<string, unknown>) => void>();
  const request = (method: string, params: object = {}) =>
    new Promise<Record<string, unknown>>((done) => {
      replies.set(++id, done);
      send({ id, method, params });
    });
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line) continue;
        const msg = JSON.parse(line) as { id?: number; result?: Record<string, unknown> };
        if (typeof msg.id === "number" && replies.has(msg.id)) replies.get(msg.id)?.(msg.result ?? {});
      }
    }
  })();
  const init = await request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "bench", version: "0" },
  });
  send({ method: "notifications/initialized" });
  const caps = (init.capabilities ?? {}) as Record<string, unknown>;
  const lists: [string, string][] = [];
  if (caps.tools) lists.push(["tools/list", "tools"]);
  if (caps.resources) lists.push(["resources/list", "resources"], ["resources/templates/list", "resourceTemplates"]);
  if (caps.prompts) lists.push(["prompts/list", "prompts"]);
  // Every list with its pages, all in flight at once, as a capture sends them.
  await Promise.all(
    lists.map(async ([method]) => {
      let cursor: unknown;
      do {
        const page = await request(method, cursor === undefined ? {} : { cursor });
        cursor = page.nextCursor;
      } while (typeof cursor === "string");
    }),
  );
  const lastList = performance.now() - t0;
  // The lifecycle's end (MCP's stdio shutdown): stdin closed, then the server exits by itself.
  proc.stdin.end();
  const killer = setTimeout(() => proc.kill("SIGKILL"), 5000);
  await proc.exited;
  const exit = performance.now() - t0;
  clearTimeout(killer);
  await pump.catch(() => {});
  return { lastList, exit };
}

export async function goalsBenchmark(options: GoalOptions): Promise<void> {
  const { tmp, bins } = options;
  const hello = compile('console.log("hi");\n', "hello", tmp);
  const floor = compile(
    'import { readFileSync } from "node:fs";\nlet n = 0;\nfor (const file of process.argv.slice(2)) n += Object.keys(JSON.parse(readFileSync(file, "utf8"))).length;\nconsole.log(n);\n',
    "parse-floor",
    tmp,
  );
  const lines: GoalLine[] = [];

  // Start-up and small diffs.
  const small: Record<string, string[]> = { hello: [hello] };
  for (const bin of bins) {
    small[`${bin.label} version`] = [bin.path, "--version"];
    small[`${bin.label} typical`] = [bin.path, "diff", ...TYPICAL];
    small[`${bin.label} witnessed`] = [bin.path, "diff", ...WITNESSED];
  }
  const s = interleave(small, options.runs, tmp, 2);
  const ms = (name: string) => median((s[name] ?? []).map((x) => x.ms));
  const h = ms("hello");
  for (const [goal, key, limit] of [
    ["--version vs hello-world", "version", 1.3],
    ["diff of a typical published pair vs hello-world", "typical", 4],
    ["diff of the witness-heaviest published pair vs hello-world", "witnessed", 4],
  ] as const) {
    lines.push({
      goal,
      limit,
      ratios: bins.map((b) => ({
        label: b.label,
        ratio: ms(`${b.label} ${key}`) / h,
        detail: `${ms(`${b.label} ${key}`).toFixed(1)} ms vs ${h.toFixed(1)} ms`,
      })),
    });
  }

  const counted = options.instructions ? instructionCounts(hello, bins) : [];

  // Big files.
  const [before, after] = syntheticPair(options.tools);
  const a = join(tmp, "goal-a.json");
  const b = join(tmp, "goal-b.json");
  writeFileSync(a, serializeContract(before));
  writeFileSync(b, serializeContract(after));
  // The same number of tools, no two schemas alike: what a shape cache cannot shortcut.
  const d = join(tmp, "goal-distinct.json");
  writeFileSync(d, serializeContract(syntheticPair(options.tools, 0.05, 7, true)[0]));
  const big: Record<string, string[]> = {
    "floor both": [floor, a, b],
    "floor one": [floor, a],
    "floor distinct": [floor, d],
  };
  for (const bin of bins) {
    big[`${bin.label} diff`] = [bin.path, "diff", a, b, "--format", "json"];
    big[`${bin.label} lint`] = [bin.path, "lint", "--from", a, "--format", "json", "--fail-on", "never"];
    big[`${bin.label} lint-distinct`] = [bin.path, "lint", "--from", d, "--format", "json", "--fail-on", "never"];
  }
  const g = interleave(big, options.bigRuns, tmp, 0);
  const gm = (name: string, key: "ms" | "mib") => median((g[name] ?? []).map((x) => x[key]));
  const n = options.tools.toLocaleString("en");
  for (const [goal, key, floorName, limit, unit] of [
    [`${n}-tool diff with witnesses vs the parse floor (time)`, "diff", "floor both", 1.5, "ms"],
    [`${n}-tool diff with witnesses vs the parse floor (peak RSS)`, "diff", "floor both", 2, "mib"],
    [`lint of ${n} tools vs the parse floor of its file (time)`, "lint", "floor one", 2, "ms"],
    [`lint of ${n} tools vs the parse floor of its file (peak RSS)`, "lint", "floor one", 2, "mib"],
    [`lint of ${n} distinct tools vs the parse floor of its file (time)`, "lint-distinct", "floor distinct", 3, "ms"],
    [
      `lint of ${n} distinct tools vs the parse floor of its file (peak RSS)`,
      "lint-distinct",
      "floor distinct",
      2,
      "mib",
    ],
  ] as const) {
    const f = gm(floorName, unit);
    lines.push({
      goal,
      limit,
      ratios: bins.map((bin) => {
        const v = gm(`${bin.label} ${key}`, unit);
        const u = unit === "ms" ? "ms" : "MiB";
        return { label: bin.label, ratio: v / f, detail: `${v.toFixed(0)} ${u} vs ${f.toFixed(0)} ${u}` };
      }),
    });
  }
  rmSync(a, { force: true });
  rmSync(b, { force: true });
  rmSync(d, { force: true });

  // Capture against the server's own lifecycle (issue #33's goal 2), and the stricter view: minus
  // our shutdown grace, against the server's time to its last list (what the grace cannot hide).
  if (existsSync(EVERYTHING)) {
    const server = ["node", EVERYTHING, "stdio"];
    const out = join(tmp, "goal.contract.json");
    const captures: Record<string, number[]> = Object.fromEntries(bins.map((bin) => [bin.label, []]));
    const alone: number[] = [];
    const lifecycle: number[] = [];
    for (let i = 0; i < 1 + options.captureRuns; i++) {
      for (const bin of bins) {
        rmSync(out, { force: true });
        const { ms: t } = run([bin.path, "snapshot", "-q", "-o", out, "--", ...server], tmp);
        if (i > 0) captures[bin.label]?.push(t);
      }
      const t = await serverAlone(server);
      if (i > 0) {
        alone.push(t.lastList);
        lifecycle.push(t.exit);
      }
    }
    const base = median(alone);
    const whole = median(lifecycle);
    lines.push({
      goal: "snapshot of server-everything vs the server's own lifecycle (spawn → lists → stdin closed → exit)",
      limit: 1.1,
      ratios: bins.map((bin) => {
        const c = median(captures[bin.label] ?? []);
        return {
          label: bin.label,
          ratio: c / whole,
          detail: `capture ${c.toFixed(0)} ms; the server's lifecycle ${whole.toFixed(0)} ms`,
        };
      }),
    });
    lines.push({
      goal: `beside it, stricter: snapshot minus the ${EXIT_GRACE_MS} ms shutdown grace vs the server alone to its last list`,
      limit: undefined,
      ratios: bins.map((bin) => {
        const c = median(captures[bin.label] ?? []);
        return {
          label: bin.label,
          ratio: (c - EXIT_GRACE_MS) / base,
          detail: `capture ${c.toFixed(0)} ms; server alone ${base.toFixed(0)} ms`,
        };
      }),
    });
  }
  lines.push(allAtOnce(options));
  printGoals(lines);
  for (const line of counted) console.log(line);
}

/**
 * Goal 1: `snapshot --all` of a config of eight stdio servers that each answer after about 1 s,
 * against one of them captured alone (they are the same server, so it is the slowest single
 * capture), interleaved, with the default --jobs.
 */
function allAtOnce(options: GoalOptions): GoalLine {
  const dir = join(options.tmp, "all-at-once");
  mkdirSync(dir, { recursive: true });
  const config = join(dir, "servers.json");
  const server = (name: string) => ({
    command: process.execPath,
    args: [FIXTURE_SERVER],
    env: {
      FIXTURE: JSON.stringify({
        tools: 3,
        serverInfo: { name, version: "1.0.0" },
        mode: "slow-start",
        slowStartMs: SLOW_START_MS,
      }),
    },
  });
  const names = Array.from({ length: ALL_SERVERS }, (_, i) => `server-${i + 1}`);
  writeFileSync(config, JSON.stringify({ mcpServers: Object.fromEntries(names.map((n) => [n, server(n)])) }));
  const commands: Record<string, string[]> = {};
  for (const bin of options.bins) {
    commands[`${bin.label} all`] = [bin.path, "snapshot", "--all", "-q", "--config", config, "--dir", join(dir, "out")];
    commands[`${bin.label} one`] = [
      bin.path,
      "snapshot",
      "-q",
      "--server",
      "server-1",
      "--config",
      config,
      "-o",
      join(dir, "one.json"),
    ];
  }
  const samples = interleave(commands, Math.min(options.captureRuns, 5), options.tmp, 1);
  const ms = (name: string) => median((samples[name] ?? []).map((x) => x.ms));
  const result: GoalLine = {
    goal: `snapshot --all of ${ALL_SERVERS} servers that each answer after ${SLOW_START_MS / 1000} s vs one of them alone`,
    limit: 1.5,
    ratios: options.bins.map((bin) => ({
      label: bin.label,
      ratio: ms(`${bin.label} all`) / ms(`${bin.label} one`),
      detail: `${ms(`${bin.label} all`).toFixed(0)} ms vs ${ms(`${bin.label} one`).toFixed(0)} ms`,
    })),
  };
  rmSync(dir, { recursive: true, force: true });
  return result;
}
