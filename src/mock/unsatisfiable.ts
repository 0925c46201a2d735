/**
 * Contradictions one can read off a schema's keywords, so that the mock can say *why* a tool's
 * outputSchema admits no value ("minLength 5 > maxLength 2 at outputSchema/properties/code")
 * instead of only that its draws all failed. Deliberately shallow: it follows what every value
 * must have (allOf parts, required properties, the items of a non-empty array) and finds
 * nothing elsewhere; schemas it cannot judge are left to the generator and the validator. Pure.
 */
import { isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import { isNever } from "../schema/normalize.ts";

const MAX_DEPTH = 32;

const num = (v: Json | undefined) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** The types a schema allows, when it says; a keyword for one type binds only if every allowed type is it. */
function onlyOf(s: JsonObject, ...kinds: string[]): boolean {
  const types = typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? s.type : undefined;
  return types !== undefined && types.length > 0 && types.every((t) => typeof t === "string" && kinds.includes(t));
}

/** A pair of bounds that cross, as "minLength 5 > maxLength 2". */
function crossed(s: JsonObject, low: string, high: string, strict: boolean): string | undefined {
  const lo = num(s[low]);
  const hi = num(s[high]);
  if (lo === undefined || hi === undefined) return undefined;
  if (strict ? lo >= hi : lo > hi) return `${low} ${lo} ${strict ? ">=" : ">"} ${high} ${hi}`;
  return undefined;
}

function local(s: JsonObject): string | undefined {
  if (Array.isArray(s.enum) && s.enum.length === 0) return "enum lists no value";
  if (Array.isArray(s.type) && s.type.length === 0) return "type lists no type";
  if (onlyOf(s, "string")) return crossed(s, "minLength", "maxLength", false);
  if (onlyOf(s, "array")) return crossed(s, "minItems", "maxItems", false);
  if (onlyOf(s, "object")) {
    const bound = crossed(s, "minProperties", "maxProperties", false);
    if (bound) return bound;
    // additionalProperties: false beside a required name no `properties` or `patternProperties` declares.
    if (s.additionalProperties === false && s.patternProperties === undefined && Array.isArray(s.required)) {
      const declared = isJsonObject(s.properties) ? s.properties : {};
      const name = s.required.find((k) => typeof k === "string" && !Object.hasOwn(declared, k));
      if (typeof name === "string") return `"${name}" is required but additionalProperties: false forbids it`;
    }
  }
  if (onlyOf(s, "number", "integer")) {
    return (
      crossed(s, "minimum", "maximum", false) ??
      crossed(s, "exclusiveMinimum", "maximum", true) ??
      crossed(s, "minimum", "exclusiveMaximum", true) ??
      crossed(s, "exclusiveMinimum", "exclusiveMaximum", true)
    );
  }
  return undefined;
}

/** "minLength 5 > maxLength 2 at outputSchema/properties/code", or undefined when none is seen. */
export function contradictionOf(schema: Json, where = "outputSchema"): string | undefined {
  const walk = (node: Json | undefined, at: string, depth: number): string | undefined => {
    if (node === false) return `false (no value) at ${at}`;
    if (!isJsonObject(node) || depth > MAX_DEPTH) return undefined;
    if (isNever(node)) return `not: {} (no value) at ${at}`;
    const found = local(node);
    if (found) return `${found} at ${at}`;
    if (Array.isArray(node.allOf)) {
      for (const [i, part] of node.allOf.entries()) {
        const inner = walk(part, `${at}/allOf/${i}`, depth + 1);
        if (inner) return inner;
      }
    }
    if (onlyOf(node, "object") && Array.isArray(node.required) && isJsonObject(node.properties)) {
      for (const name of node.required) {
        if (typeof name !== "string" || !Object.hasOwn(node.properties, name)) continue;
        const inner = walk(node.properties[name], `${at}/properties/${pointerToken(name)}`, depth + 1);
        if (inner) return inner;
      }
    }
    // With prefixItems (or draft-07's array form of items) the first items answer to other schemas.
    const tuple = node.prefixItems !== undefined || Array.isArray(node.items);
    if (onlyOf(node, "array") && (num(node.minItems) ?? 0) > 0 && !tuple) {
      const inner = walk(node.items, `${at}/items`, depth + 1);
      if (inner) return inner;
    }
    return undefined;
  };
  return walk(schema, where, 0);
}

const pointerToken = (name: string) => name.replace(/~/g, "~0").replace(/\//g, "~1");
