/**
 * stringifyWithList writes a report's long list a chunk at a time: its text must be
 * JSON.stringify(document, null, 2)'s, for lists of every length around the chunk size, items of
 * every kind of JSON value (and undefined), strings with newlines and quotes, and an object of
 * many keys (which sends the runtime's stringifier down its slow path).
 */
import { describe, expect, test } from "bun:test";
import { stringifyWithList } from "../../../src/report/json-chunks.ts";
import { prng } from "../../../src/util/random.ts";

/** Whether items may hold characters past U+00FF (two-byte text), so that both ways are taken. */
let wide = true;

function item(next: () => number, depth: number): unknown {
  const kind = Math.floor(next() * (depth > 0 ? 9 : 6));
  if (kind === 0) return `text ${Math.floor(next() * 1000)}\n"quoted"\té${wide && next() < 0.5 ? " … \u2028" : ""}`;
  if (kind === 1) return Math.floor(next() * 1e6) / 7;
  if (kind === 2) return next() < 0.5;
  if (kind === 3) return null;
  if (kind === 4) return undefined;
  if (kind === 5) return [];
  if (kind === 6) return Array.from({ length: Math.floor(next() * 4) }, () => item(next, depth - 1));
  if (kind === 7) return Object.fromEntries(Array.from({ length: 130 }, (_, i) => [`tool-${i}_${depth}`, "mixed"]));
  return { rule: "r", target: { kind: "tool", name: "a\nb" }, evidence: item(next, depth - 1), empty: {} };
}

describe("stringifyWithList", () => {
  test("the text of JSON.stringify(document, null, 2), whatever the list", () => {
    const next = prng(7);
    for (const length of [0, 1, 63, 64, 65, 128, 129, 300, 301]) {
      for (const key of ["findings", "changes", 'we"ird\nkey']) {
        // Narrow first items half the time (the document written whole), wide ones later.
        const list = Array.from({ length }, (_, i) => {
          wide = length % 2 === 0 || i >= 64;
          return item(next, 3);
        });
        const document = { reportVersion: 1, summary: { findings: [] }, [key]: list, notices: ["a", { b: [] }] };
        expect(stringifyWithList(document, key)).toBe(JSON.stringify(document, null, 2));
      }
    }
  });

  test("a key that is not a list, or absent, is written whole", () => {
    expect(stringifyWithList({ findings: "x" }, "findings")).toBe(JSON.stringify({ findings: "x" }, null, 2));
    expect(stringifyWithList({ a: 1 }, "findings")).toBe(JSON.stringify({ a: 1 }, null, 2));
  });
});
