/**
 * The one reader of JSON Schema references and JSON Pointers, shared by the variance engine
 * (compare/), the witness search (witness/) and lint, so that a `$ref` means the same
 * everywhere. Pure; never throws.
 *
 * A reference is read in one way: the URI fragment after `#` is percent-decoded as a whole,
 * a decoded fragment that starts with `/` is a JSON Pointer whose segments unescape `~1` → `/`
 * then `~0` → `~` (RFC 6901, ../contract/pointer.ts), an object is entered through its own members only (a member
 * named `__proto__` or `constructor` is a name like any other) and an array through a
 * canonical decimal index. A reference that cannot be read, such as a malformed percent escape
 * (`#/$defs/%zz`), resolves to nothing, like a reference to a member that is not there.
 */
import { isJsonObject, type Json } from "../contract/model.ts";
import { pointerSegments } from "../contract/pointer.ts";

const ARRAY_INDEX = /^(0|[1-9]\d*)$/;

/** A URI fragment, percent-decoded; undefined when an escape in it is malformed. */
export function decodeFragment(fragment: string): string | undefined {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
}

/** The unescaped segments of a (decoded) JSON Pointer; undefined when the text is no pointer (an anchor name). */
export function parsePointer(text: string): string[] | undefined {
  return text === "" || text.startsWith("/") ? pointerSegments(text) : undefined;
}

/** The value the segments lead to from `root`; undefined when any step finds nothing. */
export function followSegments(root: Json, segments: readonly string[]): Json | undefined {
  let node: Json | undefined = root;
  for (const segment of segments) {
    if (Array.isArray(node)) node = ARRAY_INDEX.test(segment) ? node[Number(segment)] : undefined;
    else if (isJsonObject(node)) node = Object.hasOwn(node, segment) ? node[segment] : undefined;
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** The value at a (decoded) JSON Pointer inside `root`; undefined when there is none. */
export function resolvePointer(root: Json, pointer: string): Json | undefined {
  const segments = parsePointer(pointer);
  return segments === undefined ? undefined : followSegments(root, segments);
}

export interface RefOptions {
  /**
   * Also follow `<base>#fragment` when the base names the root's own `$id` (the witness does,
   * as its validator does). The engine follows `#…` only, as it always has: resolving more
   * there would change which edits it reports.
   */
  ownId?: boolean;
}

/** Whether `base` (a reference before its `#`) names the root schema's own `$id`. */
function isOwnId(root: Json, base: string): boolean {
  const id = isJsonObject(root) && typeof root.$id === "string" ? root.$id.replace(/#$/, "") : undefined;
  return id !== undefined && (base === id || id.endsWith(`/${base}`));
}

/**
 * Resolve a reference inside the schema it belongs to: `#` is the root, `#/$defs/X` a JSON
 * Pointer. Anything else (a remote URI, an anchor, a malformed escape, nothing at the
 * pointer) gives undefined: the reference is dangling as far as a pure reader can tell.
 */
export function resolveRef(root: Json, ref: string, options: RefOptions = {}): Json | undefined {
  const hash = ref.indexOf("#");
  if (hash === -1 || (hash > 0 && !(options.ownId && isOwnId(root, ref.slice(0, hash))))) return undefined;
  const segments = fragmentSegments(ref.slice(hash + 1));
  return segments === null ? undefined : followSegments(root, segments);
}

/**
 * A fragment as read: `decoded` is undefined when an escape in it is malformed, `segments` when
 * it is no pointer (malformed, or an anchor name).
 */
export interface FragmentReading {
  decoded: string | undefined;
  segments: readonly string[] | undefined;
}

/**
 * A fragment read, remembered by its text: a schema follows the same few references many
 * times, and lint resolves every reference of every schema (on 10,000 schemas that all differ,
 * decoding and splitting each again was most of what its reference rules cost).
 */
const readings = new Map<string, FragmentReading>();
const MAX_REMEMBERED = 4096;

export function readFragment(fragment: string): FragmentReading {
  const known = readings.get(fragment);
  if (known !== undefined) return known;
  const decoded = decodeFragment(fragment);
  const reading = { decoded, segments: decoded === undefined ? undefined : parsePointer(decoded) };
  if (readings.size >= MAX_REMEMBERED) readings.clear();
  readings.set(fragment, reading);
  return reading;
}

/** A fragment's pointer segments (null: no pointer). */
function fragmentSegments(fragment: string): readonly string[] | null {
  return readFragment(fragment).segments ?? null;
}
