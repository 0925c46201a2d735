/**
 * soundLength (src/contract/compact-length.ts) is the reader's boundary check and lint's measure
 * of a tool in one walk: it must answer -1 exactly where findValueProblem finds a value too deep
 * or a number that is not finite, and JSON.stringify's length everywhere else, with and without
 * the walk's shortcuts (scalars measured in the loop, strings of a text without a backslash by
 * their length).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { soundLength } from "../../../src/contract/compact-length.ts";
import { findValueProblem } from "../../../src/contract/validate.ts";

const stringified = (value: unknown) => (JSON.stringify(value) ?? "null").length;

/** What soundLength must answer for `value` at `level` under `limit`. */
function expected(value: unknown, level: number, limit: number): number {
  // findValueProblem counts the value itself as level 1: the same limit, shifted.
  return findValueProblem(value, limit - level + 1) === undefined ? stringified(value) : -1;
}

/** JSON values with numbers JSON.parse can make Infinity of, nested around a small limit. */
const values = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null)),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie("value"), { maxKeys: 4 }),
  ),
})).value;

describe("soundLength", () => {
  test("is -1 exactly where the boundary check finds a problem, else the compact JSON length", () => {
    fc.assert(
      fc.property(values, fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 }), (value, level, limit) => {
        return soundLength(value, level, limit) === expected(value, level, limit);
      }),
      { seed: 20261202, numRuns: 4000 },
    );
  });

  test("a value nested exactly to the limit passes, one level more does not, wherever the nesting is", () => {
    for (let limit = 1; limit <= 8; limit++) {
      for (const wrap of [
        (v: unknown) => [v],
        (v: unknown) => ({ k: v }),
        (v: unknown) => ["s", 1, { a: v, b: null }],
      ]) {
        let value: unknown = {};
        for (let depth = 1; depth <= limit + 1; depth++) {
          expect({ limit, depth, length: soundLength(value, 1, limit) }).toEqual({
            limit,
            depth,
            length: expected(value, 1, limit),
          });
          value = wrap(value);
        }
      }
    }
  });

  test("strings of a text without a backslash are measured by their length, as JSON.stringify measures them", () => {
    // Text without a backslash: no quote, backslash or control character, no lone surrogate.
    const plain = fc.string({ unit: fc.constantFrom("a", "é", " ", "😀", "<", "\u2028", "'") });
    const plainValues = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.oneof(plain, fc.integer(), fc.boolean(), fc.constant(null)),
        fc.array(tie("value"), { maxLength: 4 }),
        fc.dictionary(plain, tie("value"), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(plainValues, (value) => {
        expect(JSON.stringify(value)).not.toContain("\\");
        return soundLength(value, 1, 64, true) === stringified(value);
      }),
      { seed: 20261202, numRuns: 2000 },
    );
  });

  test("a number that is not finite fails at any place", () => {
    for (const bad of [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN]) {
      for (const value of [bad, [1, bad], { a: "x", b: bad }, { a: [{ b: bad }] }, [[], {}, [bad]]]) {
        expect(soundLength(value, 1, 10)).toBe(-1);
        expect(soundLength(value, 1, 10, true)).toBe(-1);
      }
    }
  });
});
