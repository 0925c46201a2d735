/**
 * Local, approximate checks of a value against one flattened alternative, not looking into
 * children. They only order and filter candidates (cheap, no compiling); ajv decides what
 * a witness is.
 */
import { fullFormats } from "ajv-formats/dist/formats";
import { isJsonObject, type Json, type JsonObject } from "../../contract/model.ts";
import { codeLength, deepEqual, num, PATTERNS, strings, valueKey, valueSet } from "./json.ts";
import { declaresOrAllows, matches, type TypeName, typeList } from "./merge.ts";

export function jsonType(value: Json): TypeName {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as TypeName;
}

export function typeAllows(node: JsonObject, value: Json): boolean {
  const types = typeList(node.type);
  const t = jsonType(value);
  if (types) {
    const ok =
      types.includes(t) || (t === "integer" && types.includes("number")) || (t === "null" && node.nullable === true);
    if (!ok) return false;
  }
  return true;
}

interface Bound {
  value: number;
  exclusive: boolean;
}

export function lowerBound(node: JsonObject): Bound | undefined {
  const min = num(node.minimum);
  const ex = num(node.exclusiveMinimum);
  if (node.exclusiveMinimum === true && min !== undefined) return { value: min, exclusive: true };
  if (ex !== undefined && (min === undefined || ex >= min)) return { value: ex, exclusive: true };
  return min === undefined ? undefined : { value: min, exclusive: false };
}

export function upperBound(node: JsonObject): Bound | undefined {
  const max = num(node.maximum);
  const ex = num(node.exclusiveMaximum);
  if (node.exclusiveMaximum === true && max !== undefined) return { value: max, exclusive: true };
  if (ex !== undefined && (max === undefined || ex <= max)) return { value: ex, exclusive: true };
  return max === undefined ? undefined : { value: max, exclusive: false };
}

export function numberOk(node: JsonObject, x: number): boolean {
  const lo = lowerBound(node);
  const hi = upperBound(node);
  if (lo && (lo.exclusive ? x <= lo.value : x < lo.value)) return false;
  if (hi && (hi.exclusive ? x >= hi.value : x > hi.value)) return false;
  const m = num(node.multipleOf);
  if (m !== undefined && m > 0 && !Number.isInteger(x / m)) return false;
  return true;
}

type FormatCheck = (s: string) => boolean;
const formatChecks = new Map<string, FormatCheck | null>();
function formatCheck(format: string): FormatCheck | undefined {
  let check = formatChecks.get(format);
  if (check === undefined) {
    check = null;
    const def = (fullFormats as Record<string, unknown>)[format];
    const run = (v: unknown): FormatCheck | null => {
      if (v instanceof RegExp) return (s) => v.test(s);
      if (typeof v === "function") return (s) => (v as (s: string) => boolean)(s) === true;
      return null;
    };
    if (def instanceof RegExp || typeof def === "function") check = run(def);
    else if (def && typeof def === "object") {
      const d = def as { type?: string; validate?: unknown };
      if (d.type === undefined || d.type === "string") check = run(d.validate);
    }
    formatChecks.set(format, check);
  }
  return check ?? undefined;
}

export function stringOk(node: JsonObject, s: string): boolean {
  const len = codeLength(s);
  const min = num(node.minLength);
  const max = num(node.maxLength);
  if (min !== undefined && len < min) return false;
  if (max !== undefined && len > max) return false;
  for (const p of [...(typeof node.pattern === "string" ? [node.pattern] : []), ...strings(node[PATTERNS])]) {
    if (!matches(p, s)) return false;
  }
  if (typeof node.format === "string") {
    const check = formatCheck(node.format);
    if (check && !safe(() => check(s))) return false;
  }
  return true;
}

function safe(f: () => boolean): boolean {
  try {
    return f();
  } catch {
    return false;
  }
}

/** Approximate validity of a value against one flattened alternative, not looking into children. */
function locallyOk(node: JsonObject, value: Json): boolean {
  if (!typeAllows(node, value)) return false;
  if (node.const !== undefined && !deepEqual(node.const, value)) return false;
  if (Array.isArray(node.enum) && !valueSet(node.enum).has(valueKey(value))) return false;
  if (typeof value === "number") return numberOk(node, value);
  if (typeof value === "string") return stringOk(node, value);
  if (Array.isArray(value)) {
    const min = num(node.minItems);
    const max = num(node.maxItems);
    if (min !== undefined && value.length < min) return false;
    if (max !== undefined && value.length > max) return false;
    if (node.uniqueItems === true && new Set(value.map(valueKey)).size !== value.length) return false;
    return true;
  }
  if (isJsonObject(value)) {
    const keys = Object.keys(value);
    if (strings(node.required).some((r) => !Object.hasOwn(value, r))) return false;
    if (keys.some((k) => !declaresOrAllows(node, k))) return false;
    const min = num(node.minProperties);
    const max = num(node.maxProperties);
    if (min !== undefined && keys.length < min) return false;
    if (max !== undefined && keys.length > max) return false;
    const dep = isJsonObject(node.dependentRequired) ? node.dependentRequired : {};
    for (const [k, deps] of Object.entries(dep)) {
      if (Object.hasOwn(value, k) && strings(deps).some((d) => !Object.hasOwn(value, d))) return false;
    }
  }
  return true;
}

export const okAny = (alts: readonly JsonObject[], value: Json): boolean => alts.some((a) => locallyOk(a, value));
