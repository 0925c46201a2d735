/**
 * The lint walk (src/lint/found.ts visitSchema) goes through eachSubschema with one context per
 * walk and builds each node's pointer only when asked: it must reach every object subschema,
 * depth first, with the pointer the keyword-by-keyword walk of forEachSubschema gives it,
 * whether or not the parent's pointer was read first.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { isJsonObject, type Json, type JsonObject } from "../../../src/contract/model.ts";
import { pointer } from "../../../src/contract/pointer.ts";
import { NodeWalker, type SchemaNode, visitSchema, walkSchema } from "../../../src/lint/found.ts";
import { lintContract } from "../../../src/lint/lint.ts";
import { patternProblemsAt, surelyValid } from "../../../src/lint/schema-meta.ts";
import { ShapeIds } from "../../../src/lint/shapes.ts";
import { forEachSubschema } from "../../../src/schema/subschemas.ts";
import { contract } from "../diff/helpers.ts";
import { rootSchema } from "../schema/arbitraries.ts";

/** The specification: every object subschema, itself first, with its pointer built from the segments. */
function specified(schema: Json, path: string): [JsonObject, string][] {
  const out: [JsonObject, string][] = [];
  const walk = (node: Json, at: string) => {
    if (!isJsonObject(node)) return;
    out.push([node, at]);
    forEachSubschema(node, (child, segments) => walk(child, pointer(at, ...segments)));
  };
  walk(schema, path);
  return out;
}

describe("the lint schema walk", () => {
  test("reaches every object subschema in order with its pointer, on generated schemas", () => {
    for (const garbage of [false, true]) {
      fc.assert(
        fc.property(rootSchema({ garbage }), fc.boolean(), (schema, early) => {
          const want = specified(schema, "/inputSchema");
          const got: [JsonObject, string][] = [];
          const nodes = walkSchema(schema, "/inputSchema");
          // Pointers read as the walk goes (a rule's finding) or only afterwards, deepest first.
          if (early) visitSchema(schema, "/inputSchema", (node) => got.push([node.schema, node.path]));
          else for (const node of [...nodes].reverse()) got.unshift([node.schema, node.path]);
          expect(got.length).toBe(want.length);
          got.forEach(([node, path], i) => {
            expect(node).toBe(want[i]![0]);
            expect(path).toBe(want[i]![1]);
          });
        }),
        { seed: 20261202, numRuns: 300 },
      );
    }
  });

  test("filling one node object per depth (the schema pass's walker), each node reads as the walk's own, and has a visit of its own", () => {
    const read = (node: SchemaNode) =>
      [node.schema, node.path, node.dotted, node.via, node.inDefs, node.visit] as const;
    // One walker for many schemas, as the pass uses it.
    const seen: (readonly [JsonObject, string, string, string, boolean, number])[] = [];
    const walker = new NodeWalker((node) => seen.push(read(node)));
    for (const garbage of [false, true]) {
      fc.assert(
        fc.property(rootSchema({ garbage }), fc.boolean(), (schema, dottedFirst) => {
          const want: (readonly [JsonObject, string, string, string, boolean])[] = [];
          visitSchema(schema, "/inputSchema", (node) => want.push(read(node).slice(0, 5) as never));
          seen.length = 0;
          // Read in either order during the visit: each caches what it built from the parent's.
          const walk = new NodeWalker((node) => {
            if (dottedFirst) void node.dotted;
            seen.push(read(node));
          });
          walk.walk(schema, "/inputSchema");
          expect(seen.map((s) => [...s.slice(0, 5)])).toEqual(want.map((w) => [...w]));
          const visits = seen.map((s) => s[5]);
          expect(new Set(visits).size).toBe(visits.length);
        }),
        { seed: 20261202, numRuns: 300 },
      );
    }
    seen.length = 0;
    walker.walk({ properties: { a: { $defs: { b: {} } } } }, "");
    walker.walk({ items: {} }, "/outputSchema");
    expect(seen.map(([, path, dotted, via, inDefs]) => [path, dotted, via, inDefs])).toEqual([
      ["", "", "", false],
      ["/properties/a", "properties.a", "properties", false],
      ["/properties/a/$defs/b", "properties.a.$defs.b", "$defs", true],
      ["/outputSchema", "outputSchema", "", false],
      ["/outputSchema/items", "outputSchema.items", "items", false],
    ]);
  });

  test("marks each node with the marked keywords it holds, and still reaches every subschema", () => {
    // "properties" and "items" are subschema keywords too: marking them must not stop the walk.
    const marked = ["enum", "$ref", "properties", "required", "items"];
    fc.assert(
      fc.property(rootSchema({ garbage: true }), (schema) => {
        const want: [JsonObject, number][] = [];
        visitSchema(schema, "", (node) => {
          let marks = 0;
          marked.forEach((key, i) => {
            if (Object.hasOwn(node.schema, key)) marks |= 1 << i;
          });
          want.push([node.schema, marks]);
        });
        const got: [JsonObject, number][] = [];
        new NodeWalker((node, marks) => got.push([node.schema, marks]), marked).walk(schema, "");
        expect(got.length).toBe(want.length);
        got.forEach(([node, marks], i) => {
          expect(node).toBe(want[i]![0]);
          expect(marks).toBe(want[i]![1]);
        });
      }),
      { seed: 20261202, numRuns: 300 },
    );
  });

  test("spells names with / and ~ and list indexes as JSON Pointer does", () => {
    const schema: JsonObject = {
      properties: { "a/b": { items: [{ type: "string" }, { anyOf: [{ not: {} }] }] }, "c~d": {} },
      $defs: { x: { type: "object" } },
    };
    expect(walkSchema(schema, "").map((n) => n.path)).toEqual([
      "",
      "/properties/a~1b",
      "/properties/a~1b/items/0",
      "/properties/a~1b/items/1",
      "/properties/a~1b/items/1/anyOf/0",
      "/properties/a~1b/items/1/anyOf/0/not",
      "/properties/c~0d",
      "/$defs/x",
    ]);
  });
});

