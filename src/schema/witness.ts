/**
 * Witness generator: for a schema change judged breaking, find one concrete, complete
 * instance of the ROOT schema that shows the break.
 *
 * - input  (contravariant): a value the OLD root accepts and the NEW root rejects;
 * - output (covariant):     a value the NEW root accepts and the OLD root rejects.
 *
 * The side that must accept is called "accepting" here, the other "rejecting". Candidates
 * are built heuristically (a leaf value at the change's path, embedded into a full root
 * instance) and EVERY candidate is checked with ajv against both roots before it is
 * returned, so a returned witness is never wrong; when nothing passes the check the
 * answer is undefined. Pure; no I/O; never throws.
 */
import Ajv from "ajv";
import Ajv2019 from "ajv/dist/2019";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { fullFormats } from "ajv-formats/dist/formats";
import { isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import { forEachSubschema } from "./subschemas.ts";

export type WitnessDirection = "input" | "output";

export interface WitnessChange {
  rule: string;
  path: string;
  before?: Json;
  after?: Json;
}

/** Deepest schema nesting followed while building instances; also the $ref expansion limit. */
const MAX_DEPTH = 32;
/** Root instances checked with ajv per call, at most. */
const MAX_CHECKS = 600;
/** Schema nodes visited by the instance generator per call, at most. */
const GEN_BUDGET = 20_000;
/** Longest string / array a witness may need (bounds beyond this give no witness). */
const MAX_LENGTH = 10_000;

/** Rules that cannot change which values are valid: there is never a witness. */
const NON_VALIDATING = new Set([
  "description-changed",
  "default-changed",
  "deprecated-added",
  "deprecated-removed",
  "read-write-only-changed",
  "annotation-keyword-changed",
  "schema-dialect-changed",
]);

/** Rules whose path names the changed schema node itself rather than node + "/" + keyword. */
const NODE_RULES = new Set([
  "null-removed",
  "null-added",
  "type-narrowed",
  "type-widened",
  "any-of-branch-removed",
  "any-of-branch-added",
  "property-removed",
  "property-added",
  "closed-object-property-removed",
  "closed-object-property-added",
]);

// ── validators ────────────────────────────────────────────────────────────────────────

type Check = (value: Json) => boolean;
type Dialect = "2020" | "2019" | "07";
interface Compiler {
  compile(schema: object): (data: unknown) => boolean | Promise<unknown>;
  removeSchema(schema: object): unknown;
}

// code.optimize off: compiling is what costs here (each root schema is validated a few hundred
// times at most), and skipping ajv's code optimization passes roughly halves compile time.
const AJV_OPTIONS = {
  strict: false,
  allErrors: false,
  validateFormats: true,
  logger: false,
  code: { optimize: false },
} as const;
let validators = new WeakMap<object, Check | null>();

/**
 * Drop the compiled validators. A caller that witnesses many schemas one after another (a
 * large diff) calls this between schemas: compiled code is the bulk of the memory here.
 */
export function releaseValidators(): void {
  validators = new WeakMap();
}
const shared: Partial<Record<Dialect, Compiler>> = {};

function newCompiler(dialect: Dialect): Compiler {
  const ajv =
    dialect === "2020"
      ? new Ajv2020(AJV_OPTIONS)
      : dialect === "2019"
        ? new Ajv2019(AJV_OPTIONS)
        : new Ajv(AJV_OPTIONS);
  addFormats(ajv);
  return ajv as unknown as Compiler;
}

interface SchemaTraits {
  draft07Forms: boolean;
  ids: boolean;
  /** draft-04 boolean exclusiveMinimum/exclusiveMaximum somewhere. */
  booleanBounds: boolean;
}

function traitsOf(root: Json): SchemaTraits {
  const traits: SchemaTraits = { draft07Forms: false, ids: false, booleanBounds: false };
  const seen = new Set<object>();
  let count = 0;
  const visit = (node: Json, depth: number): void => {
    if (!isJsonObject(node) || seen.has(node) || depth > 200 || ++count > 100_000) return;
    seen.add(node);
    if (Array.isArray(node.items) || node.definitions !== undefined || node.additionalItems !== undefined) {
      traits.draft07Forms = true;
    }
    if (depth > 0 && (typeof node.$id === "string" || typeof node.$anchor === "string")) traits.ids = true;
    if (typeof node.$dynamicAnchor === "string" || typeof node.$recursiveAnchor === "boolean") traits.ids = true;
    if (typeof node.exclusiveMinimum === "boolean" || typeof node.exclusiveMaximum === "boolean") {
      traits.booleanBounds = true;
    }
    forEachSubschema(node, (child) => visit(child, depth + 1));
  };
  visit(root, 0);
  return traits;
}

function dialectOf(root: JsonObject, traits: SchemaTraits): Dialect {
  const declared = typeof root.$schema === "string" ? root.$schema : "";
  if (declared.includes("2020-12")) return "2020";
  if (declared.includes("2019-09")) return "2019";
  if (/draft-0[3-7]/.test(declared)) return "07";
  return traits.draft07Forms ? "07" : "2020";
}

/**
 * draft-04 wrote an exclusive bound as a boolean beside minimum/maximum; later drafts (and
 * ajv) take the bound itself. The rewrite is exact: {minimum: 5, exclusiveMinimum: true}
 * means {exclusiveMinimum: 5}.
 */
function upgradeBooleanBounds(node: Json, depth = 0): Json {
  if (!isJsonObject(node) || depth > 200) return node;
  const out: JsonObject = { ...node };
  for (const [bound, exclusive] of [
    ["minimum", "exclusiveMinimum"],
    ["maximum", "exclusiveMaximum"],
  ] as const) {
    if (typeof out[exclusive] !== "boolean") continue;
    if (out[exclusive] === true && typeof out[bound] === "number") {
      out[exclusive] = out[bound];
      delete out[bound];
    } else delete out[exclusive];
  }
  forEachSubschema(node, (child, segments) => {
    const [key, name] = segments as [string, string | undefined];
    const holder = out[key];
    if (name === undefined) out[key] = upgradeBooleanBounds(child, depth + 1);
    else if (Array.isArray(holder)) {
      const copy = [...holder];
      copy[Number(name)] = upgradeBooleanBounds(child, depth + 1);
      out[key] = copy;
    } else if (isJsonObject(holder)) out[key] = { ...holder, [name]: upgradeBooleanBounds(child, depth + 1) };
  });
  return out;
}

/** A cached validator for a root schema; undefined when the schema does not compile. */
function validatorFor(root: Json): Check | undefined {
  if (root === true) return () => true;
  if (root === false) return () => false;
  if (!isJsonObject(root)) return undefined;
  const cached = validators.get(root);
  if (cached !== undefined) return cached ?? undefined;
  let check: Check | null = null;
  const traits = traitsOf(root);
  const dialect = dialectOf(root, traits);
  // $schema is dropped: the class already fixes the dialect, and unknown meta-schema URIs
  // (draft-04, vendor URLs) would otherwise fail to compile.
  const copy: JsonObject = traits.booleanBounds ? (upgradeBooleanBounds(root) as JsonObject) : { ...root };
  delete copy.$schema;
  // Schemas with embedded ids would collide with each other in a shared instance.
  let compiler = traits.ids ? undefined : shared[dialect];
  if (!compiler) {
    compiler = newCompiler(dialect);
    if (!traits.ids) shared[dialect] = compiler;
  }
  try {
    const fn = compiler.compile(copy);
    check = (value) => fn(value) === true;
  } catch {
    check = null;
  } finally {
    try {
      compiler.removeSchema(copy);
    } catch {
      // nothing to clean up
    }
  }
  validators.set(root, check);
  return check ?? undefined;
}

// ── small JSON helpers ─────────────────────────────────────────────────────────────────

const OMIT: unique symbol = Symbol("omit");
/** A leaf candidate: a value, or OMIT ("leave this property out") at a property position. */
type Cand = Json | typeof OMIT;

const PATTERNS = "\u0000patterns"; // private key: extra patterns gathered while merging schemas

function keyOf(value: Cand): string {
  return value === OMIT ? "\u0000omit" : JSON.stringify(value);
}

function deepEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  const ka = Object.keys(a);
  const ao = a as JsonObject;
  const bo = b as JsonObject;
  return ka.length === Object.keys(bo).length && ka.every((k) => Object.hasOwn(bo, k) && deepEqual(ao[k], bo[k]));
}

