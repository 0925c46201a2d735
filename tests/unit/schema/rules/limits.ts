/** The schema rules' table, depth: deep schemas and the comparison limit: see ../rules.test.ts for how each case is run. */
import type { JsonObject } from "../../../../src/contract/model.ts";
import { at, type Case } from "./table.ts";

/** Nested objects `depth` levels deep, with `leaf` at the bottom. */
export function nested(depth: number, leaf: JsonObject): JsonObject {
  let node: JsonObject = { type: "object", properties: { value: leaf } };
  for (let i = 0; i < depth - 1; i++) {
    node = { type: "object", properties: { [`level${depth - 1 - i}`]: node }, required: [`level${depth - 1 - i}`] };
  }
  return node;
}
/** Where the comparison stops: the root plus 256 nested levels. */
const DEEP_LIMIT_PATH = Array.from({ length: 257 }, (_, i) => `/properties/level${i + 1}`).join("");
const DEEP_PATH = `${Array.from({ length: 19 }, (_, i) => `/properties/level${i + 1}`).join("")}/properties/value`;

export const DEEP_CASES: Case[] = [
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
