/**
 * `snapshot --all` and `check --all` capture the configured servers at once (issue #33), at most
 * --jobs at a time, and still say everything in the config's order. Proved by when the servers
 * started (each writes its start time to a pid file), not by how long the run took: servers that
 * each take 2.5 s to start all started within that time of one another, which one by one they
 * cannot have.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUN, FIXTURE_SERVER, runCli, tempDir } from "./e2e-helpers.ts";

const SLOW_MS = 2_500;

/** A project whose .mcp.json holds `names`, each a stdio fixture server that starts after `slowMs[name]`. */
function project(names: string[], slowMs: Record<string, number>): { dir: string; pids: string } {
  const dir = tempDir("mcp-contract-all-");
  const pids = join(dir, "pids");
  const server = (name: string) => ({
    command: BUN,
    args: [FIXTURE_SERVER],
    env: {
      FIXTURE: JSON.stringify({
        tools: 1,
        serverInfo: { name, version: "1.0.0" },
        pidFile: pids,
        ...(slowMs[name] ? { mode: "slow-start", slowStartMs: slowMs[name] } : {}),
      }),
    },
  });
  writeFileSync(
    join(dir, ".mcp.json"),
    JSON.stringify({ mcpServers: Object.fromEntries(names.map((n) => [n, server(n)])) }),
  );
  return { dir, pids };
}

const starts = (pids: string) =>
  readFileSync(pids, "utf8")
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { started: number }).started);

describe("--all captures the servers at once", () => {
  const names = ["one", "two", "three", "four"];
  const slow = Object.fromEntries(names.map((n) => [n, SLOW_MS]));

  test.concurrent("snapshot --all: four slow servers start within one start-up time of each other", async () => {
    const { dir, pids } = project(names, slow);
    const result = await runCli(["snapshot", "--all", "--timeout", "60"], { cwd: dir });
    expect(result.code).toBe(0);
    const times = starts(pids);
    expect(times).toHaveLength(4);
    expect(Math.max(...times) - Math.min(...times)).toBeLessThan(SLOW_MS);
  }, 60_000);

  test.concurrent("--jobs 1 captures one by one: each starts after the one before was captured", async () => {
    const { dir, pids } = project(names.slice(0, 2), slow);
    const result = await runCli(["snapshot", "--all", "--jobs", "1", "--timeout", "60"], { cwd: dir });
    expect(result.code).toBe(0);
    const [first, second] = starts(pids) as [number, number];
    expect(second - first).toBeGreaterThanOrEqual(SLOW_MS);
  }, 60_000);

  test.concurrent("lines, lockfiles and report sections come in the config's order, whoever finishes first", async () => {
    // "first" starts slowly and finishes last; it is still said first.
    const { dir } = project(["first", "second", "third"], { first: SLOW_MS });
    const snap = await runCli(["snapshot", "--all", "--timeout", "60"], { cwd: dir });
    expect(snap.code).toBe(0);
    const said = snap.stderr.split("\n").filter((line) => line.includes(": captured"));
    expect(said.map((line) => /(first|second|third): captured/.exec(line)?.[1])).toEqual(["first", "second", "third"]);
    const check = await runCli(["check", "--all", "--format", "json", "--timeout", "60"], { cwd: dir });
    expect(check.code).toBe(0);
    expect(check.stdout.indexOf('"first"')).toBeLessThan(check.stdout.indexOf('"second"'));
    expect(check.stdout.indexOf('"second"')).toBeLessThan(check.stdout.indexOf('"third"'));
  }, 60_000);

  test.concurrent("--jobs outside 1..64 is a usage error", async () => {
    const result = await runCli(["snapshot", "--all", "--jobs", "0"], { cwd: tempDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--jobs");
  });
});
