/**
 * The offline read path (docs/performance.md): the commands that only read lockfiles read them
 * through one module, in one session per command, never write through `process.stdout`, and
 * never load a module that talks to a network or a server.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { syntheticPair } from "../../../scripts/synthetic.ts";
import { LockfileReads } from "../../../src/cli/lockfile.ts";
import { serializeContract } from "../../../src/contract/canonical.ts";

const ROOT = join(import.meta.dir, "../../..");
const OLD = join(ROOT, "tests/fixtures/published/filesystem-2025.3.28.contract.json");
const NEW = join(ROOT, "tests/fixtures/published/filesystem-2025.8.21.contract.json");

/**
 * Modules that reach a network, spawn a server or speak MCP: none of them belongs to an offline
 * command. (src/connect/era.ts and target.ts are pure: the protocol's versions, and how a target
 * is named with its secrets masked, which reports use too.)
 */
const NETWORK =
  /^(src\/connect\/(?!era\.ts$|target\.ts$)|src\/(auth|capture|mock|record|replay)\/|node_modules\/(@modelcontextprotocol|undici|ws|eventsource)\b)/;

function probe(args: string[]): { stdoutReads: number; modules: string[]; exitCode: number } {
  const dir = mkdtempSync(join(tmpdir(), "mcp-contract-probe-"));
  try {
    const out = join(dir, "probe.json");
    const proc = Bun.spawnSync([process.execPath, join(ROOT, "tests/helpers/probe-command.ts"), ...args], {
      cwd: ROOT,
      env: { ...process.env, PROBE_OUT: out, NO_COLOR: "1" },
      stdout: "ignore",
      stderr: "pipe",
    });
    if (!proc.success) throw new Error(proc.stderr.toString());
    return JSON.parse(readFileSync(out, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("offline commands stay offline and write through the descriptors", () => {
  for (const args of [
    ["diff", OLD, NEW, "--format", "json"],
    ["diff", OLD, NEW],
    ["lint", "--from", OLD, "--format", "sarif"],
    ["lint", "--from", NEW],
  ]) {
    test(args.map((a) => a.replace(`${ROOT}/`, "")).join(" "), () => {
      const result = probe(args);
      expect([0, 1]).toContain(result.exitCode);
      expect(result.stdoutReads).toBe(0);
      expect(result.modules.filter((m) => NETWORK.test(m))).toEqual([]);
      // The probe sees the modules: the test would notice one of them.
      expect(result.modules).toContain("src/cli/lockfile.ts");
    });
  }
});

describe("one read session per command", () => {
  const [before, after] = syntheticPair(40, 0.1).map(serializeContract) as [string, string];

  test("the second lockfile of a session shares the tools the first held, and a new session shares none", () => {
    const reads = new LockfileReads();
    const a = reads.parse(before, "a.json");
    const b = reads.parse(after, "b.json");
    const shared = b.tools.filter((tool, i) => tool === a.tools[i]).length;
    expect(shared).toBeGreaterThan(30);
    expect(shared).toBeLessThan(40);
    const c = new LockfileReads().parse(before, "c.json");
    expect(c.tools.some((tool, i) => tool === a.tools[i])).toBe(false);
  });

  test("the test tiers read every contract frozen (tests/helpers/preload.ts)", () => {
    expect(process.env.MCP_CONTRACT_FREEZE_READS).toBe("1");
    const reads = new LockfileReads();
    const contract = reads.parse(before, "a.json");
    expect(Object.isFrozen(contract)).toBe(true);
    expect(Object.isFrozen(contract.tools[0]?.inputSchema)).toBe(true);
    expect(() => {
      (contract.tools as unknown[]).push({});
    }).toThrow();
  });
});
