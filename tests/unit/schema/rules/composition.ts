// biome-ignore-all lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here, not a promise

/** The schema rules' table, anyOf, oneOf, allOf, not, if/then/else (compare/composition.ts, unions.ts): see ../rules.test.ts for how each case is run. */
import { at, type Case, tool, withP } from "./table.ts";

export const COMPOSITION_CASES: Case[] = [
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
