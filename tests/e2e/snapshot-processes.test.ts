/**
 * No server process outlives `mcp-contract snapshot`: not after a capture, not after a
 * timeout, not after Ctrl-C, not even when the server ignores the end of stdin and
 * SIGTERM and has started a grandchild (the `stubborn` fixture, like a server under npx).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { limit } from "../helpers/clock.ts";
import {
  allPids,
  BIN,
  BUN,
  FIXTURE_SERVER,
  killAll,
  listDir,
  ROOT,
  readLockfile,
  readPids,
  snapshotFixture,
  survivors,
  tempDir,
} from "./e2e-helpers.ts";

/** Every pid file a test used, so that afterAll can SIGKILL what a failing test left behind. */
const pidFiles: string[] = [];
afterAll(() => {
  killAll(pidFiles.flatMap((file) => allPids(readPids(file))));
});

function newPidFile(): { dir: string; pidFile: string } {
  const dir = tempDir();
  const pidFile = join(dir, "pids");
  pidFiles.push(pidFile);
  return { dir, pidFile };
}

/** Start the CLI ourselves (to signal it), collecting stderr as it arrives. */
function spawnCli(args: string[]) {
  const cmd = BIN ? [BIN, ...args] : [BUN, join(ROOT, "main.ts"), ...args];
  const proc = Bun.spawn(cmd, {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: "1" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const killer = setTimeout(() => proc.kill("SIGKILL"), 30_000);
  let stderr = "";
  const decoder = new TextDecoder();
  const drained = (async () => {
    for await (const chunk of proc.stderr) stderr += decoder.decode(chunk);
  })();
  const stdout = new Response(proc.stdout).text();
  return {
    proc,
    stderr: () => stderr,
    async waitFor(text: string, ms = 15_000) {
      const deadline = Date.now() + limit(ms);
      while (!stderr.includes(text)) {
        if (Date.now() > deadline || proc.exitCode !== null)
          throw new Error(`never saw ${JSON.stringify(text)}: ${stderr}`);
        await Bun.sleep(50);
      }
    },
    async finished() {
      const code = await proc.exited;
      clearTimeout(killer);
      await drained;
      return { code, stdout: await stdout, stderr };
    },
  };
}

function fixtureArgs(config: object): string[] {
  return ["--env", `FIXTURE=${JSON.stringify(config)}`, "--", BUN, FIXTURE_SERVER];
}

describe("after a capture", () => {
  test.concurrent("a well-behaved server and its processes are gone", async () => {
    const { dir, pidFile } = newPidFile();
    const result = await snapshotFixture({ pidFile }, join(dir, "c.json"));
    expect(result.code).toBe(0);
    const started = readPids(pidFile);
    expect(started.length).toBeGreaterThan(0);
    expect(await survivors(allPids(started))).toEqual([]);
  });

  // Regression: openStdio() calls transport.start() and then Client.connect() calls start() again
  // through Session.tap(), so ChildProcessTransport spawns the server a second time and
  // loses track of the first process (src/connect/index.ts openStdio + session.ts tap).
  test("the server is started exactly once per capture", async () => {
    const { dir, pidFile } = newPidFile();
    const result = await snapshotFixture({ pidFile }, join(dir, "c.json"));
    expect(result.code).toBe(0);
    expect(readPids(pidFile)).toHaveLength(1);
  });

  // Regression: the first of the two spawned servers is never signalled, so a server
  // that ignores stdin EOF and SIGTERM, and its grandchild, survive mcp-contract.
  test("a stubborn server and its grandchild are gone soon after exit 0", async () => {
    const { dir, pidFile } = newPidFile();
    const out = join(dir, "c.json");
    const result = await snapshotFixture({ stubborn: true, pidFile }, out);
    expect(result.code).toBe(0);
    expect(readLockfile(out).tools).toHaveLength(3);
    const started = readPids(pidFile);
    expect(started.every((p) => p.grandchild !== undefined)).toBe(true);
    expect(await survivors(allPids(started))).toEqual([]);
  });

  test("a stubborn server that timed out is gone, with its grandchild", async () => {
    const { dir, pidFile } = newPidFile();
    const result = await snapshotFixture({ stubborn: true, mode: "hang-on-list", pidFile }, join(dir, "c.json"), [
      "--timeout",
      "3",
    ]);
    expect(result.code).toBe(3);
    expect(listDir(dir)).toEqual(["pids"]);
    expect(await survivors(allPids(readPids(pidFile)))).toEqual([]);
  });
});

describe("signals", () => {
  test.concurrent("SIGINT during a hanging initialize exits 130 at once, server gone", async () => {
    const { dir, pidFile } = newPidFile();
    const cli = spawnCli([
      "snapshot",
      "-o",
      join(dir, "c.json"),
      "--verbose",
      ...fixtureArgs({ mode: "hang", pidFile }),
    ]);
    await cli.waitFor("→ initialize");
    await Bun.sleep(1000);
    const sent = performance.now();
    cli.proc.kill("SIGINT");
    const result = await cli.finished();
    expect(result.code).toBe(130);
    expect(performance.now() - sent).toBeLessThan(limit(2000));
    expect(result.stdout).toBe("");
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(listDir(dir)).toEqual(["pids"]);
    const started = readPids(pidFile);
    expect(started.length).toBeGreaterThan(0);
    expect(await survivors(allPids(started))).toEqual([]);
  });

  test.concurrent("SIGTERM during a hanging tools/list exits 143, server gone", async () => {
    const { dir, pidFile } = newPidFile();
    const cli = spawnCli([
      "snapshot",
      "-o",
      join(dir, "c.json"),
      "--verbose",
      ...fixtureArgs({ mode: "hang-on-list", pidFile }),
    ]);
    await cli.waitFor("→ tools/list");
    await Bun.sleep(300);
    cli.proc.kill("SIGTERM");
    const result = await cli.finished();
    expect(result.code).toBe(143);
    expect(listDir(dir)).toEqual(["pids"]);
    expect(await survivors(allPids(readPids(pidFile)))).toEqual([]);
  });

  // Regression: killNow() SIGKILLs the process group of the second
  // server only; the first stubborn server and its grandchild survive.
  test("SIGINT during a hanging tools/list kills a stubborn server and its grandchild", async () => {
    const { dir, pidFile } = newPidFile();
    const cli = spawnCli([
      "snapshot",
      "-o",
      join(dir, "c.json"),
      "--verbose",
      ...fixtureArgs({ mode: "hang-on-list", stubborn: true, pidFile }),
    ]);
    await cli.waitFor("→ tools/list");
    await Bun.sleep(300);
    cli.proc.kill("SIGINT");
    const result = await cli.finished();
    expect(result.code).toBe(130);
    expect(await survivors(allPids(readPids(pidFile)))).toEqual([]);
  });

  // Regression: captureTarget() sets killNow only after openSession() resolves, so a Ctrl-C while
  // initialize is pending exits without signalling anything; a server that ignores stdin
  // EOF (and what it started) lives on (src/cli/capture-target.ts).
  test("SIGINT during a hanging initialize kills a stubborn server and its grandchild", async () => {
    const { dir, pidFile } = newPidFile();
    const cli = spawnCli([
      "snapshot",
      "-o",
      join(dir, "c.json"),
      ...fixtureArgs({ mode: "hang", stubborn: true, pidFile }),
    ]);
    const deadline = Date.now() + limit(10_000);
    while (readPids(pidFile).length === 0 && Date.now() < deadline) await Bun.sleep(50);
    await Bun.sleep(1000);
    cli.proc.kill("SIGINT");
    const result = await cli.finished();
    expect(result.code).toBe(130);
    expect(await survivors(allPids(readPids(pidFile)))).toEqual([]);
  });
});
