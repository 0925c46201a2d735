/**
 * Witnesses belong to their change: the old root with only that one change applied. A
 * witness for an input change must be accepted by the old root and rejected by this
 * schema (the change alone rejects it); one for an output change must be accepted by it
 * and rejected by the old root (the change alone admits it). Otherwise a value only a
 * sibling change rejects (an empty string for a lowered maxLength beside an added
 * pattern) would be shown as the proof of the wrong edit. Pure.
 */
import { isJsonObject, type Json } from "../../contract/model.ts";
import { jsonEqual } from "../normalize.ts";
import { decodePointer, refOf } from "./json.ts";

/** The raw location a change path stands for on one side: a "$ref" segment jumps to the local definition. */
function rawLocation(root: Json, segments: readonly string[]): string[] | undefined {
  let raw: string[] = [];
  let node: Json | undefined = root;
  for (const segment of segments) {
    if (segment === "$ref") {
      const ref = isJsonObject(node) ? refOf(node) : undefined;
      const target = ref?.startsWith("#") ? decodePointer(ref) : undefined;
      if (target === undefined) return undefined;
      raw = [...target];
      node = at(root, raw);
      continue;
    }
    raw.push(segment);
    node = at(node, [segment]);
  }
  return raw;
}

function at(node: Json | undefined, segments: readonly string[]): Json | undefined {
  let current = node;
  for (const segment of segments) {
    if (Array.isArray(current)) current = current[Number(segment)];
    else if (isJsonObject(current)) current = Object.hasOwn(current, segment) ? current[segment] : undefined;
    else return undefined;
  }
  return current;
}

/** A copy of `root` with the value at `segments` replaced (or deleted, for undefined). */
function replaced(root: Json, segments: readonly string[], value: Json | undefined): Json | undefined {
  if (segments.length === 0) return value;
  const [head, ...rest] = segments as [string, ...string[]];
  if (Array.isArray(root)) {
    const i = Number(head);
    if (!Number.isInteger(i) || i < 0 || i >= root.length) return undefined;
    const inner = replaced(root[i] as Json, rest, value);
    if (inner === undefined) return undefined;
    return root.map((item, k) => (k === i ? inner : item));
  }
  if (!isJsonObject(root)) return undefined;
  const copy = { ...root };
  if (rest.length === 0) {
    if (value === undefined) delete copy[head];
    else copy[head] = value;
    return copy;
  }
  const child = Object.hasOwn(root, head) ? (root[head] as Json) : undefined;
  if (child === undefined) return undefined;
  const inner = replaced(child, rest, value);
  if (inner === undefined) return undefined;
  copy[head] = inner;
  return copy;
}

/** Branch positions pair by meaning, not index: old and new branch i need not be the same branch. */
const POSITIONAL = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);

/**
 * The old root with only the change at `path` (a finding's schema path) applied: the value
 * there taken from the new root. Undefined where that cannot be told apart (a union
 * position, a path that does not resolve on both sides, nothing that differs).
 */
export function withOnlyChange(oldRoot: Json, newRoot: Json, path: string): Json | undefined {
  const segments = decodePointer(path);
  if (segments === undefined || segments.length === 0) return undefined;
  let oldAt = rawLocation(oldRoot, segments);
  let newAt = rawLocation(newRoot, segments);
  if (oldAt === undefined || newAt === undefined) return undefined;
  // A keyword the engine derived (no such line on either side): the node it belongs to.
  if (at(oldRoot, oldAt) === undefined && at(newRoot, newAt) === undefined) {
    oldAt = oldAt.slice(0, -1);
    newAt = newAt.slice(0, -1);
  }
  if (oldAt.length === 0 || [...oldAt, ...newAt].some((s) => POSITIONAL.has(s))) return undefined;
  const applied = replaced(oldRoot, oldAt, at(newRoot, newAt));
  if (applied === undefined || jsonEqual(applied, oldRoot) || jsonEqual(applied, newRoot)) return undefined;
  return applied;
}
