/**
 * How `mcp-contract snapshot` fails: every way a stdio server or the output path can go
 * wrong gives the documented exit code, one message that names the cause, no stack trace,
 * and nothing half-written in the output directory; an existing lockfile survives.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { limit } from "../helpers/clock.ts";
import {
  expectCleanFailure,
  fixtureTarget,
  listDir,
  readPids,
  runCli,
  snapshotFixture,
  tempDir,
} from "./e2e-helpers.ts";

const isRoot = process.getuid?.() === 0;

describe("the server fails", () => {
  test.concurrent("command not found: exit 3, names the command", async () => {
    const dir = tempDir();
    const result = await runCli(["snapshot", "-o", join(dir, "c.json"), "--", "mcp-fixture-no-such-command", "--flag"]);
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("command not found: mcp-fixture-no-such-command");
    expect(result.stderr).toContain("PATH");
    expect(listDir(dir)).toEqual([]);
  });

  // Regression: spawn reports a missing cwd as ENOENT, which openStdio() checks first, so the user
  // is told `node` is not installed; the `ENOENT_CWD` branch meant for this is unreachable.
  // Reproduce: mcp-contract snapshot -o - --cwd /nonexistent/dir -- node server.js
  test("a --cwd that does not exist: exit 2 naming --cwd, not 'command not found'", async () => {
    const dir = tempDir();
    const missing = join(dir, "no-such-dir");
    const result = await runCli([
      "snapshot",
      "-o",
      join(dir, "c.json"),
      "--cwd",
      missing,
      ...fixtureTarget({}).slice(2),
    ]);
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain("--cwd");
    expect(result.stderr).toContain(missing);
    expect(result.stderr).not.toContain("command not found");
  });

  test.concurrent("a file that is not executable: exit 3, says how to run it", async () => {
    const dir = tempDir();
    const script = join(dir, "server.js");
    writeFileSync(script, "console.log('hi')\n", { mode: 0o644 });
    const result = await runCli(["snapshot", "-o", join(dir, "c.json"), "--", script]);
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("permission denied");
    expect(result.stderr).toContain("chmod +x");
    expect(listDir(dir)).toEqual(["server.js"]);
  });

  test.concurrent("exits before initialize: exit 3, shows its exit code and last stderr lines", async () => {
    const dir = tempDir();
    const result = await snapshotFixture({ mode: "crash-before-init" }, join(dir, "c.json"));
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("exited with code 3");
    expect(result.stderr).toContain("during initialize");
    expect(result.stderr).toContain("| fixture: fatal: cannot open database");
    expect(result.stderr).toContain("| fixture: giving up");
    expect(listDir(dir)).toEqual([]);
  });

  test.concurrent("crashes during initialize: exit 3, shows exit code 4", async () => {
    const dir = tempDir();
    const result = await snapshotFixture({ mode: "crash-on-init" }, join(dir, "c.json"));
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("exited with code 4 during initialize");
    expect(result.stderr).toContain("| fixture: crashed during initialize");
    expect(listDir(dir)).toEqual([]);
  });

  test.concurrent("crashes during tools/list: exit 3, names the phase and exit code 5", async () => {
    const dir = tempDir();
    const result = await snapshotFixture({ mode: "crash-on-list" }, join(dir, "c.json"));
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("exited with code 5 during tools/list");
    expect(result.stderr).toContain("| fixture: crashed while listing tools");
    expect(listDir(dir)).toEqual([]);
  });

  test.concurrent("hangs in initialize: --timeout 2 gives up after 2 s with exit 3", async () => {
    const dir = tempDir();
    const started = performance.now();
    const result = await snapshotFixture({ mode: "hang" }, join(dir, "c.json"), ["--timeout", "2"]);
    const seconds = (performance.now() - started) / 1000;
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("no answer to initialize after 2 s");
    expect(result.stderr).toContain("--timeout");
    expect(seconds).toBeGreaterThanOrEqual(1.9);
    expect(seconds).toBeLessThan(limit(8));
    expect(listDir(dir)).toEqual([]);
  });

  test.concurrent("hangs in tools/list: the message names tools/list", async () => {
    const dir = tempDir();
    // The deadline covers start-up too; leave room for a loaded machine to get to tools/list.
    const result = await snapshotFixture({ mode: "hang-on-list" }, join(dir, "c.json"), ["--timeout", "4"]);
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("no answer to tools/list after 4 s");
    expect(listDir(dir)).toEqual([]);
  });

  test.concurrent("text on stdout: exit 3, quotes it and says to use stderr", async () => {
    const dir = tempDir();
    const result = await snapshotFixture({ mode: "garbage" }, join(dir, "c.json"));
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain('"Server listening on port 3000"');
    expect(result.stderr).toContain("not a JSON-RPC message");
    expect(result.stderr).toContain("stderr");
    expect(listDir(dir)).toEqual([]);
  });

  test.concurrent("-o - on failure: nothing at all on stdout", async () => {
    const result = await runCli(["snapshot", "-o", "-", ...fixtureTarget({ mode: "crash-on-list" })]);
    expectCleanFailure(result, 3);
  });

  test.concurrent("--quiet still prints the error", async () => {
    const dir = tempDir();
    const result = await snapshotFixture({ mode: "crash-on-list" }, join(dir, "c.json"), ["--quiet"]);
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("tools/list");
  });
});

describe("an existing lockfile survives a failed capture", () => {
  test.concurrent("bytes, inode and mtime unchanged, no temp file beside it", async () => {
    const dir = tempDir();
    const out = join(dir, "mcp.contract.json");
    expect((await snapshotFixture({ tools: 2 }, out)).code).toBe(0);
    const bytes = readFileSync(out);
    const before = statSync(out);

    for (const mode of ["crash-on-list", "garbage", "repeat-cursor"]) {
      const result = await snapshotFixture({ mode, tools: 5, pageSize: 1 }, out);
      expectCleanFailure(result, 3);
      expect(readFileSync(out)).toEqual(bytes);
      const after = statSync(out);
      expect({ ino: after.ino, mtimeMs: after.mtimeMs }).toEqual({ ino: before.ino, mtimeMs: before.mtimeMs });
      expect(listDir(dir)).toEqual(["mcp.contract.json"]);
    }
  });
});

describe("-o: a missing directory is created; an unwritable path fails with exit 2 before the server starts", () => {
  test.concurrent("a directory that does not exist is created once the capture succeeded, and not before", async () => {
    const dir = tempDir();
    const created = await snapshotFixture({}, join(dir, "contracts", "deep", "c.json"));
    expect(created.code).toBe(0);
    expect(listDir(join(dir, "contracts", "deep"))).toEqual(["c.json"]);
    const failed = await snapshotFixture({ mode: "crash-on-list" }, join(dir, "other", "c.json"));
    expectCleanFailure(failed, 3);
    expect(listDir(dir)).toEqual(["contracts"]);
  });

  test.concurrent("the path is a directory", async () => {
    const dir = tempDir();
    const pidFile = join(dir, "pids");
    mkdirSync(join(dir, "contracts"));
    const result = await snapshotFixture({ pidFile }, join(dir, "contracts"));
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain("is a directory");
    expect(result.stderr).toContain(join(dir, "contracts", "mcp.contract.json"));
    expect(readPids(pidFile)).toEqual([]);
    expect(listDir(dir)).toEqual(["contracts"]);
    expect(listDir(join(dir, "contracts"))).toEqual([]);
  });

  test.concurrent("a parent in the path is a file", async () => {
    const dir = tempDir();
    const pidFile = join(dir, "pids");
    writeFileSync(join(dir, "file"), "x");
    const result = await snapshotFixture({ pidFile }, join(dir, "file", "c.json"));
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain("not a directory");
    expect(readPids(pidFile)).toEqual([]);
  });

  test.concurrent("the path is given to a server that would fail loudly: the server is never started", async () => {
    const dir = tempDir();
    const started = performance.now();
    writeFileSync(join(dir, "file"), "x");
    const result = await snapshotFixture({ mode: "hang" }, join(dir, "file", "c.json"), ["--timeout", "20"]);
    expectCleanFailure(result, 2);
    expect(performance.now() - started).toBeLessThan(limit(5000));
  });

  test.skipIf(isRoot)("a read-only directory (skipped as root, where it is writable)", async () => {
    const dir = tempDir();
    const locked = join(dir, "locked");
    mkdirSync(locked);
    chmodSync(locked, 0o555);
    try {
      const pidFile = join(dir, "pids");
      const result = await snapshotFixture({ pidFile }, join(locked, "c.json"));
      expectCleanFailure(result, 2);
      expect(result.stderr).toContain("permission denied");
      expect(readPids(pidFile)).toEqual([]);
      expect(listDir(locked)).toEqual([]);
    } finally {
      chmodSync(locked, 0o755);
    }
  });
});

describe("--verbose on a failure", () => {
  test.concurrent("shows the server's stderr as it came, the phases and a stack trace", async () => {
    const dir = tempDir();
    const result = await snapshotFixture({ mode: "crash-on-list" }, join(dir, "c.json"), ["--verbose"]);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("error: the server");
    expect(result.stderr).toContain("server stderr | fixture: crashed while listing tools");
    expect(result.stderr).toContain("→ initialize");
    expect(result.stderr).toContain("→ tools/list");
    expect(result.stderr).toMatch(/^\s+at /m);
    expect(listDir(dir)).toEqual([]);
  });

  test.concurrent("on a timeout, names the phase and shows the stack", async () => {
    const dir = tempDir();
    const result = await snapshotFixture({ mode: "hang" }, join(dir, "c.json"), ["--verbose", "--timeout", "1"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("→ initialize");
    expect(result.stderr).toContain("no answer to initialize after 1 s");
    expect(result.stderr).toMatch(/^\s+at /m);
    expect(existsSync(join(dir, "c.json"))).toBe(false);
  });
});
