/**
 * What content hashes (src/contract/hashes.ts) cost, as ratios: issue #32 allows them 10% of
 * `snapshot` and of reading a 10,000-tool lockfile. Prints figures; never fails on a number.
 *
 *   bun scripts/bench-hashes.ts [--tools 10000] [--runs 7] [--bin dist/mcp-contract] [--before OLD_BIN]
 *
 * 1. Reading: parseContract (what every command runs on a lockfile) of the same synthetic
 *    lockfile (all tools distinct, scripts/synthetic.ts) written with and without its hashes
 *    section, in process; and `mcp-contract diff F F` of each through the binary. Deriving the
 *    hashes of a lockfile written before them (only asked for by API callers) is shown apart.
 * 2. Snapshot: the binary captures the fixture server serving those tools (pages of 500) over
 *    stdio; hashing is what hashSurface costs on the same items in process, set against the
 *    rest of the snapshot's wall time. With --before, also the snapshot of a build that does
 *    not hash, interleaved run for run with this one.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join, resolve } from "node:path";
import { serializeContract } from "../src/contract/canonical.ts";
import { hashSurface, surfaceHashes } from "../src/contract/hashes.ts";
import { parseContract } from "../src/contract/read.ts";
import { syntheticPair } from "./synthetic.ts";

const ROOT = resolve(import.meta.dir, "..");
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? (args[i + 1] as string) : fallback;
};
const TOOLS = Number(option("tools", "10000"));
const RUNS = Number(option("runs", "7"));
const BIN = resolve(option("bin", join(ROOT, "dist/mcp-contract")));
/** A build without hashing (e.g. this tree with capture's hashSurface line removed), to compare snapshots with. */
const BEFORE = args.includes("--before") ? resolve(option("before", "")) : undefined;

/**
 * The machine these run on is shared: wall times swing by half from one run to the next. So
 * every figure is CPU time (user + system), and the least of the runs, which is the cost
 * itself without what others added to it.
 */
const least = (values: number[]) => Math.min(...values);

/** CPU ms of one call of `fn` in this process. */
function once(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Least CPU ms of `fn` over `runs` runs (after one warm-up). */
function time(fn: () => void, runs = RUNS): number {
  fn();
  return least(Array.from({ length: runs }, () => once(fn)));
}

/** CPU ms of a command (the binary, and the server it spawns and waits for). */
function run(cmd: string[]): number {
  const result = Bun.spawnSync(cmd, { stdout: "ignore", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`${cmd.join(" ")} exited ${result.exitCode}: ${result.stderr}`);
  return Number(result.resourceUsage.cpuTime.total) / 1000;
}

const pct = (ratio: number) => `${((ratio - 1) * 100).toFixed(1)}%`;
const dir = mkdtempSync(join(os.tmpdir(), "bench-hashes-"));
try {
  const [contract] = syntheticPair(TOOLS, 0.05, 7, true);
  const plain = serializeContract(contract);
  const hashed = serializeContract({ ...contract, hashes: hashSurface(contract) });
  console.log(`CPU ms (user + system), the least of the runs; ratio = with hashes / without`);
  console.log(
    `${TOOLS} tools: lockfile ${(plain.length / 1048576).toFixed(1)} MiB, +${hashed.length - plain.length} bytes of hashes`,
  );

  // 1. Reading.
  // Interleaved, so that neither side gets the warmer JIT or the quieter machine.
  const plainRuns: number[] = [];
  const hashedRuns: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const a = once(() => parseContract(plain, "plain.json"));
    const b = once(() => parseContract(hashed, "hashed.json"));
    // The first round warms both up.
    if (i > 0) {
      plainRuns.push(a);
      hashedRuns.push(b);
    }
  }
  const readPlain = least(plainRuns);
  const readHashed = least(hashedRuns);
  console.log(
    `read (parseContract)      without ${readPlain.toFixed(0)} ms · with ${readHashed.toFixed(0)} ms · ratio ${(readHashed / readPlain).toFixed(3)} (${pct(readHashed / readPlain)})`,
  );
  const derive = time(() => surfaceHashes(parseContract(plain, "plain.json")).hashes) - readPlain;
  console.log(`derive hashes of a lockfile without them (on demand only): ${derive.toFixed(0)} ms more`);
  const plainFile = join(dir, "plain.json");
  const hashedFile = join(dir, "hashed.json");
  writeFileSync(plainFile, plain);
  writeFileSync(hashedFile, hashed);
  const diffRuns = Math.max(3, Math.ceil(RUNS / 2));
  const cliPlainRuns: number[] = [];
  const cliHashedRuns: number[] = [];
  for (let i = 0; i < diffRuns; i++) {
    cliPlainRuns.push(run([BIN, "diff", plainFile, plainFile]));
    cliHashedRuns.push(run([BIN, "diff", hashedFile, hashedFile]));
  }
  const cliPlain = least(cliPlainRuns);
  const cliHashed = least(cliHashedRuns);
  console.log(
    `read (mcp-contract diff F F) without ${cliPlain.toFixed(0)} ms · with ${cliHashed.toFixed(0)} ms · ratio ${(cliHashed / cliPlain).toFixed(3)} (${pct(cliHashed / cliPlain)})`,
  );

  // 2. Snapshot: the fixture server sends the tools exactly as configured.
  const config = join(dir, "server.json");
  writeFileSync(config, JSON.stringify({ tools: contract.tools, pageSize: 500 }));
  const out = join(dir, "out.json");
  const server = [process.execPath, join(ROOT, "tests/fixtures/fixture-server.ts")];
  const snapshotRuns = Math.max(3, Math.ceil(RUNS / 2));
  const snapshotWith = (bin: string) =>
    run([bin, "snapshot", "-q", "-o", out, "--env", `FIXTURE_FILE=${config}`, "--", ...server]);
  const withRuns: number[] = [];
  const beforeRuns: number[] = [];
  for (let i = 0; i < snapshotRuns; i++) {
    withRuns.push(snapshotWith(BIN));
    if (BEFORE) beforeRuns.push(snapshotWith(BEFORE));
  }
  const snapshot = least(withRuns);
  if (BEFORE) {
    const before = least(beforeRuns);
    console.log(
      `snapshot (binary, stdio)  without hashing ${before.toFixed(0)} ms · with ${snapshot.toFixed(0)} ms · ratio ${(snapshot / before).toFixed(3)} (${pct(snapshot / before)})`,
    );
  }
  const hashing = time(() => hashSurface(contract));
  const ratio = snapshot / (snapshot - hashing);
  console.log(
    `snapshot (binary, stdio)  ${snapshot.toFixed(0)} ms, of which hashing ${hashing.toFixed(0)} ms · ratio ${ratio.toFixed(3)} (${pct(ratio)})`,
  );

  // 3. A real server's snapshot: hashing its items (as the lockfile stores them) against the snapshot.
  const everything = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
  const real = join(dir, "everything.json");
  const realSnapshot = least(
    Array.from({ length: snapshotRuns }, () =>
      run([BIN, "snapshot", "-q", "-o", real, "--", "node", everything, "stdio"]),
    ),
  );
  const captured = parseContract(await Bun.file(real).text(), real);
  const realHashing = time(() => hashSurface(captured), 50);
  const realRatio = realSnapshot / (realSnapshot - realHashing);
  console.log(
    `snapshot server-everything (${captured.tools.length} tools, ${captured.resources.length} resources, ${captured.prompts.length} prompts) ${realSnapshot.toFixed(0)} ms, of which hashing ${realHashing.toFixed(2)} ms · ratio ${realRatio.toFixed(4)} (${pct(realRatio)})`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
