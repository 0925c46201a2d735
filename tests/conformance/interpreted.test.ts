/**
 * The interpreting validator (src/schema/witness/interpreted.ts) stands in for ajv only where
 * it answers as ajv does. These tests hold it to that: over generated schemas (cyclic and
 * missing refs, garbage where schemas belong) and the schemas of real and synthetic
 * lockfiles, the two engines agree on whether a schema compiles and on every value.
 */

import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { syntheticPair } from "../../scripts/synthetic.ts";
import { isJsonObject, type Json, type JsonObject } from "../../src/contract/model.ts";
import { gen } from "../../src/schema/witness/instances.ts";
import { interpretable, metaSchemaAccepts } from "../../src/schema/witness/interpreted.ts";
import { Side } from "../../src/schema/witness/merge.ts";
import { plainlyMetaValid } from "../../src/schema/witness/meta-check.ts";
import { buildValidator, validatorFor } from "../../src/schema/witness/validators.ts";
import { within } from "../helpers/clock.ts";
import { rootSchema } from "../unit/schema/arbitraries.ts";

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema";
const ROOT = join(import.meta.dir, "../..");

/** Values to try: what the witness generator makes of the schema, and arbitrary JSON. */
function valuesFor(schema: Json, extra: Json[] = []): Json[] {
  const made = gen(schema, new Side(schema), 40);
  return [...made, ...extra, null, 0, 1.5, -1, "", "a", true, [], {}, [1, "a"], { city: "x" }];
}

/** Whether both engines agree on `root`: the same compile outcome and the same verdicts. */
function expectSameVerdicts(root: JsonObject, extra: Json[] = []): boolean {
  const interpreted = buildValidator(root, "auto");
  const compiled = buildValidator(root, "ajv");
  expect(interpreted === null).toBe(compiled === null);
  if (!interpreted || !compiled) return false;
  // A schema that recurses forever overflows the stack in both: that counts as the same answer.
  const verdict = (check: (value: Json) => boolean | undefined, value: Json) => {
    try {
      return check(value);
    } catch (error) {
      return `throws ${(error as Error).name}`;
    }
  };
  for (const value of valuesFor(root, extra)) {
    const verdicts = [verdict(interpreted, value), verdict(compiled, value)];
    if (verdicts[0] !== verdicts[1])
      throw new Error(`${JSON.stringify(root)} on ${JSON.stringify(value)}: ${verdicts}`);
  }
  return true;
}

function toolSchemas(contract: unknown): JsonObject[] {
  const tools = (contract as { tools?: JsonObject[] }).tools ?? [];
  return tools.flatMap((tool) => [tool.inputSchema, tool.outputSchema].filter(isJsonObject));
}

