/** The schema rules' table, description, default, deprecated and other annotations (compare/annotations.ts): see ../rules.test.ts for how each case is run. */
import { at, type Case, tool, withP } from "./table.ts";

export const ANNOTATION_CASES: Case[] = [
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
