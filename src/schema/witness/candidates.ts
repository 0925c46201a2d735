/**
 * Leaf candidates: values to try at the change's path, in families (required, type, value,
 * number, string, array, branch, object), the family the rule points to first and then a
 * broad sweep. The local checks only order them; the validator decides.
 */
import { isJsonObject, type Json, type JsonObject } from "../../contract/model.ts";
import { dict } from "../dict.ts";
import { declared, type Embedder, extraKey, type Mode } from "./embed.ts";
import {
  ALPHABET,
  arrayShape,
  declaredTypes,
  distinctFill,
  FORMAT_SAMPLES,
  gen,
  inferTypes,
  resize,
} from "./instances.ts";
import {
  type Cand,
  dedupe,
  MAX_LENGTH,
  MAX_VALUE_SEEDS,
  num,
  OMIT,
  PATTERNS,
  pushAll,
  strings,
  valueKey,
} from "./json.ts";
import { jsonType, lowerBound, okAny, upperBound } from "./local-checks.ts";
import { declaresOrAllows, propertySchema, type Side, TYPE_NAMES } from "./merge.ts";
import { typesOf } from "./path-walk.ts";
import { regexSamples } from "./regex-samples.ts";

export type WitnessDirection = "input" | "output";

export interface WitnessChange {
  rule: string;
  path: string;
  before?: Json;
  after?: Json;
}

export interface Leaf {
  change: WitnessChange;
  direction: WitnessDirection;
  acc: Json;
  rej: Json | undefined;
  accAlts: JsonObject[];
  rejAlts: JsonObject[];
  atProperty: boolean;
  accSide: Side;
  rejSide: Side;
  embedder: Embedder;
  mode: Mode;
  memo: Map<string, Cand[]>;
}

const TYPE_PROBES: Json[] = [null, false, true, 0, 1, -1, 1.5, "", "a", "not-a-value", [], [null], {}, { a: null }];

/** Candidates the accepting node (locally) accepts, those the rejecting node rejects first. */
function ranked(L: Leaf, values: Json[]): Json[] {
  const unique = dedupe(values);
  const good = new Set(unique.filter((v) => okAny(L.accAlts, v)));
  const first = new Set([...good].filter((v) => !okAny(L.rejAlts, v)));
  return [...first, ...[...good].filter((v) => !first.has(v)), ...unique.filter((v) => !good.has(v))];
}

function payloadValues(L: Leaf): Json[] {
  const order = L.direction === "input" ? [L.change.before, L.change.after] : [L.change.after, L.change.before];
  const out: Json[] = [];
  for (const p of order) {
    if (p === undefined) continue;
    if (Array.isArray(p)) pushAll(out, p);
    else out.push(p);
  }
  return out;
}

function valuesOf(alts: JsonObject[]): Json[] | undefined {
  const out: Json[] = [];
  for (const a of alts) {
    if (a.const !== undefined) out.push(a.const);
    else if (Array.isArray(a.enum)) pushAll(out, a.enum);
    else return undefined;
  }
  return out;
}
function samplesOf(L: Leaf, n: number): Json[] {
  const out = gen(L.acc, L.accSide, n);
  for (const alt of L.accAlts.slice(0, 8)) out.push(...gen(alt, L.accSide, 2));
  return out;
}

/**
 * oneOf overlap: the witness is a value of the rejecting side's branch (it matches two
 * branches there), which the accepting side takes through another branch alone.
 */
function overlapCandidates(L: Leaf): Json[] {
  // The change carries both branches; the rejecting side's is the one that matches too much.
  const branch = L.direction === "input" ? L.change.after : L.change.before;
  if (!isJsonObject(branch)) return [];
  return [...(valuesOf([branch]) ?? []), ...gen(branch, L.rejSide, 6)];
}

