/**
 * Minimal instances: a few plausible values of a schema, simplest first (const/enum, then by
 * type within bounds, lengths, patterns, formats and required properties). Not verified: they
 * fill the instance around a leaf and seed leaf candidates, and ajv checks the result.
 */
import { isJsonObject, type Json, type JsonObject } from "../../contract/model.ts";
import { dict } from "../dict.ts";
import { codeLength, dedupe, MAX_DEPTH, MAX_LENGTH, num, PATTERNS, refOf, strings, valueKey, without } from "./json.ts";
import { lowerBound, numberOk, okAny, stringOk, typeAllows, upperBound } from "./local-checks.ts";
import { declaresOrAllows, merge, propertySchema, Side, type TypeName, typeList } from "./merge.ts";
import { regexSamples } from "./regex-samples.ts";

export const FORMAT_SAMPLES: Record<string, string[]> = {
  email: ["a@example.com"],
  "idn-email": ["a@example.com"],
  uri: ["https://example.com"],
  "uri-reference": ["https://example.com"],
  iri: ["https://example.com"],
  "iri-reference": ["https://example.com"],
  url: ["https://example.com"],
  "uri-template": ["https://example.com/{id}"],
  date: ["2025-01-01"],
  time: ["00:00:00Z"],
  "date-time": ["2025-01-01T00:00:00Z"],
  "iso-time": ["00:00:00Z"],
  "iso-date-time": ["2025-01-01T00:00:00Z"],
  duration: ["P1D"],
  uuid: ["00000000-0000-4000-8000-000000000000"],
  ipv4: ["127.0.0.1"],
  ipv6: ["::1"],
  hostname: ["example.com"],
  "idn-hostname": ["example.com"],
  "json-pointer": ["", "/a"],
  "json-pointer-uri-fragment": ["#", "#/a"],
  "relative-json-pointer": ["0"],
  regex: ["a"],
  byte: ["YQ=="],
  password: ["a"],
  binary: ["a"],
};

const ANY_VALUES: Json[] = [null, "a", 0, false, {}, []];
export const ALPHABET = ["a", "0", "A", "x", "-", "_", " ", "é"];

/** Inferred JSON types for a node without `type`, from the keywords it uses. */
export function inferTypes(s: JsonObject): TypeName[] | undefined {
  const out: TypeName[] = [];
  if (["properties", "required", "additionalProperties", "patternProperties", "minProperties"].some((k) => k in s)) {
    out.push("object");
  }
  if (["items", "prefixItems", "minItems", "maxItems", "contains", "uniqueItems"].some((k) => k in s))
    out.push("array");
  if (["minLength", "maxLength", "pattern", "format", PATTERNS].some((k) => k in s)) out.push("string");
  if (["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"].some((k) => k in s)) {
    out.push("number");
  }
  return out.length ? out : undefined;
}

export function declaredTypes(s: JsonObject): TypeName[] | undefined {
  const types = typeList(s.type);
  if (types && s.nullable === true && !types.includes("null")) types.push("null");
  return types;
}

function numberSamples(s: JsonObject, integer: boolean): number[] {
  const lo = lowerBound(s);
  const hi = upperBound(s);
  const m = num(s.multipleOf) !== undefined && (s.multipleOf as number) > 0 ? (s.multipleOf as number) : undefined;
  const points = new Set<number>([0, 1, -1]);
  for (const b of [lo?.value, hi?.value]) {
    if (b === undefined) continue;
    for (const d of [0, 1, -1, 0.5, -0.5]) points.add(b + d);
  }
  if (lo && hi) points.add((lo.value + hi.value) / 2);
  if (m !== undefined) {
    for (const p of [...points]) {
      points.add(Math.floor(p / m) * m);
      points.add(Math.ceil(p / m) * m);
      points.add(Math.ceil(p / m) * m + m);
      points.add(Math.floor(p / m) * m - m);
    }
  }
  if (integer) for (const p of [...points]) points.add(Math.ceil(p)).add(Math.floor(p));
  const ok = [...points].filter((x) => Number.isFinite(x) && (!integer || Number.isInteger(x)) && numberOk(s, x));
  return ok.sort((a, b) => Math.abs(a) - Math.abs(b) || Number(Number.isInteger(b)) - Number(Number.isInteger(a)));
}

/** Change a string's length to n (padding with its last character), keeping it similar. */
export function resize(s: string, n: number, fill?: string): string {
  const chars = [...s];
  if (chars.length >= n) return chars.slice(0, n).join("");
  const pad = fill ?? chars[chars.length - 1] ?? "a";
  return s + pad.repeat(n - chars.length);
}

