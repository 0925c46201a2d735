/** The schema rules' table, type, null, boolean schemas and roots of any type (compare/types.ts): see ../rules.test.ts for how each case is run. */
import { at, type Case, withP } from "./table.ts";

export const TYPE_CASES: Case[] = [
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

export const NULL_CASES: Case[] = [
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

export const BOOLEAN_CASES: Case[] = [
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

// ── roots of any type: 2026-07-28 outputSchemas (structuredContent may be any JSON value) ──

export const ROOT_CASES: Case[] = [
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
