/**
 * The variance engine stays bounded on hostile or merely huge schemas: server patterns run on
 * the bounded matcher (an undecidable match is reported, never guessed or waited for),
 * unions of thousands of branches pair in near-linear time, and reordering branches, enum
 * values or `required` is never a change. Each test has a generous time bound, far above
 * what it takes and far below what the quadratic or exponential versions took.
 */

import { describe, expect, test } from "bun:test";
import type { Json, JsonObject } from "../../../src/contract/model.ts";
import { compareSchemas } from "../../../src/schema/compare/index.ts";
import { findWitness } from "../../../src/schema/witness.ts";
import { limit, timed } from "../../helpers/clock.ts";

const EVIL = `${"a".repeat(35)}!`;

const rules = (changes: { rule: string; path: string }[]) => changes.map((c) => `${c.rule}@${c.path}`);

describe("server patterns in the comparison", () => {
  test("a catastrophic patternProperties key against a removed property's name is decided at once", () => {
    const names = Array.from({ length: 100 }, (_, i) => `${EVIL}${i}`);
    const before: JsonObject = {
      type: "object",
      properties: Object.fromEntries(names.map((n) => [n, { type: "string" }])),
      patternProperties: { "^(a+)+$": { type: "string" } },
    };
    const after: JsonObject = { ...before, properties: {} };
    const { value, ms } = timed(() => compareSchemas(before, after));
    // No name matches the pattern: each property is simply removed.
    expect(value.map((c) => c.rule)).toEqual(names.map(() => "property-removed"));
    expect(ms).toBeLessThan(limit(2_000));
  });

  test("a name the pattern matches is compared with the pattern's schema", () => {
    const before: JsonObject = {
      type: "object",
      properties: { aaaa: { type: "string" } },
      patternProperties: { "^(a+)+$": { type: "integer" } },
    };
    const after: JsonObject = { ...before, properties: {} };
    expect(rules(compareSchemas(before, after))).toEqual([
      "type-narrowed@/properties/aaaa/type",
      "type-widened@/properties/aaaa/type",
    ]);
  });

  test("a match that cannot be decided within the regex budget is reported as undecidable", () => {
    const pattern = "^(a+)+\\1$";
    const before: JsonObject = {
      type: "object",
      properties: { [EVIL]: { type: "string" } },
      patternProperties: { [pattern]: { type: "string" } },
    };
    const after: JsonObject = { ...before, properties: {} };
    const { value, ms } = timed(() => compareSchemas(before, after));
    expect(value).toHaveLength(1);
    const [change] = value;
    expect(change?.rule).toBe("pattern-properties-changed");
    expect(change?.path).toBe(`/patternProperties/${pattern}`);
    expect(change?.message).toContain("could not be decided");
    expect(change?.note).toContain("budget");
    expect(change?.before).toEqual({ type: "string" });
    expect(ms).toBeLessThan(limit(2_000));
  });
});

describe("server patterns in the witness search", () => {
  const withPattern = (pattern: string): JsonObject => ({
    type: "object",
    properties: {
      s: { type: "string", pattern, default: EVIL, examples: [EVIL, "a".repeat(41)] },
    },
    required: ["s"],
  });

  test("a catastrophic pattern change gets a checked witness quickly", () => {
    const change = { rule: "pattern-changed", path: "/properties/s/pattern" };
    const { value, ms } = timed(() => findWitness(withPattern("^(a+)+$"), withPattern("^(a+)+b$"), change, "input"));
    expect(value).toBeDefined();
    const s = (value as JsonObject).s as string;
    expect(/^(a+)+$/u.test(s)).toBe(true);
    expect(s.length < 20 && !/^(a+)+b$/u.test(s)).toBe(true);
    expect(ms).toBeLessThan(limit(3_000));
  });

  test("no witness is made up from a host engine that gave up: both patterns accept every string", () => {
    // `|^x?` matches the empty prefix of anything; the host engine answered "no" for the first
    // alternative on long runs of a, which once produced a wrong witness here.
    const change = { rule: "pattern-changed", path: "/properties/s/pattern" };
    const { value, ms } = timed(() =>
      findWitness(withPattern("^(a+)+$|^x?"), withPattern("^(a+)+b$|^x?"), change, "input"),
    );
    expect(value).toBeUndefined();
    expect(ms).toBeLessThan(limit(3_000));
  });

  test("an undecidable pattern gives no witness, in bounded time", () => {
    const change = { rule: "pattern-changed", path: "/properties/s/pattern" };
    const { value, ms } = timed(() =>
      findWitness(withPattern("^(a+)+\\1$"), withPattern("^(a+)+\\1b$"), change, "input"),
    );
    if (value !== undefined) expect(((value as JsonObject).s as string).length).toBeLessThan(limit(41));
    expect(ms).toBeLessThan(limit(5_000));
  });
});