function dedupe<T extends Cand>(values: T[]): T[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const k = keyOf(v);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function without(node: JsonObject, ...keys: string[]): JsonObject {
  const copy = { ...node };
  for (const k of keys) delete copy[k];
  return copy;
}

const strings = (value: Json | undefined): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
const num = (value: Json | undefined): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;
const codeLength = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

function decodePointer(path: string): string[] | undefined {
  let p = path;
  if (p.startsWith("#")) {
    try {
      p = decodeURIComponent(p.slice(1));
    } catch {
      return undefined;
    }
  }
  if (p === "") return [];
  if (!p.startsWith("/")) return undefined;
  return p
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function resolveRef(root: Json, ref: string): Json | undefined {
  let r = ref;
  const hash = r.indexOf("#");
  if (hash > 0) {
    // "base.json#/$defs/x" where base is the root's own $id
    const id = isJsonObject(root) && typeof root.$id === "string" ? root.$id.replace(/#$/, "") : undefined;
    if (id === undefined || !(r.slice(0, hash) === id || id.endsWith(`/${r.slice(0, hash)}`))) return undefined;
    r = r.slice(hash);
  }
  if (!r.startsWith("#")) return undefined;
  const segments = decodePointer(r);
  if (!segments) return undefined;
  let node: Json | undefined = root;
  for (const segment of segments) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isJsonObject(node)) node = Object.hasOwn(node, segment) ? node[segment] : undefined;
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

function refOf(node: JsonObject): string | undefined {
  for (const key of ["$ref", "$dynamicRef", "$recursiveRef"]) if (typeof node[key] === "string") return node[key];
  return undefined;
}

// ── merging and flattening schemas (heuristic: the validator has the last word) ──────

const TYPE_NAMES = ["null", "boolean", "object", "array", "number", "integer", "string"] as const;
type TypeName = (typeof TYPE_NAMES)[number];

function typeList(value: Json | undefined): TypeName[] | undefined {
  if (value === undefined) return undefined;
  const list = Array.isArray(value) ? value : [value];
  return list.filter((t): t is TypeName => typeof t === "string" && (TYPE_NAMES as readonly string[]).includes(t));
}

function intersectTypes(a: Json, b: Json): Json {
  const left = typeList(a) ?? [];
  const right = new Set(typeList(b) ?? []);
  const out = new Set<string>();
  for (const t of left) {
    if (right.has(t)) out.add(t);
    else if ((t === "number" && right.has("integer")) || (t === "integer" && right.has("number"))) out.add("integer");
  }
  return [...out];
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Intersection of two schemas, approximately (exact for the common keywords). */
function merge(a: Json | undefined, b: Json | undefined): Json {
  if (a === false || b === false) return false;
  const A = isJsonObject(a) ? a : {};
  const B = isJsonObject(b) ? b : {};
  if (Object.keys(B).length === 0) return A;
  if (Object.keys(A).length === 0) return B;
  const r: JsonObject = { ...A };
  for (const [k, v] of Object.entries(B)) {
    const cur = r[k];
    if (cur === undefined) {
      r[k] = v;
      continue;
    }
    if (deepEqual(cur, v)) continue;
    switch (k) {
      case "type":
        r.type = intersectTypes(cur, v);
        break;
      case "properties":
      case "patternProperties":
      case "dependentSchemas":
        if (isJsonObject(cur) && isJsonObject(v)) {
          const map: JsonObject = { ...cur };
          for (const [name, s] of Object.entries(v)) {
            const existing = map[name];
            map[name] = existing === undefined ? s : { allOf: [existing, s] };
          }
          r[k] = map;
        }
        break;
      case "required":
        r.required = [...new Set([...strings(cur), ...strings(v)])];
        break;
      case "minimum":
      case "minLength":
      case "minItems":
      case "minProperties":
      case "minContains":
        if (typeof cur === "number" && typeof v === "number") r[k] = Math.max(cur, v);
        break;
      case "exclusiveMinimum":
        if (typeof cur === "number" && typeof v === "number") r[k] = Math.max(cur, v);
        else if (v === true || cur === true) r[k] = true;
        break;
      case "maximum":
      case "maxLength":
      case "maxItems":
      case "maxProperties":
      case "maxContains":
        if (typeof cur === "number" && typeof v === "number") r[k] = Math.min(cur, v);
        break;
      case "exclusiveMaximum":
        if (typeof cur === "number" && typeof v === "number") r[k] = Math.min(cur, v);
        else if (v === true || cur === true) r[k] = true;
        break;
      case "multipleOf":
        if (typeof cur === "number" && typeof v === "number" && Number.isInteger(cur) && Number.isInteger(v)) {
          r.multipleOf = (cur * v) / gcd(cur, v);
        }
        break;
      case "enum":
        if (Array.isArray(cur) && Array.isArray(v)) r.enum = cur.filter((x) => v.some((y) => deepEqual(x, y)));
        break;
      case "const":
        return false;
      case "uniqueItems":
        r.uniqueItems = cur === true || v === true;
        break;
      case "pattern":
        r[PATTERNS] = [...strings(r[PATTERNS]), ...(typeof v === "string" ? [v] : [])];
        break;
      case PATTERNS:
        r[PATTERNS] = [...strings(cur), ...strings(v)];
        break;
      case "anyOf":
      case "oneOf":
        if (Array.isArray(cur) && Array.isArray(v)) {
          r[k] = cur.flatMap((x) => v.map((y) => ({ allOf: [x, y] }) as Json)).slice(0, 16);
        }
        break;
      case "allOf":
        if (Array.isArray(cur) && Array.isArray(v)) r.allOf = [...cur, ...v];
        break;
      case "not":
        r.not = { anyOf: [cur, v] };
        break;
      case "items":
      case "prefixItems":
        if (Array.isArray(cur) && Array.isArray(v)) {
          r[k] = Array.from({ length: Math.max(cur.length, v.length) }, (_, i) =>
            cur[i] === undefined ? (v[i] as Json) : v[i] === undefined ? cur[i] : merge(cur[i], v[i]),
          );
        } else if (!Array.isArray(cur) && !Array.isArray(v)) r[k] = merge(cur, v);
        break;
      case "additionalProperties":
      case "additionalItems":
      case "contains":
      case "propertyNames":
      case "unevaluatedProperties":
      case "unevaluatedItems":
        r[k] = merge(cur, v);
        break;
      case "$ref":
      case "$dynamicRef":
      case "$recursiveRef":
        r.allOf = [...(Array.isArray(r.allOf) ? r.allOf : []), { [k]: v }];
        break;
      default:
        break; // keep the first (annotations, format, if/then/else, …)
    }
  }
  return r;
}

/**
 * Per-call context for one root schema: its root, memoized flattening and the generator's
 * budget.
 */
class Side {
  readonly flat = new Map<object, Json>();
  budget = GEN_BUDGET;
  constructor(readonly root: Json) {}

  resolve(ref: string): Json | undefined {
    return resolveRef(this.root, ref);
  }

  /** The node with $ref targets and allOf members merged in (not anyOf/oneOf). */
  effective(node: Json | undefined, depth = 0, stack: readonly string[] = []): Json {
    if (node === undefined) return true;
    if (typeof node === "boolean") return node;
    if (!isJsonObject(node)) return true;
    if (depth === 0) {
      const memo = this.flat.get(node);
      if (memo !== undefined) return memo;
    }
    let s: Json = node;
    if (depth <= MAX_DEPTH) {
      const ref = refOf(node);
      if (ref !== undefined) {
        const rest = without(node, "$ref", "$dynamicRef", "$recursiveRef");
        const target = stack.includes(ref) ? undefined : this.resolve(ref);
        s = target === undefined ? rest : merge(this.effective(target, depth + 1, [...stack, ref]), rest);
      }
      if (isJsonObject(s) && Array.isArray(s.allOf)) {
        let acc: Json = without(s, "allOf");
        for (const member of s.allOf) acc = merge(acc, this.effective(member, depth + 1, stack));
        s = acc;
        if (isJsonObject(s) && (refOf(s) !== undefined || Array.isArray(s.allOf)))
          s = this.effective(s, depth + 1, stack);
      }
    }
    if (depth === 0) this.flat.set(node, s);
    return s;
  }

  /** The alternatives a node offers: its anyOf/oneOf branches merged with the rest, flattened. */
  alternatives(node: Json | undefined, depth = 0): JsonObject[] {
    const e = this.effective(node);
    if (e === false) return [];
    if (e === true) return [{}];
    if (!isJsonObject(e)) return [{}];
    for (const key of ["anyOf", "oneOf"]) {
      const branches = e[key];
      if (!Array.isArray(branches) || depth > 4) continue;
      const base = without(e, key);
      return branches.flatMap((b) => this.alternatives(merge(base, b), depth + 1)).slice(0, 24);
    }
    return [e];
  }

  /** The object-shaped alternative of a node (preferring one that declares `prop`). */
  objectNode(node: Json | undefined, prop?: string): JsonObject {
    const alts = this.alternatives(node);
    const declares = (a: JsonObject) =>
      prop !== undefined && isJsonObject(a.properties) && Object.hasOwn(a.properties, prop);
    const objectish = (a: JsonObject) => {
      const types = typeList(a.type);
      return types ? types.includes("object") : a.properties !== undefined || a.required !== undefined;
    };
    return alts.find(declares) ?? alts.find(objectish) ?? alts[0] ?? {};
  }

  /** The array-shaped alternative of a node. */
  arrayNode(node: Json | undefined): JsonObject {
    const alts = this.alternatives(node);
    const arrayish = (a: JsonObject) => {
      const types = typeList(a.type);
      return types ? types.includes("array") : a.items !== undefined || a.prefixItems !== undefined;
    };
    return alts.find(arrayish) ?? alts[0] ?? {};
  }
}

/** The schema a property of an (effective) object node must satisfy. */
function propertySchema(node: JsonObject, name: string): Json {
  if (isJsonObject(node.properties) && Object.hasOwn(node.properties, name)) return node.properties[name] as Json;
  if (isJsonObject(node.patternProperties)) {
    for (const [pattern, schema] of Object.entries(node.patternProperties)) if (matches(pattern, name)) return schema;
  }
  if (node.additionalProperties !== undefined) return node.additionalProperties;
  return true;
}

function declaresOrAllows(node: JsonObject, name: string): boolean {
  if (isJsonObject(node.properties) && Object.hasOwn(node.properties, name)) return true;
  if (isJsonObject(node.patternProperties) && Object.keys(node.patternProperties).some((p) => matches(p, name))) {
    return true;
  }
  return node.additionalProperties !== false;
}

const regexCache = new Map<string, RegExp | null>();
function regex(pattern: string): RegExp | undefined {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern, "u");
    } catch {
      re = null;
    }
    if (regexCache.size > 2000) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re ?? undefined;
}

function matches(pattern: string, s: string): boolean {
  const re = regex(pattern);
  return re ? re.test(s) : false;
}

// ── local, approximate checks (for ordering candidates only) ─────────────────────────

function jsonType(value: Json): TypeName {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as TypeName;
}

function typeAllows(node: JsonObject, value: Json): boolean {
  const types = typeList(node.type);
  const t = jsonType(value);
  if (types) {
    const ok =
      types.includes(t) || (t === "integer" && types.includes("number")) || (t === "null" && node.nullable === true);
    if (!ok) return false;
  }
  return true;
}

interface Bound {
  value: number;
  exclusive: boolean;
}

function lowerBound(node: JsonObject): Bound | undefined {
  const min = num(node.minimum);
  const ex = num(node.exclusiveMinimum);
  if (node.exclusiveMinimum === true && min !== undefined) return { value: min, exclusive: true };
  if (ex !== undefined && (min === undefined || ex >= min)) return { value: ex, exclusive: true };
  return min === undefined ? undefined : { value: min, exclusive: false };
}

function upperBound(node: JsonObject): Bound | undefined {
  const max = num(node.maximum);
  const ex = num(node.exclusiveMaximum);
  if (node.exclusiveMaximum === true && max !== undefined) return { value: max, exclusive: true };
  if (ex !== undefined && (max === undefined || ex <= max)) return { value: ex, exclusive: true };
  return max === undefined ? undefined : { value: max, exclusive: false };
}

function numberOk(node: JsonObject, x: number): boolean {
  const lo = lowerBound(node);
  const hi = upperBound(node);
  if (lo && (lo.exclusive ? x <= lo.value : x < lo.value)) return false;
  if (hi && (hi.exclusive ? x >= hi.value : x > hi.value)) return false;
  const m = num(node.multipleOf);
  if (m !== undefined && m > 0 && !Number.isInteger(x / m)) return false;
  return true;
}

type FormatCheck = (s: string) => boolean;
const formatChecks = new Map<string, FormatCheck | null>();
function formatCheck(format: string): FormatCheck | undefined {
  let check = formatChecks.get(format);
  if (check === undefined) {
    check = null;
    const def = (fullFormats as Record<string, unknown>)[format];
    const run = (v: unknown): FormatCheck | null => {
      if (v instanceof RegExp) return (s) => v.test(s);
      if (typeof v === "function") return (s) => (v as (s: string) => boolean)(s) === true;
      return null;
    };
    if (def instanceof RegExp || typeof def === "function") check = run(def);
    else if (def && typeof def === "object") {
      const d = def as { type?: string; validate?: unknown };
      if (d.type === undefined || d.type === "string") check = run(d.validate);
    }
    formatChecks.set(format, check);
  }
  return check ?? undefined;
}

function stringOk(node: JsonObject, s: string): boolean {
  const len = codeLength(s);
  const min = num(node.minLength);
  const max = num(node.maxLength);
  if (min !== undefined && len < min) return false;
  if (max !== undefined && len > max) return false;
  for (const p of [...(typeof node.pattern === "string" ? [node.pattern] : []), ...strings(node[PATTERNS])]) {
    if (!matches(p, s)) return false;
  }
  if (typeof node.format === "string") {
    const check = formatCheck(node.format);
    if (check && !safe(() => check(s))) return false;
  }
  return true;
}

function safe(f: () => boolean): boolean {
  try {
    return f();
  } catch {
    return false;
  }
}

/** Approximate validity of a value against one flattened alternative, not looking into children. */
function locallyOk(node: JsonObject, value: Json): boolean {
  if (!typeAllows(node, value)) return false;
  if (node.const !== undefined && !deepEqual(node.const, value)) return false;
  if (Array.isArray(node.enum) && !node.enum.some((v) => deepEqual(v, value))) return false;
  if (typeof value === "number") return numberOk(node, value);
  if (typeof value === "string") return stringOk(node, value);
  if (Array.isArray(value)) {
    const min = num(node.minItems);
    const max = num(node.maxItems);
    if (min !== undefined && value.length < min) return false;
    if (max !== undefined && value.length > max) return false;
    if (node.uniqueItems === true && value.some((v, i) => value.findIndex((w) => deepEqual(v, w)) !== i)) return false;
    return true;
  }
  if (isJsonObject(value)) {
    const keys = Object.keys(value);
    if (strings(node.required).some((r) => !Object.hasOwn(value, r))) return false;
    if (keys.some((k) => !declaresOrAllows(node, k))) return false;
    const min = num(node.minProperties);
    const max = num(node.maxProperties);
    if (min !== undefined && keys.length < min) return false;
    if (max !== undefined && keys.length > max) return false;
    const dep = isJsonObject(node.dependentRequired) ? node.dependentRequired : {};
    for (const [k, deps] of Object.entries(dep)) {
      if (Object.hasOwn(value, k) && strings(deps).some((d) => !Object.hasOwn(value, d))) return false;
    }
  }
  return true;
}

const okAny = (alts: readonly JsonObject[], value: Json): boolean => alts.some((a) => locallyOk(a, value));

// ── regular expression samples ─────────────────────────────────────────────────────────

type RNode =
  | { t: "alt"; alts: RItem[][] }
  | { t: "char"; c: string }
  | { t: "class"; ranges: [number, number][]; neg: boolean }
  | { t: "empty" };
interface RItem {
  node: RNode;
  min: number;
  max: number;
}

const DIGIT: [number, number][] = [[48, 57]];
const WORD: [number, number][] = [
  [97, 122],
  [65, 90],
  [48, 57],
  [95, 95],
];
const SPACE: [number, number][] = [
  [32, 32],
  [9, 13],
];

class Unsupported extends Error {}

function parseRegex(p: string): RNode {
  let i = 0;
  const peek = () => p[i];
  const parseAlt = (): RNode => {
    const alts: RItem[][] = [parseSeq()];
    while (peek() === "|") {
      i++;
      alts.push(parseSeq());
    }
    return { t: "alt", alts };
  };
  const parseEscape = (inClass: boolean): RNode => {
    const c = p[i++];
    if (c === undefined) throw new Unsupported();
    switch (c) {
      case "d":
        return { t: "class", ranges: DIGIT, neg: false };
      case "D":
        return { t: "class", ranges: DIGIT, neg: true };
      case "w":
        return { t: "class", ranges: WORD, neg: false };
      case "W":
        return { t: "class", ranges: WORD, neg: true };
      case "s":
        return { t: "class", ranges: SPACE, neg: false };
      case "S":
        return { t: "class", ranges: SPACE, neg: true };
      case "b":
        if (inClass) return { t: "char", c: "\b" };
        return { t: "empty" };
      case "B":
        return { t: "empty" };
      case "n":
        return { t: "char", c: "\n" };
      case "t":
        return { t: "char", c: "\t" };
      case "r":
        return { t: "char", c: "\r" };
      case "f":
        return { t: "char", c: "\f" };
      case "v":
        return { t: "char", c: "\v" };
      case "0":
        return { t: "char", c: "\0" };
      case "x": {
        const hex = p.slice(i, i + 2);
        i += 2;
        return { t: "char", c: String.fromCodePoint(Number.parseInt(hex, 16)) };
      }
      case "u": {
        if (p[i] === "{") {
          const end = p.indexOf("}", i);
          const code = Number.parseInt(p.slice(i + 1, end), 16);
          i = end + 1;
          return { t: "char", c: String.fromCodePoint(code) };
        }
        const hex = p.slice(i, i + 4);
        i += 4;
        return { t: "char", c: String.fromCharCode(Number.parseInt(hex, 16)) };
      }
      case "p":
      case "P":
      case "k":
      case "c":
        throw new Unsupported();
      default:
        if (/[1-9]/.test(c)) throw new Unsupported(); // back-reference
        return { t: "char", c };
    }
  };
  const parseClass = (): RNode => {
    const neg = peek() === "^";
    if (neg) i++;
    const ranges: [number, number][] = [];
    while (i < p.length && peek() !== "]") {
      let lo: number;
      if (peek() === "\\") {
        i++;
        const e = parseEscape(true);
        if (e.t === "class") {
          if (e.neg) throw new Unsupported();
          ranges.push(...e.ranges);
          continue;
        }
        if (e.t !== "char") continue;
        lo = e.c.codePointAt(0) ?? 0;
      } else {
        lo = p.codePointAt(i) ?? 0;
        i += lo > 0xffff ? 2 : 1;
      }
      if (peek() === "-" && p[i + 1] !== "]" && p[i + 1] !== undefined) {
        i++;
        let hi: number;
        if (peek() === "\\") {
          i++;
          const e = parseEscape(true);
          if (e.t !== "char") throw new Unsupported();
          hi = e.c.codePointAt(0) ?? 0;
        } else {
          hi = p.codePointAt(i) ?? 0;
          i += hi > 0xffff ? 2 : 1;
        }
        ranges.push([lo, hi]);
      } else ranges.push([lo, lo]);
    }
    if (peek() !== "]") throw new Unsupported();
    i++;
    return { t: "class", ranges, neg };
  };
  const parseAtom = (): RNode => {
    const c = p[i];
    if (c === undefined) throw new Unsupported();
    i++;
    switch (c) {
      case "^":
      case "$":
        return { t: "empty" };
      case ".":
        return { t: "class", ranges: [[10, 10]], neg: true };
      case "(": {
        let lookaround = false;
        if (p.startsWith("?:", i)) i += 2;
        else if (p.startsWith("?=", i) || p.startsWith("?!", i)) {
          i += 2;
          lookaround = true;
        } else if (p.startsWith("?<=", i) || p.startsWith("?<!", i)) {
          i += 3;
          lookaround = true;
        } else if (p.startsWith("?<", i)) {
          const end = p.indexOf(">", i);
          if (end === -1) throw new Unsupported();
          i = end + 1;
        } else if (p[i] === "?") throw new Unsupported();
        const inner = parseAlt();
        if (peek() !== ")") throw new Unsupported();
        i++;
        return lookaround ? { t: "empty" } : inner;
      }
      case "[":
        return parseClass();
      case "\\":
        return parseEscape(false);
      default: {
        const code = p.codePointAt(i - 1) ?? 0;
        if (code > 0xffff) i++;
        return { t: "char", c: String.fromCodePoint(code) };
      }
    }
  };
  const parseQuant = (): { min: number; max: number } => {
    const c = peek();
    let q = { min: 1, max: 1 };
    if (c === "*") q = { min: 0, max: Number.POSITIVE_INFINITY };
    else if (c === "+") q = { min: 1, max: Number.POSITIVE_INFINITY };
    else if (c === "?") q = { min: 0, max: 1 };
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i));
      if (!m) return q;
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] === "" ? Number.POSITIVE_INFINITY : Number(m[3]);
      i += m[0].length;
      if (peek() === "?") i++;
      return { min, max };
    } else return q;
    i++;
    if (peek() === "?") i++;
    return q;
  };
  const parseSeq = (): RItem[] => {
    const items: RItem[] = [];
    while (i < p.length && peek() !== "|" && peek() !== ")") {
      const node = parseAtom();
      const q = parseQuant();
      items.push({ node, ...q });
    }
    return items;
  };
  const tree = parseAlt();
  if (i !== p.length) throw new Unsupported();
  return tree;
}

