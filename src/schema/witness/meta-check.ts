/**
 * A shortcut past the meta-schema check of interpreted.ts. Validating a schema against its
 * dialect's meta-schema with @cfworker/json-schema walks every keyword through the whole
 * meta-schema (every vocabulary, every `$ref`): on a big tool schema that costs more than all
 * the witness search after it. Most schemas use a few keywords with plainly valid values; for
 * those this walk answers alone, reading each keyword's value as the meta-schema asks:
 *
 * - true: every node is an object or a boolean, and every meta-schema keyword in it holds a
 *   value of the form the meta-schema prescribes (same type, integer and bound, uniqueness,
 *   and cfworker's own `regex`, `uri` and `uri-reference` format checks). Then the meta-schema
 *   check would pass too.
 * - false: not shown here (a keyword this table does not read, an enum of objects, a node
 *   nested deeper than MAX_DEPTH); the caller then runs the meta-schema check itself.
 *
 * Keywords the meta-schema does not declare are unconstrained there, and here. Which keywords
 * a dialect declares is read from the same meta-schema documents, so the lists cannot drift.
 * tests/conformance/interpreted.test.ts holds this to the meta-schema check on generated
 * schemas, valid and broken. Pure; no I/O.
 */
import { format } from "@cfworker/json-schema";
import { isJsonObject, type Json } from "../../contract/model.ts";
import { META_07, META_2020, META_2020_VOCABULARIES } from "./meta-schemas.ts";

/** What a keyword's value must be, in the meta-schema's terms. */
type Form =
  | "schema"
  | "schemaMap"
  | "schemaList"
  | "schemaOrList"
  | "dependencies"
  | "string"
  | "boolean"
  | "number"
  | "positive"
  | "count"
  | "any"
  | "array"
  | "stringSet"
  | "types"
  | "uniqueList"
  | "regex"
  | "uri"
  | "uriReference";

const SHARED: [string, Form][] = [
  ["$schema", "uri"],
  ["$ref", "uriReference"],
  ["$comment", "string"],
  ["title", "string"],
  ["description", "string"],
  ["default", "any"],
  ["readOnly", "boolean"],
  ["examples", "array"],
  ["multipleOf", "positive"],
  ["maximum", "number"],
  ["exclusiveMaximum", "number"],
  ["minimum", "number"],
  ["exclusiveMinimum", "number"],
  ["maxLength", "count"],
  ["minLength", "count"],
  ["pattern", "regex"],
  ["maxItems", "count"],
  ["minItems", "count"],
  ["uniqueItems", "boolean"],
  ["contains", "schema"],
  ["maxProperties", "count"],
  ["minProperties", "count"],
  ["required", "stringSet"],
  ["additionalProperties", "schema"],
  ["definitions", "schemaMap"],
  ["properties", "schemaMap"],
  ["propertyNames", "schema"],
  ["const", "any"],
  ["type", "types"],
  ["format", "string"],
  ["contentMediaType", "string"],
  ["contentEncoding", "string"],
  ["if", "schema"],
  ["then", "schema"],
  ["else", "schema"],
  ["allOf", "schemaList"],
  ["anyOf", "schemaList"],
  ["oneOf", "schemaList"],
  ["not", "schema"],
];

interface Dialect {
  forms: Map<string, Form>;
  /** Every keyword the dialect's meta-schema declares: one not in `forms` is not read here. */
  declared: Set<string>;
}

const keysOf = (...docs: { properties?: object }[]): Set<string> =>
  new Set(docs.flatMap((doc) => Object.keys(doc.properties ?? {})));

const DIALECTS: Record<"07" | "2020", Dialect> = {
  "07": {
    forms: new Map([
      ...SHARED,
      ["additionalItems", "schema"],
      ["items", "schemaOrList"],
      ["dependencies", "dependencies"],
      ["enum", "uniqueList"],
    ]),
    declared: keysOf(META_07),
  },
  "2020": {
    forms: new Map([
      ...SHARED,
      ["items", "schema"],
      ["$defs", "schemaMap"],
      ["enum", "array"],
      ["deprecated", "boolean"],
      ["writeOnly", "boolean"],
    ]),
    declared: keysOf(META_2020, ...META_2020_VOCABULARIES),
  },
};

const SIMPLE_TYPES: ReadonlySet<Json> = new Set(["array", "boolean", "integer", "null", "number", "object", "string"]);

/** Deeper than this, the meta-schema check decides (interpretable() stops at 200 too). */
const MAX_DEPTH = 200;

/**
 * Whether `schema` surely passes the meta-schema of `dialect` (see the module comment);
 * false means "ask the meta-schema", not "invalid".
 */
export function plainlyMetaValid(schema: Json, dialect: "07" | "2020"): boolean {
  return schemaOk(schema, DIALECTS[dialect], 0);
}

function schemaOk(node: Json, dialect: Dialect, depth: number): boolean {
  if (typeof node === "boolean") return true;
  if (!isJsonObject(node) || depth > MAX_DEPTH) return false;
  for (const key of Object.keys(node)) {
    const form = dialect.forms.get(key);
    if (form === undefined) {
      if (dialect.declared.has(key)) return false;
      continue;
    }
    if (!valueOk(node[key] as Json, form, dialect, depth)) return false;
  }
  return true;
}

function valueOk(value: Json, form: Form, dialect: Dialect, depth: number): boolean {
  switch (form) {
    case "schema":
      return schemaOk(value, dialect, depth + 1);
    case "schemaMap":
      return isJsonObject(value) && Object.values(value).every((child) => schemaOk(child, dialect, depth + 1));
    case "schemaList":
      return Array.isArray(value) && value.length > 0 && value.every((child) => schemaOk(child, dialect, depth + 1));
    case "schemaOrList":
      return Array.isArray(value) ? valueOk(value, "schemaList", dialect, depth) : schemaOk(value, dialect, depth + 1);
    case "dependencies":
      // Each entry: a schema, or a list of unique names.
      return (
        isJsonObject(value) &&
        Object.values(value).every((entry) =>
          Array.isArray(entry) ? valueOk(entry, "stringSet", dialect, depth) : schemaOk(entry, dialect, depth + 1),
        )
      );
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "number":
      return typeof value === "number";
    case "positive":
      return typeof value === "number" && value > 0;
    case "count":
      return typeof value === "number" && Number.isFinite(value) && value % 1 === 0 && value >= 0;
    case "any":
      return true;
    case "array":
      return Array.isArray(value);
    case "stringSet":
      return Array.isArray(value) && value.every((v) => typeof v === "string") && new Set(value).size === value.length;
    case "types":
      if (!Array.isArray(value)) return SIMPLE_TYPES.has(value);
      return value.length > 0 && value.every((t) => SIMPLE_TYPES.has(t)) && new Set(value).size === value.length;
    case "uniqueList":
      // Uniqueness of scalars is identity; a list holding objects or arrays is left to the meta-schema.
      return (
        Array.isArray(value) &&
        value.length > 0 &&
        value.every((v) => v === null || typeof v !== "object") &&
        new Set(value).size === value.length
      );
    case "regex":
      return typeof value === "string" && format.regex?.(value) === true;
    case "uri":
      return typeof value === "string" && format.uri?.(value) === true;
    case "uriReference":
      return typeof value === "string" && format["uri-reference"]?.(value) === true;
  }
}
