/**
 * What `--hosts all` adds to `lint` on a 1,000-tool surface (goal: at most 20%). Prints lint's
 * time without and with every host profile, and their ratio, measured two ways: in process
 * (judgeLint on the parsed lockfile, the JSON report rendered), and through the compiled binary
 * when dist/mcp-contract exists (`bun scripts/build.ts`) or --bin names another build. Both wall and CPU time (user + system),
 * the median and the fastest run: on a shared machine wall time carries other processes' load,
 * CPU time much less. The surface is scripts/bench.ts's lint surface (synthetic tools, a dozen
 * schema shapes repeated), or with --distinct every tool its own schema (no shape shared: the
 * worst case for the per-shape walk, and every tool is rejected by Gemini's parameters and
 * OpenAI strict, so the report carries four times lint's findings), or with --real the tools of
 * the published servers in tests/fixtures (every distinct tool of every lockfile there, in file
 * order, renamed and repeated up to N: real names, descriptions and schemas, no shape shared).
 * The synthetic surfaces are the worst case for the report (each of their tools is rejected by
 * four rules); the real one is what a server's users meet. Not a test.
 *
 * --write PATH writes the surface's lockfile there and measures nothing (to profile one build).
 *
 *   bun scripts/bench-hosts.ts [--tools N] [--runs N] [--distinct | --real] [--bin PATH] [--write PATH]
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serializeContract } from "../src/contract/canonical.ts";
import type { Contract, Tool } from "../src/contract/model.ts";
import { parseContract } from "../src/contract/read.ts";
import { HOST_IDS } from "../src/lint/hosts/profiles.ts";
import { judgeLint } from "../src/policy/judge.ts";
import { emptyPolicy } from "../src/policy/policy.ts";
import { renderJson } from "../src/report/json.ts";
import { syntheticPair } from "./synthetic.ts";

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at === -1 ? Number.NaN : Number(process.argv[at + 1]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

const TOOLS = flag("--tools", 1000);
const RUNS = flag("--runs", 7);
const DISTINCT = process.argv.includes("--distinct");
const REAL = process.argv.includes("--real");
const binAt = process.argv.indexOf("--bin");
const BIN = binAt === -1 ? join(import.meta.dir, "../dist/mcp-contract") : (process.argv[binAt + 1] ?? "");

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** `count` tools of the published servers' lockfiles in the fixtures (see the comment at the top). */
function realSurface(count: number): Contract {
  const root = join(import.meta.dir, "../tests/fixtures");
  const tools: Tool[] = [];
  const seen = new Set<string>();
  let first: Contract | undefined;
  for (const folder of ["published-pairs", "published", "benign"]) {
    for (const name of readdirSync(join(root, folder)).sort()) {
      if (!name.endsWith(".contract.json")) continue;
      const contract = parseContract(readFileSync(join(root, folder, name), "utf8"), name);
      first ??= contract;
      for (const tool of contract.tools) {
        const key = JSON.stringify(tool);
        if (seen.has(key)) continue;
        seen.add(key);
        tools.push(tool);
      }
    }
  }
  if (!first) throw new Error("no fixture lockfiles");
  const picked = Array.from({ length: count }, (_, i) => {
    const tool = tools[i % tools.length] as Tool;
    return { ...tool, name: `${tool.name}_${String(i).padStart(4, "0")}` };
  });
  return { ...first, tools: picked, resources: [], resourceTemplates: [], prompts: [] };
}

const surface = serializeContract(REAL ? realSurface(TOOLS) : syntheticPair(TOOLS, 0.05, 7, DISTINCT)[0]);
const writeAt = process.argv.indexOf("--write");
if (writeAt !== -1) {
  writeFileSync(process.argv[writeAt + 1] ?? "", surface);
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), "bench-hosts-"));
try {
  const file = join(dir, "lint.json");
  writeFileSync(file, surface);
  const text = readFileSync(file, "utf8");

  interface Sample {
    wall: number;
    cpu: number;
  }
  const inProcess = (hosts: readonly string[] | undefined): Sample => {
    const start = performance.now();
    const cpu = process.cpuUsage();
    // Parsed each run: lint caches per contract object, and a run of the command parses once.
    const contract = parseContract(text, file);
    const { report } = judgeLint({
      contract,
      source: file,
      policy: emptyPolicy(),
      today: "2026-12-02",
      tokenBudget: 10_000,
      disabled: new Set(),
      failOn: "never",
      ...(hosts && { hosts }),
    });
    renderJson(report);
    const used = process.cpuUsage(cpu);
    return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
  };
  const report = (label: string, a: Sample[], b: Sample[]) => {
    for (const measure of ["wall", "cpu"] as const) {
      for (const [how, pick] of [
        ["median", median],
        ["fastest", (v: number[]) => Math.min(...v)],
      ] as const) {
        const x = pick(a.map((s) => s[measure]));
        const y = pick(b.map((s) => s[measure]));
        const ratio = y / x;
        console.log(
          `${label}, ${measure} ${how}: lint ${x.toFixed(0)} ms, lint --hosts all ${y.toFixed(0)} ms: ratio ${ratio.toFixed(3)} (+${((ratio - 1) * 100).toFixed(1)}%; goal at most +20%)`,
        );
      }
    }
  };
  // Warm-up: the validator and the meta-schemas load on the first run.
  inProcess(undefined);
  inProcess(HOST_IDS);
  const plain: Sample[] = [];
  const hosted: Sample[] = [];
  for (let i = 0; i < RUNS; i++) {
    plain.push(inProcess(undefined));
    hosted.push(inProcess(HOST_IDS));
  }
  console.log(
    `${TOOLS.toLocaleString("en")} tools, ${REAL ? "the published servers' tools" : DISTINCT ? "distinct schemas" : "shared schema shapes"}, ${RUNS} runs each, alternating`,
  );
  report("in process", plain, hosted);

  if (existsSync(BIN)) {
    const run = (extra: string[]): Sample => {
      const start = performance.now();
      const r = Bun.spawnSync([BIN, "lint", "--from", file, "--format", "json", "--fail-on", "never", ...extra], {
        stdout: "ignore",
        stderr: "inherit",
      });
      if (r.exitCode !== 0) throw new Error(`lint exited ${r.exitCode}`);
      return { wall: performance.now() - start, cpu: Number(r.resourceUsage.cpuTime.total) / 1000 };
    };
    const a: Sample[] = [];
    const b: Sample[] = [];
    for (let i = 0; i < RUNS; i++) {
      a.push(run([]));
      b.push(run(["--hosts", "all"]));
    }
    report("binary", a, b);
  } else {
    console.log(`binary: ${BIN} not built (bun scripts/build.ts), skipped`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