const PREFERRED_CHARS = ["a", "b", "x", "0", "1", "A", "B", "_", "-", " ", ".", "é"];

function classChar(ranges: [number, number][], neg: boolean, variant: number): string {
  const inClass = (code: number) => ranges.some(([lo, hi]) => code >= lo && code <= hi);
  const preferred = PREFERRED_CHARS.filter((ch) => inClass(ch.codePointAt(0) ?? 0) !== neg);
  if (preferred.length) return preferred[variant % preferred.length] as string;
  if (!neg) {
    const first = ranges[0];
    return first ? String.fromCodePoint(first[0]) : "";
  }
  for (let code = 33; code < 0x3000; code++) if (!inClass(code)) return String.fromCodePoint(code);
  return "";
}

function generate(node: RNode, variant: number, budget: { n: number }): string {
  if (--budget.n < 0) throw new Unsupported();
  switch (node.t) {
    case "empty":
      return "";
    case "char":
      return node.c;
    case "class":
      return classChar(node.ranges, node.neg, variant);
    case "alt": {
      const alts = node.alts;
      const pick = alts[variant === 0 ? 0 : variant === 1 ? Math.min(1, alts.length - 1) : alts.length - 1] ?? [];
      let out = "";
      for (const item of pick) {
        const count =
          variant === 0 ? item.min : Math.min(item.max, item.min + (variant === 1 ? 1 : 2 + (variant > 2 ? 3 : 0)));
        if (count > MAX_LENGTH) throw new Unsupported();
        for (let k = 0; k < count; k++) out += generate(item.node, variant, budget);
      }
      return out;
    }
  }
}