describe("reordering is never a change", () => {
  const branches = (n: number): JsonObject[] =>
    Array.from({ length: n }, (_, i) => ({
      type: "object",
      properties: { kind: { const: `k${i}` }, n: { type: "integer", maximum: i } },
      required: ["kind"],
    }));

  test.each(["anyOf", "oneOf"])("a reordered %s of 10,000 branches gives no change", (key) => {
    const list = branches(10_000);
    const before: JsonObject = { type: "object", properties: { x: { [key]: list } } };
    const after: JsonObject = { type: "object", properties: { x: { [key]: [...list].reverse() } } };
    const { value, ms } = timed(() => compareSchemas(before, after));
    expect(value).toEqual([]);
    expect(ms).toBeLessThan(limit(5_000));
  });

  test("one changed branch among 10,000 reordered ones is that one change", () => {
    const list = branches(10_000);
    const reordered = [...list]
      .reverse()
      .map((b, i) =>
        i === 100 ? { ...b, properties: { ...(b.properties as JsonObject), n: { type: "integer", maximum: -1 } } } : b,
      );
    const { value, ms } = timed(() => compareSchemas({ anyOf: list }, { anyOf: reordered }));
    expect(rules(value)).toEqual(["maximum-lowered@/anyOf/9899/properties/n/maximum"]);
    expect(ms).toBeLessThan(limit(5_000));
  });

  test("reordered branches that also changed their descriptions report only the descriptions", () => {
    const list = branches(2_000);
    const reordered = [...list].reverse().map((b) => ({ ...b, description: "documented" }));
    const { value, ms } = timed(() => compareSchemas({ anyOf: list }, { anyOf: reordered }));
    expect(new Set(value.map((c) => c.rule))).toEqual(new Set(["description-changed"]));
    expect(value).toHaveLength(2_000);
    expect(ms).toBeLessThan(limit(5_000));
  });

  test("branches that differ only in spelling still pair by meaning", () => {
    const before: Json = { anyOf: [{ type: "string" }, { type: "object", required: ["a", "b"] }] };
    const after: Json = { anyOf: [{ type: "object", required: ["b", "a"] }, { type: ["string"] }] };
    expect(compareSchemas(before, after)).toEqual([]);
  });

  test("100,000 enum values, reordered, and `required`, reordered, are no change", () => {
    const values = Array.from({ length: 100_000 }, (_, i) => `v${i}`);
    const before: JsonObject = {
      type: "object",
      properties: { e: { enum: values } },
      required: ["e", "f", "g"],
    };
    const after: JsonObject = {
      type: "object",
      properties: { e: { enum: [...values].reverse() } },
      required: ["g", "e", "f"],
    };
    const { value, ms } = timed(() => compareSchemas(before, after));
    expect(value).toEqual([]);
    expect(ms).toBeLessThan(limit(5_000));
  });

  test("an anyOf of 10,000 values is folded and compared as a set", () => {
    const consts = Array.from({ length: 10_000 }, (_, i) => ({ const: i }));
    const { value, ms } = timed(() =>
      compareSchemas({ anyOf: consts }, { anyOf: [...consts].reverse().filter((c) => c.const !== 7) }),
    );
    expect(rules(value)).toEqual(["enum-value-removed@/enum"]);
    expect(ms).toBeLessThan(limit(5_000));
  });
});

describe("identical subschemas that hold references", () => {
  /** `uses` properties, each the same text with a reference to one definition, and one property that differs. */
  function wide(definition: JsonObject, last: JsonObject, uses = 12_000): JsonObject {
    const properties: Record<string, Json> = {};
    for (let i = 0; i < uses; i++) properties[`p${i}`] = { description: "same", allOf: [{ $ref: "#/$defs/Item" }] };
    properties.last = last;
    return { type: "object", properties, $defs: { Item: definition } };
  }
  const item: JsonObject = { type: "object", properties: { id: { type: "string" }, next: { $ref: "#/$defs/Item" } } };

  test("spend no comparison steps when every reference leads to the same text: the change past them is found", () => {
    const before = wide(item, { type: "string" });
    const after = wide(item, { type: "integer" });
    const changes = rules(compareSchemas(before, after));
    // 12,000 uses of the definition once ran the engine out of its 10,000 steps (comparison-limit-reached).
    expect(changes).toEqual(["type-narrowed@/properties/last/type", "type-widened@/properties/last/type"]);
  });

  test("are compared when a definition they reach differs, however deep the reference", () => {
    const changed: JsonObject = {
      type: "object",
      properties: { id: { type: "integer" }, next: { $ref: "#/$defs/Item" } },
    };
    const changes = rules(compareSchemas(wide(item, { type: "string" }, 3), wide(changed, { type: "string" }, 3)));
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.every((c) => c.includes("/properties/id"))).toBe(true);
    // Through a chain: the identical property refers to A, A to B, and only B changed.
    const chain = (b: JsonObject): JsonObject => ({
      properties: { x: { $ref: "#/$defs/A" } },
      $defs: { A: { properties: { b: { $ref: "#/$defs/B" } } }, B: b },
    });
    expect(rules(compareSchemas(chain({ type: "string" }), chain({ type: "integer" })))).toEqual([
      "type-narrowed@/properties/x/$ref/properties/b/$ref/type",
      "type-widened@/properties/x/$ref/properties/b/$ref/type",
    ]);
  });
});