describe("the interpreting validator answers as ajv does", () => {
  test.each([
    ["draft-07", DRAFT_07, "07"],
    ["2020-12", DRAFT_2020, "2020"],
    ["undeclared (2020-12)", undefined, "2020"],
  ] as const)("on generated %s schemas, garbage and broken refs included", (_, $schema, dialect) => {
    let interpretedRoots = 0;
    fc.assert(
      fc.property(rootSchema({ garbage: true }), fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 8 }), (s, xs) => {
        if (!isJsonObject(s)) return;
        const root = $schema === undefined ? s : { $schema, ...s };
        if (interpretable({ ...s }, dialect)) interpretedRoots++;
        expectSameVerdicts(root, xs as Json[]);
      }),
      { seed: 20261201, numRuns: 400 },
    );
    // The comparison means something only if many generated schemas take the interpreted path.
    expect(interpretedRoots).toBeGreaterThan(40);
  });

  test("on every tool schema of the published, benign-corpus and synthetic lockfiles", () => {
    const published = ["filesystem-2025.3.28", "filesystem-2025.8.21", "filesystem-2026.8.31"].map(
      (name) => `tests/fixtures/published/${name}.contract.json`,
    );
    const benign = readdirSync(join(ROOT, "tests/fixtures/benign"))
      .filter((name) => name.endsWith(".contract.json"))
      .map((name) => `tests/fixtures/benign/${name}`);
    expect(benign.length).toBeGreaterThan(20);
    const files = [...published, ...benign].map((file) => JSON.parse(readFileSync(join(ROOT, file), "utf8")));
    const schemas = [...files, ...syntheticPair(20)].flatMap(toolSchemas);
    expect(schemas.filter((s) => interpretable({ ...s }, "07")).length).toBeGreaterThan(100);
    expect(schemas.filter((s) => interpretable({ ...s }, "2020")).length).toBeGreaterThan(100);
    // Each schema as it is, and read as draft-07 and as 2020-12.
    for (const schema of schemas) {
      expectSameVerdicts(schema);
      expectSameVerdicts({ ...schema, $schema: DRAFT_07 });
      expectSameVerdicts({ ...schema, $schema: DRAFT_2020 });
    }
  });

  test("a schema ajv rejects gets no validator from either", () => {
    const invalid: JsonObject[] = [
      { type: "strnig" },
      { minLength: -1 },
      { required: "name" },
      { properties: { a: 5 } },
    ];
    // The first three take the interpreted path (its meta-schema check rejects them); a number
    // where a schema belongs goes to ajv.
    expect(invalid.map((bad) => interpretable(bad))).toEqual([true, true, true, false]);
    for (const bad of invalid) {
      expect(validatorFor({ $schema: DRAFT_07, ...bad })).toBeUndefined();
    }
  });

  test("patterns run on the bounded matcher; one it cannot decide is ajv's to answer", () => {
    const catastrophic = { $schema: DRAFT_07, type: "string", pattern: "^(a+)+$" } as JsonObject;
    expect(interpretable({ type: "string", pattern: "^(a+)+$" })).toBe(true);
    expect(within(2_000, "a catastrophic pattern", () => validatorFor(catastrophic)?.(`${"a".repeat(5000)}b`))).toBe(
      false,
    );
    // A repetition past the matcher's budget: undecided in both engines, decided where no string is tested.
    const huge = { $schema: DRAFT_07, type: "string", pattern: "a{1000000}" } as JsonObject;
    expect(buildValidator(huge, "ajv")?.("aa")).toBeUndefined();
    expect(buildValidator(huge, "auto")?.("aa")).toBeUndefined();
    expect(buildValidator(huge, "auto")?.(5)).toBe(false);
    expect(buildValidator(huge, "ajv")?.(5)).toBe(false);
  });

  test("what the two read differently goes to ajv", () => {
    const ajvOnly: JsonObject[] = [
      { type: "object", patternProperties: { "^x-": { type: "string" } } },
      { type: "string", format: "email" },
      { type: "number", multipleOf: 0.1 },
      { type: "string", nullable: true },
      { prefixItems: [{ type: "string" }] },
      { $ref: "#/definitions/a", type: "object", definitions: { a: { type: "string" } } },
      { $ref: "https://example.com/schema.json" },
      { $ref: "#/definitions/missing" },
      { properties: { a: { $id: "https://example.com/a", type: "string" } } },
      { not: { $ref: "#" }, enum: ["metric"] },
      // A loop of in-place references away from the root, through two definitions.
      {
        $defs: { a: { anyOf: [{ $ref: "#/$defs/b" }] }, b: { allOf: [{ not: { $ref: "#/$defs/a" } }] } },
        properties: { x: { $ref: "#/$defs/a" } },
      },
    ];
    for (const schema of ajvOnly) expect(interpretable(schema)).toBe(false);
    // Recursion that descends into the value is no loop.
    expect(
      interpretable({
        $defs: { a: { anyOf: [{ type: "string" }, { type: "array", items: { $ref: "#/$defs/a" } }] } },
        properties: { x: { $ref: "#/$defs/a" } },
      }),
    ).toBe(true);
    // ajv's readings, which the interpreted path would have got wrong.
    expect(validatorFor({ $schema: DRAFT_07, type: "number", multipleOf: 0.1 } as JsonObject)?.(0.3)).toBe(false);
    expect(validatorFor({ $schema: DRAFT_07, type: "string", nullable: true } as JsonObject)?.(null)).toBe(true);
    expect(
      validatorFor({
        $schema: DRAFT_07,
        $ref: "#/definitions/a",
        type: "object",
        definitions: { a: { type: "string" } },
      } as JsonObject)?.("x"),
    ).toBe(false);
  });
});

