/**
 * One-shot witness checks without compiling: @cfworker/json-schema interprets a schema where
 * its answers are ajv's, so a run that checks a few hundred candidates against a schema pays
 * neither ajv's code generation (several ms per schema) nor its meta-schema compile (the first
 * schema of a run: 15–20 ms). Everything else goes to ajv (validators.ts).
 *
 * Where the two agree, by construction: a draft-07 or 2020-12 schema without embedded ids,
 * whose keywords both implement alike. `pattern` is server text that must never reach the host's
 * backtracking engine: cfworker gets each one as a format of its own that runs the bounded
 * matcher (../regex.ts), as ajv does, and a test that runs out of budget hands the value to
 * ajv. Left to ajv, because they differ:
 * - `patternProperties`: cfworker would run those patterns on RegExp;
 * - `format`: the two ship different format checks;
 * - `multipleOf`: ajv divides, cfworker takes a remainder with a tolerance (0.3 of 0.1);
 * - `nullable` (OpenAPI): ajv honours it, cfworker ignores it;
 * - keywords newer than draft-07 (`prefixItems`, `unevaluated*`, `dependentRequired`, ...),
 *   which ajv's draft-07 class ignores and cfworker applies, and which are left to ajv in
 *   2020-12 too, with draft-07's `dependencies`;
 * - draft-07: a `$ref` beside validation keywords: ajv applies both, cfworker only the $ref;
 * - a `$ref` that does not point at a subschema of the same root (ajv fails the compile);
 * - a loop of references that never descends into the value (`{not: {$ref: "#"}}`): both
 *   recurse without end, but at different keywords, so one may answer before the other does.
 * Validity of the schema itself is judged as ajv does, against the same meta-schema (ajv's
 * copies; 2020-12's `$dynamicRef: "#meta"` read as the reference to the whole meta-schema it
 * resolves to when nothing extends it), so a schema ajv rejects still gets no validator.
 * Pure; no I/O.
 */
import { dereference, format, type Schema, validate } from "@cfworker/json-schema";
import { isJsonObject, type Json, type JsonObject } from "../../contract/model.ts";
import { compileRegex, RegexUndecidable } from "../regex.ts";
import { forEachSubschema } from "../subschemas.ts";
import { plainlyMetaValid } from "./meta-check.ts";
import { META_07, META_2020, META_2020_VOCABULARIES } from "./meta-schemas.ts";

/** Keywords that send a schema to ajv (see the module comment). */
const AJV_ONLY = new Set([
  "patternProperties",
  "format",
  "multipleOf",
  "nullable",
  "prefixItems",
  "unevaluatedProperties",
  "unevaluatedItems",
  "dependentRequired",
  "dependentSchemas",
  "minContains",
  "maxContains",
  "contentSchema",
  "$recursiveRef",
  "$recursiveAnchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$id",
  "id",
  "$anchor",
  "discriminator",
  "$async",
]);

/** What may stand beside a `$ref` without ajv and cfworker disagreeing: annotations and definitions. */
const REF_SIBLINGS = new Set([
  "$ref",
  "title",
  "description",
  "default",
  "examples",
  "$comment",
  "readOnly",
  "writeOnly",
  "deprecated",
  "definitions",
  "$defs",
]);

/** A local JSON Pointer reference in plain characters (no percent-encoding for the two to read differently). */
const LOCAL_REF = /^#(?:\/[A-Za-z0-9_.~$-]*)*$/;

/** Nodes deeper than this, or more of them, are left to ajv rather than walked here. */
const MAX_DEPTH = 200;
const MAX_NODES = 100_000;

/** The schema at a local pointer, or undefined. */
function resolvePointer(root: Json, ref: string): Json | undefined {
  let node: Json | undefined = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isJsonObject(node)) node = Object.hasOwn(node, segment) ? node[segment] : undefined;
    else return undefined;
  }
  return node;
}

/** The dialects read here, as validators.ts names them. */
export type InterpretedDialect = "07" | "2020";

/** Left to ajv in 2020-12 besides AJV_ONLY: draft-07's `dependencies` (how each engine reads it there differs). */
const AJV_ONLY_2020 = new Set(["dependencies"]);

