/**
 * RFC 8785, the JSON Canonicalization Scheme (JCS): one text per JSON value, so that a hash of
 * it is a hash of the value, whatever key order or spacing it was sent with. Pure; no I/O.
 *
 * - Literals as JSON writes them; no whitespace anywhere.
 * - Numbers as ECMAScript's Number.prototype.toString writes an IEEE-754 double (RFC 8785
 *   §3.2.2.3): shortest round-trip digits, exponent from 1e21 and below 1e-6, "-0" as "0".
 *   Non-finite numbers are not JSON and are refused.
 * - Strings as ECMAScript's JSON.stringify writes them (§3.2.2.2): `"` `\` and U+0000–U+001F
 *   escaped (\b \t \n \f \r by name, the rest as \u00xx in lower case), everything else as is.
 *   RFC 8785 expects I-JSON, without lone surrogates; a server can still send one, and it is
 *   written escaped (\udxxx, as JSON.stringify does) rather than failing the capture.
 * - Object members sorted by their names as arrays of UTF-16 code units (§3.2.3), compared
 *   unsigned: exactly JavaScript's own `<` on strings, not locale order and not code points
 *   (U+FFFD sorts after an emoji's surrogate pair).
 * - Arrays keep their order.
 */

/** A value of the JSON data model, as JSON.parse gives it. */
type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A number in the form ECMAScript (and so RFC 8785) writes it. */
export function jcsNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`${value} is not a JSON number, so it has no canonical form`);
  // Number::toString is the algorithm RFC 8785 adopts; it already writes -0 as "0".
  return String(value);
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function write(value: JsonValue, out: string[]): void {
  if (value === null) {
    out.push("null");
  } else if (typeof value === "boolean") {
    out.push(value ? "true" : "false");
  } else if (typeof value === "number") {
    out.push(jcsNumber(value));
  } else if (typeof value === "string") {
    out.push(JSON.stringify(value));
  } else if (Array.isArray(value)) {
    out.push("[");
    value.forEach((element, i) => {
      if (i > 0) out.push(",");
      write(element, out);
    });
    out.push("]");
  } else {
    out.push("{");
    const keys = Object.keys(value).sort(byCodeUnits);
    keys.forEach((key, i) => {
      out.push(i > 0 ? "," : "", JSON.stringify(key), ":");
      write(value[key] as JsonValue, out);
    });
    out.push("}");
  }
}

/** Sets a member; one named __proto__ must stay data: defineProperty, not assignment (which sets the prototype). */
function put(object: { [key: string]: JsonValue }, key: string, value: JsonValue): void {
  if (key === "__proto__") {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  } else object[key] = value;
}

/** A name JavaScript enumerates before all others, in numeric order ("9" before "10"): an array index. */
const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;

/**
 * The value with every object's members in JCS order, for the runtime's JSON.stringify to
 * write (its numbers and strings are JCS's): objects whose names are already in order are
 * kept as they are. Undefined when an object has a name that looks like an array index:
 * JavaScript enumerates those first, in numeric order, whatever order they are inserted in.
 */
function sortedForStringify(value: JsonValue): JsonValue | undefined {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) jcsNumber(value);
    return value;
  }
  if (Array.isArray(value)) {
    let copy: JsonValue[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const element = value[i] as JsonValue;
      const out = sortedForStringify(element);
      if (out === undefined) return undefined;
      if (out !== element) {
        copy ??= value.slice();
        copy[i] = out;
      }
    }
    return copy ?? value;
  }
  const keys = Object.keys(value);
  let inOrder = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const first = key.charCodeAt(0);
    if (first >= 48 && first <= 57 && key.length <= 10 && ARRAY_INDEX.test(key)) return undefined;
    if (i > 0 && (keys[i - 1] as string) > key) inOrder = false;
  }
  if (!inOrder) keys.sort(byCodeUnits);
  let copy: { [key: string]: JsonValue } | undefined;
  if (!inOrder) copy = {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const child = value[key] as JsonValue;
    const out = sortedForStringify(child);
    if (out === undefined) return undefined;
    if (copy === undefined && out !== child) {
      // The first changed member: copy the ones before it (in order already) and go on.
      copy = {};
      for (let j = 0; j < i; j++) put(copy, keys[j] as string, value[keys[j] as string] as JsonValue);
    }
    if (copy !== undefined) put(copy, key, out);
  }
  return copy ?? value;
}

/**
 * The canonical JSON text of a value (RFC 8785). Recursive: values are bounded by the
 * contract's nesting limit (validate.ts) before they get here. Most values are written by
 * the runtime's JSON.stringify once their members are in order (2.5 times faster than
 * writing them here); those with array-index names by the writer above.
 */
export function canonicalize(value: JsonValue): string {
  const sorted = sortedForStringify(value);
  return sorted === undefined ? canonicalizeDirect(value) : JSON.stringify(sorted);
}

/** The canonical JSON text, written member by member here: the reference the fast path is tested against. */
export function canonicalizeDirect(value: JsonValue): string {
  const out: string[] = [];
  write(value, out);
  return out.join("");
}
