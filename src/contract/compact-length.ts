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

/** What compactLength counts for a number. */
function numberLength(value: number): number {
  // Int32s (most numbers of a schema: bounds, lengths, counts) by their digits, not a string each.
  if (value === (value | 0)) return value < 0 ? 1 + digits(-value) : digits(value);
  return Number.isFinite(value) ? String(value).length : 4;
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
  if (typeof value === "string") {
    return unescaped || !ESCAPED.test(value) ? value.length + 2 : JSON.stringify(value).length;
  }
  if (typeof value === "number") return Number.isFinite(value) ? numberLength(value) : -1;
  // true, false, null; undefined, a function or a symbol: "null" where it stands alone or in a list.
  if (typeof value !== "object" || value === null) return value === false ? 5 : 4;
  if (level > limit) return -1;
  if (Array.isArray(value)) {
    let length = 2 + Math.max(0, value.length - 1);
    for (let i = 0; i < value.length; i++) {
      const member = soundLength(value[i], level + 1, limit, unescaped);
      if (member === -1) return -1;
      length += member;
    }
    return length;
  }
  let length = 2;
  let members = 0;
  // for...in: JSON objects inherit no enumerable keys.
  for (const key in value) {
    const member = (value as Record<string, unknown>)[key];
    const kind = typeof member;
    if (kind === "undefined" || kind === "function" || kind === "symbol") continue;
    const size = soundLength(member, level + 1, limit, unescaped);
    if (size === -1) return -1;
    length += (unescaped ? key.length + 2 : keyLength(key)) + 1 + size + (members++ > 0 ? 1 : 0);
  }
  return length;
}
