/**
 * schema-invalid asks ajv only about schemas it cannot prove valid itself (surelyValid in
 * src/lint/schema-meta.ts). That proof must never be wrong: every schema it accepts, ajv
 * accepts against the 2020-12 and the draft-07 meta-schema. Checked on every tool schema of the
 * fixture lockfiles and on thousands of seeded mutations of them.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { isJsonObject, type Json, type JsonObject } from "../../../src/contract/model.ts";
import { metaErrors, surelyValid } from "../../../src/lint/schema-meta.ts";
import { prng } from "../../../src/util/random.ts";

const ROOT = join(import.meta.dir, "../../..");

function fixtureSchemas(): JsonObject[] {
  const out: JsonObject[] = [];
  for (const dir of ["benign", "published", "peers"]) {
    for (const file of readdirSync(join(ROOT, "tests/fixtures", dir))) {
      if (!file.endsWith(".contract.json")) continue;
      const lockfile = JSON.parse(readFileSync(join(ROOT, "tests/fixtures", dir, file), "utf8"));
      for (const tool of lockfile.tools ?? []) {
        for (const key of ["inputSchema", "outputSchema"]) if (isJsonObject(tool[key])) out.push(tool[key]);
      }
    }
  }
  return out;
}

const VALUES: Json[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -0,
  1e21,
  "x",
  "",
  "string",
  "^(",
  "\\Z",
  "a\\Z",
  [],
  [1],
  ["a", "a"],
  ["string", "null"],
  ["strin"],
  {},
  { type: "strin" },
  { $ref: 5 },
  "#/$defs/A",
  "#/a b",
  "https://example.com/s#",
  [{}],
  [{ type: "string" }],
  { a: { type: "string" } },
  { a: 1 },
];
const KEYS = [
  "type",
  "properties",
  "required",
  "items",
  "enum",
  "const",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "minItems",
  "pattern",
  "$ref",
  "$id",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "additionalProperties",
  "$defs",
  "definitions",
  "format",
  "multipleOf",
  "uniqueItems",
  "dependencies",
  "prefixItems",
  "propertyNames",
  "contains",
  "then",
  "else",
  "contentMediaType",
  "contentEncoding",
  "$schema",
  "examples",
  "default",
  "if",
  "title",
  "description",
  "readOnly",
  "writeOnly",
  "deprecated",
  "$comment",
  "constructor",
  "__proto__",
  "x-custom",
];

function mutated(schemas: JsonObject[], count: number): JsonObject[] {
  const random = prng(18);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const mutate = (node: Json, depth: number): void => {
    if (!isJsonObject(node)) return;
    const edits = 1 + Math.floor(random() * 2);
    for (let i = 0; i < edits; i++) {
      const value =
        random() < 0.25 && depth < 3 ? { type: pick(["object", "string", "strin"]) } : structuredClone(pick(VALUES));
      Object.defineProperty(node, pick(KEYS), { value, enumerable: true, writable: true, configurable: true });
      if (isJsonObject(value)) mutate(value, depth + 1);
    }
    const properties = node.properties;
    if (isJsonObject(properties))
      for (const key of Object.keys(properties).slice(0, 2)) mutate(properties[key] as Json, depth + 1);
  };
  return Array.from({ length: count }, () => {
    const copy = structuredClone(pick(schemas));
    mutate(copy, 0);
    return copy;
  });
}

describe("schemas proven valid without ajv", () => {
  const options = { strict: false, allErrors: true, logger: false, validateFormats: true } as const;
  const ajv2020 = new Ajv2020(options);
  const ajv07 = new Ajv(options);
  addFormats(ajv2020);
  addFormats(ajv07);
  const meta2020 = ajv2020.getSchema("https://json-schema.org/draft/2020-12/schema")!;
  const meta07 = ajv07.getSchema("http://json-schema.org/draft-07/schema")!;
  const fixtures = fixtureSchemas();

  test("most tool schemas of real servers are proven valid, so ajv is not loaded for them", () => {
    const proven = fixtures.filter((schema) => surelyValid(schema, 0));
    expect(fixtures.length).toBeGreaterThan(300);
    expect(proven.length / fixtures.length).toBeGreaterThan(0.5);
  });

  test("every tool schema of the published servers is proven valid (zod's propertyNames included): ajv is never loaded to lint them", () => {
    const published: JsonObject[] = [];
    for (const dir of ["published", "published-pairs"]) {
      for (const file of readdirSync(join(ROOT, "tests/fixtures", dir))) {
        if (!file.endsWith(".contract.json")) continue;
        const lockfile = JSON.parse(readFileSync(join(ROOT, "tests/fixtures", dir, file), "utf8"));
        for (const tool of lockfile.tools ?? [])
          for (const key of ["inputSchema", "outputSchema"]) if (isJsonObject(tool[key])) published.push(tool[key]);
      }
    }
    expect(published.length).toBeGreaterThan(500);
    expect(published.filter((schema) => !surelyValid(schema, 0))).toEqual([]);
  });

  test("every schema proven valid is valid for ajv in 2020-12 and draft-07", () => {
    const schemas = [...fixtures, ...mutated(fixtures, 6000)];
    let proven = 0;
    let refused = 0;
    for (const schema of schemas) {
      if (!surelyValid(schema, 0)) {
        refused++;
        continue;
      }
      proven++;
      expect({ schema, ok: meta2020(schema) }).toEqual({ schema, ok: true });
      expect({ schema, ok: meta07(schema) }).toEqual({ schema, ok: true });
    }
    // Both outcomes occur often enough for the check to mean something.
    expect(proven).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(1000);
  });

  test("an invalid schema still gets ajv's errors", () => {
    expect(metaErrors({ type: "strin" }, "2020-12").length).toBeGreaterThan(0);
    expect(metaErrors({ type: "object", properties: { a: { minLength: -1 } } }, "draft-07").length).toBeGreaterThan(0);
    expect(metaErrors({ type: "object", required: ["a", "a"] }, "draft-07").length).toBeGreaterThan(0);
    expect(metaErrors({ type: "object", properties: { a: { type: "string" } } }, "2020-12")).toEqual([]);
  });
});