function stringSamples(s: JsonObject, n: number): string[] {
  const minLength = Math.max(0, num(s.minLength) ?? 0);
  const maxLength = num(s.maxLength) ?? Number.POSITIVE_INFINITY;
  if (minLength > MAX_LENGTH) return [];
  const patterns = [...(typeof s.pattern === "string" ? [s.pattern] : []), ...strings(s[PATTERNS])];
  const base: string[] = [];
  if (typeof s.format === "string") base.push(...(FORMAT_SAMPLES[s.format] ?? []));
  for (const p of patterns) base.push(...regexSamples(p));
  base.push("", "a");
  const sized: string[] = [];
  for (const b of base) {
    sized.push(b);
    if (codeLength(b) < minLength) sized.push(resize(b, minLength));
    if (codeLength(b) > maxLength) sized.push(resize(b, maxLength));
  }
  for (const c of ALPHABET) sized.push(c.repeat(Math.max(minLength, 1)), c.repeat(minLength));
  const unique = [...new Set(sized)];
  const ok = unique.filter((x) => stringOk(s, x));
  return (ok.length ? ok : unique.slice(0, 1)).slice(0, Math.max(n, 1));
}

/** Extend samples with more distinct values of the same shape (for uniqueItems, minProperties). */
export function distinctFill(samples: Json[], count: number): Json[] {
  const out = dedupe(samples);
  const keys = new Set(out.map(valueKey));
  const first = out[0];
  for (let i = 1; out.length < count && i < count * 4; i++) {
    let next: Json | undefined;
    if (typeof first === "string") next = `${first}${i}`;
    else if (typeof first === "number") next = first + i;
    else if (typeof first === "boolean") next = i === 1 ? !first : undefined;
    else if (isJsonObject(first)) next = { ...first, [`k${i}`]: `${i}` };
    else if (Array.isArray(first)) next = first.length ? [...first, ...Array<Json>(i).fill(first[0] as Json)] : [i];
    if (next === undefined) break;
    const key = valueKey(next);
    if (!keys.has(key)) {
      keys.add(key);
      out.push(next);
    }
  }
  return out;
}

/** Up to n plausible instances of a schema, simplest first (not verified). */
export function gen(schema: Json | undefined, side: Side, n: number, depth = 0, stack: readonly string[] = []): Json[] {
  if (--side.budget < 0 || depth > MAX_DEPTH) return [];
  if (schema === undefined || schema === true) return ANY_VALUES.slice(0, n);
  if (!isJsonObject(schema)) return [];
  let s: JsonObject = schema;
  const ref = refOf(s);
  if (ref !== undefined) {
    if (stack.includes(ref)) return [];
    const target = side.resolve(ref);
    if (target === undefined) return [];
    const rest = without(s, "$ref", "$dynamicRef", "$recursiveRef");
    return gen(merge(target, rest), side, n, depth + 1, [...stack, ref]);
  }
  if (Array.isArray(s.allOf)) {
    const flat = side.effective(s, 0, stack);
    if (!isJsonObject(flat)) return [];
    s = flat;
  }
  if (s.const !== undefined) return [s.const];
  if (Array.isArray(s.enum)) {
    // Values of the declared type first; only the first n are wanted, out of any number.
    const out: Json[] = [];
    for (const fits of [true, false]) {
      for (const v of s.enum) {
        if (out.length >= n) return out;
        if (typeAllows(s, v) === fits) out.push(v);
      }
    }
    return out;
  }
  for (const key of ["anyOf", "oneOf"]) {
    const branches = s[key];
    if (!Array.isArray(branches)) continue;
    const base = without(s, key);
    const out: Json[] = [];
    for (const branch of branches) {
      out.push(...gen(merge(base, branch), side, n, depth + 1, stack));
      if (out.length >= n) break;
    }
    return dedupe(out).slice(0, n);
  }
  const declared = declaredTypes(s);
  const types = declared ?? inferTypes(s) ?? [];
  const out: Json[] = [];
  for (const t of types) {
    out.push(...genOfType(t, s, side, n, depth, stack));
    if (out.length >= n) break;
  }
  if (!declared) out.push(...ANY_VALUES);
  return dedupe(out).slice(0, n);
}

function genOfType(t: TypeName, s: JsonObject, side: Side, n: number, depth: number, stack: readonly string[]): Json[] {
  switch (t) {
    case "null":
      return [null];
    case "boolean":
      return [false, true].slice(0, n);
    case "integer":
      return numberSamples(s, true).slice(0, n);
    case "number":
      return numberSamples(s, false).slice(0, n);
    case "string":
      return stringSamples(s, n);
    case "array": {
      const arr = arrayInstance(s, side, depth, stack);
      return arr ? [arr] : [];
    }
    case "object": {
      const o = objectInstance(s, side, depth, stack, new Set());
      if (!o) return [];
      const out: JsonObject[] = [o];
      // distinct variants (for uniqueItems): other values of the first properties
      for (const name of Object.keys(o).slice(0, 3)) {
        if (out.length >= n) break;
        for (const v of gen(propertySchema(s, name), side, n, depth + 1, stack).slice(1)) out.push({ ...o, [name]: v });
      }
      return out.slice(0, n);
    }
  }
}

interface ArrayShape {
  prefix: Json[];
  rest: Json | undefined;
}

