// biome-ignore-all lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here, not a promise

/**
 * Engine bugs found on real schemas (and by the rewrite property), fixed: each pinned with the
 * right result, its comment saying what the engine used to do and why that was wrong.
 */
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import type { Json, JsonObject } from "../../../src/contract/model.ts";
import { type DiffRuleId, diffRule } from "../../../src/rules/registry.ts";
import { compareSchemas } from "../../../src/schema/compare/index.ts";
import { nested } from "./rules/limits.ts";
import { at, emitted, ref, tool, withP } from "./rules/table.ts";

const getRule = (id: string) => diffRule(id as DiffRuleId);

// ── engine bugs found on real schemas, fixed: each pinned with the right result; the ─────
// comments say what the engine used to do and why

describe("compareSchemas: engine bugs found on real schemas, fixed", () => {
  const PETS = {
    Cat: {
      type: "object",
      properties: { kind: { const: "cat" }, lives: { type: "integer" } },
      required: ["kind"],
    },
    Dog: { type: "object", properties: { kind: { const: "dog" }, bark: { type: "string" } }, required: ["kind"] },
    Fox: { type: "object", properties: { kind: { const: "fox" } }, required: ["kind"] },
  };

  // Pydantic's Optional[Model]: anyOf [{$ref}, {type: null}]. The null branch is folded away,
  // leaving a bare `$ref` keyword in the normalized node that is never followed (compareResolved
  // only follows a $ref present on the raw node). Right: the change inside Addr is reported,
  // required-added at /properties/addr/anyOf/0/$ref/required (or /properties/addr/$ref/required).
  // The engine returns [] — a breaking input change is missed entirely.
  test("Optional[Model]: a change inside the referenced definition is reported", () => {
    const Addr = { type: "object", properties: { city: { type: "string" } } };
    const old = tool({ addr: { anyOf: [ref("Addr"), { type: "null" }], default: null } }, { $defs: { Addr } });
    const next = tool(
      { addr: { anyOf: [ref("Addr"), { type: "null" }], default: null } },
      { $defs: { Addr: { ...Addr, required: ["city"] } } },
    );
    const rules = compareSchemas(old, next).map((c) => c.rule);
    expect(rules).toEqual(["required-added"]);
  });

  // Same root cause. Right: only null-removed at /properties/addr. The engine also emits
  // type-narrowed at /properties/addr/type and property-added at /properties/addr/properties/city,
  // because the folded old side is treated as "any type, no properties".
  test("Optional[Model] → Model is null-removed only", () => {
    const $defs = { Addr: { type: "object", properties: { city: { type: "string" } } } };
    const old = tool({ addr: { anyOf: [ref("Addr"), { type: "null" }] } }, { $defs });
    const next = tool({ addr: ref("Addr") }, { $defs });
    expect(emitted(old, next)).toEqual([at("null-removed", "/properties/addr")]);
  });

  // Unions of $refs (discriminated unions of models) are matched by position: matchBranches
  // skips the identical-text pairing for branches that contain a $ref, and similarity() sees
  // two bare {$ref} objects as equally similar. Reordering therefore pairs Cat with Dog and emits
  // const-changed (breaking both ways), property-added/removed. Right: [] (same set of values).
  test("union of $refs reordered: no change", () => {
    const old = tool({ pet: { anyOf: [ref("Cat"), ref("Dog")] } }, { $defs: PETS });
    const next = tool({ pet: { anyOf: [ref("Dog"), ref("Cat")] } }, { $defs: PETS });
    expect(emitted(old, next)).toEqual([]);
  });

  // Same root cause. Right: any-of-branch-added at /properties/pet/anyOf/0 only. The engine pairs
  // Cat↔Fox and Dog↔Cat and reports two const-changed plus property changes.
  test("union of $refs: a branch added at the front is any-of-branch-added only", () => {
    const old = tool({ pet: { oneOf: [ref("Cat"), ref("Dog")] } }, { $defs: PETS });
    const next = tool({ pet: { oneOf: [ref("Fox"), ref("Cat"), ref("Dog")] } }, { $defs: PETS });
    expect(emitted(old, next)).toEqual([at("any-of-branch-added", "/properties/pet/oneOf/0")]);
  });

  // compareOneSidedComposition looks for the branch equal to the old schema with
  // jsonEqual(branch, coreSchema(plain)), but coreSchema rewrites `type: "string"` as
  // `type: ["string"]`, so an equal branch is never found when the old schema has a `type`; the
  // fallback similarity() then picks the first equally similar branch. Right (a restructure
  // where one new branch equals the old schema): any-of-branch-added at
  // /properties/p/anyOf/0 only. The engine emits format-changed at /properties/p/anyOf/0/format
  // (breaking on input) and any-of-branch-added at /properties/p/anyOf/1.
  test("restructure: old schema equals the second of two similar branches", () => {
    const old = withP({ type: "string", format: "uri" });
    const next = withP({
      anyOf: [
        { type: "string", format: "date" },
        { type: "string", format: "uri" },
      ],
    });
    expect(emitted(old, next)).toEqual([at("any-of-branch-added", "/properties/p/anyOf/0")]);
  });

  // Same root cause, with whole objects: Cat → anyOf [Dog, Cat]. Right: any-of-branch-added at
  // /properties/pet/anyOf/0. The engine compares Cat against Dog (const-changed, property-added
  // bark, property-removed lives) and reports Cat itself as the added branch.
  test("restructure: model → anyOf [other model, model]", () => {
    const old = tool({ pet: PETS.Cat });
    const next = tool({ pet: { anyOf: [PETS.Dog, PETS.Cat] } });
    expect(emitted(old, next)).toEqual([at("any-of-branch-added", "/properties/pet/anyOf/0")]);
  });

  // `false` accepts nothing, so false → {type: "string"} only widens. compareResolved only
  // special-cases false against an empty schema; otherwise `false` becomes {not: {}} and is
  // normalized as "any type, nullable, with a not", so the engine reports type-narrowed and
  // null-removed (breaking on input) plus not-changed. Right: type-widened at /properties/p
  // (the reverse of the true → false case) — in any case nothing that is breaking on input.
  test("false → a schema is a widening", () => {
    expect(emitted(withP(false), withP({ type: "string" }))).toEqual([at("type-widened", "/properties/p")]);
  });

  // The reverse: {type: "string"} → false accepts nothing any more. Right: type-narrowed at
  // /properties/p. The engine reports type-widened and null-added (minor on input) plus
  // not-changed; the verdict is only breaking thanks to not-changed.
  test("a schema → false is a narrowing", () => {
    expect(emitted(withP({ type: "string" }), withP(false))).toEqual([at("type-narrowed", "/properties/p")]);
  });

  // Pydantic v1 wraps a described $ref as {allOf: [{$ref}], description}; v2 writes
  // {$ref, description}. They mean the same. mergeAllOf keeps $ref branches unmerged and the
  // one-sided $ref inlining only looks at the other side, so the engine reports type-narrowed,
  // property-added and composition-changed. Right: [].
  test("allOf: [{$ref}] ≡ $ref", () => {
    const $defs = { Addr: { type: "object", properties: { city: { type: "string" } } } };
    const old = tool({ addr: { allOf: [ref("Addr")], description: "Address" } }, { $defs });
    const next = tool({ addr: { ...ref("Addr"), description: "Address" } }, { $defs });
    expect(emitted(old, next)).toEqual([]);
  });

  // anyOf of bare types is the same set of values as a type array. The one-sided composition
  // path pairs {type:"string"} with the whole type array and reports the number branch as
  // removed: type-widened at /properties/p/anyOf/0/type and any-of-branch-removed at
  // /properties/p/anyOf/1 (breaking on input). Right: [].
  test("anyOf [string, number] ≡ type [string, number]", () => {
    const old = withP({ anyOf: [{ type: "string" }, { type: "number" }] });
    const next = withP({ type: ["string", "number"] });
    expect(emitted(old, next)).toEqual([]);
  });

  // A property added to an object whose additionalProperties is a schema: before, `b` had to
  // match additionalProperties ({type: string}); now it must be a number. Callers sending
  // b: "x" are rejected, consumers may receive b: 1 — breaking both ways. The engine reports
  // property-added (minor both ways). Right: compare the old additionalProperties schema with
  // the new property's schema at /properties/b: type-narrowed + type-widened at
  // /properties/b/type.
  test("property added to an object with a schema for additionalProperties", () => {
    const old = tool({}, { additionalProperties: { type: "string" } });
    const next = tool({ b: { type: "number" } }, { additionalProperties: { type: "string" } });
    expect(emitted(old, next)).toEqual([
      at("type-narrowed", "/properties/b/type"),
      at("type-widened", "/properties/b/type"),
    ]);
  });

  // The reverse: removing `b: number` where additionalProperties is {type: string} makes
  // b: 1 invalid — breaking on input. The engine reports property-removed (minor on input).
  // Right: type-narrowed + type-widened at /properties/b/type (old property schema vs the new
  // additionalProperties schema).
  test("property removed from an object with a schema for additionalProperties", () => {
    const old = tool({ b: { type: "number" } }, { additionalProperties: { type: "string" } });
    const next = tool({}, { additionalProperties: { type: "string" } });
    expect(emitted(old, next)).toEqual([
      at("type-narrowed", "/properties/b/type"),
      at("type-widened", "/properties/b/type"),
    ]);
  });

  // {const: null} and {type: "null"} both accept exactly null. Normalization drops null from
  // the const's values, leaving values [] with isConst, so the engine reports const-removed
  // (breaking on output). Right: [].
  test("{const: null} ≡ {type: 'null'}", () => {
    expect(emitted(withP({ const: null }), withP({ type: "null" }))).toEqual([]);
  });

  // A union of nothing but null: foldNullBranches removes the null branch and, with no branch
  // left, leaves an unconstrained node flagged nullable — "any value". So {anyOf: [{type: null}]}
  // → {type: "null"} is reported as type-narrowed (breaking on input), and adding a string
  // branch to it — a widening — as type-narrowed too. Right: [] for the first pair;
  // any-of-branch-added (or type-widened at /properties/p/type) for the second.
  test("anyOf [null] ≡ type null", () => {
    expect(emitted(withP({ anyOf: [{ type: "null" }] }), withP({ type: "null" }))).toEqual([]);
  });
  test("anyOf [null] gaining a string branch is not a narrowing", () => {
    const changes = compareSchemas(
      withP({ anyOf: [{ type: "null" }] }),
      withP({ anyOf: [{ type: "null" }, { type: "string" }] }),
    );
    expect(changes.map((c) => getRule(c.rule).input)).not.toContain("breaking");
  });

  // not, if/then/else and dependentSchemas are compared as raw JSON text, so any rewrite that
  // keeps the meaning inside them is reported as not-changed / conditional-changed (breaking
  // both ways). Right: [] — compare the subschemas (normalized, refs followed) and report a
  // change only when one is found. Realistic trigger: a draft-07 → 2020-12 migration that turns
  // `items: [..]` into `prefixItems` or renames definitions → $defs under an if/then or not.
  test("draft-07 → 2020-12 tuple inside `then`: no change", () => {
    const pair = (tuple: JsonObject) =>
      tool({ pair: { type: "array" } }, { if: { required: ["pair"] }, then: { properties: { pair: tuple } } });
    const old = pair({ items: [{ type: "number" }, { type: "number" }] });
    const next = pair({ prefixItems: [{ type: "number" }, { type: "number" }] });
    expect(emitted(old, next)).toEqual([]);
  });
  test("definitions → $defs rename under `not`: no change", () => {
    const old = tool({ p: { not: ref("Empty", "definitions") } }, { definitions: { Empty: { maxLength: 0 } } });
    const next = tool({ p: { not: ref("Empty") } }, { $defs: { Empty: { maxLength: 0 } } });
    expect(emitted(old, next)).toEqual([]);
  });
  test("type 'string' ≡ ['string'] inside `not`", () => {
    const old = withP({ type: "string", not: { type: "string", maxLength: 0 } });
    const next = withP({ type: "string", not: { type: ["string"], maxLength: 0 } });
    expect(emitted(old, next)).toEqual([]);
  });

  // anyOf [string, null] beside a validation keyword: the null fold inlines the one remaining
  // branch, so the old side has no anyOf while the new side (two non-null branches) keeps one,
  // and the one-sided union has "other validation" → composition-changed (breaking) plus a
  // type-widened. Right: any-of-branch-added at /properties/p/anyOf/1 only (a widening).
  test("Optional[str] with a pattern gains an integer branch", () => {
    const old = withP({ anyOf: [{ type: "string" }, { type: "null" }], pattern: "^[a-z]+$" });
    const next = withP({ anyOf: [{ type: "string" }, { type: "integer" }, { type: "null" }], pattern: "^[a-z]+$" });
    const changes = compareSchemas(old, next);
    expect(changes.map((c) => getRule(c.rule).input)).not.toContain("breaking");
  });

  // allOf merging copies `nullable: true` from a part (or keeps the parent's) although the
  // other side of the intersection excludes null; allOf is an intersection, so null passes only
  // when every part allows it. Engine: null-added at /properties/p. Right: [] in both cases.
  test("allOf: a part's nullable: true does not make a string nullable", () => {
    const old = withP({ type: "string", allOf: [{ minLength: 1 }] });
    const next = withP({ type: "string", allOf: [{ minLength: 1, nullable: true }] });
    expect(emitted(old, next)).toEqual([]);
  });
  test("allOf: nullable parent ∩ non-null part ≡ type-array parent ∩ non-null part", () => {
    const old = withP({ type: ["string", "null"], allOf: [{ type: "string" }] });
    const next = withP({ type: "string", nullable: true, allOf: [{ type: "string" }] });
    expect(emitted(old, next)).toEqual([]);
  });

  // mergeAllOf merges a part only when its keywords equal the parent's, so the same allOf is
  // merged on one side and left unmerged on the other: adding "c" to the parent enum (which
  // the part still restricts to a, b — no change at all) gives enum-value-added plus
  // composition-changed at /properties/p/allOf (breaking). Right: [] (intersect enums when
  // merging), at worst nothing breaking on input.
  test("enum widened beside an allOf part that restricts it", () => {
    const old = withP({ enum: ["a", "b"], allOf: [{ enum: ["a", "b"] }] });
    const next = withP({ enum: ["a", "b", "c"], allOf: [{ enum: ["a", "b"] }] });
    expect(emitted(old, next)).toEqual([]);
  });

  // A const that does not match `type` accepts nothing; normalization drops the value, so the
  // old const looks like "no value" and widening the type (which makes 0 valid) is reported as
  // const-changed (breaking both ways). Right: type-widened at /properties/p/type only.
  test("const outside the type: widening the type is not const-changed", () => {
    const old = withP({ const: 0, type: "string" });
    const next = withP({ const: 0, type: ["string", "number"] });
    expect(emitted(old, next)).toEqual([at("type-widened", "/properties/p/type")]);
  });

  // MAX_DEPTH (256) silently stops the comparison: a change 300 levels down is not reported at
  // all. Right: the change (type-narrowed + type-widened at the bottom), or at least a
  // conservative change saying the comparison was cut short — never a silent "no change".
  test("a change below the depth limit is not silently dropped", () => {
    expect(compareSchemas(nested(300, { type: "string" }), nested(300, { type: "number" })).length).toBeGreaterThan(0);
  });

  // Two layouts of the same infinite binary tree whose $refs never sit at the same depth on
  // both sides (old refs at even depths, new at odd): the pair memo only records pairs where
  // both sides are $refs, so every level is inlined again and the two properties double the work
  // per level until MAX_DEPTH: ~2^128 comparisons, i.e. a hang. Right: terminate quickly (e.g.
  // memoize one-sided inlining by (target, other node) too) with no change. Run in a child
  // process so that the hang cannot block the suite.
  test("recursive definitions laid out at different depths terminate", () => {
    const node = (l: Json, r: Json): JsonObject => ({ type: "object", properties: { l, r } });
    const A = node(node(ref("A"), ref("A")), node(ref("A"), ref("A")));
    const old = { $defs: { A }, ...ref("A") };
    const next = { $defs: { A }, ...node(ref("A"), ref("A")) };
    const result = runIsolated(old, next, 3000);
    expect(result).toEqual({ timedOut: false, changes: [] });
  });
});