function typeCandidates(L: Leaf): Json[] {
  const ta = typesOf(L.accAlts);
  const tr = typesOf(L.rejAlts);
  const out: Json[] = [];
  for (const t of TYPE_NAMES) {
    if (!ta.has(t)) continue;
    if (t === "number" && !tr.has("number")) {
      // number → integer keeps integers: only fractions are gone
      out.push(...numberCandidates(L).filter((x) => typeof x === "number" && !Number.isInteger(x)), 1.5, 0.5, -0.5);
    }
    if (tr.has(t)) continue;
    out.push(...gen({ allOf: [L.acc, { type: t }] }, L.accSide, 3));
    out.push(...TYPE_PROBES.filter((v) => jsonType(v) === t || (t === "number" && typeof v === "number")));
  }
  if (L.rejAlts.length === 0) out.push(...samplesOf(L, 3));
  return ranked(L, out);
}

function valueCandidates(L: Leaf): Json[] {
  const accValues = valuesOf(L.accAlts);
  const rejValues = valuesOf(L.rejAlts);
  const inRej = rejValues ? new Set(rejValues.map(valueKey)) : undefined;
  const notInRej = (v: Json) => !inRej?.has(valueKey(v));
  const out: Json[] = [];
  // The change's own value first: each of several values removed at one path is its own witness.
  pushAll(out, payloadValues(L).filter(notInRej));
  if (accValues) pushAll(out, accValues.filter(notInRej));
  const pool: Json[] = [
    ...samplesOf(L, 4),
    ...stringCandidates(L, false),
    ...numberCandidates(L),
    ...TYPE_PROBES,
    ...(rejValues ?? [])
      .slice(0, MAX_VALUE_SEEDS)
      .flatMap((v): Json[] =>
        typeof v === "string" ? [`${v}_other`, v.toUpperCase(), ""] : typeof v === "number" ? [v + 1, v - 1] : [],
      ),
  ];
  out.push(...pool.filter(notInRej));
  return ranked(L, out);
}

function boundsOf(alts: JsonObject[]): { points: number[]; multiples: number[] } {
  const points: number[] = [];
  const multiples: number[] = [];
  for (const a of alts) {
    for (const b of [lowerBound(a), upperBound(a)]) if (b) points.push(b.value);
    const m = num(a.multipleOf);
    if (m !== undefined && m > 0) multiples.push(m);
  }
  return { points, multiples };
}

function numberCandidates(L: Leaf): Json[] {
  const a = boundsOf(L.accAlts);
  const r = boundsOf(L.rejAlts);
  const points = [...a.points, ...r.points];
  const multiples = [...a.multiples, ...r.multiples];
  const out = new Set<number>([0, 1, -1, 0.5, 1.5, -1.5]);
  for (const b of points) for (const d of [0, 1, -1, 0.5, -0.5, 0.01, -0.01]) out.add(b + d);
  for (let x = 0; x < points.length; x++) {
    for (let y = x + 1; y < points.length; y++) out.add(((points[x] as number) + (points[y] as number)) / 2);
  }
  for (const m of multiples) {
    for (const k of [1, 2, 3, -1]) out.add(k * m);
    for (const b of points) {
      const lo = Math.floor(b / m) * m;
      for (const d of [-m, 0, m, 2 * m]) out.add(lo + d);
    }
  }
  for (const x of [...out]) out.add(Math.round(x));
  const values = [...out].filter((x) => Number.isFinite(x)).map((x) => Number(x.toPrecision(15)));
  return ranked(L, values);
}

