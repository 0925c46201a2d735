/**
 * Names a server chose that are also names of Object's own members (`__proto__`,
 * `constructor`, `toString`): as property names, keywords and map keys they must be compared
 * like any other name, never lost to a prototype or mistaken for an inherited method.
 * Schemas are parsed from text, because a literal `__proto__:` key would set the prototype.
 */
import { describe, expect, test } from "bun:test";
import type { Json } from "../../../src/contract/model.ts";
import { diffContracts } from "../../../src/diff/diff.ts";
import { compareSchemas } from "../../../src/schema/compare/index.ts";
import { normalize } from "../../../src/schema/normalize.ts";
import { contract, tool } from "../diff/helpers.ts";

const parse = (text: string): Json => JSON.parse(text) as Json;

function emitted(oldText: string, newText: string): string[] {
  return compareSchemas(parse(oldText), parse(newText))
    .map((c) => `${c.rule}@${c.path}`)
    .sort();
}

const NAMES = ["__proto__", "constructor", "toString"];

describe.each(NAMES)("a property named %s", (name) => {
  const narrowed = [`type-narrowed@/properties/${name}/type`, `type-widened@/properties/${name}/type`];

  test("top level: a type change is reported", () => {
    const schema = (type: string) => `{"type":"object","properties":{"${name}":{"type":"${type}"}}}`;
    expect(emitted(schema("string"), schema("integer"))).toEqual(narrowed);
  });

  test("inside an allOf branch, beside other properties: a type change is reported", () => {
    const schema = (type: string) =>
      `{"type":"object","properties":{"city":{"type":"string"}},"allOf":[{"properties":{"${name}":{"type":"${type}"}}}]}`;
    expect(emitted(schema("string"), schema("integer"))).toEqual(narrowed);
  });

  test("declared in two allOf branches: merged, and a type change is reported", () => {
    const schema = (type: string) =>
      `{"type":"object","allOf":[{"properties":{"${name}":{"type":"${type}"}}},{"properties":{"${name}":{"minLength":1}}}]}`;
    expect(emitted(schema("string"), schema("integer"))).toEqual(narrowed);
  });

  test("added where it was absent is an added property, not a change of an inherited one", () => {
    expect(
      emitted(
        `{"type":"object","properties":{"city":{"type":"string"}}}`,
        `{"type":"object","properties":{"city":{"type":"string"},"${name}":{"type":"string"}}}`,
      ),
    ).toEqual([`property-added@/properties/${name}`]);
  });

  test("in dependentRequired (draft-07 dependencies) and dependentSchemas", () => {
    expect(
      emitted(
        `{"type":"object","dependencies":{"${name}":["a"]}}`,
        `{"type":"object","dependencies":{"${name}":["a","b"]}}`,
      ),
    ).toEqual([`dependent-required-added@/dependentRequired/${name}`]);
    expect(emitted(`{"type":"object"}`, `{"type":"object","dependentSchemas":{"${name}":{"required":["a"]}}}`)).toEqual(
      [`composition-changed@/dependentSchemas/${name}`],
    );
  });

  test("as a keyword inside an allOf branch: an annotation change, without throwing", () => {
    const schema = (type: string) => `{"type":"object","allOf":[{"${name}":{"type":"${type}"}}]}`;
    expect(emitted(schema("string"), schema("integer"))).toEqual([`annotation-keyword-changed@/${name}`]);
  });

  test("normalize keeps it as an own member when merging allOf", () => {
    const norm = normalize(
      parse(`{"properties":{"city":{"type":"string"}},"allOf":[{"properties":{"${name}":{"type":"string"}}}]}`),
    );
    const properties = norm.kw.properties as Record<string, Json>;
    expect(Object.keys(properties)).toEqual(["city", name]);
    expect(Object.hasOwn(properties, name)).toBe(true);
    expect(properties[name]).toEqual({ type: "string" });
  });
});

test("the diff reports a changed type of a property named __proto__ inside allOf", () => {
  const lockfile = (type: string) =>
    contract({
      tools: [
        tool("t", {
          inputSchema: parse(
            `{"type":"object","properties":{"city":{"type":"string"}},"allOf":[{"properties":{"__proto__":{"type":"${type}"}}}]}`,
          ) as never,
        }),
      ],
    });
  const changes = diffContracts(lockfile("string"), lockfile("integer")).map((c) => `${c.rule}@${c.path}`);
  expect(changes).toContain("type-narrowed@/inputSchema/properties/__proto__/type");
});