/** Run compareSchemas in a child process with a time limit. */
function runIsolated(oldSchema: Json, newSchema: Json, timeoutMs: number): { timedOut: boolean; changes?: string[] } {
  const modulePath = new URL("../../../src/schema/compare/index.ts", import.meta.url).pathname;
  const script = `
    import { compareSchemas } from ${JSON.stringify(modulePath)};
    const [a, b] = JSON.parse(process.env.SCHEMA_PAIR);
    process.stdout.write(JSON.stringify(compareSchemas(a, b).map((c) => c.rule + "@" + c.path)));
  `;
  const child = spawnSync(process.execPath, ["-e", script], {
    env: { ...process.env, SCHEMA_PAIR: JSON.stringify([oldSchema, newSchema]) },
    timeout: timeoutMs,
    encoding: "utf8",
  });
  if (child.error || child.signal) return { timedOut: true };
  return { timedOut: false, changes: JSON.parse(child.stdout) as string[] };
}

// Found by the rewrite property (properties.test.ts) with seeds other than 42: the same meaning
// spelled with const instead of enum, a draft-04 boolean bound, or a one-branch union must not
// look like a change, and two schemas that both accept nothing are the same.
describe("equal meanings across spellings: const and enum, draft-04 bounds, one-branch unions", () => {
  const same: [string, Json, Json][] = [
    [
      "a draft-04 `exclusiveMinimum: false` beside an allOf bound",
      { exclusiveMinimum: false, allOf: [{ exclusiveMinimum: 0 }] },
      { allOf: [{ exclusiveMinimum: 0 }] },
    ],
    [
      "const 0 beside a one-branch anyOf of another value",
      { const: 0, anyOf: [{ enum: ["metric"] }] },
      { anyOf: [{ enum: ["metric"] }], enum: [0] },
    ],
    [
      "const 0 beside a nullable-string union (accepts nothing)",
      { const: 0, anyOf: [{ type: ["string", "null"] }, { type: "null" }] },
      { anyOf: [{ type: ["string"], nullable: true }, { type: ["null"] }], enum: [0] },
    ],
    [
      "const null beside allOf const 0",
      { const: null, allOf: [{ const: 0 }] },
      { enum: [null], allOf: [{ enum: [0] }] },
    ],
    [
      'const 0 beside allOf const "metric"',
      { allOf: [{ const: "metric" }], const: 0 },
      { allOf: [{ enum: ["metric"] }], const: 0 },
    ],
    ["two different contradictions", { type: "string", const: 0 }, { allOf: [{ const: "a" }, { const: "b" }] }],
  ];
  for (const [title, a, b] of same) {
    test(title, () => {
      expect(emitted(withP(a), withP(b))).toEqual([]);
      expect(emitted(withP(b), withP(a))).toEqual([]);
    });
  }

  test("a schema that accepts nothing still differs from one that accepts something", () => {
    const nothing = { type: "string", const: 0 };
    expect(emitted(withP(nothing), withP({ type: "string" })).length).toBeGreaterThan(0);
    expect(emitted(withP({ type: "string" }), withP(nothing)).length).toBeGreaterThan(0);
  });

  test("draft-04 exclusive bounds in allOf parts intersect with the parent's", () => {
    const old = withP({ type: "number", minimum: 0, exclusiveMinimum: true, allOf: [{ maximum: 10 }] });
    const next = withP({ type: "number", exclusiveMinimum: 0, maximum: 10 });
    expect(emitted(old, next)).toEqual([]);
  });
});

