/**
 * Output files are never destroyed and a failed write never passes for success: -o and --output
 * replace regular files atomically through symlinks, write devices, FIFOs and /dev/stdout in
 * place, keep the old file (and exit 2) when the disk is full or a file-size limit is hit, and a
 * closed stdout ends output quietly while the command keeps its verdict.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, lstatSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliCommand, runShell, shellQuote } from "../helpers/cli.ts";
import { expectCleanFailure, fixtureTarget, listDir, ROOT, runCli, snapshotFixture, tempDir } from "./e2e-helpers.ts";

const isRoot = process.getuid?.() === 0;
const WEATHER = join(ROOT, "examples/weather.contract.json");
const OLD = '{"old": "kept"}\n';

/** A lockfile with `count` tools, and the same with the first tool removed: a large breaking diff. */
function bigPair(dir: string, count = 2000): { before: string; after: string } {
  const base = JSON.parse(readFileSync(WEATHER, "utf8"));
  const tool = base.tools[0];
  const tools = Array.from({ length: count }, (_, i) => ({ ...tool, name: `tool_${String(i).padStart(5, "0")}` }));
  const before = join(dir, "before.json");
  const after = join(dir, "after.json");
  writeFileSync(before, JSON.stringify({ ...base, tools }, null, 2));
  writeFileSync(after, JSON.stringify({ ...base, tools: tools.slice(1) }, null, 2));
  return { before, after };
}

function expectLockfile(path: string): void {
  expect(JSON.parse(readFileSync(path, "utf8")).lockfileVersion).toBe(1);
}

describe("-o onto things that are not regular files", () => {
  test.skipIf(!isRoot)("a character device (like /dev/null) stays a device (root only: mknod)", async () => {
    const dir = tempDir();
    const device = join(dir, "null");
    const made = await runShell(`mknod ${shellQuote([device])} c 1 3`);
    expect(made.code).toBe(0);
    const result = await snapshotFixture({}, device);
    expect(result.code).toBe(0);
    expect(statSync(device).isCharacterDevice()).toBe(true);
    expect(listDir(dir)).toEqual(["null"]);
  });

  test.concurrent("a symlinked lockfile: the target is updated and the link stays a link", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "real.json"), OLD);
    symlinkSync("real.json", join(dir, "mcp.contract.json"));
    const result = await snapshotFixture({}, join(dir, "mcp.contract.json"));
    expect(result.code).toBe(0);
    expect(lstatSync(join(dir, "mcp.contract.json")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, "mcp.contract.json"))).toBe("real.json");
    expectLockfile(join(dir, "real.json"));
    expect(listDir(dir)).toEqual(["mcp.contract.json", "real.json"]);
  });

  test.concurrent("a dangling symlink: its target is created", async () => {
    const dir = tempDir();
    symlinkSync("contracts-real.json", join(dir, "link.json"));
    const result = await snapshotFixture({}, join(dir, "link.json"));
    expect(result.code).toBe(0);
    expect(lstatSync(join(dir, "link.json")).isSymbolicLink()).toBe(true);
    expectLockfile(join(dir, "contracts-real.json"));
  });

  test.concurrent("an existing lockfile keeps its permissions", async () => {
    const dir = tempDir();
    const path = join(dir, "c.json");
    writeFileSync(path, OLD);
    chmodSync(path, 0o600);
    const result = await snapshotFixture({}, path);
    expect(result.code).toBe(0);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expectLockfile(path);
  });

  test.concurrent("a FIFO with a reader gets the lockfile and stays a FIFO", async () => {
    const dir = tempDir();
    const fifo = join(dir, "pipe");
    const out = join(dir, "read.json");
    const target = shellQuote(fixtureTarget({}));
    const result = await runShell(
      `mkfifo ${shellQuote([fifo])} && { cat ${shellQuote([fifo])} > ${shellQuote([out])} & } && cli snapshot -o ${shellQuote([fifo])} ${target} && wait`,
    );
    expect(result.code).toBe(0);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expectLockfile(out);
  });

  test.concurrent("/dev/stdout writes to stdout", async () => {
    const result = await runCli(["snapshot", "-o", "/dev/stdout", ...fixtureTarget({})]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).lockfileVersion).toBe(1);
  });

  test.concurrent("a process substitution >(…) receives the lockfile", async () => {
    const dir = tempDir();
    const out = join(dir, "read.json");
    // bash, not sh: process substitution is a bash feature.
    const line = `${shellQuote([cliScript(dir), "snapshot", "-o"])} >(cat > ${shellQuote([out])}) ${shellQuote(fixtureTarget({}))}`;
    const result = await runShell(`exec bash -c ${shellQuote([`${line} && sleep 0.2`])}`);
    expect(result.code).toBe(0);
    expectLockfile(out);
  });
});

