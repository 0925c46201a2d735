/**
 * Objects keyed by names a server chose. Property names and keywords in a schema are the
 * server's text: written into an ordinary object, a name `__proto__` replaces the object's
 * prototype instead of adding a member, and read from one, `constructor` finds Object's own.
 * Maps built from such names are made without a prototype, and names are read as own members
 * only. Pure.
 */
import type { Json, JsonObject } from "../contract/model.ts";

/** A prototype-free copy of `from` (empty without it): every name, `__proto__` too, is a plain member. */
export function dict(from?: JsonObject): JsonObject {
  const out = Object.create(null) as JsonObject;
  return from === undefined ? out : Object.assign(out, from);
}

/** The member `key` of `node` if it is its own, else undefined (never an inherited Object method). */
export function own(node: JsonObject, key: string): Json | undefined {
  return Object.hasOwn(node, key) ? node[key] : undefined;
}

/**
 * The names of both objects, each once, sorted (code unit order). Two versions of one schema
 * node mostly have the same names: then it is one side's keys, sorted, without a set.
 */
export function sortedKeysOfBoth(a: JsonObject, b: JsonObject): string[] {
  const keys = Object.keys(a);
  let shared = 0;
  // for...in: JSON objects and dicts inherit no enumerable keys.
  for (const key in b) {
    if (!Object.hasOwn(a, key)) return [...new Set([...keys, ...Object.keys(b)])].sort();
    shared++;
  }
  return (shared === keys.length ? keys : [...new Set([...keys, ...Object.keys(b)])]).sort();
}