function stringCandidates(L: Leaf, rank = true): Json[] {
  const rule = L.change.rule;
  const base: string[] = [];
  const formats = [...L.accAlts, ...L.rejAlts].map((a) => a.format).filter((f): f is string => typeof f === "string");
  const rejFormats = L.rejAlts.map((a) => a.format).filter((f): f is string => typeof f === "string");
  if (rule.startsWith("format-")) for (const f of rejFormats) base.push(`not-a-${f}`);
  for (const a of L.accAlts) if (typeof a.format === "string") base.push(...(FORMAT_SAMPLES[a.format] ?? []));
  base.push("", " ", "a", "A", "0", "a b", "-", "_", "ü", "a".repeat(41));
  for (const f of formats) base.push(`not-a-${f}`, ...(FORMAT_SAMPLES[f] ?? []));
  const patterns = (alts: JsonObject[]) =>
    alts.flatMap((a) => [...(typeof a.pattern === "string" ? [a.pattern] : []), ...strings(a[PATTERNS])]);
  for (const p of patterns(L.accAlts)) base.push(...regexSamples(p));
  for (const p of patterns(L.rejAlts)) base.push(...regexSamples(p));
  for (const p of payloadValues(L))
    if (typeof p === "string" && rule.startsWith("pattern")) base.push(...regexSamples(p));
  for (const a of [...L.accAlts, ...L.rejAlts]) {
    for (const v of [
      a.const,
      a.default,
      ...(Array.isArray(a.enum) ? a.enum.slice(0, MAX_VALUE_SEEDS) : []),
      ...(Array.isArray(a.examples) ? a.examples : []),
    ]) {
      if (typeof v === "string") base.push(v, `${v} `, v.toUpperCase());
    }
  }
  const lengths = new Set<number>([0, 1]);
  for (const a of [...L.accAlts, ...L.rejAlts]) {
    for (const k of ["minLength", "maxLength"]) {
      const n = num(a[k]);
      if (n !== undefined) for (const d of [0, 1, -1]) if (n + d >= 0 && n + d <= MAX_LENGTH) lengths.add(n + d);
    }
  }
  const sized: string[] = [...base];
  const fills = [...ALPHABET, ...base.map((b) => [...b][0]).filter((c): c is string => c !== undefined)];
  for (const n of [...lengths].sort((x, y) => x - y)) {
    for (const c of new Set(fills)) sized.push(c.repeat(n));
    for (const b of base) if (b.length > 0) sized.push(resize(b, n));
  }
  const out = [...new Set(sized)];
  return rank ? ranked(L, out) : out;
}

function arrayCandidates(L: Leaf): Json[] {
  const out: Json[] = [];
  const lengths = new Set<number>([0, 1, 2]);
  for (const a of [...L.accAlts, ...L.rejAlts]) {
    for (const k of ["minItems", "maxItems"]) {
      const n = num(a[k]);
      if (n !== undefined) for (const d of [0, 1, -1]) if (n + d >= 0 && n + d <= MAX_LENGTH) lengths.add(n + d);
    }
    if (Array.isArray(a.prefixItems)) lengths.add(a.prefixItems.length).add(a.prefixItems.length + 1);
    if (Array.isArray(a.items)) lengths.add(a.items.length).add(a.items.length + 1);
  }
  const dupFirst = L.change.rule.startsWith("unique-items");
  for (const alt of L.accAlts) {
    const types = declaredTypes(alt) ?? inferTypes(alt);
    if (types && !types.includes("array")) continue;
    const { prefix, rest } = arrayShape(alt);
    const prefixSamples = prefix.map((p) => gen(p, L.accSide, 1)[0] ?? null);
    const restSamples = gen(rest, L.accSide, 4);
    const first = restSamples[0] ?? prefixSamples[0] ?? null;
    for (const n of [...lengths].sort((x, y) => x - y)) {
      const pool = distinctFill(restSamples.length ? restSamples : [first], n);
      const distinct: Json[] = [];
      const dup: Json[] = [];
      for (let i = 0; i < n; i++) {
        const p = prefixSamples[i];
        distinct.push(p !== undefined ? p : (pool[i - prefix.length] ?? first));
        dup.push(p !== undefined ? p : first);
      }
      if (n >= 2) dup[n - 1] = dup[n - 2] as Json;
      if (dupFirst) out.push(dup, distinct);
      else out.push(distinct, dup);
    }
  }
  const ranking = ranked(L, out);
  if (!dupFirst) return ranking;
  return [...ranking.filter((a) => Array.isArray(a) && a.length >= 2), ...ranking];
}

