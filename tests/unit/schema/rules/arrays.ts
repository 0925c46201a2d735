/** The schema rules' table, arrays: items, length, uniqueness, contains (compare/arrays.ts): see ../rules.test.ts for how each case is run. */
import type { JsonObject } from "../../../../src/contract/model.ts";
import { at, type Case, withP } from "./table.ts";

const arr = (extra: JsonObject): JsonObject => withP({ type: "array", ...extra });

export const ARRAY_CASES: Case[] = [
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
