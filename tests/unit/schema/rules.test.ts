// biome-ignore-all lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here, not a promise

/**
 * Every schema rule of the catalog pinned by a table of realistic tool inputSchemas:
 * compareSchemas(old, new) must emit exactly the listed (rule, path) pairs — nothing more —
 * and, where the rule has a natural reverse, the swapped pair must emit the reverse rule.
 * Pairs that mean the same thing written differently must emit nothing.
 *
 * Cases the engine currently gets wrong are kept at the end as `test.failing`, each with the
 * result that is right and why.
 */
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import type { Json, JsonObject } from "../../../src/contract/model.ts";
import { type DiffRuleId, diffRule, DIFF_RULES as RULES } from "../../../src/rules/registry.ts";

const getRule = (id: string) => diffRule(id as DiffRuleId);

import type { Severity } from "../../../src/rules/model.ts";
import { compareSchemas } from "../../../src/schema/compare/index.ts";

const B = "breaking" as const;
const M = "minor" as const;
const P = "patch" as const;

// ── helpers ────────────────────────────────────────────────────────────────────────────

/** An MCP tool inputSchema: `city` is always there and required, plus the given properties. */
function tool(properties: JsonObject = {}, extra: JsonObject = {}): JsonObject {
  return {
    type: "object",
    properties: { city: { type: "string", description: "City name" }, ...properties },
    required: ["city"],
    ...extra,
  };
}

/** A tool with one interesting property `p`, so that changes land at /properties/p/... */
const withP = (p: Json, extra: JsonObject = {}): JsonObject => tool({ p }, extra);

const ref = (name: string, where = "$defs"): JsonObject => ({ $ref: `#/${where}/${name}` });

/** "rule@path" for every change, sorted: the exact set of what was emitted. */
function emitted(oldSchema: Json, newSchema: Json): string[] {
  return compareSchemas(oldSchema, newSchema)
    .map((c) => `${c.rule}@${c.path}`)
    .sort();
}

const at = (rule: string, path: string): string => `${rule}@${path}`;

interface Case {
  name: string;
  old: Json;
  new: Json;
  /** Exactly what compareSchemas(old, new) emits. */
  expect: string[];
  /** Exactly what compareSchemas(new, old) emits, when the swap is worth pinning. */
  reverse?: string[];
}

// ── the table ──────────────────────────────────────────────────────────────────────────

const TYPE_CASES: Case[] = [
  {
    name: "type array loses a type",
    old: withP({ type: ["string", "number"] }),
    new: withP({ type: "string" }),
    expect: [at("type-narrowed", "/properties/p/type")],
    reverse: [at("type-widened", "/properties/p/type")],
  },
  {
    name: 'type "string" equals type ["string"]',
    old: withP({ type: "string" }),
    new: withP({ type: ["string"] }),
    expect: [],
    reverse: [],
  },
  {
    name: "type array order does not matter",
    old: withP({ type: ["string", "integer"] }),
    new: withP({ type: ["integer", "string"] }),
    expect: [],
  },
  {
    name: "integer → number widens (integer ⊂ number)",
    old: withP({ type: "integer" }),
    new: withP({ type: "number" }),
    expect: [at("type-widened", "/properties/p/type")],
    reverse: [at("type-narrowed", "/properties/p/type")],
  },
  {
    name: 'type ["integer", "number"] equals "number"',
    old: withP({ type: ["integer", "number"] }),
    new: withP({ type: "number" }),
    expect: [],
    reverse: [],
  },
  {
    name: "string → number swaps one type for another",
    old: withP({ type: "string" }),
    new: withP({ type: "number" }),
    expect: [at("type-narrowed", "/properties/p/type"), at("type-widened", "/properties/p/type")],
    reverse: [at("type-narrowed", "/properties/p/type"), at("type-widened", "/properties/p/type")],
  },
  {
    name: "dropping `type` entirely accepts every type and null",
    old: withP({ type: "string" }),
    new: withP({}),
    expect: [at("type-widened", "/properties/p/type"), at("null-added", "/properties/p")],
    reverse: [at("type-narrowed", "/properties/p/type"), at("null-removed", "/properties/p")],
  },
];

const NULL_CASES: Case[] = [
  {
    name: 'null removed: type ["string", "null"] → "string"',
    old: withP({ type: ["string", "null"] }),
    new: withP({ type: "string" }),
    expect: [at("null-removed", "/properties/p")],
    reverse: [at("null-added", "/properties/p")],
  },
  {
    name: "null removed: anyOf [string, null] → string",
    old: withP({ anyOf: [{ type: "string" }, { type: "null" }] }),
    new: withP({ type: "string" }),
    expect: [at("null-removed", "/properties/p")],
    reverse: [at("null-added", "/properties/p")],
  },
  {
    name: "null removed: oneOf [string, null] → string",
    old: withP({ oneOf: [{ type: "string" }, { type: "null" }] }),
    new: withP({ type: "string" }),
    expect: [at("null-removed", "/properties/p")],
    reverse: [at("null-added", "/properties/p")],
  },
  {
    name: "null removed: nullable: true → (absent)",
    old: withP({ type: "string", nullable: true }),
    new: withP({ type: "string" }),
    expect: [at("null-removed", "/properties/p")],
    reverse: [at("null-added", "/properties/p")],
  },
  {
    name: "null removed from an enum",
    old: withP({ type: ["string", "null"], enum: ["metric", "imperial", null] }),
    new: withP({ type: ["string", "null"], enum: ["metric", "imperial"] }),
    expect: [at("null-removed", "/properties/p")],
    reverse: [at("null-added", "/properties/p")],
  },
  {
    name: "nullable: false is the same as no nullable",
    old: withP({ type: "string", nullable: false }),
    new: withP({ type: "string" }),
    expect: [],
    reverse: [],
  },
  {
    name: "nullability: type array ≡ anyOf null branch",
    old: withP({ type: ["string", "null"] }),
    new: withP({ anyOf: [{ type: "string" }, { type: "null" }] }),
    expect: [],
    reverse: [],
  },
  {
    name: "nullability: type array ≡ nullable: true",
    old: withP({ type: ["string", "null"] }),
    new: withP({ type: "string", nullable: true }),
    expect: [],
    reverse: [],
  },
  {
    name: "nullability: anyOf null branch ≡ nullable: true",
    old: withP({ anyOf: [{ type: "string" }, { type: "null" }] }),
    new: withP({ type: "string", nullable: true }),
    expect: [],
    reverse: [],
  },
  {
    name: "nullability: oneOf null branch ≡ type array (integer)",
    old: withP({ oneOf: [{ type: "integer" }, { type: "null" }] }),
    new: withP({ type: ["integer", "null"] }),
    expect: [],
    reverse: [],
  },
  {
    name: "nullability: null branch written as const null / enum [null]",
    old: withP({ anyOf: [{ type: "string" }, { const: null }] }),
    new: withP({ anyOf: [{ type: "string" }, { enum: [null] }] }),
    expect: [],
    reverse: [],
  },
  {
    name: "nullable enum in three encodings is the same",
    old: withP({ anyOf: [{ type: "string", enum: ["a", "b"] }, { type: "null" }] }),
    new: withP({ type: ["string", "null"], enum: ["a", "b", null] }),
    expect: [],
    reverse: [],
  },
  {
    name: "nullable enum: nullable: true ≡ type array with null in enum",
    old: withP({ type: "string", enum: ["a", "b"], nullable: true }),
    new: withP({ type: ["string", "null"], enum: ["a", "b", null] }),
    expect: [],
    reverse: [],
  },
  {
    name: "null branch with an annotation folds the same way",
    old: withP({ anyOf: [{ type: "string" }, { type: "null", description: "unset" }], description: "Units" }),
    new: withP({ type: ["string", "null"], description: "Units" }),
    expect: [],
    reverse: [],
  },
  {
    name: "null-only type gains a type",
    old: withP({ type: "null" }),
    new: withP({ type: ["string", "null"] }),
    expect: [at("type-widened", "/properties/p/type")],
    reverse: [at("type-narrowed", "/properties/p/type")],
  },
];

