/** The schema rules' table, $ref and $defs (compare/refs.ts): see ../rules.test.ts for how each case is run. */
import { at, type Case, ref, tool, withP } from "./table.ts";

const DEFS = {
  City: { type: "string", minLength: 1 },
  Units: { type: "string", enum: ["metric", "imperial"] },
};

export const REF_CASES: Case[] = [
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