export function arrayShape(s: JsonObject): ArrayShape {
  if (Array.isArray(s.prefixItems))
    return { prefix: s.prefixItems, rest: Array.isArray(s.items) ? undefined : s.items };
  if (Array.isArray(s.items)) return { prefix: s.items, rest: s.additionalItems };
  return { prefix: [], rest: s.items };
}

function arrayInstance(s: JsonObject, side: Side, depth: number, stack: readonly string[]): Json[] | undefined {
  const { prefix, rest } = arrayShape(s);
  const minItems = Math.max(0, num(s.minItems) ?? 0);
  if (minItems > MAX_LENGTH) return undefined;
  const unique = s.uniqueItems === true;
  const arr: Json[] = [];
  const taken = new Set<string>();
  const restSamples = minItems > prefix.length ? gen(rest, side, unique ? minItems + 2 : 1, depth + 1, stack) : [];
  const pool = unique ? distinctFill(restSamples, minItems) : restSamples;
  let next = 0; // for unique items: pool entries before this one are taken
  for (let i = 0; i < minItems; i++) {
    let v: Json | undefined;
    if (i < prefix.length) {
      v = gen(prefix[i], side, 1, depth + 1, stack)[0];
    } else if (unique) {
      while (next < pool.length && taken.has(valueKey(pool[next] as Json))) next++;
      v = pool[next];
    } else v = pool[0];
    if (v === undefined) return undefined;
    arr.push(v);
    taken.add(valueKey(v));
  }
  if (s.contains !== undefined && s.contains !== true) {
    const c = gen(s.contains, side, 1, depth + 1, stack)[0];
    if (c !== undefined) {
      if (arr.length > prefix.length) arr[prefix.length] = c;
      else if (arr.length === prefix.length) arr.push(c);
    }
  }
  return arr;
}

/** The smallest object the node accepts, leaving out `omit` (extra names may be required). */
export function objectInstance(
  s: JsonObject,
  side: Side,
  depth: number,
  stack: readonly string[],
  omit: ReadonlySet<string>,
  extraRequired: readonly { name: string; schema: Json; side: Side }[] = [],
  preferOther = false,
): JsonObject | undefined {
  const o = dict(); // prototype-free: a property may be named __proto__
  const fill = (name: string): boolean => {
    if (omit.has(name) || Object.hasOwn(o, name)) return true;
    const other = extraRequired.find((e) => e.name === name);
    const mine = () => gen(propertySchema(s, name), side, 1, depth + 1, stack)[0];
    const theirs = () => (other ? gen(other.schema, other.side, 1, depth + 1, stack)[0] : undefined);
    const declaredHere = isJsonObject(s.properties) && Object.hasOwn(s.properties, name);
    const v = preferOther || !declaredHere ? (theirs() ?? mine()) : (mine() ?? theirs());
    if (v === undefined) return false;
    o[name] = v;
    return true;
  };
  for (const name of strings(s.required)) if (!fill(name)) return undefined;
  for (const { name } of extraRequired) if (declaresOrAllows(s, name)) fill(name);
  const dependencies: JsonObject = {
    ...(isJsonObject(s.dependencies) ? s.dependencies : {}),
    ...(isJsonObject(s.dependentRequired) ? s.dependentRequired : {}),
  };
  for (let round = 0; round < 3; round++) {
    for (const [key, deps] of Object.entries(dependencies)) {
      if (Object.hasOwn(o, key)) for (const d of strings(deps)) fill(d);
    }
  }
  const minProperties = num(s.minProperties) ?? 0;
  if (Object.keys(o).length < minProperties && minProperties <= MAX_LENGTH) {
    // optional properties whose minimal value looks valid, simple ones first
    const optional = Object.entries(isJsonObject(s.properties) ? s.properties : {})
      .filter(([name]) => !omit.has(name) && !Object.hasOwn(o, name))
      .map(([name, schema]) => ({ name, value: gen(schema, side, 1, depth + 1, stack)[0], schema }))
      .filter((p) => p.value !== undefined && okAny(side.alternatives(p.schema), p.value as Json))
      .sort((x, y) => JSON.stringify(x.value).length - JSON.stringify(y.value).length);
    for (const p of optional) {
      if (Object.keys(o).length >= minProperties) break;
      o[p.name] = p.value as Json;
    }
    for (let i = 0; Object.keys(o).length < minProperties && i < minProperties * 2 + 8; i++) {
      const key = `p${i}`;
      if (!omit.has(key) && declaresOrAllows(s, key)) fill(key);
    }
  }
  return o;
}

/**
 * The smallest instance of a schema, heuristically: const/enum first, then by type; objects
 * get their required properties, arrays their minItems, strings their minLength, pattern and
 * format where feasible, numbers their bounds and multipleOf. undefined when none is found.
 * `root` resolves local $refs; cycles and nesting beyond 32 levels end the search.
 */
export function minimalInstance(schema: Json, root: Json = schema): Json | undefined {
  try {
    return gen(schema, new Side(root), 1)[0];
  } catch {
    return undefined;
  }
}