describe("the meta-schema shortcut (meta-check.ts) never passes what the meta-schema refuses", () => {
  /** Keyword values the meta-schema refuses, each put into otherwise valid schemas. */
  const BROKEN: JsonObject[] = [
    { type: "strnig" },
    { type: [] },
    { type: ["string", "string"] },
    { minLength: -1 },
    { maxItems: 1.5 },
    { minProperties: "2" },
    { required: "name" },
    { required: ["a", "a"] },
    { required: [1] },
    { enum: [] },
    { enum: ["a", "a"] },
    { enum: [{ a: 1 }, { a: 1 }] },
    { multipleOf: 0 },
    { maximum: "10" },
    { pattern: "(" },
    { pattern: "a\\Z" },
    { properties: { a: 5 } },
    { properties: [] },
    { items: [] },
    { allOf: [] },
    { anyOf: {} },
    { not: null },
    { uniqueItems: "yes" },
    { title: 5 },
    { examples: {} },
    { dependencies: { a: ["b", "b"] } },
    { dependencies: { a: 5 } },
    { definitions: { a: "x" } },
    { $defs: { a: "x" } },
    { $ref: "not a uri ref \\" },
    { $schema: "relative" },
    { deprecated: "no" },
    { writeOnly: 1 },
  ];

  test.each(["07", "2020"] as const)("in %s, on generated schemas and broken keyword values", (dialect) => {
    let shortcut = 0;
    const agree = (schema: JsonObject) => {
      if (!plainlyMetaValid(schema, dialect)) return;
      shortcut++;
      if (!metaSchemaAccepts(schema, dialect)) throw new Error(`shortcut passed ${JSON.stringify(schema)}`);
    };
    fc.assert(
      fc.property(rootSchema({ garbage: true }), fc.constantFrom(...BROKEN), fc.nat(), (generated, shared, at) => {
        if (!isJsonObject(generated)) return;
        const s = structuredClone(generated);
        const broken = structuredClone(shared);
        agree(s);
        // The broken value at the root, and inside the first object subschema found (at-th).
        agree({ ...s, ...broken });
        const nodes: JsonObject[] = [];
        const collect = (node: Json) => {
          if (!isJsonObject(node)) return;
          nodes.push(node);
          for (const value of Object.values(node)) {
            if (isJsonObject(value)) collect(value);
            else if (Array.isArray(value)) value.forEach(collect);
          }
        };
        collect(s);
        const target = nodes[at % nodes.length];
        if (target) {
          Object.assign(target, broken);
          agree(s);
        }
      }),
      { seed: 20261202, numRuns: 1500 },
    );
    for (const broken of BROKEN) {
      agree(broken);
      agree({ type: "object", properties: { a: broken } });
    }
    // The shortcut pays only if it answers for most schemas.
    expect(shortcut).toBeGreaterThan(300);
  });

  test("it answers alone for real schemas", () => {
    const files = ["filesystem-2025.8.21", "filesystem-2026.8.31"].map((name) =>
      JSON.parse(readFileSync(join(ROOT, `tests/fixtures/published/${name}.contract.json`), "utf8")),
    );
    const schemas = [...files, ...syntheticPair(20)].flatMap(toolSchemas);
    for (const dialect of ["07", "2020"] as const) {
      const plain = schemas.filter((s) => plainlyMetaValid(s, dialect));
      expect(plain.length).toBeGreaterThan(schemas.length * 0.9);
      for (const s of plain) expect(metaSchemaAccepts(s, dialect)).toBe(true);
    }
  });
});
