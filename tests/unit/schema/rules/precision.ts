/** The schema rules' table, issue #12: one edit one finding, zod integer limits, oneOf as a whole: see ../rules.test.ts for how each case is run. */
import { at, type Case, withP } from "./table.ts";

const SAFE = Number.MAX_SAFE_INTEGER;

/** Issue #12's engine principles: one edit is one finding, zod's integer limits, oneOf judged as a whole. */
export const PRECISION_CASES: Case[] = [
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