/** Whether cfworker's reading of `root` in `dialect` is ajv's (see the module comment). */
export function interpretable(root: JsonObject, dialect: InterpretedDialect = "07"): boolean {
  const nodes = new Set<Json>();
  const refs: string[] = [];
  let eligible = true;
  const visit = (node: Json, depth: number): void => {
    // A boolean is a schema to both. Anything else where a schema belongs goes to ajv: the
    // meta-schema does not look inside everything a $ref can reach ($defs is not draft-07's).
    if (!eligible || typeof node === "boolean" || nodes.has(node)) return;
    if (!isJsonObject(node)) {
      eligible = false;
      return;
    }
    if (depth > MAX_DEPTH || nodes.size >= MAX_NODES) {
      eligible = false;
      return;
    }
    nodes.add(node);
    const keys = Object.keys(node);
    if (keys.some((key) => AJV_ONLY.has(key) || (dialect === "2020" && AJV_ONLY_2020.has(key)))) {
      eligible = false;
      return;
    }
    // A pattern the bounded matcher cannot compile fails ajv's compile, where ajv reaches it.
    if (node.pattern !== undefined && (typeof node.pattern !== "string" || !compileRegex(node.pattern))) {
      eligible = false;
      return;
    }
    if (node.$ref !== undefined) {
      const siblingsDiffer = dialect === "07" && keys.some((k) => !REF_SIBLINGS.has(k));
      if (typeof node.$ref !== "string" || !LOCAL_REF.test(node.$ref) || siblingsDiffer) {
        eligible = false;
        return;
      }
      refs.push(node.$ref);
    }
    forEachSubschema(node, (child) => visit(child, depth + 1));
  };
  visit(root, 0);
  if (!eligible) return false;
  const targets: JsonObject[] = [];
  for (const ref of refs) {
    const target = resolvePointer(root, ref);
    if (target === true || target === false) continue;
    if (target === undefined || !nodes.has(target)) return false;
    targets.push(target as JsonObject);
  }
  return !loopsInPlace(root, nodes, targets);
}

/** Keywords that apply a subschema to the value itself, not to a part of it. */
const IN_PLACE = ["allOf", "anyOf", "oneOf", "not", "if", "then", "else"];

/**
 * Whether following in-place subschemas and references from some node leads back to it. An
 * in-place subschema is a child in the JSON tree, so every such loop takes a reference: it
 * passes through a reference's target, and searching from the targets alone finds it.
 */
function loopsInPlace(root: Json, nodes: Set<Json>, targets: readonly JsonObject[]): boolean {
  const state = new Map<Json, "open" | "done">();
  const next = (node: JsonObject): Json[] => {
    const out: Json[] = [];
    for (const key of IN_PLACE) {
      const value = node[key];
      if (Array.isArray(value)) out.push(...value);
      else if (value !== undefined) out.push(value);
    }
    if (typeof node.$ref === "string") {
      const target = resolvePointer(root, node.$ref);
      if (target !== undefined) out.push(target);
    }
    return out.filter((child) => isJsonObject(child) && nodes.has(child));
  };
  const loops = (node: JsonObject): boolean => {
    const seen = state.get(node);
    if (seen === "open") return true;
    if (seen === "done") return false;
    state.set(node, "open");
    const found = next(node).some((child) => loops(child as JsonObject));
    state.set(node, "done");
    return found;
  };
  for (const node of targets) if (loops(node)) return true;
  return false;
}

/** The answer of a check: true, false, or undefined when a pattern ran out of its budget. */
export type InterpretedCheck = (value: Json) => boolean | undefined;

/**
 * A check of values against `schema` (a root that `interpretable` accepted in `dialect`), or
 * null when the schema is not valid against the dialect's meta-schema (ajv would not compile it).
 * `compiled` is ajv's check, asked for a value only when a pattern test ran out of budget: in
 * what order each engine reaches its patterns differs, so only ajv's answer is ajv's then.
 */
export function interpretedCheck(
  schema: JsonObject,
  dialect: InterpretedDialect,
  compiled: () => InterpretedCheck | undefined,
): InterpretedCheck | null {
  const draft = dialect === "07" ? "7" : "2020-12";
  // Most schemas are plainly valid (meta-check.ts): the meta-schema walk is for the rest.
  if (!plainlyMetaValid(schema, dialect) && !metaSchemaAccepts(schema, dialect)) return null;
  // cfworker annotates the schema objects it dereferences, and patterns are rewritten below:
  // it gets its own copy (a plain JSON copy: structuredClone is several times slower here).
  const own = copyJson(schema) as JsonObject;
  const lookup = prepare(own) ?? dereference(own as Schema);
  return (value) => {
    const undecided = { seen: false };
    asking = undecided;
    let valid: boolean;
    try {
      valid = validate(value, own as Schema, draft, lookup).valid;
    } finally {
      asking = undefined;
    }
    return undecided.seen ? compiled()?.(value) : valid;
  };
}

