/**
 * Deterministic values from a JSON Schema, for the mock's tool results: a small seeded
 * generator (the same seed, tool and arguments give the same value). The generator reads only
 * the common keywords (it ignores `not`, `if`, lookaheads and the like), so a value is never
 * answered on its say-so: generateValid checks each draw with the validator the mock uses for
 * arguments (the official SDK clients validate structuredContent too), draws again with
 * derived seeds, then tries the witness engine's minimal instance, and otherwise says why not.
 */

import { stableStringify } from "../contract/canonical.ts";
import { isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import { minimalInstance } from "../schema/witness/instances.ts";
import { drawStrings } from "./pattern-strings.ts";
import { patternAccepts, type SchemaProblem, validatorOf } from "./validate.ts";

export { prng } from "../util/random.ts";

import { prng } from "../util/random.ts";

/** FNV-1a of a text, mixed with a seed: the per-call seed. */
export function seedFor(seed: number, ...parts: Json[]): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (const ch of stableStringify(parts)) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"];
const FORMATS: Record<string, (r: () => number) => string> = {
  "date-time": (r) => new Date(Date.UTC(2026, 0, 1) + Math.floor(r() * 365) * 86_400_000).toISOString(),
  date: (r) => new Date(Date.UTC(2026, 0, 1) + Math.floor(r() * 365) * 86_400_000).toISOString().slice(0, 10),
  time: () => "12:00:00Z",
  email: (r) => `${pick(WORDS, r)}@example.com`,
  "idn-email": (r) => `${pick(WORDS, r)}@example.com`,
  uri: (r) => `https://example.com/${pick(WORDS, r)}`,
  "uri-reference": (r) => `/${pick(WORDS, r)}`,
  iri: (r) => `https://example.com/${pick(WORDS, r)}`,
  url: (r) => `https://example.com/${pick(WORDS, r)}`,
  hostname: (r) => `${pick(WORDS, r)}.example.com`,
  ipv4: (r) => `192.0.2.${1 + Math.floor(r() * 250)}`,
  ipv6: () => "2001:db8::1",
  uuid: (r) => "xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx".replace(/x/g, () => Math.floor(r() * 16).toString(16)),
  duration: () => "P1D",
  regex: () => "^a+$",
  "json-pointer": () => "/a",
};

function pick<T>(items: readonly T[], r: () => number): T {
  return items[Math.floor(r() * items.length)] as T;
}

interface Ctx {
  root: Json;
  r: () => number;
  refs: string[];
}

const MAX_DEPTH = 12;
/** Bounds on what one value may hold, whatever minLength, minItems and minProperties say. */
const MAX_TEXT = 10_000;
const MAX_ITEMS = 1_000;

/** A value the schema accepts, or the first draw's first problem (none: nothing was drawn at all). */
export type Generated = { value: Json } | { problem: SchemaProblem | undefined };

/**
 * A value `schema` accepts (resolving local $refs against `root`), deterministic for a seed:
 * the draw from `seed`, else from `attempts - 1` seeds derived from it, else the minimal
 * instance.
 */
export function generateValid(schema: Json, seed: number, attempts = 4, root: Json = schema): Generated {
  const valid = validatorOf(schema);
  let first: SchemaProblem | undefined;
  const accept = (value: Json | undefined): value is Json => {
    if (value === undefined) return false;
    const problem = valid(value);
    first ??= problem;
    return problem === undefined;
  };
  for (let attempt = 0; attempt < attempts; attempt++) {
    const ctx: Ctx = { root, r: prng(attempt === 0 ? seed : seedFor(seed, attempt)), refs: [] };
    const value = gen(schema, ctx, 0);
    if (accept(value)) return { value };
  }
  const fallback = minimalInstance(schema, root);
  if (accept(fallback)) return { value: fallback };
  return { problem: first };
}

/** A valid value for `schema`, or undefined when none was found (see generateValid). */
export function generate(schema: Json, seed: number, root: Json = schema): Json | undefined {
  const outcome = generateValid(schema, seed, 4, root);
  return "value" in outcome ? outcome.value : undefined;
}

function resolve(root: Json, ref: string): Json | undefined {
  if (!ref.startsWith("#")) return undefined;
  let node: Json | undefined = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isJsonObject(node)) node = node[key];
    else return undefined;
  }
  return node;
}

/** allOf, shallowly: properties and required united, the rest from the first that has it. */
function flatten(s: JsonObject): JsonObject {
  if (!Array.isArray(s.allOf)) return s;
  const out: JsonObject = { ...s };
  delete out.allOf;
  for (const part of s.allOf) {
    if (!isJsonObject(part)) continue;
    const p = flatten(part);
    for (const [k, v] of Object.entries(p)) {
      if (k === "properties" && isJsonObject(v))
        out.properties = { ...(isJsonObject(out.properties) ? out.properties : {}), ...v };
      else if (k === "required" && Array.isArray(v))
        out.required = [...new Set([...(Array.isArray(out.required) ? out.required : []), ...v])];
      else if (out[k] === undefined) out[k] = v;
    }
  }
  return out;
}