const VALUE_CASES: Case[] = [
  {
    name: "enum added to a free string",
    old: withP({ type: "string" }),
    new: withP({ type: "string", enum: ["metric", "imperial"] }),
    expect: [at("enum-added", "/properties/p/enum")],
    reverse: [at("enum-removed", "/properties/p/enum")],
  },
  {
    name: "enum value removed",
    old: withP({ type: "string", enum: ["metric", "imperial"] }),
    new: withP({ type: "string", enum: ["metric"] }),
    expect: [at("enum-value-removed", "/properties/p/enum")],
    reverse: [at("enum-value-added", "/properties/p/enum")],
  },
  {
    name: "enum value swapped for another",
    old: withP({ type: "string", enum: ["metric", "imperial"] }),
    new: withP({ type: "string", enum: ["metric", "kelvin"] }),
    expect: [at("enum-value-removed", "/properties/p/enum"), at("enum-value-added", "/properties/p/enum")],
  },
  {
    name: "enum order does not matter",
    old: withP({ type: "string", enum: ["metric", "imperial"] }),
    new: withP({ type: "string", enum: ["imperial", "metric"] }),
    expect: [],
  },
  {
    name: "integer enum values under type number",
    old: withP({ type: "number", enum: [1, 2] }),
    new: withP({ type: "number", enum: [1, 2, 3] }),
    expect: [at("enum-value-added", "/properties/p/enum")],
    reverse: [at("enum-value-removed", "/properties/p/enum")],
  },
  {
    name: "enum without type gives up its restriction for a type",
    old: withP({ enum: ["x", "y"] }),
    new: withP({ type: "string" }),
    expect: [at("enum-removed", "/properties/p/enum")],
    reverse: [at("enum-added", "/properties/p/enum")],
  },
  {
    name: "const added",
    old: withP({ type: "string" }),
    new: withP({ type: "string", const: "v2" }),
    expect: [at("const-added", "/properties/p/const")],
    reverse: [at("const-removed", "/properties/p/const")],
  },
  {
    name: "const changed",
    old: withP({ type: "string", const: "v1" }),
    new: withP({ type: "string", const: "v2" }),
    expect: [at("const-changed", "/properties/p/const")],
    reverse: [at("const-changed", "/properties/p/const")],
  },
  {
    name: "const ≡ one-value enum",
    old: withP({ const: "v1" }),
    new: withP({ enum: ["v1"] }),
    expect: [],
    reverse: [],
  },
  {
    name: "const → enum with one more value",
    old: withP({ const: "v1" }),
    new: withP({ enum: ["v1", "v2"] }),
    expect: [at("enum-value-added", "/properties/p/enum")],
    reverse: [at("enum-value-removed", "/properties/p/const")],
  },
];

const OBJECT_CASES: Case[] = [
  {
    name: "optional property added to an open object",
    old: tool(),
    new: tool({ units: { type: "string" } }),
    expect: [at("property-added", "/properties/units")],
    reverse: [at("property-removed", "/properties/units")],
  },
  {
    name: "property added to a closed object",
    old: tool({}, { additionalProperties: false }),
    new: tool({ units: { type: "string" } }, { additionalProperties: false }),
    expect: [at("closed-object-property-added", "/properties/units")],
    reverse: [at("closed-object-property-removed", "/properties/units")],
  },
  {
    name: "removed property judged by the NEW object's openness: open",
    old: tool({ units: { type: "string" } }),
    new: tool(),
    expect: [at("property-removed", "/properties/units")],
  },
  {
    name: "removed property judged by the NEW object's openness: closed",
    old: tool({ units: { type: "string" } }, { additionalProperties: false }),
    new: tool({}, { additionalProperties: false }),
    expect: [at("closed-object-property-removed", "/properties/units")],
  },
  {
    name: "patternProperties keep an object open even with additionalProperties: false",
    old: tool({ units: { type: "string" } }, { additionalProperties: false, patternProperties: { "^x-": {} } }),
    new: tool({}, { additionalProperties: false, patternProperties: { "^x-": {} } }),
    expect: [at("property-removed", "/properties/units")],
  },
  {
    name: "a property with a default becomes required (zod's .default() is written as required)",
    old: tool({ scale: { type: "string", enum: ["css", "device"], default: "css" } }),
    new: tool({ scale: { type: "string", enum: ["css", "device"], default: "css" } }, { required: ["city", "scale"] }),
    expect: [at("required-added-with-default", "/required")],
    reverse: [at("required-removed", "/required")],
  },
  {
    name: "required gains a name",
    old: tool({ days: { type: "integer" } }),
    new: tool({ days: { type: "integer" } }, { required: ["city", "days"] }),
    expect: [at("required-added", "/required")],
    reverse: [at("required-removed", "/required")],
  },
  {
    name: "required order does not matter",
    old: tool({ days: { type: "integer" } }, { required: ["city", "days"] }),
    new: tool({ days: { type: "integer" } }, { required: ["days", "city"] }),
    expect: [],
  },
  {
    name: "required added on an object that had no `properties`",
    old: { type: "object" },
    new: { type: "object", required: ["city"] },
    expect: [at("required-added", "/required")],
    reverse: [at("required-removed", "/required")],
  },
  {
    name: "a new required property is one change, not also an optional property added",
    old: { type: "object" },
    new: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    expect: [at("required-added", "/required")],
    reverse: [at("required-removed", "/required")],
  },
  {
    name: "nested object gains a required property",
    old: tool({ loc: { type: "object", properties: { lat: { type: "number" } } } }),
    new: tool({ loc: { type: "object", properties: { lat: { type: "number" } }, required: ["lat"] } }),
    expect: [at("required-added", "/properties/loc/required")],
    reverse: [at("required-removed", "/properties/loc/required")],
  },
  // additionalProperties: absent ≡ true ≡ {} (≡ an annotation-only schema)
  {
    name: "additionalProperties absent ≡ {}",
    old: tool(),
    new: tool({}, { additionalProperties: {} }),
    expect: [],
    reverse: [],
  },
  {
    name: "additionalProperties absent ≡ true",
    old: tool(),
    new: tool({}, { additionalProperties: true }),
    expect: [],
    reverse: [],
  },
  {
    name: "additionalProperties {} ≡ true",
    old: tool({}, { additionalProperties: {} }),
    new: tool({}, { additionalProperties: true }),
    expect: [],
    reverse: [],
  },
  {
    name: "additionalProperties absent ≡ a schema with only a description",
    old: tool(),
    new: tool({}, { additionalProperties: { description: "anything" } }),
    expect: [],
    reverse: [],
  },
  {
    name: "additionalProperties false ≡ {not: {}}",
    old: tool({}, { additionalProperties: false }),
    new: tool({}, { additionalProperties: { not: {} } }),
    expect: [],
    reverse: [],
  },
  {
    name: "additionalProperties {} → false",
    old: tool({}, { additionalProperties: {} }),
    new: tool({}, { additionalProperties: false }),
    expect: [at("additional-properties-restricted", "/additionalProperties")],
    reverse: [at("additional-properties-relaxed", "/additionalProperties")],
  },
  {
    name: "additionalProperties absent → false",
    old: tool(),
    new: tool({}, { additionalProperties: false }),
    expect: [at("additional-properties-restricted", "/additionalProperties")],
    reverse: [at("additional-properties-relaxed", "/additionalProperties")],
  },
  {
    name: "additionalProperties true → false",
    old: tool({}, { additionalProperties: true }),
    new: tool({}, { additionalProperties: false }),
    expect: [at("additional-properties-restricted", "/additionalProperties")],
    reverse: [at("additional-properties-relaxed", "/additionalProperties")],
  },
  {
    name: "additionalProperties true → schema",
    old: tool({}, { additionalProperties: true }),
    new: tool({}, { additionalProperties: { type: "string" } }),
    expect: [at("additional-properties-restricted", "/additionalProperties")],
    reverse: [at("additional-properties-relaxed", "/additionalProperties")],
  },
  {
    name: "additionalProperties schema → false",
    old: tool({}, { additionalProperties: { type: "string" } }),
    new: tool({}, { additionalProperties: false }),
    expect: [at("additional-properties-restricted", "/additionalProperties")],
    reverse: [at("additional-properties-relaxed", "/additionalProperties")],
  },
  {
    name: "additionalProperties schema → schema is compared inside",
    old: tool({}, { additionalProperties: { type: "string" } }),
    new: tool({}, { additionalProperties: { type: ["string", "number"] } }),
    expect: [at("type-widened", "/additionalProperties/type")],
    reverse: [at("type-narrowed", "/additionalProperties/type")],
  },
  {
    name: "patternProperties: a pattern replaced",
    old: tool({}, { patternProperties: { "^x-": {} } }),
    new: tool({}, { patternProperties: { "^ext-": {} } }),
    expect: [at("pattern-properties-changed", "/patternProperties")],
    reverse: [at("pattern-properties-changed", "/patternProperties")],
  },
  {
    name: "patternProperties: added",
    old: tool(),
    new: tool({}, { patternProperties: { "^x-": { type: "string" } } }),
    expect: [at("pattern-properties-changed", "/patternProperties")],
    reverse: [at("pattern-properties-changed", "/patternProperties")],
  },
  {
    name: "patternProperties: same pattern, its schema compared inside",
    old: tool({}, { patternProperties: { "^x-": { type: "string" } } }),
    new: tool({}, { patternProperties: { "^x-": { type: "string", maxLength: 10 } } }),
    expect: [at("max-length-lowered", "/patternProperties/^x-/maxLength")],
    reverse: [at("max-length-raised", "/patternProperties/^x-/maxLength")],
  },
  {
    name: "patternProperties: a pattern with a slash is escaped in the path",
    old: tool({}, { patternProperties: { "^a/b$": { type: "string" } } }),
    new: tool({}, { patternProperties: { "^a/b$": { type: "integer" } } }),
    expect: [
      at("type-narrowed", "/patternProperties/^a~1b$/type"),
      at("type-widened", "/patternProperties/^a~1b$/type"),
    ],
  },
  {
    name: "propertyNames: a pattern added",
    old: { type: "object", additionalProperties: { type: "number" } },
    new: { type: "object", additionalProperties: { type: "number" }, propertyNames: { pattern: "^[a-z_]+$" } },
    expect: [at("pattern-added", "/propertyNames/pattern")],
    reverse: [at("pattern-removed", "/propertyNames/pattern")],
  },
  {
    name: "propertyNames: maxLength lowered",
    old: tool({}, { propertyNames: { maxLength: 64 } }),
    new: tool({}, { propertyNames: { maxLength: 32 } }),
    expect: [at("max-length-lowered", "/propertyNames/maxLength")],
    reverse: [at("max-length-raised", "/propertyNames/maxLength")],
  },
  {
    name: "dependentRequired added",
    old: tool({ card: { type: "string" }, cvv: { type: "string" } }),
    new: tool({ card: { type: "string" }, cvv: { type: "string" } }, { dependentRequired: { card: ["cvv"] } }),
    expect: [at("dependent-required-added", "/dependentRequired/card")],
    reverse: [at("dependent-required-removed", "/dependentRequired/card")],
  },
  {
    name: "draft-07 dependencies (array form) added",
    old: tool({ card: { type: "string" }, cvv: { type: "string" } }),
    new: tool({ card: { type: "string" }, cvv: { type: "string" } }, { dependencies: { card: ["cvv"] } }),
    expect: [at("dependent-required-added", "/dependentRequired/card")],
    reverse: [at("dependent-required-removed", "/dependentRequired/card")],
  },
  {
    name: "draft-07 dependencies (array form) ≡ dependentRequired",
    old: tool({ card: {}, cvv: {} }, { dependencies: { card: ["cvv"] } }),
    new: tool({ card: {}, cvv: {} }, { dependentRequired: { card: ["cvv"] } }),
    expect: [],
    reverse: [],
  },
  {
    name: "draft-07 dependencies (schema form) ≡ dependentSchemas",
    old: tool({ card: {} }, { dependencies: { card: { required: ["cvv"] } } }),
    new: tool({ card: {} }, { dependentSchemas: { card: { required: ["cvv"] } } }),
    expect: [],
    reverse: [],
  },
  {
    name: "dependentRequired gains a second dependency",
    old: tool({}, { dependentRequired: { card: ["cvv"] } }),
    new: tool({}, { dependentRequired: { card: ["cvv", "expiry"] } }),
    expect: [at("dependent-required-added", "/dependentRequired/card")],
    reverse: [at("dependent-required-removed", "/dependentRequired/card")],
  },
  {
    name: "minProperties raised",
    old: tool({}, { minProperties: 1 }),
    new: tool({}, { minProperties: 2 }),
    expect: [at("min-properties-raised", "/minProperties")],
    reverse: [at("min-properties-lowered", "/minProperties")],
  },
  {
    name: "minProperties added",
    old: tool(),
    new: tool({}, { minProperties: 1 }),
    expect: [at("min-properties-raised", "/minProperties")],
    reverse: [at("min-properties-lowered", "/minProperties")],
  },
  {
    name: "minProperties: 0 ≡ absent",
    old: tool(),
    new: tool({}, { minProperties: 0 }),
    expect: [],
    reverse: [],
  },
  {
    name: "maxProperties lowered",
    old: tool({}, { maxProperties: 5 }),
    new: tool({}, { maxProperties: 3 }),
    expect: [at("max-properties-lowered", "/maxProperties")],
    reverse: [at("max-properties-raised", "/maxProperties")],
  },
  {
    name: "maxProperties added",
    old: tool(),
    new: tool({}, { maxProperties: 5 }),
    expect: [at("max-properties-lowered", "/maxProperties")],
    reverse: [at("max-properties-raised", "/maxProperties")],
  },
];

