import { describe, expect, test } from "bun:test";
import { collectorBeforeBigInput, HEAP_SIZING_CHARS } from "../../../src/cli/heap-policy.ts";

describe("one collection before the first big input", () => {
  test("collects once, before the first input of HEAP_SIZING_CHARS or more, never for smaller ones", () => {
    let collections = 0;
    const before = collectorBeforeBigInput(() => collections++);
    before(11 * 1024 * 1024);
    before(HEAP_SIZING_CHARS - 1);
    expect(collections).toBe(0);
    before(HEAP_SIZING_CHARS);
    expect(collections).toBe(1);
    // The second lockfile of a diff: its collection would mark the first one's tools.
    before(120_000_000);
    expect(collections).toBe(1);
  });

  test("the process's collector runs Bun's synchronous full collection", async () => {
    const gc = Bun.gc;
    const calls: unknown[] = [];
    Bun.gc = ((force?: boolean) => {
      calls.push(force);
      return 0;
    }) as typeof Bun.gc;
    try {
      // A fresh copy of the module: the process-wide collector of this test run stays untouched.
      const fresh = (await import(
        `../../../src/cli/heap-policy.ts?fresh=${Date.now()}`
      )) as typeof import("../../../src/cli/heap-policy.ts");
      fresh.collectBeforeBigInput(HEAP_SIZING_CHARS);
      expect(calls).toEqual([true]);
    } finally {
      Bun.gc = gc;
    }
  });
});