function objectCandidates(L: Leaf): Cand[] {
  const atProperty: Cand[] = L.atProperty ? [OMIT, ...ranked(L, [...TYPE_PROBES, ...samplesOf(L, 3)])] : [];
  const eA = L.accSide.objectNode(L.acc);
  const eR = L.rej === undefined ? {} : L.rejSide.objectNode(L.rej);
  const base = L.embedder.context(L.acc, L.rej, L.mode, new Set());
  if (!base) return atProperty;
  /** A value for a property: one the rejecting side also accepts first, to pin the break on the change. */
  const valuesFor = (name: string): Json[] =>
    dedupe([
      ...(declared(eR, name) ? gen(propertySchema(eR, name), L.rejSide, 1) : []),
      ...gen(propertySchema(eA, name), L.accSide, 1),
    ]);
  // properties the accepting side declares (those the rejecting side lacks first), and names
  // the change itself mentions (e.g. a removed property when the path is the object)
  const named: Json[] = [];
  const mentioned = payloadValues(L).filter((v): v is string => typeof v === "string");
  const accProps = Object.keys(isJsonObject(eA.properties) ? eA.properties : {});
  const notInRej = accProps.filter((p) => !declared(eR, p));
  for (const name of new Set([...mentioned, ...notInRej, ...accProps])) {
    if (Object.hasOwn(base, name)) continue;
    for (const v of valuesFor(name)) named.push({ ...base, [name]: v });
  }
  // an extra, undeclared property
  const extra: Json[] = [];
  const key = extraKey([eA, eR]);
  for (const v of [...gen(eA.additionalProperties ?? true, L.accSide, 3), ...TYPE_PROBES])
    extra.push({ ...base, [key]: v });
  // everything optional at once, then more than the rejecting side's maxProperties
  const sized: Json[] = [];
  const all = dict(base);
  for (const name of accProps) if (!Object.hasOwn(all, name)) all[name] = valuesFor(name)[0] ?? null;
  sized.push(all);
  const maxR = Math.max(...L.rejAlts.map((a) => num(a.maxProperties) ?? -1));
  if (maxR >= 0 && maxR < MAX_LENGTH) {
    const big = dict(all);
    for (let i = 0; Object.keys(big).length <= maxR && i < maxR + 10; i++) {
      const k = `p${i}`;
      if (!Object.hasOwn(big, k) && declaresOrAllows(eA, k)) {
        big[k] = gen(propertySchema(eA, k), L.accSide, 1)[0] ?? null;
      }
    }
    sized.push(big);
  }
  // a property whose dependency (on the rejecting side) is missing
  const dependent: Json[] = [];
  for (const alt of L.rejAlts) {
    const deps: JsonObject = {
      ...(isJsonObject(alt.dependencies) ? alt.dependencies : {}),
      ...(isJsonObject(alt.dependentRequired) ? alt.dependentRequired : {}),
    };
    for (const [k, list] of Object.entries(deps)) {
      const o: JsonObject = { ...base, [k]: valuesFor(k)[0] ?? null };
      for (const d of strings(list)) delete o[d];
      dependent.push(o);
    }
  }
  // names matched by patternProperties on either side
  const patterned: Json[] = [];
  for (const node of [eA, eR]) {
    if (!isJsonObject(node.patternProperties)) continue;
    for (const pattern of Object.keys(node.patternProperties)) {
      for (const name of regexSamples(pattern).slice(0, 2)) {
        for (const v of [...gen(propertySchema(eA, name), L.accSide, 2), ...TYPE_PROBES]) {
          patterned.push({ ...base, [name]: v });
        }
      }
    }
  }
  const rule = L.change.rule;
  const order: Json[][] = rule.startsWith("additional-properties")
    ? [extra, named, sized, dependent, patterned]
    : /^(min|max)-properties/.test(rule)
      ? [sized, named, extra, dependent, patterned]
      : rule.startsWith("dependent-required")
        ? [dependent, named, sized, extra, patterned]
        : rule.startsWith("pattern-properties")
          ? [patterned, extra, named, sized, dependent]
          : [named, extra, sized, dependent, patterned];
  // the bare object last: it only shows changes to what is required
  return dedupe([...atProperty, ...order.flat(), base]);
}