const num = (extra: JsonObject): JsonObject => withP({ type: "number", ...extra });

const NUMBER_CASES: Case[] = [
  {
    name: "minimum raised",
    old: num({ minimum: 1 }),
    new: num({ minimum: 5 }),
    expect: [at("minimum-raised", "/properties/p/minimum")],
    reverse: [at("minimum-lowered", "/properties/p/minimum")],
  },
  {
    name: "minimum added",
    old: num({}),
    new: num({ minimum: 0 }),
    expect: [at("minimum-raised", "/properties/p/minimum")],
    reverse: [at("minimum-lowered", "/properties/p/minimum")],
  },
  {
    name: "minimum becomes exclusive at the same value (numeric form)",
    old: num({ minimum: 0 }),
    new: num({ exclusiveMinimum: 0 }),
    expect: [at("minimum-raised", "/properties/p/exclusiveMinimum")],
    reverse: [at("minimum-lowered", "/properties/p/minimum")],
  },
  {
    name: "minimum becomes exclusive at the same value (draft-04 boolean form)",
    old: num({ minimum: 0 }),
    new: num({ minimum: 0, exclusiveMinimum: true }),
    expect: [at("minimum-raised", "/properties/p/exclusiveMinimum")],
    reverse: [at("minimum-lowered", "/properties/p/minimum")],
  },
  {
    name: "draft-04 exclusiveMinimum: true → false",
    old: num({ minimum: 0, exclusiveMinimum: true }),
    new: num({ minimum: 0, exclusiveMinimum: false }),
    expect: [at("minimum-lowered", "/properties/p/minimum")],
    reverse: [at("minimum-raised", "/properties/p/exclusiveMinimum")],
  },
  {
    name: "{minimum: 0, exclusiveMinimum: true} ≡ {exclusiveMinimum: 0}",
    old: num({ minimum: 0, exclusiveMinimum: true }),
    new: num({ exclusiveMinimum: 0 }),
    expect: [],
    reverse: [],
  },
  {
    name: "{minimum: 0, exclusiveMinimum: false} ≡ {minimum: 0}",
    old: num({ minimum: 0, exclusiveMinimum: false }),
    new: num({ minimum: 0 }),
    expect: [],
    reverse: [],
  },
  {
    name: "2020-12: minimum and exclusiveMinimum together — the tighter one counts",
    old: num({ minimum: 5, exclusiveMinimum: 3 }),
    new: num({ minimum: 5 }),
    expect: [],
    reverse: [],
  },
  {
    name: "maximum lowered",
    old: num({ maximum: 100 }),
    new: num({ maximum: 50 }),
    expect: [at("maximum-lowered", "/properties/p/maximum")],
    reverse: [at("maximum-raised", "/properties/p/maximum")],
  },
  {
    name: "maximum removed",
    old: num({ maximum: 10 }),
    new: num({}),
    expect: [at("maximum-raised", "/properties/p/maximum")],
    reverse: [at("maximum-lowered", "/properties/p/maximum")],
  },
  {
    name: "maximum becomes exclusive (numeric form)",
    old: num({ maximum: 10 }),
    new: num({ exclusiveMaximum: 10 }),
    expect: [at("maximum-lowered", "/properties/p/exclusiveMaximum")],
    reverse: [at("maximum-raised", "/properties/p/maximum")],
  },
  {
    name: "{maximum: 10, exclusiveMaximum: true} ≡ {exclusiveMaximum: 10}",
    old: num({ maximum: 10, exclusiveMaximum: true }),
    new: num({ exclusiveMaximum: 10 }),
    expect: [],
    reverse: [],
  },
  {
    name: "exclusive lower bound moved up",
    old: num({ exclusiveMinimum: 0 }),
    new: num({ exclusiveMinimum: 1 }),
    expect: [at("minimum-raised", "/properties/p/exclusiveMinimum")],
    reverse: [at("minimum-lowered", "/properties/p/exclusiveMinimum")],
  },
  {
    name: "integer → number keeps bounds and only widens the type",
    old: withP({ type: "integer", minimum: 1 }),
    new: withP({ type: "number", minimum: 1 }),
    expect: [at("type-widened", "/properties/p/type")],
    reverse: [at("type-narrowed", "/properties/p/type")],
  },
  {
    name: "bounds on an integer property",
    old: withP({ type: "integer", minimum: 1, maximum: 16 }),
    new: withP({ type: "integer", minimum: 1, maximum: 7 }),
    expect: [at("maximum-lowered", "/properties/p/maximum")],
    reverse: [at("maximum-raised", "/properties/p/maximum")],
  },
  {
    name: "multipleOf narrowed (new step is a multiple of the old)",
    old: num({ multipleOf: 5 }),
    new: num({ multipleOf: 10 }),
    expect: [at("multiple-of-narrowed", "/properties/p/multipleOf")],
    reverse: [at("multiple-of-widened", "/properties/p/multipleOf")],
  },
  {
    name: "multipleOf added",
    old: num({}),
    new: num({ multipleOf: 0.5 }),
    expect: [at("multiple-of-narrowed", "/properties/p/multipleOf")],
    reverse: [at("multiple-of-widened", "/properties/p/multipleOf")],
  },
  {
    name: "multipleOf with decimals: 0.01 → 0.1 narrows",
    old: num({ multipleOf: 0.01 }),
    new: num({ multipleOf: 0.1 }),
    expect: [at("multiple-of-narrowed", "/properties/p/multipleOf")],
    reverse: [at("multiple-of-widened", "/properties/p/multipleOf")],
  },
  {
    name: "multipleOf with decimals: 0.1 → 0.3 narrows despite floating point",
    old: num({ multipleOf: 0.1 }),
    new: num({ multipleOf: 0.3 }),
    expect: [at("multiple-of-narrowed", "/properties/p/multipleOf")],
    reverse: [at("multiple-of-widened", "/properties/p/multipleOf")],
  },
  {
    name: "multipleOf changed to an unrelated step",
    old: num({ multipleOf: 2 }),
    new: num({ multipleOf: 3 }),
    expect: [at("multiple-of-changed", "/properties/p/multipleOf")],
    reverse: [at("multiple-of-changed", "/properties/p/multipleOf")],
  },
];