function gen(schema: Json | undefined, ctx: Ctx, depth: number): Json | undefined {
  if (depth > MAX_DEPTH) return undefined;
  if (schema === undefined || schema === true) return pick(WORDS, ctx.r);
  if (!isJsonObject(schema)) return undefined;
  let s = schema;
  const ref = typeof s.$ref === "string" ? s.$ref : undefined;
  if (ref !== undefined) {
    if (ctx.refs.filter((r) => r === ref).length > 2) return undefined;
    const target = resolve(ctx.root, ref);
    if (!isJsonObject(target)) return undefined;
    const rest = { ...s };
    delete rest.$ref;
    ctx.refs.push(ref);
    try {
      return gen({ ...target, ...rest }, ctx, depth + 1);
    } finally {
      ctx.refs.pop();
    }
  }
  s = flatten(s);
  if (s.not !== undefined) return withoutExcluded(s, ctx, depth);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return pick(s.enum, ctx.r);
  if (s.default !== undefined && ctx.r() < 0.2) return s.default;
  if (Array.isArray(s.examples) && s.examples.length > 0 && ctx.r() < 0.5) return pick(s.examples, ctx.r);
  for (const key of ["oneOf", "anyOf"]) {
    const branches = s[key];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const base = { ...s };
    delete base[key];
    const branch = pick(branches, ctx.r);
    return gen(isJsonObject(branch) ? { ...base, ...branch } : branch, ctx, depth + 1);
  }
  const types = Array.isArray(s.type)
    ? s.type.filter((t) => typeof t === "string")
    : typeof s.type === "string"
      ? [s.type]
      : [];
  const type = types.length > 0 ? (types.find((t) => t !== "null") ?? "null") : inferType(s);
  switch (type) {
    case "null":
      return null;
    case "boolean":
      return ctx.r() < 0.5;
    case "integer":
    case "number":
      return numberOf(s, type === "integer", ctx.r);
    case "string":
      return stringOf(s, ctx.r);
    case "array":
      return arrayOf(s, ctx, depth);
    case "object":
      return objectOf(s, ctx, depth);
    default:
      return pick(WORDS, ctx.r);
  }
}

/** Draws of a schema's other keywords tried against its `not` before giving up on it. */
const NOT_DRAWS = 8;

/**
 * A value for a schema with `not`: its enum without the excluded values, or draws of the other
 * keywords until one falls outside `not`, checked where it stands (a draw of the whole result
 * would have to be lucky at every `not` at once). A `not` with a $ref cannot be checked on its
 * own (the reference is the root's): it is left to the check of the whole value.
 */
function withoutExcluded(s: JsonObject, ctx: Ctx, depth: number): Json | undefined {
  const rest: JsonObject = { ...s };
  delete rest.not;
  if (JSON.stringify(s.not).includes('"$ref"')) return gen(rest, ctx, depth + 1);
  const excluded = (value: Json) => validatorOf(s.not as Json)(value) === undefined;
  if (Array.isArray(rest.enum)) {
    rest.enum = rest.enum.filter((value) => !excluded(value));
    if (rest.enum.length === 0) return undefined;
  }
  let value: Json | undefined;
  for (let draw = 0; draw < NOT_DRAWS; draw++) {
    value = gen(rest, ctx, depth + 1);
    if (value === undefined || !excluded(value)) return value;
  }
  return value;
}

function inferType(s: JsonObject): string {
  if (s.properties !== undefined || s.required !== undefined || s.additionalProperties !== undefined) return "object";
  if (s.items !== undefined || s.prefixItems !== undefined) return "array";
  if (s.minLength !== undefined || s.pattern !== undefined || s.format !== undefined) return "string";
  if (s.minimum !== undefined || s.maximum !== undefined) return "number";
  return "string";
}

const num = (v: Json | undefined) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

