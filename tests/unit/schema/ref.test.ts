/**
 * The one $ref resolver (src/schema/ref.ts): JSON Pointer escapes, percent-decoding, and the
 * references it cannot follow (malformed escapes, dangling pointers, remote URIs), which must
 * resolve to nothing and never throw, in the resolver and in a whole diff.
 */
import { describe, expect, test } from "bun:test";
import type { Contract, Json } from "../../../src/contract/model.ts";
import { diffContracts } from "../../../src/diff/diff.ts";
import { compareSchemas } from "../../../src/schema/compare/index.ts";
import { decodeFragment, parsePointer, resolvePointer, resolveRef } from "../../../src/schema/ref.ts";
import { contract, tool } from "../diff/helpers.ts";

// Parsed, not written as a literal: a literal `__proto__:` key would set the prototype.
const ROOT = JSON.parse(`{
  "$id": "https://example.com/weather.json",
  "$defs": {
    "a/b": { "type": "string" },
    "m~n": { "type": "integer" },
    "~1": { "type": "boolean" },
    "café": { "type": "number" },
    "50%": { "type": "null" },
    "a b": { "const": 1 },
    "__proto__": { "type": "array" }
  },
  "prefixItems": [{ "const": "first" }, { "const": "second" }]
}`) as Json;
const defs = (ROOT as { $defs: Record<string, Json> }).$defs;

describe("resolveRef: local references", () => {
  test("# is the root", () => {
    expect(resolveRef(ROOT, "#")).toBe(ROOT);
  });

  test("~1 is a slash and ~0 a tilde, in that order", () => {
    expect(resolveRef(ROOT, "#/$defs/a~1b")).toBe(defs["a/b"] as Json);
    expect(resolveRef(ROOT, "#/$defs/m~0n")).toBe(defs["m~n"] as Json);
    expect(resolveRef(ROOT, "#/$defs/~01")).toBe(defs["~1"] as Json);
  });

  test("percent escapes are decoded", () => {
    expect(resolveRef(ROOT, "#/$defs/caf%C3%A9")).toBe(defs.café as Json);
    expect(resolveRef(ROOT, "#/$defs/50%25")).toBe(defs["50%"] as Json);
    expect(resolveRef(ROOT, "#/$defs/a%20b")).toBe(defs["a b"] as Json);
    expect(resolveRef(ROOT, "#/%24defs/a~1b")).toBe(defs["a/b"] as Json);
  });

  test("array items by canonical index only", () => {
    expect(resolveRef(ROOT, "#/prefixItems/1")).toEqual({ const: "second" });
    for (const index of ["01", "-1", "", "1.0", "2", "length"])
      expect(resolveRef(ROOT, `#/prefixItems/${index}`)).toBeUndefined();
  });

  test("a member named __proto__ is a member; inherited names are not", () => {
    expect(resolveRef(ROOT, "#/$defs/__proto__")).toEqual({ type: "array" });
    for (const name of ["constructor", "toString", "hasOwnProperty"])
      expect(resolveRef(ROOT, `#/$defs/${name}`)).toBeUndefined();
  });
});

describe("resolveRef: what it cannot follow resolves to nothing, without throwing", () => {
  test("a malformed percent escape", () => {
    for (const ref of ["#/$defs/%zz", "#/$defs/%", "#/$defs/%E9", "#%zz"]) {
      expect(() => resolveRef(ROOT, ref)).not.toThrow();
      expect(resolveRef(ROOT, ref)).toBeUndefined();
    }
  });

  test("a dangling pointer", () => {
    expect(resolveRef(ROOT, "#/$defs/missing")).toBeUndefined();
    expect(resolveRef(ROOT, "#/$defs/a~1b/type/deeper")).toBeUndefined();
    expect(resolveRef(ROOT, "#/nothing/here")).toBeUndefined();
  });

  test("anchors, remote and relative references", () => {
    for (const ref of [
      "#Point",
      "https://example.com/other.json#/$defs/a~1b",
      "other.json",
      "weather.json#/$defs/a~1b",
    ])
      expect(resolveRef(ROOT, ref)).toBeUndefined();
  });

  test("with ownId, a reference through the root's own $id resolves", () => {
    expect(resolveRef(ROOT, "https://example.com/weather.json#/$defs/a~1b", { ownId: true })).toBe(defs["a/b"] as Json);
    expect(resolveRef(ROOT, "weather.json#/$defs/a~1b", { ownId: true })).toBe(defs["a/b"] as Json);
    expect(resolveRef(ROOT, "other.json#/$defs/a~1b", { ownId: true })).toBeUndefined();
  });
});

describe("the pieces", () => {
  test("decodeFragment", () => {
    expect(decodeFragment("/$defs/caf%C3%A9")).toBe("/$defs/café");
    expect(decodeFragment("%zz")).toBeUndefined();
  });

  test("parsePointer", () => {
    expect(parsePointer("")).toEqual([]);
    expect(parsePointer("/a~1b/m~0n")).toEqual(["a/b", "m~n"]);
    expect(parsePointer("anchor")).toBeUndefined();
  });

  test("resolvePointer takes a decoded pointer", () => {
    expect(resolvePointer(ROOT, "/$defs/café")).toBe(defs.café as Json);
    expect(resolvePointer(ROOT, "")).toBe(ROOT);
    expect(resolvePointer(ROOT, "$defs")).toBeUndefined();
  });
});

describe("a malformed escape is a dangling reference to the engine and the diff", () => {
  const schema = (ref: string, q: string): Json => ({
    type: "object",
    properties: { p: { $ref: ref }, q: { type: q } },
    $defs: { A: { type: "string" } },
  });
  const rules = (oldSchema: Json, newSchema: Json) => compareSchemas(oldSchema, newSchema).map((c) => c.rule);

  test("compareSchemas treats #/$defs/%zz as it treats #/$defs/missing", () => {
    for (const [from, to] of [
      ["#/$defs/%zz", "#/$defs/%zz"],
      ["#/$defs/%zz", "#/$defs/A"],
      ["#/$defs/A", "#/$defs/%zz"],
    ] as const) {
      const dangling = (ref: string) => (ref === "#/$defs/%zz" ? "#/$defs/missing" : ref);
      const got = rules(schema(from, "string"), schema(to, "integer"));
      expect(got).toEqual(rules(schema(dangling(from), "string"), schema(dangling(to), "integer")));
      expect(got).toContain("type-narrowed");
    }
  });

  test("diffing two contracts that contain #/$defs/%zz does not throw", () => {
    const lockfile = (q: string, extra: Json): Contract =>
      contract({
        tools: [
          tool("get_forecast", {
            inputSchema: { ...(schema("#/$defs/%zz", q) as object), ...(extra as object) },
            outputSchema: { type: "object", properties: { r: { $ref: "#/$defs/%zz" } } },
          }),
        ],
      });
    const before = lockfile("string", {});
    const after = lockfile("integer", { required: ["p"] });
    expect(() => diffContracts(before, after)).not.toThrow();
    const changes = diffContracts(before, after).map((c) => `${c.rule}@${c.path}`);
    expect(changes).toContain("type-narrowed@/inputSchema/properties/q/type");
    expect(changes).toContain("required-added@/inputSchema/required");
  });
});