const str = (extra: JsonObject): JsonObject => withP({ type: "string", ...extra });

const STRING_CASES: Case[] = [
  {
    name: "minLength added",
    old: str({}),
    new: str({ minLength: 1 }),
    expect: [at("min-length-raised", "/properties/p/minLength")],
    reverse: [at("min-length-lowered", "/properties/p/minLength")],
  },
  {
    name: "minLength raised",
    old: str({ minLength: 1 }),
    new: str({ minLength: 3 }),
    expect: [at("min-length-raised", "/properties/p/minLength")],
    reverse: [at("min-length-lowered", "/properties/p/minLength")],
  },
  {
    name: "minLength: 0 ≡ absent",
    old: str({}),
    new: str({ minLength: 0 }),
    expect: [],
    reverse: [],
  },
  {
    name: "maxLength lowered",
    old: str({ maxLength: 200 }),
    new: str({ maxLength: 100 }),
    expect: [at("max-length-lowered", "/properties/p/maxLength")],
    reverse: [at("max-length-raised", "/properties/p/maxLength")],
  },
  {
    name: "maxLength added",
    old: str({}),
    new: str({ maxLength: 100 }),
    expect: [at("max-length-lowered", "/properties/p/maxLength")],
    reverse: [at("max-length-raised", "/properties/p/maxLength")],
  },
  {
    name: "pattern added",
    old: str({}),
    new: str({ pattern: "^[a-z]+$" }),
    expect: [at("pattern-added", "/properties/p/pattern")],
    reverse: [at("pattern-removed", "/properties/p/pattern")],
  },
  {
    name: "pattern changed",
    old: str({ pattern: "^[a-z]+$" }),
    new: str({ pattern: "^[a-z0-9]+$" }),
    expect: [at("pattern-changed", "/properties/p/pattern")],
    reverse: [at("pattern-changed", "/properties/p/pattern")],
  },
  {
    name: "format added",
    old: str({}),
    new: str({ format: "email" }),
    expect: [at("format-added", "/properties/p/format")],
    reverse: [at("format-removed", "/properties/p/format")],
  },
  {
    name: "format changed",
    old: str({ format: "date" }),
    new: str({ format: "date-time" }),
    expect: [at("format-changed", "/properties/p/format")],
    reverse: [at("format-changed", "/properties/p/format")],
  },
  {
    name: "string keywords on a non-string type are ignored",
    old: withP({ type: "integer" }),
    new: withP({ type: "integer", minLength: 3, pattern: "^x", format: "email" }),
    expect: [],
    reverse: [],
  },
];

const arr = (extra: JsonObject): JsonObject => withP({ type: "array", ...extra });

const ARRAY_CASES: Case[] = [
  {
    name: "items schema changed",
    old: arr({ items: { type: "string" } }),
    new: arr({ items: { type: "number" } }),
    expect: [at("type-narrowed", "/properties/p/items/type"), at("type-widened", "/properties/p/items/type")],
  },
  {
    name: "items schema added to an unconstrained array",
    old: arr({}),
    new: arr({ items: { type: "string" } }),
    expect: [at("type-narrowed", "/properties/p/items/type"), at("null-removed", "/properties/p/items")],
    reverse: [at("type-widened", "/properties/p/items/type"), at("null-added", "/properties/p/items")],
  },
  {
    name: "items schema narrowed deep inside",
    old: arr({ items: { type: "object", properties: { id: { type: "string" } } } }),
    new: arr({ items: { type: "object", properties: { id: { type: "string", format: "uuid" } } } }),
    expect: [at("format-added", "/properties/p/items/properties/id/format")],
    reverse: [at("format-removed", "/properties/p/items/properties/id/format")],
  },
  {
    name: "draft-07 tuple `items: [..]` ≡ 2020-12 `prefixItems`",
    old: arr({ items: [{ type: "number" }, { type: "number" }] }),
    new: arr({ prefixItems: [{ type: "number" }, { type: "number" }] }),
    expect: [],
    reverse: [],
  },
  {
    name: "draft-07 `items: [..], additionalItems: false` ≡ 2020-12 `prefixItems, items: false`",
    old: arr({ items: [{ type: "number" }, { type: "number" }], additionalItems: false }),
    new: arr({ prefixItems: [{ type: "number" }, { type: "number" }], items: false }),
    expect: [],
    reverse: [],
  },
  {
    name: "draft-07 tuple → prefixItems with a changed position",
    old: arr({ items: [{ type: "number" }, { type: "number" }] }),
    new: arr({ prefixItems: [{ type: "number" }, { type: "integer" }] }),
    expect: [at("type-narrowed", "/properties/p/prefixItems/1/type")],
    reverse: [at("type-widened", "/properties/p/prefixItems/1/type")],
  },
  {
    name: "prefixItems loses a position",
    old: arr({ prefixItems: [{ type: "number" }, { type: "number" }] }),
    new: arr({ prefixItems: [{ type: "number" }] }),
    expect: [at("items-tuple-changed", "/properties/p/prefixItems")],
    reverse: [at("items-tuple-changed", "/properties/p/prefixItems")],
  },
  {
    name: "minItems added",
    old: arr({ items: { type: "string" } }),
    new: arr({ items: { type: "string" }, minItems: 1 }),
    expect: [at("min-items-raised", "/properties/p/minItems")],
    reverse: [at("min-items-lowered", "/properties/p/minItems")],
  },
  {
    name: "maxItems lowered",
    old: arr({ items: { type: "string" }, maxItems: 10 }),
    new: arr({ items: { type: "string" }, maxItems: 5 }),
    expect: [at("max-items-lowered", "/properties/p/maxItems")],
    reverse: [at("max-items-raised", "/properties/p/maxItems")],
  },
  {
    name: "uniqueItems added",
    old: arr({ items: { type: "string" } }),
    new: arr({ items: { type: "string" }, uniqueItems: true }),
    expect: [at("unique-items-added", "/properties/p/uniqueItems")],
    reverse: [at("unique-items-removed", "/properties/p/uniqueItems")],
  },
  {
    name: "uniqueItems: false ≡ absent",
    old: arr({ uniqueItems: false }),
    new: arr({}),
    expect: [],
    reverse: [],
  },
  {
    name: "contains added",
    old: arr({ items: { type: "string" } }),
    new: arr({ items: { type: "string" }, contains: { const: "admin" } }),
    expect: [at("contains-added", "/properties/p/contains")],
    reverse: [at("contains-removed", "/properties/p/contains")],
  },
  {
    name: "contains schema changed is compared inside",
    old: arr({ contains: { const: "admin" } }),
    new: arr({ contains: { const: "owner" } }),
    expect: [at("const-changed", "/properties/p/contains/const")],
  },
  {
    name: "minContains changed is a composition change",
    old: arr({ contains: { const: "admin" } }),
    new: arr({ contains: { const: "admin" }, minContains: 2 }),
    expect: [at("composition-changed", "/properties/p/minContains")],
  },
];

