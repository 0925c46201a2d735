/**
 * The length of a value's compact JSON (`JSON.stringify(value).length`), counted without making
 * the text: lint's estimate of the tool list's size needs every tool's, and on 10,000 tools
 * whose schemas all differ, serializing them made 45 MB of garbage and a higher peak. The
 * reader measures each tool as it checks it (soundLength), while the tool's nodes are still in
 * the processor's caches, instead of walking every tool again afterwards. Pure.
 */

/** Characters JSON.stringify would escape (a lone surrogate included): such a string is measured by it. */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * `(JSON.stringify(value) ?? "null").length` for a value as JSON.parse makes it (plain objects
 * and lists, whose keys are all their own), without making the text: what JSON.stringify
 * writes for each kind of value, counted, members it leaves out (undefined, functions) left out.
 */
export function compactLength(value: unknown): number {
  // One walk with soundLength's, without its depth limit; -1 there is a number that is not finite
  // somewhere, which JSON.stringify writes as null (a big number parsed from JSON, never a schema's).
  const length = soundLength(value, 0, Number.POSITIVE_INFINITY);
  return length !== -1 ? length : (JSON.stringify(value) ?? "null").length;
}

/** What compactLength counts for a number: -1 for one that is not finite (soundLength's answer). */
function numberLength(value: number): number {
  // Int32s (most numbers of a schema: bounds, lengths, counts) by their digits, not a string each.
  if (value === (value | 0)) return value < 0 ? 1 + digits(-value) : digits(value);
  return Number.isFinite(value) ? String(value).length : -1;
}

/** The decimal digits of a whole number from 0 to 2^31: what String() writes (-0 included, as "0"). */
function digits(n: number): number {
  if (n < 100) return n < 10 ? 1 : 2;
  if (n < 10_000) return n < 1000 ? 3 : 4;
  let count = 5;
  for (let bound = 100_000; n >= bound; bound *= 10) count++;
  return count;
}

/**
 * A key's quoted length, remembered: schemas that all differ still use a few keys over and
 * over ("type", "description", "properties"), and testing each again was a third of the count.
 * Bounded, as a long process may measure many surfaces.
 */
const KEY_LENGTHS = new Map<string, number>();

function keyLength(key: string): number {
  let length = KEY_LENGTHS.get(key);
  if (length === undefined) {
    length = ESCAPED.test(key) ? JSON.stringify(key).length : key.length + 2;
    if (KEY_LENGTHS.size < 4096) KEY_LENGTHS.set(key, length);
  }
  return length;
}

/**
 * compactLength of a value as JSON.parse makes it at nesting `level`, or -1 when it is not sound
 * there (validate.ts isSound): an object or list deeper than `limit`, or a number that is not
 * finite. One walk for the reader's boundary check and the measure.
 * `unescaped`: the value was parsed from a JSON text without a backslash, so none of its strings
 * or keys holds a character JSON.stringify escapes (a quote, a backslash and a control character
 * are written escaped in JSON, and a lone surrogate can only be written as an escape): each is
 * measured by its length, without testing it.
 */
export function soundLength(value: unknown, level: number, limit: number, unescaped = false): number {
  if (typeof value !== "object" || value === null) return scalarLength(value, unescaped);
  return level > limit ? -1 : nodeLength(value, level, limit, unescaped);
}

/** soundLength of a value that is no object or list (-1: a number that is not finite). */
function scalarLength(value: unknown, unescaped: boolean): number {
  if (typeof value === "string")
    return unescaped || !ESCAPED.test(value) ? value.length + 2 : JSON.stringify(value).length;
  if (typeof value === "number") return numberLength(value);
  // true, false, null; undefined, a function or a symbol: "null" where it stands alone or in a list.
  return value === false ? 5 : 4;
}

/**
 * soundLength of an object or list at `level` (at most `limit`). Its members that are strings
 * or objects are measured in the loop, without a call each: they are most of a schema's nodes,
 * and a call per member was a third of the walk.
 */
function nodeLength(node: object, level: number, limit: number, unescaped: boolean): number {
  // Whether a member that is an object or a list is shallow enough.
  const deeper = level < limit;
  if (Array.isArray(node)) {
    // "[" and "]", and a comma between members.
    let length = node.length === 0 ? 2 : node.length + 1;
    for (let i = 0; i < node.length; i++) {
      const member: unknown = node[i];
      let size: number;
      if (typeof member === "string") size = unescaped ? member.length + 2 : scalarLength(member, false);
      else if (typeof member !== "object" || member === null) size = scalarLength(member, unescaped);
      else size = deeper ? nodeLength(member, level + 1, limit, unescaped) : -1;
      if (size === -1) return -1;
      length += size;
    }
    return length;
  }
  // "{", then per member its key, ":", its value and a comma or the closing "}".
  let length = 1;
  // for...in: JSON objects inherit no enumerable keys.
  for (const key in node) {
    const member: unknown = (node as Record<string, unknown>)[key];
    let size: number;
    if (typeof member === "string") size = unescaped ? member.length + 2 : scalarLength(member, false);
    else if (typeof member === "object")
      size = member === null ? 4 : deeper ? nodeLength(member, level + 1, limit, unescaped) : -1;
    else if (typeof member === "undefined" || typeof member === "function" || typeof member === "symbol") continue;
    else size = scalarLength(member, unescaped);
    if (size === -1) return -1;
    length += (unescaped ? key.length + 2 : keyLength(key)) + 2 + size;
  }
  return length === 1 ? 2 : length;
}
