/**
 * Where subschemas sit inside a JSON Schema, for every module that walks schemas (witness
 * search, lint). Only schema positions are visited: an `enum`, `const`, `default` or
 * `examples` value that happens to look like a schema is data, not a subschema. Pure.
 */
import { isJsonObject, type Json } from "../contract/model.ts";

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

/** Call `visit` for each direct subschema of `node`, with the pointer segments that lead to it. */
export function forEachSubschema(
  node: Json,
  visit: (child: Json, segments: string[]) => void,
  options: { defs: boolean } = { defs: true },
): void {
  if (!isJsonObject(node)) return;
  for (const key of ONE_SCHEMA) {
    const value = node[key];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) visit(v, [key, String(i)]);
    } else visit(value, [key]);
  }
  for (const key of SCHEMA_LIST) {
    const value = node[key];
    if (Array.isArray(value)) for (const [i, v] of value.entries()) visit(v, [key, String(i)]);
  }
  for (const key of SCHEMA_MAP) {
    if (!options.defs && (key === "$defs" || key === "definitions")) continue;
    const value = node[key];
    if (!isJsonObject(value)) continue;
    for (const [name, v] of Object.entries(value)) if (!Array.isArray(v)) visit(v, [key, name]);
  }
}