const COMPOSITION_CASES: Case[] = [
  {
    name: "anyOf branch removed",
    old: withP({
      anyOf: [
        { type: "string", format: "date" },
        { type: "integer", minimum: 0 },
        { type: "string", format: "uri" },
      ],
    }),
    new: withP({
      anyOf: [
        { type: "string", format: "date" },
        { type: "string", format: "uri" },
      ],
    }),
    expect: [at("any-of-branch-removed", "/properties/p/anyOf/1")],
    reverse: [at("any-of-branch-added", "/properties/p/anyOf/1")],
  },
  {
    name: "a union of bare types is a type list: losing one is type-narrowed",
    old: withP({ anyOf: [{ type: "string" }, { type: "integer" }] }),
    new: withP({ anyOf: [{ type: "string" }] }),
    expect: [at("type-narrowed", "/properties/p/type")],
    reverse: [at("type-widened", "/properties/p/type")],
  },
  {
    name: "oneOf branch added",
    old: withP({
      oneOf: [
        { type: "string", minLength: 1 },
        { type: "number", minimum: 0 },
      ],
    }),
    new: withP({
      oneOf: [
        { type: "string", minLength: 1 },
        { type: "number", minimum: 0 },
        { type: "array", items: { type: "string" } },
      ],
    }),
    expect: [at("any-of-branch-added", "/properties/p/oneOf/2")],
    reverse: [at("any-of-branch-removed", "/properties/p/oneOf/2")],
  },
  {
    name: "anyOf branch added at the front is matched by structure",
    old: withP({
      anyOf: [
        { type: "string", format: "date" },
        { type: "string", format: "uri" },
      ],
    }),
    new: withP({
      anyOf: [
        { type: "string", format: "email" },
        { type: "string", format: "date" },
        { type: "string", format: "uri" },
      ],
    }),
    expect: [at("any-of-branch-added", "/properties/p/anyOf/0")],
    reverse: [at("any-of-branch-removed", "/properties/p/anyOf/0")],
  },
  {
    name: "anyOf branches reordered: no change",
    old: withP({ anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] }),
    new: withP({ anyOf: [{ type: "array", items: { type: "string" } }, { type: "string" }] }),
    expect: [],
    reverse: [],
  },
  {
    name: "anyOf of inline objects reordered: no change",
    old: withP({
      anyOf: [
        { type: "object", properties: { kind: { const: "cat" } }, required: ["kind"] },
        { type: "object", properties: { kind: { const: "dog" } }, required: ["kind"] },
      ],
    }),
    new: withP({
      anyOf: [
        { type: "object", properties: { kind: { const: "dog" } }, required: ["kind"] },
        { type: "object", properties: { kind: { const: "cat" } }, required: ["kind"] },
      ],
    }),
    expect: [],
    reverse: [],
  },
  {
    name: "anyOf branch changed in place is compared inside",
    old: withP({ anyOf: [{ type: "string", maxLength: 10 }, { type: "array" }] }),
    new: withP({ anyOf: [{ type: "string", maxLength: 5 }, { type: "array" }] }),
    expect: [at("max-length-lowered", "/properties/p/anyOf/0/maxLength")],
  },
  {
    name: "restructure: string → anyOf [string, array of string] is a branch added only",
    old: withP({ type: "string" }),
    new: withP({ anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] }),
    expect: [at("any-of-branch-added", "/properties/p/anyOf/1")],
    reverse: [at("any-of-branch-removed", "/properties/p/anyOf/1")],
  },
  {
    name: "restructure: the equal branch second",
    old: withP({ type: "string" }),
    new: withP({ anyOf: [{ type: "array", items: { type: "string" } }, { type: "string" }] }),
    expect: [at("any-of-branch-added", "/properties/p/anyOf/0")],
    reverse: [at("any-of-branch-removed", "/properties/p/anyOf/0")],
  },
  {
    name: "restructure keeping the description on the outside",
    old: withP({ type: "string", description: "Units" }),
    new: withP({ anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }], description: "Units" }),
    expect: [at("any-of-branch-added", "/properties/p/anyOf/1")],
  },
  {
    name: "restructure into a nullable union",
    old: withP({ type: "string" }),
    new: withP({ anyOf: [{ type: "string" }, { type: "integer" }, { type: "null" }] }),
    // The bare-type branches fold into a type list: the integer branch is a widened type.
    expect: [at("null-added", "/properties/p"), at("type-widened", "/properties/p/type")],
    reverse: [at("null-removed", "/properties/p"), at("type-narrowed", "/properties/p/type")],
  },
  {
    // S ∧ anyOf(B1, B2) is compared as anyOf(S ∧ B1, S ∧ B2): the old schema matches the first
    // branch with "a" now required (callers sending neither a nor b break), and a second way in.
    name: "anyOf added beside other constraints",
    old: tool({ a: {}, b: {} }, { required: [] }),
    new: tool({ a: {}, b: {} }, { required: [], anyOf: [{ required: ["a"] }, { required: ["b"] }] }),
    expect: [at("required-added", "/anyOf/0/required"), at("any-of-branch-added", "/anyOf/1")],
    reverse: [at("required-removed", "/anyOf/0/required"), at("any-of-branch-removed", "/anyOf/1")],
  },
  {
    name: "allOf split without semantic change: no change",
    old: tool({ days: { type: "integer" } }),
    new: {
      allOf: [
        { type: "object", properties: { city: { type: "string", description: "City name" } }, required: ["city"] },
        { properties: { days: { type: "integer" } } },
      ],
    },
    expect: [],
    reverse: [],
  },
  {
    name: "allOf split of one property's keywords: no change",
    old: withP({ type: "string", minLength: 1 }),
    new: tool({}, { allOf: [{ properties: { p: { type: "string" } } }, { properties: { p: { minLength: 1 } } }] }),
    expect: [],
    reverse: [],
  },
  {
    name: "allOf parts merged and compared: a change in one part",
    old: { allOf: [tool(), { properties: { days: { type: "integer" } } }] },
    new: { allOf: [tool(), { properties: { days: { type: "integer", maximum: 7 } } }] },
    expect: [at("maximum-lowered", "/properties/days/maximum")],
    reverse: [at("maximum-raised", "/properties/days/maximum")],
  },
  {
    name: "allOf intersecting type: [number] ∩ [integer] is integer",
    old: withP({ allOf: [{ type: "number" }, { type: "integer" }] }),
    new: withP({ type: "integer" }),
    expect: [],
    reverse: [],
  },
  {
    name: "allOf gaining a referenced part",
    old: { ...withP({ allOf: [{ $ref: "#/$defs/A" }] }), $defs: { A: { minLength: 1 }, B: { maxLength: 9 } } },
    new: {
      ...withP({ allOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }] }),
      $defs: { A: { minLength: 1 }, B: { maxLength: 9 } },
    },
    // The referenced parts are inlined and merged: what changed is the added part's maxLength.
    expect: [at("max-length-lowered", "/properties/p/maxLength")],
  },
  {
    name: "dependentSchemas changed",
    old: tool({}, { dependentSchemas: { card: { required: ["cvv"] } } }),
    new: tool(),
    expect: [at("composition-changed", "/dependentSchemas/card")],
  },
  {
    name: "not changed",
    old: withP({ type: "string", not: { const: "" } }),
    new: withP({ type: "string", not: { enum: ["", "none"] } }),
    expect: [at("not-changed", "/properties/p/not")],
    reverse: [at("not-changed", "/properties/p/not")],
  },
  {
    name: "not added",
    old: withP({ type: "string" }),
    new: withP({ type: "string", not: { const: "" } }),
    expect: [at("not-changed", "/properties/p/not")],
    reverse: [at("not-changed", "/properties/p/not")],
  },
  {
    name: "if/then changed",
    old: tool(
      { mode: { type: "string" }, days: { type: "integer" } },
      { if: { properties: { mode: { const: "range" } } }, then: { required: ["days"] } },
    ),
    new: tool(
      { mode: { type: "string" }, days: { type: "integer" } },
      { if: { properties: { mode: { const: "span" } } }, then: { required: ["days"] } },
    ),
    expect: [at("conditional-changed", "/if")],
    reverse: [at("conditional-changed", "/if")],
  },
  {
    name: "else removed",
    old: tool({}, { if: { required: ["a"] }, then: { required: ["b"] }, else: { required: ["c"] } }),
    new: tool({}, { if: { required: ["a"] }, then: { required: ["b"] } }),
    expect: [at("conditional-changed", "/if")],
  },
];

const DEFS = {
  City: { type: "string", minLength: 1 },
  Units: { type: "string", enum: ["metric", "imperial"] },
};

