/**
 * Files the user names are read with a limit (#27), through the binary: a lockfile, policy,
 * calls, fixtures, MCP config or envFile that is a device, a FIFO nobody writes or a huge
 * (sparse) file is refused at once with exit 2 and one paragraph naming the file, what is wrong
 * and what to do; a UTF-8 BOM at the start of a JSON file is accepted.
 */
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { limit } from "../helpers/clock.ts";
import { lockfile, tool, writeFile } from "./contract-builders.ts";
import { BUN, type CliResult, expectCleanFailure, FIXTURE_SERVER, runCli, tempDir } from "./e2e-helpers.ts";

const posix = process.platform !== "win32";
const BOM = "\uFEFF";

/** Two lockfiles, the second without the first's `gone` tool (a breaking change), and a scratch directory. */
function pair() {
  const dir = tempDir("mcp-contract-user-files-");
  const before = writeFile(dir, "old.json", lockfile({ tools: [tool("kept"), tool("gone")] as never }));
  const after = writeFile(dir, "new.json", lockfile({ tools: [tool("kept")] as never }));
  return { dir, before, after };
}

function fifo(dir: string, name: string): string {
  const path = join(dir, name);
  expect(spawnSync("mkfifo", [path]).status).toBe(0);
  return path;
}

/** Run, and fail the test if the run took longer than `ms` (scaled): a read that hangs is a failure, not a slow pass. */
async function bounded(args: string[], ms = 5000, cwd?: string): Promise<CliResult & { ms: number }> {
  const started = performance.now();
  const result = await runCli(args, { timeoutMs: limit(ms) + 5000, ...(cwd ? { cwd } : {}) });
  const took = performance.now() - started;
  expect(took).toBeLessThan(limit(ms));
  return { ...result, ms: took };
}

describe.if(posix)("user files that are not regular files of sane size: exit 2 at once", () => {
  test("diff /dev/zero x.json: a device is refused, not read forever", async () => {
    const { after } = pair();
    const result = await bounded(["diff", "/dev/zero", after]);
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain("error: /dev/zero is a character device, not a lockfile");
    expect(result.stderr).toContain("save them to a file first");
  });

  test("diff x.json /dev/urandom", async () => {
    const { before } = pair();
    const result = await bounded(["diff", before, "/dev/urandom"]);
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain("/dev/urandom is a character device, not a lockfile");
  });

  test("--policy naming a FIFO nobody writes: refused, not waited on", async () => {
    const { dir, before, after } = pair();
    const policy = fifo(dir, "policy.json");
    const result = await bounded(["diff", before, after, "--policy", policy]);
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain(`${policy} is a named pipe (FIFO), not a policy file (--policy)`);
  });

  test("a 600 MiB (sparse) lockfile is refused by its size", async () => {
    const { dir, after } = pair();
    const big = join(dir, "big.json");
    writeFileSync(big, "");
    truncateSync(big, 600 * 1024 * 1024);
    const result = await bounded(["diff", big, after]);
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain(`${big} is 600 MiB, over the 512 MiB limit mcp-contract sets for a lockfile`);
  });

  test("check --calls /dev/zero and mock --fixtures FIFO", async () => {
    const { dir, before, after } = pair();
    const calls = await bounded(["check", "--baseline", before, "--against", after, "--calls", "/dev/zero"]);
    expectCleanFailure(calls, 2);
    expect(calls.stderr).toContain("/dev/zero is a character device, not a calls file");
    const fixtures = fifo(dir, "fixtures.json");
    const mock = await bounded(["mock", "--contract", before, "--fixtures", fixtures]);
    expectCleanFailure(mock, 2);
    expect(mock.stderr).toContain(`${fixtures} is a named pipe (FIFO), not a fixtures file`);
  });

  test("an MCP config that is a FIFO, and an envFile that is a device", async () => {
    const { dir } = pair();
    const config = fifo(dir, "mcp.json");
    const fromFifo = await bounded(["snapshot", "-o", "-", "--server", "s", "--config", config]);
    expectCleanFailure(fromFifo, 2);
    expect(fromFifo.stderr).toContain(`${config} is a named pipe (FIFO), not an MCP config file`);

    const withEnv = writeFile(dir, "env.mcp.json", {
      mcpServers: { s: { command: BUN, args: [FIXTURE_SERVER], envFile: "/dev/urandom" } },
    });
    const fromDevice = await bounded(["snapshot", "-o", "-", "--server", "s", "--config", withEnv]);
    expectCleanFailure(fromDevice, 2);
    expect(fromDevice.stderr).toContain("/dev/urandom is a character device, not an envFile (named by");
  });
});

describe("a UTF-8 byte order mark at the start of a JSON file is accepted", () => {
  test("a BOM-prefixed lockfile compares like the same file without one", async () => {
    const { dir, before, after } = pair();
    const bom = writeFile(dir, "bom.json", BOM + JSON.stringify(lockfile({ tools: [tool("kept")] as never })));
    const same = await bounded(["diff", bom, after]);
    expect(same.stderr).toBe("");
    expect(same.code).toBe(0);
    const changed = await bounded(["diff", before, bom, "--fail-on", "breaking"]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('tool "gone": removed');
  });

  test("a BOM-prefixed policy file is read (its rule override applies)", async () => {
    const { dir, before, after } = pair();
    const policy = writeFile(dir, "policy.json", `${BOM}{"version": 1, "rules": {"tool-removed": "off"}}\n`);
    const result = await bounded(["diff", before, after, "--fail-on", "breaking", "--policy", policy]);
    expect(result.stderr).not.toContain("not valid JSON");
    expect(result.code).toBe(0);
  });

  test("a BOM-prefixed .mcp.json (JSONC) names its servers", async () => {
    const dir = tempDir("mcp-contract-user-files-");
    writeFile(
      dir,
      ".mcp.json",
      `${BOM}{\n  // a comment, as VS Code allows\n  "mcpServers": { "fx": { "command": ${JSON.stringify(BUN)}, "args": [${JSON.stringify(FIXTURE_SERVER)}] } },\n}\n`,
    );
    const result = await bounded(["snapshot", "-o", "-", "--server", "fx"], 30_000, dir);
    expect(result.stderr).toContain("captured");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).server.name).toBe("fixture");
  });
});
