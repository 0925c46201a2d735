/**
 * Annotations for the variance engine: every keyword the comparators do not validate with
 * (title, description, default, deprecated, readOnly/writeOnly, $schema, extensions, …).
 * They change no set of valid values, so each change is reported under a documentation rule
 * (the engine's equivalence test ignores those); `default`, `deprecated`, readOnly/writeOnly
 * and `$schema` have rules of their own, because callers act on them. Pure.
 */
import type { JsonObject } from "../../contract/model.ts";
import { escapeSegment } from "../../contract/pointer.ts";
import { own, sortedKeysOfBoth } from "../dict.ts";
import { jsonEqual } from "../normalize.ts";
import { type Context, emit, show } from "./context.ts";

/** Keywords the comparators understand; anything else is an annotation. */
export const VALIDATION_KEYWORDS = new Set([
  "$ref",
  "type",
  "nullable",
  "enum",
  "const",
  "properties",
  "required",
  "additionalProperties",
  "unevaluatedProperties",
  "patternProperties",
  "propertyNames",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "minProperties",
  "maxProperties",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "items",
  "prefixItems",
  "additionalItems",
  "unevaluatedItems",
  "minItems",
  "maxItems",
  "uniqueItems",
  "contains",
  "minContains",
  "maxContains",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
]);

export function compareAnnotations(a: JsonObject, b: JsonObject, path: string, ctx: Context): void {
  for (const key of sortedKeysOfBoth(a, b)) {
    if (VALIDATION_KEYWORDS.has(key) || key === "$defs" || key === "definitions") continue;
    const x = own(a, key);
    const y = own(b, key);
    if (jsonEqual(x, y)) continue;
    const at = `${path}/${escapeSegment(key)}`;
    const extra = { before: x, after: y };
    const how = x === undefined ? "added" : y === undefined ? "removed" : "changed";
    switch (key) {
      case "title":
      case "description":
      case "examples":
        emit(ctx, "description-changed", at, `${key} ${how}`, extra);
        break;
      case "default":
        emit(
          ctx,
          "default-changed",
          at,
          `default ${x === undefined ? `added: ${show(y)}` : y === undefined ? `removed (was ${show(x)})` : `changed from ${show(x)} to ${show(y)}`}`,
          extra,
        );
        break;
      case "deprecated":
        if (Boolean(x) !== Boolean(y)) {
          emit(
            ctx,
            y === true ? "deprecated-added" : "deprecated-removed",
            at,
            y === true ? "marked deprecated" : "no longer deprecated",
            extra,
          );
        }
        break;
      case "readOnly":
      case "writeOnly":
        if (Boolean(x) !== Boolean(y))
          emit(ctx, "read-write-only-changed", at, `${key} ${y === true ? "set" : "cleared"}`, extra);
        break;
      case "$schema":
        emit(ctx, "schema-dialect-changed", at, `dialect changed from ${show(x)} to ${show(y)}`, extra);
        break;
      default:
        emit(ctx, "annotation-keyword-changed", at, `${key} changed`, extra);
    }
  }
}
