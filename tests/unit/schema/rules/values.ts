/** The schema rules' table, enum and const (compare/values.ts): see ../rules.test.ts for how each case is run. */
import { at, type Case, withP } from "./table.ts";

export const VALUE_CASES: Case[] = [
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
