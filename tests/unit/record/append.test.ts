/** `record --append`: the Recorder adds to a file instead of starting it afresh (one recording across sessions). */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Recorder } from "../../../src/mock/recorder.ts";

const dir = mkdtempSync(join(tmpdir(), "record-append-"));
const exchange = (method: string) => ({ time: "2026-01-01T00:00:00.000Z", era: "legacy" as const, method, result: {} });

describe("Recorder append", () => {
  test("keeps what the file held, and a fresh recorder still starts afresh", async () => {
    const path = join(dir, "calls.jsonl");
    writeFileSync(path, `${JSON.stringify(exchange("first"))}\n`);
    const appending = new Recorder(path, { say: () => undefined, append: true });
    appending.record(exchange("second"));
    expect(await appending.close()).toBe(true);
    expect(
      readFileSync(path, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l).method),
    ).toEqual(["first", "second"]);
    const fresh = new Recorder(path, { say: () => undefined });
    fresh.record(exchange("third"));
    await fresh.close();
    expect(readFileSync(path, "utf8")).toBe(`${JSON.stringify(exchange("third"))}\n`);
  });

  test("the failure line names the proxy when it records", () => {
    const said: string[] = [];
    const rec = new Recorder("/dev/full", {
      say: (text) => said.push(text),
      speaker: { name: "mcp-contract record", who: "the proxy", goesOn: "The proxy forwards on" },
    });
    rec.record(exchange("x"));
    expect(said).toHaveLength(1);
    expect(said[0]).toStartWith("mcp-contract record: recording to /dev/full failed");
    expect(said[0]).toContain("The proxy forwards on, and will exit 2 when it stops.");
  });
});