function numberOf(s: JsonObject, integer: boolean, r: () => number): number {
  let lo = num(s.minimum) ?? -Infinity;
  let hi = num(s.maximum) ?? Infinity;
  const exLo = num(s.exclusiveMinimum) ?? (s.exclusiveMinimum === true ? lo : undefined);
  const exHi = num(s.exclusiveMaximum) ?? (s.exclusiveMaximum === true ? hi : undefined);
  if (exLo !== undefined) lo = Math.max(lo, integer ? Math.floor(exLo) + 1 : exLo + 1e-6);
  if (exHi !== undefined) hi = Math.min(hi, integer ? Math.ceil(exHi) - 1 : exHi - 1e-6);
  if (!Number.isFinite(lo) && !Number.isFinite(hi)) {
    lo = 0;
    hi = 100;
  } else if (!Number.isFinite(lo)) lo = hi - 100;
  else if (!Number.isFinite(hi)) hi = lo + 100;
  const step = num(s.multipleOf);
  if (step !== undefined && step > 0) {
    const first = Math.ceil(lo / step);
    const last = Math.floor(hi / step);
    const k = first + Math.floor(r() * Math.max(1, last - first + 1));
    return Number((Math.min(k, last) * step).toPrecision(12));
  }
  if (integer) {
    const a = Math.ceil(lo);
    const b = Math.floor(hi);
    return a + Math.floor(r() * Math.max(1, b - a + 1));
  }
  return Math.round((lo + r() * (hi - lo)) * 100) / 100;
}

/** Random draws tried when the minimal sample does not fit a pattern (lookaheads, mostly). */
const PATTERN_DRAWS = 24;

function stringOf(s: JsonObject, r: () => number): string | undefined {
  if (typeof s.pattern === "string") {
    const sample = minimalInstance({ type: "string", pattern: s.pattern, ...lengths(s) });
    if (typeof sample === "string" && fitsString(s, s.pattern, sample)) return sample;
    const drawn = drawStrings(s.pattern, r, PATTERN_DRAWS).find((text) => fitsString(s, s.pattern as string, text));
    return drawn ?? (typeof sample === "string" ? sample : undefined);
  }
  const format = typeof s.format === "string" ? FORMATS[s.format] : undefined;
  let text = format ? format(r) : pick(WORDS, r);
  const min = Math.min(num(s.minLength) ?? 0, MAX_TEXT);
  const max = num(s.maxLength) ?? Infinity;
  while ([...text].length < min) text += pick(WORDS, r);
  if ([...text].length > max) text = [...text].slice(0, max).join("");
  return text;
}

/** Whether a string meets the pattern (decided as the validator decides it) and the lengths. */
function fitsString(s: JsonObject, pattern: string, text: string): boolean {
  const length = [...text].length;
  if (length < (num(s.minLength) ?? 0) || length > (num(s.maxLength) ?? Infinity)) return false;
  return patternAccepts(pattern, text);
}

function lengths(s: JsonObject): JsonObject {
  const out: JsonObject = {};
  if (s.minLength !== undefined) out.minLength = s.minLength;
  if (s.maxLength !== undefined) out.maxLength = s.maxLength;
  return out;
}

function arrayOf(s: JsonObject, ctx: Ctx, depth: number): Json[] {
  const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [];
  const rest = Array.isArray(s.items) ? s.additionalItems : s.items;
  const min = num(s.minItems) ?? 0;
  const max = num(s.maxItems) ?? Infinity;
  const want = Math.min(max, MAX_ITEMS, Math.max(min, prefix.length, 1 + Math.floor(ctx.r() * 3)));
  const out: Json[] = [];
  const seen = new Set<string>();
  for (let i = 0, tries = 0; out.length < want && tries < want * 4; tries++) {
    const item = gen(i < prefix.length ? prefix[i] : rest, ctx, depth + 1);
    if (item === undefined) break;
    if (s.uniqueItems === true) {
      const key = stableStringify(item);
      if (seen.has(key)) continue;
      seen.add(key);
    }
    out.push(item);
    i++;
  }
  return out;
}

function objectOf(s: JsonObject, ctx: Ctx, depth: number): JsonObject {
  const properties = isJsonObject(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? s.required.filter((k) => typeof k === "string") : []);
  const out: JsonObject = {};
  for (const [name, sub] of Object.entries(properties)) {
    if (!required.has(name) && (depth > 4 || ctx.r() < 0.3)) continue;
    const value = gen(sub, ctx, depth + 1);
    if (value !== undefined) out[name] = value;
  }
  for (const name of required) {
    if (name in out) continue;
    const extra = isJsonObject(s.additionalProperties) ? s.additionalProperties : undefined;
    const value = gen(extra, ctx, depth + 1);
    out[name] = value ?? pick(WORDS, ctx.r);
  }
  const minProps = Math.min(num(s.minProperties) ?? 0, MAX_ITEMS);
  for (let i = 0; Object.keys(out).length < minProps && i < minProps + 8; i++) {
    if (s.additionalProperties === false) break;
    const extra = isJsonObject(s.additionalProperties) ? s.additionalProperties : undefined;
    out[`${pick(WORDS, ctx.r)}${i}`] = gen(extra, ctx, depth + 1) ?? pick(WORDS, ctx.r);
  }
  return out;
}
