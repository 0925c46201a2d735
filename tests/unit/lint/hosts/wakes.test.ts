/**
 * The wake gate (src/lint/hosts/wakes.ts): a profile's node check is called only at nodes its
 * `wakes` names, so each check must be silent at every other node. Held on every inputSchema of
 * the fixture lockfiles and on seeded generated schemas (keywords of every profile, type names
 * and lists, enums of mixed values, odd property names, keys such as "constructor").
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isJsonObject, type Json, type JsonObject } from "../../../../src/contract/model.ts";
import { parseContract } from "../../../../src/contract/read.ts";
import { type SchemaNode, visitSchema } from "../../../../src/lint/found.ts";
import { SchemaHits, schemaProfiles } from "../../../../src/lint/hosts/check.ts";
import type { HostProfile, NodeHits } from "../../../../src/lint/hosts/model.ts";
import { HOST_IDS, HOST_PROFILES } from "../../../../src/lint/hosts/profiles.ts";
import { Wakes } from "../../../../src/lint/hosts/wakes.ts";
import { prng } from "../../../../src/util/random.ts";

const FIXTURES = join(import.meta.dir, "../../../fixtures");

function fixtureSchemas(): JsonObject[] {
  const out: JsonObject[] = [];
  for (const folder of ["published", "published-pairs", "benign", "benign-upgrades", "poisoned"]) {
    for (const name of readdirSync(join(FIXTURES, folder))) {
      if (!name.endsWith(".contract.json")) continue;
      const contract = parseContract(readFileSync(join(FIXTURES, folder, name), "utf8"), name);
      for (const tool of contract.tools) if (isJsonObject(tool.inputSchema)) out.push(tool.inputSchema);
    }
  }
  return out;
}

const KEYS = [
  "type",
  "description",
  "title",
  "enum",
  "const",
  "default",
  "format",
  "nullable",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "$ref",
  "$defs",
  "definitions",
  "$schema",
  "patternProperties",
  "propertyNames",
  "dependentRequired",
  "unevaluatedProperties",
  "exclusiveMinimum",
  "minimum",
  "pattern",
  "x-extension",
  "constructor",
  "__proto__",
  "toString",
];
const TYPES: Json[] = ["string", "object", "array", "integer", "null", ["string", "null"], ["object"], [], 5, {}];
const NAMES = ["path", "dry-run", "file.path", "a b", "", "Ünïcode", "x".repeat(70), "constructor", "1st"];

function generated(next: () => number, depth: number): JsonObject {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const sub = (): JsonObject => (depth > 0 ? generated(next, depth - 1) : { type: pick(TYPES) });
  // Built as JSON text and parsed, as lockfiles are: "__proto__" is then an own key.
  const parts: string[] = [];
  const count = Math.floor(next() * 6);
  for (let i = 0; i < count; i++) {
    const key = pick(KEYS);
    let value: Json;
    if (key === "type") value = pick(TYPES);
    else if (key === "enum") value = pick([["a", "b"], [1, "a"], [null], [], "x"] as Json[]);
    else if (key === "properties" || key === "$defs" || key === "definitions" || key === "patternProperties")
      value = Object.fromEntries(Array.from({ length: Math.floor(next() * 3) }, () => [pick(NAMES), sub()]));
    else if (key === "anyOf" || key === "oneOf" || key === "allOf") value = [sub(), sub()];
    else if (key === "items" || key === "not" || key === "if" || key === "then" || key === "additionalProperties")
      value = next() < 0.3 ? next() < 0.5 : sub();
    else if (key === "required") value = pick([["path"], [], ["a b", "path"], "path"] as Json[]);
    else if (key === "$ref") value = pick(["#/$defs/a", 5] as Json[]);
    else value = pick(["text", 1, true, null] as Json[]);
    parts.push(`${JSON.stringify(key)}: ${JSON.stringify(value)}`);
  }
  return JSON.parse(`{${parts.join(", ")}}`) as JsonObject;
}

function schemas(): JsonObject[] {
  const next = prng(31);
  return [...fixtureSchemas(), ...Array.from({ length: 3000 }, () => generated(next, 3))];
}

/** How many places `profile`'s node check reports at this node. */
function placesAt(profile: HostProfile, node: SchemaNode): number {
  let places = 0;
  const hits: NodeHits = {
    place: () => {
      places++;
      return 0;
    },
    first: () => {},
    named: () => {},
  };
  profile.node?.(node, hits);
  return places;
}

describe("the wake gate", () => {
  const all = schemas();

  test("each profile's node check is silent at every node that does not wake it", () => {
    const profiles = HOST_PROFILES.filter((p) => p.node);
    const wakes = new Wakes(profiles);
    let silentNodes = 0;
    let wokenPlaces = 0;
    for (const schema of all) {
      visitSchema(schema, "/inputSchema", (node) => {
        const woken = wakes.of(node.schema);
        profiles.forEach((profile, i) => {
          const places = placesAt(profile, node);
          if ((woken & (1 << i)) !== 0) wokenPlaces += places;
          else {
            silentNodes++;
            if (places !== 0) throw new Error(`${profile.id} hits at ${node.path} of ${JSON.stringify(schema)}`);
          }
        });
      });
    }
    // The inputs reach both sides: nodes the gate skips, and places at nodes it wakes.
    expect(silentNodes).toBeGreaterThan(10_000);
    expect(wokenPlaces).toBeGreaterThan(1_000);
  });

  test("a check is called only at the nodes that wake it; one without wakes at every node", () => {
    const seen: string[] = [];
    const gated: HostProfile = {
      id: "gated",
      title: "gated",
      rules: [],
      wakes: { keys: ["x"], types: ["object"] },
      node: (node) => void seen.push(`gated ${node.path}`),
    };
    const always: HostProfile = {
      id: "always",
      title: "always",
      rules: [],
      node: (node) => void seen.push(`always ${node.path}`),
    };
    const hits = new SchemaHits([gated, always]);
    visitSchema({ type: "string", properties: { a: { x: 1 }, b: { type: "object" }, c: {} } }, "", hits.visit);
    expect(seen).toEqual([
      "always ",
      "gated /properties/a",
      "always /properties/a",
      "gated /properties/b",
      "always /properties/b",
      "always /properties/c",
    ]);
  });

  test("the findings through the gate are those of every check at every node", () => {
    const profiles = schemaProfiles(HOST_IDS);
    const ungated = profiles.map((p) => ({ ...p, wakes: undefined }));
    const a = new SchemaHits(profiles);
    const b = new SchemaHits(ungated);
    for (const schema of all) {
      a.reset();
      b.reset();
      visitSchema(schema, "/inputSchema", a.visit);
      visitSchema(schema, "/inputSchema", b.visit);
      expect(a.finish()).toEqual(b.finish());
    }
  });
});
