/**
 * Where subschemas sit inside a JSON Schema, for every module that walks schemas (witness
 * search, lint). Only schema positions are visited: an `enum`, `const`, `default` or
 * `examples` value that happens to look like a schema is data, not a subschema. Pure.
 */
import { isJsonObject, type Json, type JsonObject } from "../contract/model.ts";

/** Keywords whose value is one subschema (`items` may also be a draft-07 list). */
export const ONE_SCHEMA = [
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "additionalItems",
  "unevaluatedItems",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "contentSchema",
  "items",
];
/** Keywords whose value is a list of subschemas. */
export const SCHEMA_LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];
/** Keywords whose value maps names to subschemas (draft-07 `dependencies` may also map to lists of names). */
export const SCHEMA_MAP = [
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
];

/** Every subschema keyword, in the order forEachSubschema visits them, and its kind there. */
const VISIT_ORDER: readonly (readonly [key: string, kind: "one" | "list" | "map"])[] = [
  ...ONE_SCHEMA.map((key) => [key, "one"] as const),
  ...SCHEMA_LIST.map((key) => [key, "list"] as const),
  ...SCHEMA_MAP.map((key) => [key, "map"] as const),
];
const RANK = new Map(VISIT_ORDER.map(([key], rank) => [key, rank]));
// The keyword and kind of each rank as two lists: reading a [key, kind] pair back per child
// destructured it through the iterator protocol wherever the code had not been optimized yet.
const KEY_AT = VISIT_ORDER.map(([key]) => key);
const KIND_AT = VISIT_ORDER.map(([, kind]) => kind);
// eachSubschema keeps the keywords it finds as bits of one 32-bit number.
if (VISIT_ORDER.length > 31) throw new Error("too many subschema keywords for a bit set");

/**
 * Call `visit` for each direct subschema of `node`, with the pointer segments that lead to it,
 * keyword by keyword in VISIT_ORDER (eachSubschema, with the segments as a list).
 */
export function forEachSubschema(
  node: Json,
  visit: (child: Json, segments: string[]) => void,
  options: { defs: boolean } = { defs: true },
): void {
  eachSubschema(
    node,
    (child, keyword, member) => visit(child, member === undefined ? [keyword] : [keyword, String(member)]),
    undefined,
    options.defs,
  );
}

/**
 * Each direct subschema of `node`, keyword by keyword in VISIT_ORDER: `visit` gets the child,
 * its keyword, its index or name under that keyword (undefined for a single subschema) and
 * `context`, passed through so a walk needs no closure per node. Nothing is allocated per
 * node or child: lint walks every node of every tool schema, and on big surfaces the arrays
 * (a list of keywords found, a segments list per child) were most of the walk's garbage. The
 * node's own keys are read rather than all 22 keywords looked up, as most nodes hold only a
 * few keys; the keywords found are kept as bits of their rank, so they come out in order.
 */
export function eachSubschema<C>(
  node: Json,
  visit: (child: Json, keyword: string, member: number | string | undefined, context: C) => void,
  context: C,
  defs = true,
): void {
  if (!isJsonObject(node)) return;
  let present = 0;
  // for...in: JSON objects (and dicts) inherit no enumerable keys.
  for (const key in node) {
    const rank = RANK.get(key);
    if (rank !== undefined) present |= 1 << rank;
  }
  eachSubschemaOf(node, present, visit, context, defs);
}

/** The bit a key stands for among the subschema keywords a node holds (eachSubschemaOf), 0 for any other key. */
export function subschemaBit(key: string): number {
  const rank = RANK.get(key);
  return rank === undefined ? 0 : 1 << rank;
}

/**
 * eachSubschema for a caller that has read the node's keys itself: `present` is the OR of
 * subschemaBit over them.
 */
export function eachSubschemaOf<C>(
  node: JsonObject,
  present: number,
  visit: (child: Json, keyword: string, member: number | string | undefined, context: C) => void,
  context: C,
  defs = true,
): void {
  while (present !== 0) {
    const rank = 31 - Math.clz32(present & -present);
    present &= present - 1;
    const key = KEY_AT[rank] as string;
    const kind = KIND_AT[rank];
    const value = node[key];
    // Index and for...in loops: entries() and Object.entries allocate a pair per child.
    if (kind === "one") {
      if (value === undefined) continue;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) visit(value[i] as Json, key, i, context);
      } else visit(value, key, undefined, context);
    } else if (kind === "list") {
      if (Array.isArray(value)) for (let i = 0; i < value.length; i++) visit(value[i] as Json, key, i, context);
    } else {
      if (!defs && (key === "$defs" || key === "definitions")) continue;
      if (!isJsonObject(value)) continue;
      for (const name in value) {
        const v = value[name] as Json;
        if (!Array.isArray(v)) visit(v, key, name, context);
      }
    }
  }
}
