/**
 * Property tests of the variance engine over generated JSON Schemas: an arbitrary mix of the
 * keywords the engine understands, nested to depth 4, with $defs/definitions, $refs that are
 * cyclic or point nowhere, all three nullability encodings, unions and boolean schemas.
 *
 * Seeded (seed 42) so that every run checks the same schemas.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { isJsonObject, type Json } from "../../../src/contract/model.ts";
import type { Direction } from "../../../src/diff/model.ts";
import type { SchemaChange } from "../../../src/schema/compare.ts";
import { rootSchema, schemaPair, show, timedCompare, type Verdict, verdict } from "./arbitraries.ts";

const SEED = 42;

// ── (a) a schema compared with itself ──────────────────────────────────────────────────

describe("(a) nothing changes when nothing changed", () => {
  test("compareSchemas(a, a) is [] and compareSchemas(a, structuredClone(a)) is []", () => {
    fc.assert(
      fc.property(rootSchema(), (a) => {
        expect(show(timedCompare(a, a))).toEqual([]);
        expect(show(timedCompare(a, structuredClone(a)))).toEqual([]);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  test("a deep copy with every object's keys in reverse order is []", () => {
    const reversed = (value: Json): Json => {
      if (Array.isArray(value)) return value.map(reversed);
      if (!isJsonObject(value)) return value;
      return Object.fromEntries(
        Object.keys(value)
          .reverse()
          .map((k) => [k, reversed(value[k] as Json)]),
      );
    };
    fc.assert(
      fc.property(rootSchema(), (a) => {
        expect(show(timedCompare(a, reversed(a)))).toEqual([]);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});

// ── (b) direction neutrality ───────────────────────────────────────────────────────────

describe("(b) the input verdict of a→b equals the output verdict of b→a", () => {
  const property = (adjust: (v: Verdict, changes: SchemaChange[], direction: Direction) => Verdict) =>
    fc.property(schemaPair, ([a, b]) => {
      const forward = timedCompare(a, b);
      const backward = timedCompare(b, a);
      const input = adjust(verdict(forward, "input"), forward, "input");
      const output = adjust(verdict(backward, "output"), backward, "output");
      if (input !== output) {
        throw new Error(
          `input verdict of a→b is ${input} ${JSON.stringify(show(forward))}, ` +
            `output verdict of b→a is ${output} ${JSON.stringify(show(backward))}`,
        );
      }
    });

  test("for schema pairs a few edits apart (and some unrelated pairs)", () => {
    fc.assert(
      property((v) => v),
      { seed: SEED, numRuns: 300 },
    );
  });
});

// ── (c) widening an input is never breaking ────────────────────────────────────────────

// ── (d) robustness ─────────────────────────────────────────────────────────────────────

describe("(d) compareSchemas never throws and terminates", () => {
  test("on arbitrary schemas with cyclic and missing refs and garbage where schemas belong", () => {
    fc.assert(
      fc.property(rootSchema(true), rootSchema(true), (a, b) => {
        timedCompare(a, b);
        timedCompare(b, a);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  test("on non-object values at the root", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), rootSchema(true), (a, b) => {
        timedCompare(a as Json, b);
        timedCompare(b, a as Json);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});