describe("a write that fails keeps the old file and exits 2", () => {
  test.concurrent("a file-size limit (ulimit -f): exit 2 naming the path and EFBIG, old lockfile intact", async () => {
    const dir = tempDir();
    const path = join(dir, "mcp.contract.json");
    writeFileSync(path, OLD);
    const result = await runShell(`ulimit -f 1 && cli snapshot -o ${shellQuote([path, ...fixtureTarget({})])}`);
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain(path);
    expect(result.stderr).toContain("EFBIG");
    expect(result.stderr).toContain("old file was kept");
    expect(readFileSync(path, "utf8")).toBe(OLD);
    expect(listDir(dir)).toEqual(["mcp.contract.json"]);
  });

  test.concurrent("a report --output under a file-size limit: exit 2, old report intact", async () => {
    const dir = tempDir();
    const { before, after } = bigPair(dir, 200);
    const report = join(dir, "report.json");
    writeFileSync(report, OLD);
    const result = await runShell(
      `ulimit -f 1 && cli diff ${shellQuote([before, after, "--format", "json", "--output", report])}`,
    );
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain(report);
    expect(readFileSync(report, "utf8")).toBe(OLD);
  });

  test.concurrent("a full disk (a small tmpfs in a private mount namespace): exit 2, old lockfile intact", async () => {
    const dir = tempDir();
    const mount = join(dir, "mnt");
    const path = join(mount, "mcp.contract.json");
    const probe = await runShell("unshare -rm true");
    if (probe.code !== 0) return; // no user namespaces here: the file-size case above covers the same path
    const q = (s: string) => shellQuote([s]);
    const result = await runShell(
      `mkdir ${q(mount)} && exec unshare -rm sh -c ${q(
        `mount -t tmpfs -o size=16k tmpfs ${q(mount)} && printf '%s' ${q(OLD)} > ${q(path)} && (head -c 12288 /dev/zero > ${q(join(mount, "filler"))} 2>/dev/null; true) && { $0 snapshot -o ${q(path)} ${shellQuote(fixtureTarget({}))}; code=$?; cat ${q(path)} >&2; ls -a ${q(mount)} >&2; exit $code; }`,
      )} ${q(cliScript(dir))}`,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("ENOSPC");
    expect(result.stderr).toContain("old file was kept");
    expect(result.stderr).toContain(OLD.trim());
    expect(result.stderr).not.toContain(".tmp");
  });

  test.concurrent("check --update through a symlinked baseline updates the target", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "real.json"), readFileSync(WEATHER));
    symlinkSync("real.json", join(dir, "mcp.contract.json"));
    const { before } = bigPair(dir, 3);
    const result = await runCli([
      "check",
      "--baseline",
      join(dir, "mcp.contract.json"),
      "--against",
      before,
      "--update",
    ]);
    expect(result.code).toBe(0);
    expect(lstatSync(join(dir, "mcp.contract.json")).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, "real.json"), "utf8")).tools).toHaveLength(3);
  });
});

describe("stdout", () => {
  test.concurrent("closed early (| head -c 1): no error, and check keeps its failing verdict", async () => {
    const dir = tempDir();
    const { before, after } = bigPair(dir);
    const args = shellQuote(["--baseline", before, "--against", after, "--format", "json"]);
    const result = await runShell(`{ cli check ${args}; echo "exit $?" >&2; } | head -c 1 >/dev/null`);
    expect(result.stderr).toBe("exit 1\n");
  });

  test.concurrent("full (>/dev/full): exit 2 with the cause", async () => {
    const result = await runShell(`cli diff ${shellQuote([WEATHER, WEATHER, "--format", "json"])} > /dev/full`);
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain("cannot write to stdout");
    expect(result.stderr).toContain("ENOSPC");
  });
});

/** A tiny script that runs mcp-contract, for shells that cannot see the `cli` function (unshare). */
function cliScript(dir: string): string {
  const script = join(dir, "cli.sh");
  writeFileSync(script, `#!/bin/sh\nexec ${shellQuote(cliCommand())} "$@"\n`, { mode: 0o755 });
  return script;
}