// Found by the widening property (properties.test.ts, (c)) with seeds other than 42: a branch
// that accepts every value makes an anyOf vacuous, and adding one is a widening only.
describe("an anyOf alternative that accepts any value", () => {
  const cases: [string, Json, Json, string][] = [
    [
      "{} added beside a not",
      { anyOf: [{ not: { type: ["null"] } }] },
      { anyOf: [{}, { not: { type: ["null"] } }] },
      "0",
    ],
    [
      "{} added beside if and multipleOf",
      { anyOf: [{ if: {} }, { multipleOf: 0.5 }] },
      { anyOf: [{}, { if: {} }, { multipleOf: 0.5 }] },
      "0",
    ],
    [
      "an extension-keyword-only branch added beside null",
      { "x-order": 1, anyOf: [{ type: "null" }], properties: {} },
      { "x-order": 1, anyOf: [{ "x-order": 0 }, { type: "null" }], properties: {} },
      "0",
    ],
  ];
  for (const [title, a, b, index] of cases) {
    test(title, () => {
      expect(emitted(withP(a), withP(b))).toEqual([at("any-of-branch-added", `/properties/p/anyOf/${index}`)]);
      expect(emitted(withP(b), withP(a))).toEqual([at("any-of-branch-removed", `/properties/p/anyOf/${index}`)]);
    });
  }

  test("the rest of the node is still compared", () => {
    const before = { type: "string", maxLength: 10, anyOf: [{ pattern: "^a" }] };
    const after = { type: "string", maxLength: 5, anyOf: [{ pattern: "^a" }, true] };
    expect(emitted(withP(before), withP(after))).toEqual([
      at("any-of-branch-added", "/properties/p/anyOf/1"),
      at("max-length-lowered", "/properties/p/maxLength"),
    ]);
  });
});