const regexSampleCache = new Map<string, string[]>();

/** A few strings that match the pattern (verified), or [] when the pattern is beyond the sampler. */
function regexSamples(pattern: string): string[] {
  const cached = regexSampleCache.get(pattern);
  if (cached) return cached;
  let out: string[] = [];
  if (regex(pattern) && pattern.length <= 2000) {
    try {
      const tree = parseRegex(pattern);
      for (const variant of [0, 1, 2, 3]) {
        try {
          out.push(generate(tree, variant, { n: 50_000 }));
        } catch {
          // too long or unsupported: skip this variant
        }
      }
    } catch {
      out = [];
    }
  }
  out = [...new Set(out)].filter((s) => matches(pattern, s));
  if (regexSampleCache.size > 2000) regexSampleCache.clear();
  regexSampleCache.set(pattern, out);
  return out;
}

// ── minimal instances ──────────────────────────────────────────────────────────────────

const FORMAT_SAMPLES: Record<string, string[]> = {
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
const ALPHABET = ["a", "0", "A", "x", "-", "_", " ", "é"];

/** Inferred JSON types for a node without `type`, from the keywords it uses. */
function inferTypes(s: JsonObject): TypeName[] | undefined {
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

function declaredTypes(s: JsonObject): TypeName[] | undefined {
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
function resize(s: string, n: number, fill?: string): string {
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
function distinctFill(samples: Json[], count: number): Json[] {
  const out = dedupe(samples);
  const first = out[0];
  for (let i = 1; out.length < count && i < count * 4; i++) {
    let next: Json | undefined;
    if (typeof first === "string") next = `${first}${i}`;
    else if (typeof first === "number") next = first + i;
    else if (typeof first === "boolean") next = i === 1 ? !first : undefined;
    else if (isJsonObject(first)) next = { ...first, [`k${i}`]: `${i}` };
    else if (Array.isArray(first)) next = first.length ? [...first, ...Array<Json>(i).fill(first[0] as Json)] : [i];
    if (next === undefined) break;
    if (!out.some((v) => deepEqual(v, next))) out.push(next);
  }
  return out;
}

/** Up to n plausible instances of a schema, simplest first (not verified). */
function gen(schema: Json | undefined, side: Side, n: number, depth = 0, stack: readonly string[] = []): Json[] {
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
    const fits = s.enum.filter((v) => typeAllows(s, v));
    return [...fits, ...s.enum.filter((v) => !fits.includes(v))].slice(0, n);
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

function arrayShape(s: JsonObject): ArrayShape {
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
  const restSamples = minItems > prefix.length ? gen(rest, side, unique ? minItems + 2 : 1, depth + 1, stack) : [];
  const pool = unique ? distinctFill(restSamples, minItems) : restSamples;
  for (let i = 0; i < minItems; i++) {
    if (i < prefix.length) {
      const v = gen(prefix[i], side, 1, depth + 1, stack)[0];
      if (v === undefined) return undefined;
      arr.push(v);
    } else {
      const v = unique ? pool.find((p) => !arr.some((a) => deepEqual(a, p))) : pool[0];
      if (v === undefined) return undefined;
      arr.push(v);
    }
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
function objectInstance(
  s: JsonObject,
  side: Side,
  depth: number,
  stack: readonly string[],
  omit: ReadonlySet<string>,
  extraRequired: readonly { name: string; schema: Json; side: Side }[] = [],
  preferOther = false,
): JsonObject | undefined {
  const o: JsonObject = {};
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

// ── walking the change's path ──────────────────────────────────────────────────────────

type Step =
  | { k: "prop"; name: string }
  | { k: "pattern"; pattern: string }
  | { k: "additional"; keyword: string }
  | { k: "items" }
  | { k: "index"; index: number }
  | { k: "branch"; keyword: string; index: number }
  | { k: "contains" }
  | { k: "names" }
  | { k: "dependent"; name: string }
  | { k: "same" };

interface Frame {
  step: Step;
  acc: Json;
  rej: Json | undefined;
}

interface Walk {
  frames: Frame[];
  acc: Json;
  rej: Json | undefined;
  tail: string[];
}

const isIndex = (s: string | undefined): s is string => s !== undefined && /^\d+$/.test(s);

function parseStep(segs: string[], i: number): { step: Step; used: number } | undefined {
  const seg = segs[i] as string;
  const next = segs[i + 1];
  switch (seg) {
    case "properties":
      return next === undefined ? undefined : { step: { k: "prop", name: next }, used: 2 };
    case "patternProperties":
      return next === undefined ? undefined : { step: { k: "pattern", pattern: next }, used: 2 };
    case "dependentSchemas":
    case "dependencies":
      return next === undefined ? undefined : { step: { k: "dependent", name: next }, used: 2 };
    case "additionalProperties":
    case "unevaluatedProperties":
      return { step: { k: "additional", keyword: seg }, used: 1 };
    case "items":
      return isIndex(next) ? { step: { k: "index", index: Number(next) }, used: 2 } : { step: { k: "items" }, used: 1 };
    case "additionalItems":
    case "unevaluatedItems":
      return { step: { k: "items" }, used: 1 };
    case "prefixItems":
      return isIndex(next) ? { step: { k: "index", index: Number(next) }, used: 2 } : undefined;
    case "anyOf":
    case "oneOf":
    case "allOf":
      return isIndex(next) ? { step: { k: "branch", keyword: seg, index: Number(next) }, used: 2 } : undefined;
    case "contains":
      return { step: { k: "contains" }, used: 1 };
    case "propertyNames":
      return { step: { k: "names" }, used: 1 };
    case "not":
    case "if":
    case "then":
    case "else":
      return { step: { k: "same" }, used: 1 };
    default:
      return undefined;
  }
}

/** Look a keyword up on the node itself, then on its flattened form. */
function keywordOf(node: Json | undefined, key: string, side: Side): Json | undefined {
  if (isJsonObject(node) && node[key] !== undefined) return node[key];
  const e = side.effective(node);
  return isJsonObject(e) ? e[key] : undefined;
}

function childOf(node: Json | undefined, step: Step, side: Side): Json | undefined {
  if (node === undefined) return undefined;
  switch (step.k) {
    case "prop": {
      const e = side.objectNode(node, step.name);
      return propertySchema(e, step.name);
    }
    case "pattern": {
      const pp = keywordOf(node, "patternProperties", side);
      return isJsonObject(pp) ? pp[step.pattern] : undefined;
    }
    case "additional":
      return keywordOf(node, step.keyword, side) ?? true;
    case "items": {
      const shape = arrayShape(side.arrayNode(node));
      return shape.rest ?? true;
    }
    case "index": {
      const shape = arrayShape(side.arrayNode(node));
      return shape.prefix[step.index] ?? shape.rest ?? true;
    }
    case "branch": {
      // A side without the union is the plain schema the engine compared with that branch.
      const list = keywordOf(node, step.keyword, side);
      return Array.isArray(list) ? list[step.index] : node;
    }
    case "contains":
      return keywordOf(node, "contains", side);
    case "names":
      return keywordOf(node, "propertyNames", side) ?? true;
    case "dependent": {
      const ds = keywordOf(node, "dependentSchemas", side) ?? keywordOf(node, "dependencies", side);
      const v = isJsonObject(ds) ? ds[step.name] : undefined;
      return Array.isArray(v) ? undefined : v;
    }
    case "same":
      return undefined; // resolved by the caller with the keyword name
  }
}

/** Replace a leading "/$defs/X" (which says nothing about where X is used) by a path that reaches X via $ref. */
function rewriteDefinitionPath(root: Json, segs: string[]): string[] {
  let defEnd = -1;
  for (let i = 0; i + 1 < segs.length; i++) {
    if (segs[i] === "$defs" || segs[i] === "definitions") defEnd = i + 2;
    else if (defEnd !== -1) break;
  }
  if (defEnd === -1 || (segs[0] !== "$defs" && segs[0] !== "definitions")) return segs;
  const target = `#/${segs
    .slice(0, defEnd)
    .map((s) => s.replace(/~/g, "~0").replace(/\//g, "~1"))
    .join("/")}`;
  const found = findRefUsage(root, target);
  return found ? [...found, "$ref", ...segs.slice(defEnd)] : segs;
}

/** Breadth-first: the shortest path from the root (through properties, items, …, $ref) to a node whose $ref is `target`. */
function findRefUsage(root: Json, target: string): string[] | undefined {
  const queue: { node: Json; path: string[] }[] = [{ node: root, path: [] }];
  const seen = new Set<object>();
  for (let head = 0; head < queue.length && head < 50_000; head++) {
    const { node, path } = queue[head] as { node: Json; path: string[] };
    if (!isJsonObject(node) || seen.has(node)) continue;
    seen.add(node);
    const ref = refOf(node);
    if (ref === target) return path;
    if (ref !== undefined) {
      const next = resolveRef(root, ref);
      if (next !== undefined) queue.push({ node: next, path: [...path, "$ref"] });
    }
    forEachSubschema(node, (child, segments) => queue.push({ node: child, path: [...path, ...segments] }), {
      defs: false,
    });
  }
  return undefined;
}

/** The branch in `list` (of the other side) that is the same as `branch`, or the most similar one. */
function closestBranch(branch: Json, list: Json[], side: Side, otherSide: Side): Json | undefined {
  const text = JSON.stringify(branch);
  const same = list.find((b) => JSON.stringify(b) === text);
  if (same !== undefined) return same;
  const shape = (node: Json, s: Side) => {
    const alts = s.alternatives(node);
    return { types: typesOf(alts), keys: new Set(alts.flatMap((a) => Object.keys(a))) };
  };
  const mine = shape(branch, side);
  let best: Json | undefined;
  let bestScore = 0;
  for (const candidate of list) {
    const theirs = shape(candidate, otherSide);
    if (![...mine.types].some((t) => theirs.types.has(t))) continue;
    const shared = [...mine.keys].filter((k) => theirs.keys.has(k)).length;
    const score = 1 + shared / Math.max(1, new Set([...mine.keys, ...theirs.keys]).size);
    if (score > bestScore) {
      bestScore = score;
      best = candidate;
    }
  }
  return best;
}

function walk(acc: Side, rej: Side, segs: string[], rule: string): Walk {
  // Split the path into steps first: keyword-suffixed rules name the changed keyword last,
  // and when that keyword holds a subschema (contains, not, additionalProperties, …) it
  // belongs to the node rather than being a step into it.
  const units: { at: number; used: number; step?: Step }[] = [];
  let stop = segs.length;
  for (let i = 0; i < segs.length; ) {
    if (segs[i] === "$ref") {
      units.push({ at: i, used: 1 });
      i++;
      continue;
    }
    const parsed = parseStep(segs, i);
    if (!parsed) {
      stop = i;
      break;
    }
    units.push({ at: i, used: parsed.used, step: parsed.step });
    i += parsed.used;
  }
  const lastUnit = units[units.length - 1];
  if (!NODE_RULES.has(rule) && stop === segs.length && lastUnit?.step && lastUnit.used === 1) {
    units.pop();
    stop = lastUnit.at;
  }
  let a: Json | undefined = acc.root;
  let r: Json | undefined = rej.root;
  const frames: Frame[] = [];
  for (const unit of units) {
    const seg = segs[unit.at] as string;
    const step = unit.step;
    if (!step) {
      a = acc.effective(a);
      r = r === undefined ? undefined : rej.effective(r);
      continue;
    }
    frames.push({ step, acc: a ?? true, rej: r });
    if (step.k === "same") {
      a = keywordOf(a, seg, acc);
      r = r === undefined ? undefined : keywordOf(r, seg, rej);
    } else if (step.k === "branch" && step.keyword !== "allOf") {
      // Branch indexes need not agree between the sides (the engine pairs branches by
      // structure): on the rejecting side take the branch most like the accepting one.
      const list = r === undefined ? undefined : keywordOf(r, step.keyword, rej);
      a = childOf(a, step, acc);
      r = Array.isArray(list) && a !== undefined ? closestBranch(a, list, acc, rej) : childOf(r, step, rej);
    } else {
      a = childOf(a, step, acc);
      r = childOf(r, step, rej);
    }
    if (a === undefined) a = true;
  }
  return { frames, acc: a ?? true, rej: r, tail: segs.slice(stop) };
}

// ── embedding a leaf value into a full root instance ───────────────────────────────────

type Mode = "H" | "R" | "P";
const MODES: Mode[] = ["H", "R", "P"];

class Embedder {
  private contexts = new Map<string, JsonObject | null>();
  private arrays = new Map<number, { prefix: Json[]; pad: Json[]; min: number }>();
  constructor(
    private readonly frames: Frame[],
    private readonly acc: Side,
    private readonly rej: Side,
  ) {}

  /**
   * The object around a property: the accepting node's required properties (mode P), plus
   * those the rejecting node requires where allowed (H: accepting values first; R: rejecting
   * values first), so that the witness breaks only through the change at hand.
   */
  context(
    node: Json,
    rejNode: Json | undefined,
    mode: Mode,
    omit: ReadonlySet<string>,
    prop?: string,
  ): JsonObject | undefined {
    const eA = this.acc.objectNode(node, prop);
    const extra: { name: string; schema: Json; side: Side }[] = [];
    if (mode !== "P" && rejNode !== undefined) {
      const eR = this.rej.objectNode(rejNode, prop);
      for (const name of strings(eR.required)) extra.push({ name, schema: propertySchema(eR, name), side: this.rej });
      if (mode === "R") {
        for (const name of strings(eA.required)) {
          if (
            !extra.some((e) => e.name === name) &&
            isJsonObject(eR.properties) &&
            Object.hasOwn(eR.properties, name)
          ) {
            extra.push({ name, schema: propertySchema(eR, name), side: this.rej });
          }
        }
      }
    }
    return objectInstance(eA, this.acc, 1, [], omit, extra, mode === "R");
  }

  private frameContext(i: number, mode: Mode, omitKey: string | undefined): JsonObject {
    const key = `${i}\u0000${mode}\u0000${omitKey ?? ""}`;
    let ctx = this.contexts.get(key);
    if (ctx === undefined) {
      const f = this.frames[i] as Frame;
      const prop = f.step.k === "prop" ? f.step.name : undefined;
      ctx = this.context(f.acc, f.rej, mode, new Set(omitKey === undefined ? [] : [omitKey]), prop) ?? null;
      this.contexts.set(key, ctx);
    }
    return ctx ?? {};
  }

  private arrayContext(i: number): { prefix: Json[]; pad: Json[]; min: number } {
    let ctx = this.arrays.get(i);
    if (!ctx) {
      const f = this.frames[i] as Frame;
      const node = this.acc.arrayNode(f.acc);
      const { prefix, rest } = arrayShape(node);
      ctx = {
        prefix: prefix.map((p) => gen(p, this.acc, 1)[0] ?? null),
        pad: gen(rest, this.acc, 3),
        min: Math.min(MAX_LENGTH, Math.max(0, num(node.minItems) ?? 0)),
      };
      this.arrays.set(i, ctx);
    }
    return ctx;
  }

  /**
   * The root instance around a leaf value placed after the first `depth` frames (default:
   * all); with `stop`, only the frames from `stop` on are wrapped (a partial instance).
   */
  embed(leaf: Cand, mode: Mode, depth = this.frames.length, stop = 0): Json | undefined {
    let v: Cand = leaf;
    for (let i = depth - 1; i >= stop; i--) {
      const f = this.frames[i] as Frame;
      const step = f.step;
      if (v === OMIT && step.k !== "prop") return undefined;
      switch (step.k) {
        case "prop": {
          const out: JsonObject = { ...this.frameContext(i, mode, step.name) };
          if (v !== OMIT) out[step.name] = v;
          v = out;
          break;
        }
        case "pattern":
        case "additional": {
          const key =
            step.k === "pattern"
              ? (regexSamples(step.pattern).find((s) => !declared(this.acc.objectNode(f.acc), s)) ??
                regexSamples(step.pattern)[0])
              : extraKey([this.acc.objectNode(f.acc), ...(f.rej === undefined ? [] : [this.rej.objectNode(f.rej)])]);
          if (key === undefined) return undefined;
          v = { ...this.frameContext(i, mode, key), [key]: v as Json };
          break;
        }
        case "items":
        case "index":
        case "contains": {
          const ctx = this.arrayContext(i);
          const at = step.k === "index" ? step.index : ctx.prefix.length;
          const arr: Json[] = [];
          for (let j = 0; j < at; j++) arr.push(ctx.prefix[j] ?? ctx.pad[0] ?? null);
          arr.push(v as Json);
          for (let j = arr.length; j < ctx.min; j++) {
            arr.push(ctx.prefix[j] ?? ctx.pad.find((p) => !arr.some((a) => deepEqual(a, p))) ?? (v as Json));
          }
          v = arr;
          break;
        }
        case "branch": {
          if (isJsonObject(v)) {
            const node = isJsonObject(f.acc) ? without(f.acc, step.keyword) : {};
            const hasObjectSiblings =
              step.keyword === "allOf" || node.properties !== undefined || node.required !== undefined;
            if (hasObjectSiblings) {
              const base =
                step.keyword === "allOf"
                  ? (objectInstance(this.acc.objectNode(f.acc), this.acc, 1, [], new Set()) ?? {})
                  : (objectInstance(this.acc.objectNode(node), this.acc, 1, [], new Set()) ?? {});
              v = { ...base, ...v };
            }
          }
          break;
        }
        case "names": {
          if (typeof v !== "string") return undefined;
          const e = this.acc.objectNode(f.acc);
          const value = gen(propertySchema(e, v), this.acc, 1)[0] ?? null;
          v = { ...this.frameContext(i, mode, v), [v]: value };
          break;
        }
        case "dependent": {
          if (!isJsonObject(v)) break;
          if (!Object.hasOwn(v, step.name)) {
            const e = this.acc.objectNode(f.acc);
            v = { ...v, [step.name]: gen(propertySchema(e, step.name), this.acc, 1)[0] ?? null };
          }
          v = { ...this.frameContext(i, mode, undefined), ...v };
          break;
        }
        case "same":
          break;
      }
    }
    return v === OMIT ? undefined : v;
  }
}

function declared(node: JsonObject, name: string): boolean {
  return isJsonObject(node.properties) && Object.hasOwn(node.properties, name);
}

/** A property name no node declares and no patternProperties matches. */
function extraKey(nodes: JsonObject[]): string {
  const taken = (name: string) =>
    nodes.some(
      (n) =>
        declared(n, name) ||
        (isJsonObject(n.patternProperties) && Object.keys(n.patternProperties).some((p) => matches(p, name))),
    );
  for (const name of ["extra", "extra_property", "x_extra", "zz_extra", "_extra", "extra1", "EXTRA"]) {
    if (!taken(name)) return name;
  }
  for (let i = 2; i < 1000; i++) if (!taken(`extra${i}`)) return `extra${i}`;
  return "extra";
}

// ── leaf candidates ────────────────────────────────────────────────────────────────────

interface Leaf {
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
    if (Array.isArray(p)) out.push(...p);
    else out.push(p);
  }
  return out;
}

function valuesOf(alts: JsonObject[]): Json[] | undefined {
  const out: Json[] = [];
  for (const a of alts) {
    if (a.const !== undefined) out.push(a.const);
    else if (Array.isArray(a.enum)) out.push(...a.enum);
    else return undefined;
  }
  return out;
}

function typesOf(alts: JsonObject[]): Set<TypeName> {
  const out = new Set<TypeName>();
  for (const a of alts) {
    const declaredList = declaredTypes(a);
    if (declaredList) for (const t of declaredList) out.add(t);
    else if (a.const !== undefined) out.add(jsonType(a.const));
    else if (Array.isArray(a.enum)) for (const v of a.enum) out.add(jsonType(v));
    else for (const t of TYPE_NAMES) out.add(t);
  }
  if (out.has("number")) out.add("integer");
  return out;
}

function samplesOf(L: Leaf, n: number): Json[] {
  const out = gen(L.acc, L.accSide, n);
  for (const alt of L.accAlts.slice(0, 8)) out.push(...gen(alt, L.accSide, 2));
  return out;
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
  const notInRej = (v: Json) => !rejValues?.some((w) => deepEqual(v, w));
  const out: Json[] = [];
  if (accValues) out.push(...accValues.filter(notInRej));
  out.push(...payloadValues(L).filter(notInRej));
  const pool: Json[] = [
    ...samplesOf(L, 4),
    ...stringCandidates(L, false),
    ...numberCandidates(L),
    ...TYPE_PROBES,
    ...(rejValues ?? []).flatMap((v): Json[] =>
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
      ...(Array.isArray(a.enum) ? a.enum : []),
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
  const all: JsonObject = { ...base };
  for (const name of accProps) if (!Object.hasOwn(all, name)) all[name] = valuesFor(name)[0] ?? null;
  sized.push(all);
  const maxR = Math.max(...L.rejAlts.map((a) => num(a.maxProperties) ?? -1));
  if (maxR >= 0 && maxR < MAX_LENGTH) {
    const big: JsonObject = { ...all };
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

function* leafCandidates(L: Leaf): Generator<Cand> {
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
  ];
  let first: string | undefined;
  if (rule === "required-added" || rule === "required-removed") first = "required";
  else if (rule === "null-removed" || rule === "null-added") yield null;
  else if (rule === "type-narrowed" || rule === "type-widened") first = "type";
  else if (rule.startsWith("enum-") || rule.startsWith("const-")) first = "value";
  else if (/^(minimum|maximum|multiple-of)-/.test(rule)) first = "number";
  else if (/^(min-length|max-length|pattern|format)-/.test(rule)) first = "string";
  else if (/^(min-items|max-items|unique-items|contains|items-tuple)-/.test(rule)) first = "array";
  else if (/^any-of-branch-/.test(rule)) first = "branch";
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

// ── the entry point ────────────────────────────────────────────────────────────────────

/**
 * A complete instance of the root schema that shows the change is breaking in `direction`
 * (input: old accepts, new rejects; output: new accepts, old rejects), or undefined when
 * none is found or a schema does not compile. Every returned value has been validated
 * against both roots with ajv.
 */
export function findWitness(
  oldRoot: Json,
  newRoot: Json,
  change: WitnessChange,
  direction: WitnessDirection,
): Json | undefined {
  try {
    if (NON_VALIDATING.has(change.rule)) return undefined;
    const accRoot = direction === "input" ? oldRoot : newRoot;
    const rejRoot = direction === "input" ? newRoot : oldRoot;
    const acceptingValid = validatorFor(accRoot);
    const rejectingValid = validatorFor(rejRoot);
    if (!acceptingValid || !rejectingValid) return undefined;
    const decoded = decodePointer(change.path);
    if (!decoded) return undefined;
    const accSide = new Side(accRoot);
    const rejSide = new Side(rejRoot);
    const segs = rewriteDefinitionPath(accRoot, decoded);
    const w = walk(accSide, rejSide, segs, change.rule);
    const embedder = new Embedder(w.frames, accSide, rejSide);
    const last = w.frames[w.frames.length - 1];
    const L: Leaf = {
      change,
      direction,
      acc: w.acc,
      rej: w.rej,
      accAlts: accSide.alternatives(w.acc),
      rejAlts: w.rej === undefined ? [{}] : rejSide.alternatives(w.rej),
      atProperty: last?.step.k === "prop" && w.tail.length === 0,
      accSide,
      rejSide,
      embedder,
      mode: "H",
      memo: new Map(),
    };

    // Attribution. A candidate is "clean" when the same instance with the leaf replaced by a
    // value the rejecting side accepts there (a control) IS accepted by the rejecting root:
    // then the break is at the change's path, not somewhere else in the schema. Without any
    // control to build (the rejecting leaf accepts nothing) a candidate counts as clean.
    // Controls sit at the deepest node the path reaches on the rejecting side (a branch or a
    // position it does not have leaves the path early).
    let controlDepth = w.frames.length;
    while (controlDepth > 0 && (controlDepth === w.frames.length ? w.rej : w.frames[controlDepth]?.rej) === undefined) {
      controlDepth--;
    }
    const controlNode =
      controlDepth === w.frames.length ? w.rej : controlDepth === 0 ? rejRoot : w.frames[controlDepth]?.rej;
    const controlLeaves: Cand[] = [
      ...(L.atProperty && controlDepth === w.frames.length ? [OMIT as Cand] : []),
      ...gen(controlNode ?? true, rejSide, 4),
    ];
    const cleanByMode = new Map<Mode, boolean>();
    const clean = (mode: Mode): boolean => {
      let ok = cleanByMode.get(mode);
      if (ok === undefined) {
        const controls = controlLeaves
          .map((leaf) => embedder.embed(leaf, mode, controlDepth))
          .filter((c): c is Json => c !== undefined);
        ok = controls.length === 0 || controls.some((c) => rejectingValid(c));
        cleanByMode.set(mode, ok);
      }
      return ok;
    };
    /** Whether the leaf by itself is something the rejecting side refuses at that place. */
    const controlAlts = controlDepth === w.frames.length ? L.rejAlts : rejSide.alternatives(controlNode);
    const leafBreaks = (leaf: Cand, mode: Mode): boolean => {
      if (controlDepth < w.frames.length) {
        const partial = embedder.embed(leaf, mode, w.frames.length, controlDepth);
        return partial !== undefined && !okAny(controlAlts, partial);
      }
      if (leaf !== OMIT) return !okAny(L.rejAlts, leaf);
      if (last?.step.k !== "prop" || last.rej === undefined) return false;
      const name = last.step.name;
      return strings(rejSide.objectNode(last.rej, name).required).includes(name);
    };

    // Harmonized contexts first (H, R): the rest of the instance then also satisfies the
    // rejecting schema where it can, so the witness breaks through this change and not
    // through another one elsewhere in the same schema. P (accepting side only) last.
    // A witness that is not clean is kept as a fallback only when its leaf breaks by itself.
    const tried = new Set<string>();
    let fallback: string | undefined;
    search: for (const mode of MODES) {
      L.mode = mode;
      const seenLeaves = new Set<string>();
      for (const leaf of leafCandidates(L)) {
        const leafKey = keyOf(leaf);
        if (seenLeaves.has(leafKey)) continue;
        seenLeaves.add(leafKey);
        const candidate = embedder.embed(leaf, mode);
        if (candidate === undefined) continue;
        const key = JSON.stringify(candidate);
        if (tried.has(key)) continue;
        tried.add(key);
        if (acceptingValid(candidate) && !rejectingValid(candidate)) {
          if (clean(mode)) return JSON.parse(key) as Json;
          if (fallback === undefined && leafBreaks(leaf, mode)) fallback = key;
        }
        if (tried.size >= MAX_CHECKS) break search;
      }
    }
    return fallback === undefined ? undefined : (JSON.parse(fallback) as Json);
  } catch {
    return undefined;
  }
}
