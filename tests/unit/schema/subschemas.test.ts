/**
 * forEachSubschema (src/schema/subschemas.ts) reads a node's own keys instead of looking up
 * every keyword: it must visit exactly what a lookup of each keyword in its documented order
 * visits, in that order, with the same segments, on any node (generated schemas, garbage
 * values, every schema of the corpus lockfiles).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { isJsonObject, type Json } from "../../../src/contract/model.ts";
import { forEachSubschema, ONE_SCHEMA, SCHEMA_LIST, SCHEMA_MAP } from "../../../src/schema/subschemas.ts";
import { rootSchema } from "./arbitraries.ts";

/** The specification: each keyword looked up in the order of the three lists. */
function expected(node: Json, defs: boolean): [Json, string[]][] {
  const out: [Json, string[]][] = [];
  if (!isJsonObject(node)) return out;
  for (const key of ONE_SCHEMA) {
    const value = node[key];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const [i, v] of value.entries()) out.push([v, [key, String(i)]]);
    else out.push([value, [key]]);
  }
  for (const key of SCHEMA_LIST) {
    const value = node[key];
    if (Array.isArray(value)) for (const [i, v] of value.entries()) out.push([v, [key, String(i)]]);
  }
  for (const key of SCHEMA_MAP) {
    if (!defs && (key === "$defs" || key === "definitions")) continue;
    const value = node[key];
    if (!isJsonObject(value)) continue;
    for (const [name, v] of Object.entries(value)) if (!Array.isArray(v)) out.push([v, [key, name]]);
  }
  return out;
}

/** What forEachSubschema visits, over the whole tree. */
function visits(root: Json, defs: boolean): [Json, string[]][] {
  const out: [Json, string[]][] = [];
  const walk = (node: Json) =>
    forEachSubschema(
      node,
      (child, segments) => {
        out.push([child, segments]);
        walk(child);
      },
      { defs },
    );
  walk(root);
  return out;
}

function specified(root: Json, defs: boolean): [Json, string[]][] {
  const out: [Json, string[]][] = [];
  const walk = (node: Json) => {
    for (const [child, segments] of expected(node, defs)) {
      out.push([child, segments]);
      walk(child);
    }
  };
  walk(root);
  return out;
}

describe("forEachSubschema", () => {
  test("visits what a lookup of every keyword visits, in order, on generated schemas", () => {
    for (const garbage of [false, true]) {
      fc.assert(
        fc.property(rootSchema({ garbage }), fc.boolean(), (schema, defs) => {
          const got = visits(schema, defs);
          const want = specified(schema, defs);
          expect(got.length).toBe(want.length);
          got.forEach(([child, segments], i) => {
            expect(child).toBe((want[i] as [Json, string[]])[0]);
            expect(segments).toEqual((want[i] as [Json, string[]])[1]);
          });
        }),
        { seed: 20261201, numRuns: 300 },
      );
    }
  });

  test("visits keywords in the documented order whatever order the node lists them in", () => {
    const node = {
      properties: { a: {} },
      anyOf: [{}],
      not: {},
      items: [{}, {}],
      $defs: { D: {} },
      additionalProperties: {},
    };
    expect(visits(node, true).map(([, s]) => s.join("/"))).toEqual([
      "additionalProperties",
      "not",
      "items/0",
      "items/1",
      "anyOf/0",
      "properties/a",
      "$defs/D",
    ]);
    expect(visits(node, false).map(([, s]) => s.join("/"))).not.toContain("$defs/D");
    // A data keyword that looks like a schema is not visited; a key named __proto__ is a name.
    const data = JSON.parse('{"enum": [{"type": "string"}], "properties": {"__proto__": {"type": "x"}}}') as Json;
    expect(visits(data, true).map(([, s]) => s.join("/"))).toEqual(["properties/__proto__"]);
  });

  test("agrees on every tool schema of the corpus lockfiles", () => {
    const root = join(import.meta.dir, "../../..");
    let schemas = 0;
    for (const dir of ["tests/fixtures/published", "tests/fixtures/benign"]) {
      for (const name of readdirSync(join(root, dir)).filter((n) => n.endsWith(".contract.json"))) {
        const contract = JSON.parse(readFileSync(join(root, dir, name), "utf8")) as { tools?: Record<string, Json>[] };
        for (const tool of contract.tools ?? []) {
          for (const schema of [tool.inputSchema, tool.outputSchema]) {
            if (schema === undefined) continue;
            schemas++;
            expect(visits(schema, true)).toEqual(specified(schema, true));
          }
        }
      }
    }
    expect(schemas).toBeGreaterThan(100);
  });
});