/** A copy of a JSON value (no aliasing in, none out); structuredClone where it nests too deep to recurse. */
function copyJson(value: Json): Json {
  const copy = (node: Json, depth: number): Json => {
    if (typeof node !== "object" || node === null) return node;
    if (depth > COPY_DEPTH) throw new RangeError("too deep");
    if (Array.isArray(node)) {
      const out = new Array<Json>(node.length);
      for (let i = 0; i < node.length; i++) out[i] = copy(node[i] as Json, depth + 1);
      return out;
    }
    const out: JsonObject = {};
    for (const key of Object.keys(node)) out[key] = copy(node[key] as Json, depth + 1);
    return out;
  };
  try {
    return copy(value, 0);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return structuredClone(value);
  }
}

/** JSON nesting a recursive copy follows before handing the value to structuredClone. */
const COPY_DEPTH = 2_000;

/**
 * One walk over the copy cfworker gets: each `pattern` becomes a format that runs the bounded
 * matcher, and the look-up table validate reads is built (undefined when it cannot be, see
 * below; dereference() then decides).
 *
 * The table: for a schema whose references are all local plain pointers (interpretable()
 * admits no others), each `$ref` string to its target. validate reads the table only to
 * follow a `$ref` (by its text, as nothing here annotated the nodes with absolute URIs), so
 * this answers as dereference() would without walking and annotating every node.
 */
function prepare(root: JsonObject): Record<string, Schema | boolean> | undefined {
  const lookup: Record<string, Schema | boolean> = Object.create(null);
  const refs: string[] = [];
  let resolved = true;
  const visit = (node: Json): void => {
    if (!isJsonObject(node)) return;
    // validate reads a node's own __absolute_ref__ before its $ref: such a schema gets dereference().
    if (Object.hasOwn(node, "__absolute_ref__")) resolved = false;
    else if (typeof node.$ref === "string") refs.push(node.$ref);
    if (typeof node.pattern === "string") boundPattern(node, node.pattern);
    forEachSubschema(node, visit);
  };
  visit(root);
  if (!resolved) return undefined;
  // Resolved after the walk: a target's pattern is rewritten in place, so its identity holds.
  for (const ref of refs) {
    const target = resolvePointer(root, ref);
    if (target === true || target === false || isJsonObject(target)) lookup[ref] = target as Schema | boolean;
    else return undefined;
  }
  return lookup;
}

/** Format names that stand for patterns: none of cfworker's, nor any a schema could use here (formats go to ajv). */
const PATTERN_FORMAT = "mcp-contract:pattern:";
/** The check under way, told when one of its pattern tests runs out of budget. */
let asking: { seen: boolean } | undefined;

/** Replace a node's `pattern` by a format that runs the bounded matcher. */
function boundPattern(node: JsonObject, pattern: string): void {
  const name = PATTERN_FORMAT + pattern;
  if (!format[name]) {
    const re = compileRegex(pattern);
    format[name] = (text) => {
      try {
        return re?.test(text) ?? true;
      } catch (error) {
        if (!(error instanceof RegexUndecidable)) throw error;
        if (asking) asking.seen = true;
        return true;
      }
    };
  }
  delete node.pattern;
  node.format = name;
}

const metas: Partial<Record<InterpretedDialect, (schema: JsonObject) => boolean>> = {};

/** The meta-schema check alone, without the shortcut (the tests hold the shortcut to it). */
export function metaSchemaAccepts(schema: JsonObject, dialect: InterpretedDialect): boolean {
  metas[dialect] ??= metaValidator(dialect);
  return metas[dialect](schema);
}

function metaValidator(dialect: InterpretedDialect): (schema: JsonObject) => boolean {
  if (dialect === "07") {
    const own = structuredClone(META_07) as Schema;
    const lookup = dereference(own);
    return (schema) => validate(schema, own, "7", lookup).valid;
  }
  const [top, ...rest] = [META_2020, ...META_2020_VOCABULARIES].map((doc) => staticMeta(structuredClone(doc) as Json));
  const lookup = dereference(top as Schema);
  for (const doc of rest) dereference(doc as Schema, lookup);
  return (schema) => validate(schema, top as Schema, "2020-12", lookup).valid;
}

/** The 2020-12 meta-schema's `$dynamicRef: "#meta"` as the static reference it resolves to (the top meta-schema). */
function staticMeta(node: Json): Json {
  if (Array.isArray(node)) return node.map(staticMeta);
  if (!isJsonObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$dynamicAnchor") continue;
    if (key === "$dynamicRef" && value === "#meta") out.$ref = META_2020.$id;
    else out[key] = staticMeta(value);
  }
  return out;
}