function requiredCandidates(L: Leaf): Cand[] {
  const out: Cand[] = [];
  if (L.atProperty) out.push(OMIT);
  const eA = L.accSide.objectNode(L.acc);
  const accRequired = new Set(strings(eA.required));
  const names = new Set<string>();
  for (const alt of L.rejAlts) for (const n of strings(alt.required)) if (!accRequired.has(n)) names.add(n);
  for (const v of payloadValues(L)) if (typeof v === "string" && !accRequired.has(v)) names.add(v);
  if (names.size === 0) return out;
  const o = L.embedder.context(L.acc, L.rej, L.mode, names);
  if (o) {
    for (const n of names) delete o[n];
    out.push(o);
  }
  return out;
}

function branchCandidates(L: Leaf): Json[] {
  const out: Json[] = [];
  const payload = L.direction === "input" ? L.change.before : L.change.after;
  if (payload !== undefined && (isJsonObject(payload) || typeof payload === "boolean"))
    out.push(...gen(payload, L.accSide, 4));
  out.push(...samplesOf(L, 4));
  return ranked(L, out);
}

/** Candidate families that do not depend on the embedding mode are computed once per call. */
function memo(L: Leaf, name: string, make: () => Cand[]): Cand[] {
  const key = name === "object" || name === "required" ? `${name}:${L.mode}` : name;
  let list = L.memo.get(key);
  if (!list) {
    list = make();
    L.memo.set(key, list);
  }
  return list;
}

export function* leafCandidates(L: Leaf): Generator<Cand> {
  const rule = L.change.rule;
  const families: [string, () => Cand[]][] = [
    ["required", () => requiredCandidates(L)],
    ["type", () => typeCandidates(L)],
    ["value", () => valueCandidates(L)],
    ["number", () => numberCandidates(L)],
    ["string", () => stringCandidates(L)],
    ["array", () => arrayCandidates(L)],
    ["branch", () => branchCandidates(L)],
    ["object", () => objectCandidates(L)],
    ["overlap", () => overlapCandidates(L)],
  ];
  let first: string | undefined;
  if (rule === "required-added" || rule === "required-added-with-default" || rule === "required-removed")
    first = "required";
  else if (rule === "null-removed" || rule === "null-added") yield null;
  else if (rule === "type-narrowed" || rule === "type-widened") first = "type";
  else if (rule.startsWith("enum-") || rule.startsWith("const-")) first = "value";
  else if (/^(minimum|maximum|multiple-of)-/.test(rule)) first = "number";
  else if (/^(min-length|max-length|pattern|format)-/.test(rule)) first = "string";
  else if (/^(min-items|max-items|unique-items|contains|items-tuple)-/.test(rule)) first = "array";
  else if (/^any-of-branch-/.test(rule)) first = "branch";
  else if (rule.startsWith("oneof-overlap-")) first = "overlap";
  else if (
    /^(additional-properties|closed-object-property|property|min-properties|max-properties|dependent-required|pattern-properties)-/.test(
      rule,
    )
  ) {
    first = "object";
  }
  const family = families.find(([name]) => name === first);
  if (family) yield* memo(L, family[0], family[1]);
  // Whatever the rule, a broad sweep: the validator decides.
  yield* memo(L, "samples", () => samplesOf(L, 4));
  for (const [name, make] of families) if (name !== first) yield* memo(L, name, make);
}
