/**
 * The shape of an answer as a consumer saw it: every JSON path it held, with the JSON types found
 * there. Arrays are read two ways. Positional ones (a tool's `content`, a resource's `contents`,
 * a prompt's `messages`) are compared index by index, because a consumer reads `content[0]` and
 * expects the block type it saw there. Data arrays (anything inside structuredContent) are
 * compared as a set of items, written `*`: an item's fields must still be there in the items the
 * server now sends, whatever their number (how many items come back is a value, not a shape).
 * Pure.
 */
import { isJsonObject, type Json } from "../contract/model.ts";

/** JSON types as a consumer's parser tells them apart; an integer is a number. */
export type JsonType = "object" | "array" | "string" | "number" | "boolean" | "null";

export function jsonType(value: Json): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const type = typeof value;
  return type === "object" ? "object" : (type as JsonType);
}

/** Path (JSON Pointer, `*` for any item of a data array) → the types seen there. */
export type Shape = Map<string, Set<JsonType>>;

/** Keys that belong to one message, never to what a consumer reads (src/contract/noise.ts says why). */
const NOISE_KEYS = new Set(["_meta", "resultType", "ttlMs", "cacheScope"]);

/** The arrays at these top-level keys are read by position. */
const POSITIONAL = new Set(["content", "contents", "messages"]);

const escapeKey = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** The shape of a result object: every path below it, with its types. */
export function shapeOf(result: Json): Shape {
  const shape: Shape = new Map();
  const add = (path: string, value: Json) => {
    const types = shape.get(path) ?? new Set<JsonType>();
    shape.set(path, types);
    types.add(jsonType(value));
  };
  const walk = (value: Json, path: string, positional: boolean) => {
    add(path, value);
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) walk(item, `${path}/${positional ? i : "*"}`, false);
    } else if (isJsonObject(value)) {
      for (const [key, item] of Object.entries(value)) {
        if (NOISE_KEYS.has(key)) continue;
        walk(item as Json, `${path}/${escapeKey(key)}`, false);
      }
    }
  };
  if (!isJsonObject(result)) {
    walk(result, "", false);
    return shape;
  }
  for (const [key, value] of Object.entries(result)) {
    if (NOISE_KEYS.has(key)) continue;
    walk(value as Json, `/${escapeKey(key)}`, POSITIONAL.has(key));
  }
  return shape;
}

export interface ShapeDrift {
  path: string;
  /** The types the consumer saw there (for a content block: its block type). */
  before: string[];
  /** The types there now; empty when the path is gone. */
  after: string[];
}

const parentOf = (path: string) => path.slice(0, path.lastIndexOf("/"));

/**
 * Where `now` no longer has the shape the consumer saw in `seen`: a path that is gone (while the
 * object or array around it is still there: below a missing parent only the parent is reported,
 * and below an array that is now empty nothing is, as no item is there to lack it), or a path
 * whose types now include one the consumer never saw. New paths are fine.
 */
export function shapeDrift(seen: Shape, now: Shape): ShapeDrift[] {
  const drift: ShapeDrift[] = [];
  const reported = new Set<string>();
  for (const [path, before] of seen) {
    if (path === "") continue;
    const parent = parentOf(path);
    if (reported.has(parent) || (parent !== "" && !now.has(parent))) {
      reported.add(path);
      continue;
    }
    const after = now.get(path);
    if (!after) {
      // An array's items: an empty array now holds none, which is a value, not a shape.
      if (path.endsWith("/*")) continue;
      drift.push({ path, before: [...before], after: [] });
      reported.add(path);
      continue;
    }
    const unseen = [...after].filter((type) => !before.has(type));
    if (unseen.length > 0) {
      drift.push({ path, before: [...before], after: [...after] });
      reported.add(path);
    }
  }
  return drift;
}

/** Leaf paths whose values differ (`--exact`), read by position everywhere; at most `limit` of them. */
export function valueDrift(
  seen: Json,
  now: Json,
  limit = 20,
): { path: string; before: Json | undefined; after: Json | undefined }[] {
  const out: { path: string; before: Json | undefined; after: Json | undefined }[] = [];
  const walk = (a: Json, b: Json | undefined, path: string) => {
    if (out.length >= limit) return;
    if (Array.isArray(a) && Array.isArray(b)) {
      for (const [i, item] of a.entries()) walk(item, b[i], `${path}/${i}`);
      if (b.length > a.length) out.push({ path: `${path}/${a.length}`, before: undefined, after: b[a.length] as Json });
      return;
    }
    if (isJsonObject(a) && isJsonObject(b)) {
      for (const [key, item] of Object.entries(a)) {
        if (NOISE_KEYS.has(key)) continue;
        walk(item as Json, b[key] as Json | undefined, `${path}/${escapeKey(key)}`);
      }
      return;
    }
    if (b === undefined || JSON.stringify(a) !== JSON.stringify(b)) out.push({ path, before: a, after: b });
  };
  walk(seen, now, "");
  return out;
}

/**
 * Content blocks whose kind changed at an index (`content[0]` was text, is now an image): the
 * block's `type` is its shape, not a value. Also a prompt message's content block.
 */
export function blockTypeDrift(seen: Json, now: Json): ShapeDrift[] {
  if (!isJsonObject(seen) || !isJsonObject(now)) return [];
  const drift: ShapeDrift[] = [];
  const typeAt = (block: Json | undefined, inner: boolean): string | undefined => {
    const target = inner && isJsonObject(block) ? block.content : block;
    return isJsonObject(target) && typeof target.type === "string" ? target.type : undefined;
  };
  for (const [key, inner] of [
    ["content", false],
    ["messages", true],
  ] as const) {
    const before = seen[key];
    const after = now[key];
    if (!Array.isArray(before) || !Array.isArray(after)) continue;
    before.forEach((block, i) => {
      const was = typeAt(block, inner);
      const is = typeAt(after[i], inner);
      if (was !== undefined && is !== undefined && was !== is) {
        drift.push({ path: `/${key}/${i}${inner ? "/content" : ""}/type`, before: [was], after: [is] });
      }
    });
  }
  return drift;
}