const REF_CASES: Case[] = [
  {
    name: "$ref to $defs: a change in the definition, path through /$ref/",
    old: tool({ units: ref("Units") }, { $defs: DEFS }),
    new: tool({ units: ref("Units") }, { $defs: { ...DEFS, Units: { type: "string", enum: ["metric"] } } }),
    expect: [at("enum-value-removed", "/properties/units/$ref/enum")],
    reverse: [at("enum-value-added", "/properties/units/$ref/enum")],
  },
  {
    name: "$ref to definitions (draft-07): a change in the definition",
    old: tool({ where: ref("City", "definitions") }, { definitions: DEFS }),
    new: tool(
      { where: ref("City", "definitions") },
      { definitions: { ...DEFS, City: { type: "string", minLength: 3 } } },
    ),
    expect: [at("min-length-raised", "/properties/where/$ref/minLength")],
    reverse: [at("min-length-lowered", "/properties/where/$ref/minLength")],
  },
  {
    name: "definitions → $defs with the same content: no change",
    old: tool({ units: ref("Units", "definitions") }, { definitions: DEFS }),
    new: tool({ units: ref("Units") }, { $defs: DEFS }),
    expect: [],
    reverse: [],
  },
  {
    name: "definitions → $defs with a changed definition",
    old: tool({ units: ref("Units", "definitions") }, { definitions: DEFS }),
    new: tool(
      { units: ref("Units") },
      { $defs: { ...DEFS, Units: { type: "string", enum: ["metric", "imperial", "si"] } } },
    ),
    expect: [at("enum-value-added", "/properties/units/$ref/enum")],
    reverse: [at("enum-value-removed", "/properties/units/$ref/enum")],
  },
  {
    name: "a shared definition reached from two properties is reported once, at the first path",
    old: tool({ from: ref("City"), to: ref("City") }, { $defs: DEFS }),
    new: tool({ from: ref("City"), to: ref("City") }, { $defs: { ...DEFS, City: { type: "string", minLength: 2 } } }),
    expect: [at("min-length-raised", "/properties/from/$ref/minLength")],
  },
  {
    name: "a change in an unreferenced definition reports nothing",
    old: tool({ units: ref("Units") }, { $defs: DEFS }),
    new: tool({ units: ref("Units") }, { $defs: { ...DEFS, City: { type: "integer" } } }),
    expect: [],
    reverse: [],
  },
  {
    name: "a definition removed while nothing references it reports nothing",
    old: tool({ units: ref("Units") }, { $defs: DEFS }),
    new: tool({ units: ref("Units") }, { $defs: { Units: DEFS.Units } }),
    expect: [],
    reverse: [],
  },
  {
    name: "$ref inlined on one side ≡ the definition",
    old: tool({ units: ref("Units") }, { $defs: DEFS }),
    new: tool({ units: { type: "string", enum: ["metric", "imperial"] } }),
    expect: [],
    reverse: [],
  },
  {
    name: "$ref inlined on one side with a change",
    old: tool({ units: ref("Units") }, { $defs: DEFS }),
    new: tool({ units: { type: "string", enum: ["metric"] } }),
    expect: [at("enum-value-removed", "/properties/units/enum")],
  },
  {
    name: "$ref with a sibling description",
    old: tool({ units: { ...ref("Units"), description: "Units" } }, { $defs: DEFS }),
    new: tool({ units: { ...ref("Units"), description: "Unit system" } }, { $defs: DEFS }),
    expect: [at("description-changed", "/properties/units/description")],
  },
  {
    name: "a nullable definition loses null",
    old: tool({ where: ref("City") }, { $defs: { City: { type: ["string", "null"] } } }),
    new: tool({ where: ref("City") }, { $defs: { City: { type: "string" } } }),
    expect: [at("null-removed", "/properties/where/$ref")],
    reverse: [at("null-added", "/properties/where/$ref")],
  },
  {
    name: "recursive definition: unchanged with a different layout terminates with no change",
    old: {
      $defs: { Node: { type: "object", properties: { v: { type: "string" }, next: ref("Node") } } },
      ...ref("Node"),
    },
    new: {
      $defs: { Node: { type: "object", properties: { v: { type: "string" }, next: ref("Node") } } },
      type: "object",
      properties: { v: { type: "string" }, next: ref("Node") },
    },
    expect: [],
    reverse: [],
  },
  {
    name: "recursive definition: a change terminates and is reported once",
    old: tool(
      { tree: ref("Node") },
      {
        $defs: {
          Node: {
            type: "object",
            properties: { name: { type: "string" }, children: { type: "array", items: ref("Node") } },
          },
        },
      },
    ),
    new: tool(
      { tree: ref("Node") },
      {
        $defs: {
          Node: {
            type: "object",
            properties: { name: { type: "string", minLength: 1 }, children: { type: "array", items: ref("Node") } },
          },
        },
      },
    ),
    expect: [at("min-length-raised", "/properties/tree/$ref/properties/name/minLength")],
    reverse: [at("min-length-lowered", "/properties/tree/$ref/properties/name/minLength")],
  },
  {
    name: "mutually recursive definitions terminate",
    old: tool(
      { a: ref("A") },
      {
        $defs: {
          A: { type: "object", properties: { b: ref("B") } },
          B: { type: "object", properties: { a: ref("A"), n: { type: "integer" } } },
        },
      },
    ),
    new: tool(
      { a: ref("A") },
      {
        $defs: {
          A: { type: "object", properties: { b: ref("B") } },
          B: { type: "object", properties: { a: ref("A"), n: { type: "number" } } },
        },
      },
    ),
    expect: [at("type-widened", "/properties/a/$ref/properties/b/$ref/properties/n/type")],
  },
  {
    // The root is compared once directly and once more through the first `#` (the pair memo
    // only starts at a $ref), so the change shows up a second time under /properties/child/$ref.
    name: "$ref '#' to the root terminates",
    old: { type: "object", properties: { child: { $ref: "#" }, name: { type: "string" } } },
    new: { type: "object", properties: { child: { $ref: "#" }, name: { type: "integer" } } },
    // The recursion reaches the same pair of nodes again and stops there: reported once.
    expect: [at("type-narrowed", "/properties/name/type"), at("type-widened", "/properties/name/type")],
  },
  {
    name: "remote $ref changed",
    old: withP({ $ref: "https://example.com/a.json" }),
    new: withP({ $ref: "https://example.com/b.json" }),
    expect: [at("ref-target-unresolvable", "/properties/p/$ref")],
    reverse: [at("ref-target-unresolvable", "/properties/p/$ref")],
  },
  {
    name: "$ref to a missing local definition changed",
    old: withP(ref("Missing")),
    new: withP(ref("Gone")),
    expect: [at("ref-target-unresolvable", "/properties/p/$ref")],
  },
  {
    name: "the same unresolvable $ref on both sides: nothing",
    old: withP(ref("Missing")),
    new: withP(ref("Missing"), { description: "x" }),
    expect: [at("description-changed", "/description")],
  },
];

