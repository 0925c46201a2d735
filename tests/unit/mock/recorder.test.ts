/**
 * --record's writer against what a recording file can be: /dev/full, FIFOs with no reader, a stuck reader and a slow one
 * (real processes), symlinks, a directory. The waits are shrunk to milliseconds; the failure is
 * said once, record() never waits, and every line is whole or absent.
 * tests/e2e/mock.test.ts runs the same cases through the binary, answers and exit code included,
 * and a real full disk (a 64 KiB tmpfs in a private mount namespace).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UsageError } from "../../../src/errors.ts";
import { Recorder, type RecorderOptions } from "../../../src/mock/recorder.ts";
import type { Exchange } from "../../../src/mock/server.ts";

const dir = mkdtempSync(join(tmpdir(), "mock-recorder-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const exchange = (i: number, pad = 1000): Exchange => ({
  time: "2026-01-01T00:00:00.000Z",
  era: "legacy",
  method: "tools/call",
  params: { name: "echo", arguments: { i, pad: "x".repeat(pad) } },
  result: { content: [] },
});

function recorder(path: string, options: Partial<RecorderOptions> = {}) {
  const said: string[] = [];
  const rec = new Recorder(path, { say: (text) => said.push(text), waitMs: 300, ...options });
  return { rec, said };
}

/** Record `n` exchanges; no call may wait on the file (a blocked write would show here). */
function recordAll(rec: Recorder, n: number, pad?: number): void {
  const started = performance.now();
  for (let i = 0; i < n; i++) rec.record(exchange(i, pad));
  expect(performance.now() - started).toBeLessThan(1_000);
}

/** The whole lines of a recording (each must parse and end with a newline). */
function wholeLines(text: string): unknown[] {
  if (text === "") return [];
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line));
}

function mkfifo(name: string): string {
  const path = join(dir, name);
  expect(Bun.spawnSync(["mkfifo", path]).exitCode).toBe(0);
  return path;
}

describe("Recorder", () => {
  test("a regular file gets every exchange, one line each", async () => {
    const path = join(dir, "plain.jsonl");
    const { rec, said } = recorder(path);
    recordAll(rec, 20);
    expect(await rec.close()).toBe(true);
    expect(wholeLines(readFileSync(path, "utf8"))).toHaveLength(20);
    expect(said).toEqual([]);
  });

  test("/dev/full: every write fails; said once", async () => {
    const { rec, said } = recorder("/dev/full");
    recordAll(rec, 5);
    expect(await rec.close()).toBe(false);
    expect(said).toHaveLength(1);
    expect(said[0]).toBe(
      "mcp-contract mock: recording to /dev/full failed: no space left on device (ENOSPC). Nothing was recorded. The mock answers on, and will exit 2 when it stops.",
    );
  });

  test("a FIFO nobody opens: record() never waits, and the recording fails after the wait", async () => {
    const fifo = mkfifo("nobody.fifo");
    const { rec, said } = recorder(fifo);
    recordAll(rec, 5);
    const started = performance.now();
    expect(await rec.close()).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("no process opened it for reading within 0.3 s");
  });

  test("a FIFO whose reader stops reading: the full pipe fails the recording after the wait, lines whole", async () => {
    const fifo = mkfifo("stuck.fifo");
    // Opens the FIFO, reads nothing until the recording has given up, then reads what it holds.
    const reader = Bun.spawn(["sh", "-c", 'exec 3<"$0"; sleep 1; cat <&3', fifo], { stdout: "pipe" });
    try {
      const { rec, said } = recorder(fifo);
      recordAll(rec, 200);
      expect(await within(rec.close(), 2_000)).toBe(false);
      expect(said).toHaveLength(1);
      expect(said[0]).toContain("its reader stopped reading");
      const held = wholeLines(await new Response(reader.stdout).text());
      expect(held.length).toBeGreaterThan(0);
      expect(held.length).toBeLessThan(200);
      expect(said[0]).toContain(`first ${held.length} exchanges`);
    } finally {
      reader.kill("SIGKILL");
    }
  });

  test("a FIFO whose reader falls behind past the backlog: said once", async () => {
    const fifo = mkfifo("behind.fifo");
    const reader = Bun.spawn(["sh", "-c", 'exec 3<"$0"; sleep 30', fifo]);
    try {
      const { rec, said } = recorder(fifo, { backlogBytes: 100_000 });
      recordAll(rec, 300);
      expect(await within(rec.close(), 2_000)).toBe(false);
      expect(said).toHaveLength(1);
      expect(said[0]).toContain("its reader is not keeping up");
    } finally {
      reader.kill("SIGKILL");
    }
  });

  test("a FIFO with a reader gets every line whole, lines larger than the pipe included", async () => {
    const fifo = mkfifo("read.fifo");
    const reader = Bun.spawn(["cat", fifo], { stdout: "pipe" });
    const { rec, said } = recorder(fifo, { waitMs: 5_000 });
    recordAll(rec, 10, 300_000);
    expect(await rec.close()).toBe(true);
    expect(wholeLines(await new Response(reader.stdout).text())).toHaveLength(10);
    expect(said).toEqual([]);
  });

  test("a symlink to a file writes the file and stays a link; a dangling one creates its target and directories", async () => {
    const target = join(dir, "target.jsonl");
    writeFileSync(target, "old\n");
    const link = join(dir, "link.jsonl");
    symlinkSync(target, link);
    const first = recorder(link);
    recordAll(first.rec, 2);
    expect(await first.rec.close()).toBe(true);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(wholeLines(readFileSync(target, "utf8"))).toHaveLength(2);

    const created = join(dir, "a", "b", "calls.jsonl");
    const dangling = join(dir, "dangling.jsonl");
    symlinkSync(created, dangling);
    const second = recorder(dangling);
    recordAll(second.rec, 2);
    expect(await second.rec.close()).toBe(true);
    expect(lstatSync(dangling).isSymbolicLink()).toBe(true);
    expect(wholeLines(readFileSync(created, "utf8"))).toHaveLength(2);
  });

  test("a directory, or a path that cannot be created, is a UsageError before serving", () => {
    expect(() => recorder(dir)).toThrow(UsageError);
    expect(() => recorder(dir)).toThrow("it is a directory");
    const file = join(dir, "plain-file");
    writeFileSync(file, "");
    expect(() => recorder(join(file, "below.jsonl"))).toThrow(UsageError);
  });
});

function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([promise, Bun.sleep(ms).then(() => undefined)]);
}
