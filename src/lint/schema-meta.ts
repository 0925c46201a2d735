/**
 * Meta-schema validation for the schema-invalid and dialect rules: which JSON Schema dialect
 * a schema declares, and its errors against that dialect's meta-schema, with ajv loaded on
 * first use (most commands never validate a schema). Regexes are checked with the engine
 * that will run them. Pure apart from the lazy require.
 */

import type { ErrorObject, ValidateFunction } from "ajv";
import type AjvCore from "ajv/dist/core";
import { isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import { pointer } from "../contract/pointer.ts";
import type { SchemaNode } from "./found.ts";
import { compilesEverywhere } from "./simple-pattern.ts";

export type Dialect = "2020-12" | "2019-09" | "draft-07" | "draft-06";

/** The dialect a schema declares; `undefined` = a dialect this linter cannot check. */
export function schemaDialect(schema: JsonObject): Dialect | undefined {
  const declared = schema.$schema;
  if (declared === undefined || typeof declared !== "string") return "2020-12";
  const uri = declared.trim().replace(/#$/, "");
  if (/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema$/.test(uri)) return "2020-12";
  if (/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema$/.test(uri)) return "2019-09";
  if (/^https?:\/\/json-schema\.org\/draft-07\/schema$/.test(uri)) return "draft-07";
  if (/^https?:\/\/json-schema\.org\/draft-06\/schema$/.test(uri)) return "draft-06";
  return undefined;
}

const META_IDS: Record<Dialect, string> = {
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "draft-07": "http://json-schema.org/draft-07/schema",
  "draft-06": "http://json-schema.org/draft-06/schema",
};

/**
 * `code.optimize: false`: the meta-schema compiles in about two thirds of the time (lint
 * compiles it once per run and validates only distinct schemas), with the same answers and
 * errors: 26,888 checks of fixture, corpus and mutated schemas in all four dialects agreed.
 */
const AJV_OPTIONS = {
  strict: false,
  allErrors: true,
  logger: false,
  validateFormats: true,
  code: { optimize: false },
} as const;

/** Why `text` is not a regular expression JavaScript accepts (without the u flag, leniently). */
function regexProblem(text: string): string | undefined {
  // Most patterns are plain enough to be proven, not compiled (simple-pattern.ts).
  if (compilesEverywhere(text)) return undefined;
  return remembered(LENIENT, text, () => {
    try {
      new RegExp(text);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  });
}

/**
 * Answers about patterns, by pattern: a schema repeats its patterns at each level (and schemas
 * that differ still share most), and compiling one was a tenth of the schema pass on big
 * surfaces. Bounded: emptied when full, so a long process keeps a few thousand at most.
 */
const LENIENT = new Map<string, string | undefined>();
const UNICODE = new Map<string, boolean>();
const REMEMBERED = 4096;

function remembered<T>(known: Map<string, T>, pattern: string, answer: () => T): T {
  if (known.has(pattern)) return known.get(pattern) as T;
  const value = answer();
  if (known.size >= REMEMBERED) known.clear();
  known.set(pattern, value);
  return value;
}

const NO_PATTERN_PROBLEMS: readonly { path: string; pattern: string; problem: string }[] = [];

/**
 * The patterns of one schema node that do not compile. ajv does not assert formats (such as
 * "regex") while validating against a meta-schema, so `pattern` and `patternProperties` are
 * checked here, node by node as the schema pass (schema-pass.ts) walks them.
 */
export function patternProblemsAt(
  node: Pick<SchemaNode, "schema" | "path">,
): readonly { path: string; pattern: string; problem: string }[] {
  const { pattern, patternProperties } = node.schema;
  // Most patterns compile: a list is made only for a problem (one empty list, never added to, for the rest).
  let out: { path: string; pattern: string; problem: string }[] | undefined;
  if (typeof pattern === "string") {
    const problem = regexProblem(pattern);
    if (problem) out = [{ path: pointer(node.path, "pattern"), pattern, problem }];
  }
  if (isJsonObject(patternProperties)) {
    for (const key of Object.keys(patternProperties)) {
      const problem = regexProblem(key);
      if (!problem) continue;
      out ??= [];
      out.push({ path: pointer(node.path, "patternProperties", key), pattern: key, problem });
    }
  }
  return out ?? NO_PATTERN_PROBLEMS;
}

const metaValidators = new Map<Dialect, ValidateFunction>();

/**
 * ajv is required here, on first use, not imported at the top: every command builds the lint
 * catalog (for `rules`, the policy file and the drift lens), and evaluating ajv would add
 * milliseconds to the start-up of all of them, while only `lint` validates schemas.
 */
function newAjv(dialect: Dialect): AjvCore {
  // Literal module names, so that the bundler finds and embeds them.
  type AjvModule = { default: new (options: typeof AJV_OPTIONS) => AjvCore };
  const Ajv =
    dialect === "2020-12"
      ? (require("ajv/dist/2020") as AjvModule).default
      : dialect === "2019-09"
        ? (require("ajv/dist/2019") as AjvModule).default
        : (require("ajv") as AjvModule).default;
  const ajv = new Ajv(AJV_OPTIONS);
  (require("ajv-formats") as { default: (ajv: AjvCore) => void }).default(ajv);
  if (dialect === "draft-06") ajv.addMetaSchema(require("ajv/dist/refs/json-schema-draft-06.json"));
  return ajv;
}

function metaValidator(dialect: Dialect): ValidateFunction {
  const cached = metaValidators.get(dialect);
  if (cached) return cached;
  const ajv = newAjv(dialect);
  const validate = ajv.getSchema(META_IDS[dialect]);
  if (!validate) throw new Error(`no meta-schema for ${dialect}`);
  metaValidators.set(dialect, validate);
  return validate;
}

const MAX_SCHEMA_FINDINGS = 20;

/** The ajv errors of one schema, one per instance path (the first, most specific, one). */
export function metaErrors(schema: JsonObject, dialect: Dialect): ErrorObject[] {
  // Most tool schemas use a few keywords plainly: proven valid here, ajv is never loaded.
  if ((dialect === "2020-12" || dialect === "draft-07") && surelyValid(schema, 0)) return [];
  const validate = metaValidator(dialect);
  if (validate(schema)) return [];
  const byPath = new Map<string, ErrorObject>();
  for (const error of validate.errors ?? []) if (!byPath.has(error.instancePath)) byPath.set(error.instancePath, error);
  return [...byPath.values()].slice(0, MAX_SCHEMA_FINDINGS);
}

export function ajvMessage(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "enum" && Array.isArray(params.allowedValues)) {
    return `${error.message}: ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  return error.message ?? error.keyword;
}

// ---------------------------------------------------------------------------------------------
// Schemas valid against both the 2020-12 and the draft-07 meta-schema, without ajv

const SIMPLE_TYPES = new Set(["array", "boolean", "integer", "null", "number", "object", "string"]);
/** $ref values that are certainly URI references: a fragment of unreserved characters and "$". */
const LOCAL_REF = /^#(?:\/[A-Za-z0-9_.~$-]*)*$/;
const KNOWN_DIALECTS = new Set([
  "https://json-schema.org/draft/2020-12/schema",
  "http://json-schema.org/draft-07/schema#",
  "http://json-schema.org/draft-07/schema",
]);
/** Nesting this deep goes to ajv. */
const MAX_DEPTH = 64;

const isSchema = (value: Json | undefined, depth: number): boolean =>
  typeof value === "boolean" || (isJsonObject(value) && surelyValid(value, depth + 1));
const nonNegativeInteger = (value: Json | undefined) => Number.isInteger(value) && (value as number) >= 0;
// Loops rather than Object.values, every() and a Set: this proof reads every node of every tool
// schema, and on big surfaces those arrays, closures and sets were most of its time and garbage.
function schemaMap(value: Json | undefined, depth: number): boolean {
  if (!isJsonObject(value)) return false;
  for (const key in value) if (!isSchema(value[key], depth)) return false;
  return true;
}
function schemaList(value: Json | undefined, depth: number): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  for (let i = 0; i < value.length; i++) if (!isSchema(value[i], depth)) return false;
  return true;
}
/** Scalars all different (as a Set tells them apart: === but for NaN, which JSON has none of). */
function uniqueScalars(values: Json[]): boolean {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== null && typeof v === "object") return false;
  }
  if (values.length > 16) return new Set(values).size === values.length;
  for (let i = 1; i < values.length; i++) for (let j = 0; j < i; j++) if (values[i] === values[j]) return false;
  return true;
}

/**
 * Whether `value` holds what `key` must hold in both meta-schemas (a keyword not listed here
 * sends the schema to ajv). A switch on the key, not a table of a function per keyword: this is
 * asked of every key of every node, and a table lookup and a call through it per key were most
 * of the proof's time (10,000 all-distinct tools, in process, cold: about 48 -> 40 ms).
 */
function keywordHolds(key: string, v: Json | undefined, depth: number): boolean {
  switch (key) {
    case "type":
      return typeof v === "string" ? SIMPLE_TYPES.has(v) : Array.isArray(v) && v.length > 0 && typeList(v);
    case "properties":
    case "$defs":
    case "definitions":
      return schemaMap(v, depth);
    case "additionalProperties":
    case "items":
    case "not":
    // A schema in both (zod writes propertyNames for records).
    case "propertyNames":
    case "contains":
    case "if":
    case "then":
    case "else":
      return isSchema(v, depth);
    case "anyOf":
    case "oneOf":
    case "allOf":
    // 2020-12's, a keyword draft-07 does not know, so anything there is valid for it.
    case "prefixItems":
      return schemaList(v, depth);
    case "required":
      return Array.isArray(v) && allStrings(v) && uniqueScalars(v);
    // draft-07: at least one value, all different.
    case "enum":
      return Array.isArray(v) && v.length > 0 && uniqueScalars(v);
    case "const":
    case "default":
      return true;
    case "examples":
      return Array.isArray(v);
    case "title":
    case "description":
    case "$comment":
    case "format":
    case "contentMediaType":
    case "contentEncoding":
      return typeof v === "string";
    case "readOnly":
    case "writeOnly":
    case "deprecated":
    case "uniqueItems":
      return typeof v === "boolean";
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return typeof v === "number";
    case "multipleOf":
      return typeof v === "number" && v > 0;
    case "minLength":
    case "maxLength":
    case "minItems":
    case "maxItems":
    case "minProperties":
    case "maxProperties":
      return nonNegativeInteger(v);
    case "$ref":
      return typeof v === "string" && LOCAL_REF.test(v);
    case "$schema":
      return typeof v === "string" && KNOWN_DIALECTS.has(v);
    // format "regex": what the regex format of ajv-formats accepts (and more cannot be asked).
    case "pattern":
      return typeof v === "string" && !/[^\\]\\Z/.test(v) && compilesUnicode(v);
    default:
      return false;
  }
}

function typeList(types: Json[]): boolean {
  for (let i = 0; i < types.length; i++) {
    const t = types[i];
    if (typeof t !== "string" || !SIMPLE_TYPES.has(t)) return false;
  }
  return uniqueScalars(types);
}

function allStrings(values: Json[]): boolean {
  for (let i = 0; i < values.length; i++) if (typeof values[i] !== "string") return false;
  return true;
}

function compilesUnicode(pattern: string): boolean {
  if (compilesEverywhere(pattern)) return true;
  return remembered(UNICODE, pattern, () => {
    try {
      new RegExp(pattern, "u");
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Whether the schema is valid against the 2020-12 and the draft-07 meta-schema alike, by
 * keywords whose constraints both spell the same way; false means "ask ajv", not invalid.
 * tests/unit/lint/schema-meta.test.ts holds it to ajv on every fixture schema and thousands of
 * mutated ones.
 */
export function surelyValid(schema: JsonObject, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  // for...in: JSON objects inherit no enumerable keys.
  for (const key in schema) if (!keywordHolds(key, schema[key], depth)) return false;
  return true;
}
