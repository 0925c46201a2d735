/**
 * Big lockfiles read by schema spans (src/contract/schema-spans.ts): each tool is the value
 * JSON.parse gives, the tools of one shape hold one schema object, a second lockfile's
 * unchanged schemas are the first one's objects, and the diff finds exactly what it finds when
 * both files are parsed whole. The texts are over BIG_INPUT_CHARS, where reads take this path.
 */
import { describe, expect, test } from "bun:test";
import { syntheticPair } from "../../../scripts/synthetic.ts";
import { BIG_INPUT_CHARS } from "../../../src/contract/big-input.ts";
import { serializeContract } from "../../../src/contract/canonical.ts";
import type { Contract, Tool } from "../../../src/contract/model.ts";
import { parseContract } from "../../../src/contract/read.ts";
import { ReadSession } from "../../../src/contract/read-session.ts";
import { diffContracts } from "../../../src/diff/diff.ts";

/** One session for the file's reads, as one command has: each read shares what the one before held. */
const session = new ReadSession();

/** Both files read as a diff reads them (shared), and both parsed whole. */
function readPair(before: string, after: string) {
  const shared = [parseContract(before, "a.json", { session }), parseContract(after, "b.json", { session })];
  const whole = [parseContract(before, "a.json"), parseContract(after, "b.json")];
  return { shared, whole };
}

describe("lockfiles read by schema spans", () => {
  const [a, b] = syntheticPair(260, 0.2, 3).map(serializeContract) as [string, string];

  test("are big enough to take the path", () => {
    expect(a.length).toBeGreaterThanOrEqual(BIG_INPUT_CHARS);
    expect(b.length).toBeGreaterThanOrEqual(BIG_INPUT_CHARS);
  });

  test("give JSON.parse's value, one schema object per shape, and the first file's objects where unchanged", () => {
    const { shared } = readPair(a, b);
    const [before, after] = shared as [Contract, Contract];
    expect(before).toEqual(JSON.parse(a));
    expect(after).toEqual(JSON.parse(b));
    // As many schema objects as distinct schema texts (the synthetic surface has a few shapes).
    for (const key of ["inputSchema", "outputSchema"] as const) {
      const objects = new Set(before.tools.map((t) => t[key]));
      expect(objects.size).toBe(new Set(before.tools.map((t) => JSON.stringify(t[key]))).size);
      expect(objects.size).toBeLessThan(before.tools.length / 10);
    }
    // A changed tool whose input changed keeps the very output object of the first file.
    const changed = after.tools.filter((t, i) => t !== before.tools[i]);
    expect(changed.length).toBeGreaterThan(20);
    const old = (t: Tool) => before.tools.find((o) => o.name === t.name) as Tool;
    const kept = changed.filter((t) => JSON.stringify(old(t).outputSchema) === JSON.stringify(t.outputSchema));
    expect(kept.length).toBeGreaterThan(10);
    for (const t of kept) expect(t.outputSchema).toBe(old(t).outputSchema);
  });

  test("give the diff it gives on files parsed whole, both ways", () => {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      const { shared, whole } = readPair(x, y);
      const got = diffContracts(shared[0] as Contract, shared[1] as Contract);
      expect(got.length).toBeGreaterThan(40);
      expect(got).toEqual(diffContracts(whole[0] as Contract, whole[1] as Contract));
    }
  });

  test("a schema span edited so that its text no longer parses alone is read whole, with the same value", () => {
    // The closing line of one tool's schema moved up: its span is no whole value.
    const at = a.indexOf('"inputSchema": {', a.length / 2);
    const close = a.indexOf("\n      }", at);
    const edited = `${a.slice(0, close)}\n       }${a.slice(close + "\n      }".length)}`;
    expect(edited).not.toBe(a);
    const read = parseContract(edited, "x.json", { session });
    expect(read).toEqual(JSON.parse(edited));
  });
});