const ANNOTATION_CASES: Case[] = [
  {
    name: "default changed",
    old: withP({ type: "integer", default: 3 }),
    new: withP({ type: "integer", default: 7 }),
    expect: [at("default-changed", "/properties/p/default")],
    reverse: [at("default-changed", "/properties/p/default")],
  },
  {
    name: "default added",
    old: withP({ type: "integer" }),
    new: withP({ type: "integer", default: 3 }),
    expect: [at("default-changed", "/properties/p/default")],
  },
  {
    name: "deprecated added",
    old: withP({ type: "string" }),
    new: withP({ type: "string", deprecated: true }),
    expect: [at("deprecated-added", "/properties/p/deprecated")],
    reverse: [at("deprecated-removed", "/properties/p/deprecated")],
  },
  {
    name: "deprecated: false ≡ absent",
    old: withP({ type: "string", deprecated: false }),
    new: withP({ type: "string" }),
    expect: [],
    reverse: [],
  },
  {
    name: "readOnly removed",
    old: withP({ type: "string", readOnly: true }),
    new: withP({ type: "string" }),
    expect: [at("read-write-only-changed", "/properties/p/readOnly")],
    reverse: [at("read-write-only-changed", "/properties/p/readOnly")],
  },
  {
    name: "writeOnly added",
    old: withP({ type: "string" }),
    new: withP({ type: "string", writeOnly: true }),
    expect: [at("read-write-only-changed", "/properties/p/writeOnly")],
  },
  {
    name: "title changed",
    old: withP({ type: "string", title: "Units" }),
    new: withP({ type: "string", title: "Unit system" }),
    expect: [at("description-changed", "/properties/p/title")],
  },
  {
    name: "description changed",
    old: tool(),
    new: tool({ city: { type: "string", description: "City name, e.g. Paris" } }),
    expect: [at("description-changed", "/properties/city/description")],
  },
  {
    name: "examples changed",
    old: withP({ type: "string", examples: ["metric"] }),
    new: withP({ type: "string", examples: ["imperial"] }),
    expect: [at("description-changed", "/properties/p/examples")],
  },
  {
    name: "$schema draft-07 → 2020-12",
    old: { $schema: "http://json-schema.org/draft-07/schema#", ...tool() },
    new: { $schema: "https://json-schema.org/draft/2020-12/schema", ...tool() },
    expect: [at("schema-dialect-changed", "/$schema")],
    reverse: [at("schema-dialect-changed", "/$schema")],
  },
  {
    name: "$schema draft-07 → 2020-12 with tuples and dependencies rewritten: dialect only",
    old: {
      $schema: "http://json-schema.org/draft-07/schema#",
      ...tool(
        { pair: { type: "array", items: [{ type: "number" }, { type: "number" }], additionalItems: false } },
        { dependencies: { pair: ["city"] } },
      ),
    },
    new: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      ...tool(
        { pair: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false } },
        { dependentRequired: { pair: ["city"] } },
      ),
    },
    expect: [at("schema-dialect-changed", "/$schema")],
  },
  {
    name: "unknown x- keyword",
    old: withP({ type: "string", "x-order": 1 }),
    new: withP({ type: "string", "x-order": 2 }),
    expect: [at("annotation-keyword-changed", "/properties/p/x-order")],
    reverse: [at("annotation-keyword-changed", "/properties/p/x-order")],
  },
  {
    name: "unknown keyword without x- prefix",
    old: tool({}, { examples_hint: "a" }),
    new: tool(),
    expect: [at("annotation-keyword-changed", "/examples_hint")],
  },
  {
    name: "$comment changed",
    old: withP({ type: "string", $comment: "old" }),
    new: withP({ type: "string", $comment: "new" }),
    expect: [at("annotation-keyword-changed", "/properties/p/$comment")],
  },
];

const BOOLEAN_CASES: Case[] = [
  {
    name: "true ≡ {}",
    old: withP(true),
    new: withP({}),
    expect: [],
    reverse: [],
  },
  {
    name: "false ≡ {not: {}}",
    old: withP(false),
    new: withP({ not: {} }),
    expect: [],
    reverse: [],
  },
  {
    name: "true → false accepts nothing any more",
    old: withP(true),
    new: withP(false),
    expect: [at("type-narrowed", "/properties/p")],
    reverse: [at("type-widened", "/properties/p")],
  },
  {
    name: "{} → false",
    old: withP({}),
    new: withP(false),
    expect: [at("type-narrowed", "/properties/p")],
    reverse: [at("type-widened", "/properties/p")],
  },
  {
    name: "true → string narrows type and null",
    old: withP(true),
    new: withP({ type: "string" }),
    expect: [at("type-narrowed", "/properties/p/type"), at("null-removed", "/properties/p")],
    reverse: [at("type-widened", "/properties/p/type"), at("null-added", "/properties/p")],
  },
  {
    name: "root true ≡ root {}",
    old: true,
    new: {},
    expect: [],
    reverse: [],
  },
];

/** Nested objects `depth` levels deep, with `leaf` at the bottom. */
function nested(depth: number, leaf: JsonObject): JsonObject {
  let node: JsonObject = { type: "object", properties: { value: leaf } };
  for (let i = 0; i < depth - 1; i++) {
    node = { type: "object", properties: { [`level${depth - 1 - i}`]: node }, required: [`level${depth - 1 - i}`] };
  }
  return node;
}
/** Where the comparison stops: the root plus 256 nested levels. */
const DEEP_LIMIT_PATH = Array.from({ length: 257 }, (_, i) => `/properties/level${i + 1}`).join("");
const DEEP_PATH = `${Array.from({ length: 19 }, (_, i) => `/properties/level${i + 1}`).join("")}/properties/value`;

const DEEP_CASES: Case[] = [
  {
    name: "20-level deep nested object with a change at the bottom",
    old: nested(20, { type: "string", maxLength: 100 }),
    new: nested(20, { type: "string", maxLength: 50 }),
    expect: [at("max-length-lowered", `${DEEP_PATH}/maxLength`)],
    reverse: [at("max-length-raised", `${DEEP_PATH}/maxLength`)],
  },
  {
    name: "a change below the depth limit (256) is reported as comparison-limit-reached, never dropped",
    old: nested(300, { type: "string" }),
    new: nested(300, { type: "number" }),
    expect: [at("comparison-limit-reached", DEEP_LIMIT_PATH)],
    reverse: [at("comparison-limit-reached", DEEP_LIMIT_PATH)],
  },
];

// ── roots of any type: 2026-07-28 outputSchemas (structuredContent may be any JSON value) ──

const ROOT_CASES: Case[] = [
  {
    name: "an array root whose items gain null",
    old: { type: "array", items: { type: "string" } },
    new: { type: "array", items: { type: ["string", "null"] } },
    expect: [at("null-added", "/items")],
    reverse: [at("null-removed", "/items")],
  },
  {
    name: "an array root of objects: a required property dropped, and a length bound",
    old: { type: "array", items: { type: "object", properties: { a: { type: "string" } }, required: ["a"] } },
    new: { type: "array", items: { type: "object", properties: { a: { type: "string" } } }, maxItems: 10 },
    expect: [at("required-removed", "/items/required"), at("max-items-lowered", "/maxItems")],
    reverse: [at("required-added", "/items/required"), at("max-items-raised", "/maxItems")],
  },
  {
    name: "a string root gains an enum value",
    old: { type: "string", enum: ["sunny", "rain"] },
    new: { type: "string", enum: ["sunny", "rain", "snow"] },
    expect: [at("enum-value-added", "/enum")],
    reverse: [at("enum-value-removed", "/enum")],
  },
  {
    name: "an integer root becomes a number",
    old: { type: "integer", minimum: 0 },
    new: { type: "number", minimum: 0 },
    expect: [at("type-widened", "/type")],
    reverse: [at("type-narrowed", "/type")],
  },
  {
    name: "an object root becomes an array",
    old: { type: "object", properties: { a: { type: "string" } } },
    new: { type: "array", items: { type: "string" } },
    expect: [at("type-narrowed", "/type"), at("type-widened", "/type")],
    reverse: [at("type-narrowed", "/type"), at("type-widened", "/type")],
  },
  {
    name: "a nullable root written two ways is the same root",
    old: { type: ["boolean", "null"] },
    new: { anyOf: [{ type: "boolean" }, { type: "null" }] },
    expect: [],
    reverse: [],
  },
];

const SAFE = Number.MAX_SAFE_INTEGER;

/** Issue #12's engine principles: one edit is one finding, zod's integer limits, oneOf judged as a whole. */
const PRECISION_CASES: Case[] = [
  {
    name: "one edit, one finding: a const on a property with no type folds the type and null it implies",
    old: withP({ description: "mode" }),
    new: withP({ description: "mode", const: "v2" }),
    expect: [at("const-added", "/properties/p/const")],
    reverse: [at("const-removed", "/properties/p/const")],
  },
  {
    name: "one edit, one finding: an enum on a nullable string folds null-removed",
    old: withP({ type: ["string", "null"] }),
    new: withP({ type: "string", enum: ["a", "b"] }),
    expect: [at("enum-added", "/properties/p/enum")],
    reverse: [at("enum-removed", "/properties/p/enum")],
  },
  {
    name: "one edit, one finding: a const on one type of a type list is that branch's edit",
    old: withP({ anyOf: [{ type: "string" }, { type: "object" }] }),
    new: withP({ anyOf: [{ type: "string", const: "x" }, { type: "object" }] }),
    expect: [at("const-added", "/properties/p/anyOf/0/const")],
    reverse: [at("const-removed", "/properties/p/anyOf/0/const")],
  },
  {
    name: "zod's .int() bounds ±(2^53−1) added: no bound (patch both ways)",
    old: withP({ type: "integer" }),
    new: withP({ type: "integer", minimum: -SAFE, maximum: SAFE }),
    expect: [
      at("safe-integer-bound-changed", "/properties/p/minimum"),
      at("safe-integer-bound-changed", "/properties/p/maximum"),
    ],
    reverse: [
      at("safe-integer-bound-changed", "/properties/p/minimum"),
      at("safe-integer-bound-changed", "/properties/p/maximum"),
    ],
  },
  {
    name: "a bound of 2^53−1 on a number (not only integers) is a real bound",
    old: withP({ type: "number" }),
    new: withP({ type: "number", maximum: SAFE }),
    expect: [at("maximum-lowered", "/properties/p/maximum")],
    reverse: [at("maximum-raised", "/properties/p/maximum")],
  },
  {
    name: "an integer bound moved off the limit is judged as any bound",
    old: withP({ type: "integer", maximum: SAFE }),
    new: withP({ type: "integer", maximum: 100 }),
    expect: [at("maximum-lowered", "/properties/p/maximum")],
    reverse: [at("maximum-raised", "/properties/p/maximum")],
  },
  {
    name: "oneOf is exclusive: a const added to a branch beside a catch-all branch frees a value that matched both",
    old: withP({ oneOf: [{ type: "string", enum: ["x", "y"] }, { type: "string" }] }),
    new: withP({ oneOf: [{ type: "string", const: "x" }, { type: "string" }] }),
    expect: [at("oneof-overlap-removed", "/properties/p/oneOf/0")],
    reverse: [at("oneof-overlap-added", "/properties/p/oneOf/0")],
  },
  {
    name: "anyOf: a branch narrowed inside another branch's values is absorbed",
    old: withP({ anyOf: [{ type: "string", maxLength: 10 }, { type: "string" }, { type: "integer" }] }),
    new: withP({ anyOf: [{ type: "string", maxLength: 5 }, { type: "string" }, { type: "integer" }] }),
    expect: [at("union-branch-change-absorbed", "/properties/p/anyOf/0")],
    reverse: [at("union-branch-change-absorbed", "/properties/p/anyOf/0")],
  },
  {
    name: "a branch narrowed where no other branch covers it is still a narrowing",
    old: withP({ oneOf: [{ type: "string", maxLength: 10 }, { type: "integer" }] }),
    new: withP({ oneOf: [{ type: "string", maxLength: 5 }, { type: "integer" }] }),
    expect: [at("max-length-lowered", "/properties/p/oneOf/0/maxLength")],
    reverse: [at("max-length-raised", "/properties/p/oneOf/0/maxLength")],
  },
];