describe("a property added and required in one release", () => {
  const messages = (a: Json, b: Json) => compareSchemas(a, b).map((c) => `${c.rule}: ${c.message}`);
  const object = (properties: JsonObject, extra: JsonObject = {}): JsonObject => ({
    type: "object",
    properties,
    ...extra,
  });
  const days = { days: { type: "integer" } };

  test("on an open object it is one breaking change that says the property is new", () => {
    expect(messages(object(days), object({ ...days, city: {} }, { required: ["city"] }))).toEqual([
      'required-added: property "city" added, and required',
    ]);
  });

  test("a property declared before and now required is said to be now required", () => {
    expect(messages(object({ city: {} }), object({ city: {} }, { required: ["city"] }))).toEqual([
      'required-added: property "city" is now required',
    ]);
  });

  test("an optional property added is still property-added", () => {
    expect(messages(object(days), object({ ...days, city: {} }))).toEqual(['property-added: property "city" added']);
  });

  test("removed the other way round: one change, that says the property is gone", () => {
    expect(messages(object({ ...days, city: {} }, { required: ["city"] }), object(days))).toEqual([
      'required-removed: property "city" removed, and no longer required',
    ]);
    expect(messages(object({ city: {} }, { required: ["city"] }), object({ city: {} }))).toEqual([
      'required-removed: property "city" is no longer required',
    ]);
  });

  test("on a closed object it is one change that carries the closed-object rule beside it (issue #26)", () => {
    const closed = { additionalProperties: false };
    const [added, ...rest] = compareSchemas(
      object(days, closed),
      object({ ...days, city: {} }, { ...closed, required: ["city"] }),
    );
    expect(rest).toEqual([]);
    expect([added?.rule, added?.also?.rule, added?.also?.path]).toEqual([
      "required-added",
      "closed-object-property-added",
      "/properties/city",
    ]);
    const [removed, ...more] = compareSchemas(
      object({ ...days, city: {} }, { ...closed, required: ["city"] }),
      object(days, closed),
    );
    expect(more).toEqual([]);
    expect([removed?.rule, removed?.also?.rule]).toEqual(["required-removed", "closed-object-property-removed"]);
  });
});