describe("the proof of validity without ajv, written as loops", () => {
  test("tells lists of distinct scalars from lists with a repeat, short and long, as a Set does", () => {
    for (const length of [1, 2, 3, 16, 17, 40]) {
      const distinct = Array.from({ length }, (_, i) => (i % 2 === 0 ? `v${i}` : i));
      expect(surelyValid({ enum: distinct }, 0)).toBe(true);
      expect(surelyValid({ required: distinct.map(String) }, 0)).toBe(true);
      for (const at of new Set([0, length - 1])) {
        const repeated = [...distinct, distinct[at]!];
        expect(surelyValid({ enum: repeated }, 0)).toBe(false);
        expect(surelyValid({ required: repeated.map(String) }, 0)).toBe(false);
      }
    }
    // 0 and -0 are one value to a Set; an object is never proven here.
    expect(surelyValid({ enum: [0, -0] }, 0)).toBe(false);
    expect(surelyValid({ enum: [null, false, 0, ""] }, 0)).toBe(true);
    expect(surelyValid({ enum: [{}, 1] }, 0)).toBe(false);
    expect(surelyValid({ type: ["string", "null"] }, 0)).toBe(true);
    expect(surelyValid({ type: ["string", "string"] }, 0)).toBe(false);
    expect(surelyValid({ type: ["string", "text"] }, 0)).toBe(false);
    expect(surelyValid({ required: ["a", 1] }, 0)).toBe(false);
  });

  test("reads every member of maps and lists of subschemas", () => {
    expect(surelyValid({ properties: { a: { type: "string" }, b: true } }, 0)).toBe(true);
    expect(surelyValid({ properties: { a: { type: "string" }, b: { type: 3 } } }, 0)).toBe(false);
    expect(surelyValid({ anyOf: [{ type: "string" }, { minLength: -1 }] }, 0)).toBe(false);
    expect(surelyValid({ anyOf: [] }, 0)).toBe(false);
    expect(surelyValid({ allOf: [{}, false] }, 0)).toBe(true);
  });
});

describe("answers remembered within and across schemas", () => {
  test("a pattern's verdict is the same the first time, the second time and after the memory is emptied", () => {
    const bad = { pattern: "([" };
    const good = { pattern: "^[a-z]+$" };
    for (let round = 0; round < 2; round++) {
      expect(surelyValid(bad, 0)).toBe(false);
      expect(surelyValid(good, 0)).toBe(true);
      expect(patternProblemsAt({ schema: bad, path: "/inputSchema" })).toHaveLength(1);
      expect(patternProblemsAt({ schema: good, path: "/inputSchema" })).toEqual([]);
      // More patterns than are remembered: the memory is emptied on the way.
      for (let i = 0; i < 5000; i++) expect(surelyValid({ pattern: `^x${i}$` }, 0)).toBe(true);
    }
  });

  test("ref-unresolvable and ref-remote each report their own reference of one node, run after run", () => {
    const schema: JsonObject = {
      type: "object",
      properties: {
        a: { $ref: "#/$defs/Missing", $dynamicRef: "https://example.com/s.json" },
        b: { $ref: "https://example.com/t.json" },
      },
      $defs: { Here: { type: "string" } },
    };
    const surface = contract({ tools: [{ name: "t", inputSchema: schema }] });
    const refs = () =>
      lintContract(surface)
        .filter((f) => f.rule.startsWith("ref-"))
        .map((f) => `${f.rule} ${f.path}`);
    const want = [
      "ref-unresolvable /inputSchema/properties/a/$ref",
      "ref-remote /inputSchema/properties/a/$dynamicRef",
      "ref-remote /inputSchema/properties/b/$ref",
    ];
    expect(refs()).toEqual(want);
    expect(refs()).toEqual(want);
    // The same objects changed between runs: answered as they are now.
    (schema.$defs as JsonObject).Missing = { type: "string" };
    expect(refs()).toEqual(want.slice(1));
  });
});

describe("shape ids by JSON text", () => {
  test("tell shapes apart by their text whatever the hash says, and keep ids dense in order of first sight", () => {
    const schemas: JsonObject[] = [
      { type: "object" },
      { type: "string" },
      { type: "object" },
      { properties: { a: { type: "string" } } },
      { type: "string" },
      { type: "object", title: "x" },
    ];
    const ids = (shapes: ShapeIds) => schemas.map((s) => shapes.id(JSON.stringify(s), structuredClone(s)));
    const want = [0, 1, 0, 2, 1, 3];
    expect(ids(new ShapeIds())).toEqual(want);
    // Every text under one hash: told apart by their texts alone.
    expect(ids(new ShapeIds(() => 7))).toEqual(want);
    expect(ids(new ShapeIds((text) => text.length))).toEqual(want);
  });
});