const GROUPS: [string, Case[]][] = [
  ["precision (issue #12)", PRECISION_CASES],
  ["root of any type (2026 outputSchema)", ROOT_CASES],
  ["type", TYPE_CASES],
  ["null", NULL_CASES],
  ["enum/const", VALUE_CASES],
  ["object", OBJECT_CASES],
  ["number", NUMBER_CASES],
  ["string", STRING_CASES],
  ["array", ARRAY_CASES],
  ["composition", COMPOSITION_CASES],
  ["$ref", REF_CASES],
  ["annotation", ANNOTATION_CASES],
  ["boolean schema", BOOLEAN_CASES],
  ["deep", DEEP_CASES],
];
const ALL_CASES = GROUPS.flatMap(([, cases]) => cases);

for (const [group, cases] of GROUPS) {
  describe(`compareSchemas: ${group}`, () => {
    for (const c of cases) {
      test(c.name, () => {
        expect(emitted(c.old, c.new)).toEqual([...c.expect].sort());
        if (c.reverse) expect(emitted(c.new, c.old)).toEqual([...c.reverse].sort());
      });
    }
  });
}

// ── severities: the catalog says what each rule costs in each direction ─────────────────

/** Narrowing rules (the new schema accepts fewer values): breaking for input, minor for output. */
const NARROWING = [
  "type-narrowed",
  "null-removed",
  "enum-added",
  "enum-value-removed",
  "const-added",
  "closed-object-property-removed",
  "required-added",
  "additional-properties-restricted",
  "dependent-required-added",
  "min-properties-raised",
  "max-properties-lowered",
  "minimum-raised",
  "maximum-lowered",
  "multiple-of-narrowed",
  "min-length-raised",
  "max-length-lowered",
  "pattern-added",
  "format-added",
  "min-items-raised",
  "max-items-lowered",
  "unique-items-added",
  "contains-added",
  "any-of-branch-removed",
];
/** Widening rules, index-aligned with their narrowing reverse: minor for input, breaking for output. */
const WIDENING = [
  "type-widened",
  "null-added",
  "enum-removed",
  "enum-value-added",
  "const-removed",
  "closed-object-property-added",
  "required-removed",
  "additional-properties-relaxed",
  "dependent-required-removed",
  "min-properties-lowered",
  "max-properties-raised",
  "minimum-lowered",
  "maximum-raised",
  "multiple-of-widened",
  "min-length-lowered",
  "max-length-raised",
  "pattern-removed",
  "format-removed",
  "min-items-lowered",
  "max-items-raised",
  "unique-items-removed",
  "contains-removed",
  "any-of-branch-added",
];
/** Changes that cannot be judged one way: breaking both ways so that a person reviews them. */
const REVIEW = [
  "const-changed",
  "pattern-properties-changed",
  "multiple-of-changed",
  "pattern-changed",
  "format-changed",
  "items-tuple-changed",
  "composition-changed",
  "not-changed",
  "conditional-changed",
  "ref-target-unresolvable",
];

const EXPECTED_SEVERITY: Record<string, [input: Severity, output: Severity]> = {
  ...Object.fromEntries(NARROWING.map((id) => [id, [B, M]])),
  ...Object.fromEntries(WIDENING.map((id) => [id, [M, B]])),
  ...Object.fromEntries(REVIEW.map((id) => [id, [B, B]])),
  // An optional property on an open object: minor both ways (a pragmatic choice, see the catalog).
  "property-added": [M, M],
  // Its removal: on output consumers lose the property.
  "property-removed": [M, M],
  // Required with a default: a server that fills in defaults still accepts calls that omit it.
  "required-added-with-default": [M, M],
  "comparison-limit-reached": [B, B],
  // The $schema line alone is a label; meaning changes of a dialect switch get their own rules.
  "schema-dialect-changed": [P, P],
  // ±(2^53−1) on an integer is no bound (RFC 8259 §6, RFC 7493).
  "safe-integer-bound-changed": [P, P],
  // A branch change another branch accepts on both sides: nothing the union accepted is rejected.
  "union-branch-change-absorbed": [P, P],
  // Under oneOf the union moves the other way than the branch (a value matching two branches is rejected).
  "oneof-overlap-removed": [M, B],
  "oneof-overlap-added": [B, M],
  "default-changed": [M, M],
  "deprecated-added": [M, M],
  "deprecated-removed": [M, M],
  "read-write-only-changed": [M, M],
  "description-changed": [P, P],
  "annotation-keyword-changed": [P, P],
};

const SCHEMA_RULES = RULES.filter((rule) => rule.group === "schema");

describe("catalog severities of schema rules", () => {
  test("the expectation table names exactly the catalog's schema rules", () => {
    expect(Object.keys(EXPECTED_SEVERITY).sort()).toEqual(SCHEMA_RULES.map((rule) => rule.id).sort());
  });

  for (const rule of SCHEMA_RULES) {
    const expected = EXPECTED_SEVERITY[rule.id];
    test(`${rule.id}: input ${expected?.[0]}, output ${expected?.[1]}`, () => {
      expect([rule.input, rule.output]).toEqual(expected as [Severity, Severity]);
    });
  }

  test("narrowing and widening rules are mirror images (input of one = output of its reverse)", () => {
    NARROWING.forEach((id, i) => {
      const reverse = getRule(WIDENING[i] as string);
      expect([id, getRule(id).input]).toEqual([id, reverse.output]);
      expect([id, getRule(id).output]).toEqual([id, reverse.input]);
    });
  });

  // The variance property ("the input verdict of old→new equals the output verdict of new→old")
  // needs every rule's input severity to equal its reverse's output severity; property-added and
  // property-removed are such a pair too, though their names do not follow the added/removed
  // pattern of WIDENING above.
  test("property-added / property-removed are mirror images too", () => {
    expect(getRule("property-added").input).toBe(getRule("property-removed").output);
    expect(getRule("property-added").output).toBe(getRule("property-removed").input);
  });
});

describe("coverage of the table", () => {
  test("every schema rule of the catalog is emitted by at least one case", () => {
    const seen = new Set<string>();
    for (const c of ALL_CASES) {
      for (const e of [...c.expect, ...(c.reverse ?? [])]) seen.add(e.slice(0, e.indexOf("@")));
    }
    const missing = SCHEMA_RULES.map((rule) => rule.id).filter((id) => !seen.has(id));
    expect(missing).toEqual([]);
  });

  test("every rule emitted by a case is a schema rule of the catalog", () => {
    for (const c of ALL_CASES) {
      for (const e of [...c.expect, ...(c.reverse ?? [])]) {
        expect(getRule(e.slice(0, e.indexOf("@"))).group).toBe("schema");
      }
    }
  });
});

// ── engine bugs found on real schemas, fixed: each pinned with the right result; the ─────
// comments say what the engine used to do and why

describe("compareSchemas: known bugs", () => {
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
