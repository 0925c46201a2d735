/**
 * Small JSON helpers and the limits the generator modules share: equality, dedupe, JSON
 * Pointer and local $ref resolution (through the one resolver, ../ref.ts), and OMIT, the leaf
 * candidate "leave this property out". It imports nothing else from witness/, so every other
 * module can build on it.
 */
import type { Json, JsonObject } from "../../contract/model.ts";
import { canonicalText } from "../normalize.ts";
import { decodeFragment, parsePointer, resolveRef as resolveSchemaRef } from "../ref.ts";

/** Deepest schema nesting followed while building instances; also the $ref expansion limit. */
export const MAX_DEPTH = 32;
/** Schema nodes visited by the instance generator per call, at most. */
export const GEN_BUDGET = 20_000;
/** Longest string / array a witness may need (bounds beyond this give no witness). */
export const MAX_LENGTH = 10_000;
/**
 * Values of one enum that seed variants of themselves as candidates (`v_other`, `v `, …):
 * every value of an enum is still tried as itself, the variants come from the first ones only.
 */
export const MAX_VALUE_SEEDS = 256;

export const OMIT: unique symbol = Symbol("omit");
/** A leaf candidate: a value, or OMIT ("leave this property out") at a property position. */
export type Cand = Json | typeof OMIT;

export const PATTERNS = "\u0000patterns"; // private key: extra patterns gathered while merging schemas

export function keyOf(value: Cand): string {
  return value === OMIT ? "\u0000omit" : JSON.stringify(value);
}

export function deepEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  const ka = Object.keys(a);
  const ao = a as JsonObject;
  const bo = b as JsonObject;
  return ka.length === Object.keys(bo).length && ka.every((k) => Object.hasOwn(bo, k) && deepEqual(ao[k], bo[k]));
}

/** A key under which deepEqual values (key order aside) are equal: for Set lookups instead of scans. */
export const valueKey = (value: Json): string => canonicalText(value);

const valueSets = new WeakMap<readonly Json[], Set<string>>();
/** The values of a list as a set of valueKey()s, cached per list: membership in linear time overall. */
export function valueSet(values: readonly Json[]): Set<string> {
  let set = valueSets.get(values);
  if (!set) {
    set = new Set(values.map(valueKey));
    valueSets.set(values, set);
  }
  return set;
}

/** Push every item (a spread call has a limit on arguments; server lists do not). */
export function pushAll<T>(out: T[], items: readonly T[]): T[] {
  for (const item of items) out.push(item);
  return out;
}

export function dedupe<T extends Cand>(values: T[]): T[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const k = keyOf(v);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export function without(node: JsonObject, ...keys: string[]): JsonObject {
  const copy = { ...node };
  for (const k of keys) delete copy[k];
  return copy;
}

export const strings = (value: Json | undefined): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
export const num = (value: Json | undefined): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;
export const codeLength = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** A change path (a JSON Pointer, or a `#` fragment) as segments, read by the one resolver (../ref.ts). */
export function decodePointer(path: string): string[] | undefined {
  const pointer = path.startsWith("#") ? decodeFragment(path.slice(1)) : path;
  return pointer === undefined ? undefined : parsePointer(pointer);
}

/** A reference inside `root`, also in the form `<root $id>#…`, as the validator resolves it. */
export function resolveRef(root: Json, ref: string): Json | undefined {
  return resolveSchemaRef(root, ref, { ownId: true });
}

export function refOf(node: JsonObject): string | undefined {
  for (const key of ["$ref", "$dynamicRef", "$recursiveRef"]) if (typeof node[key] === "string") return node[key];
  return undefined;
}
