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
import { walkSchema } from "./found.ts";

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

const AJV_OPTIONS = { strict: false, allErrors: true, logger: false, validateFormats: true } as const;

/** Why `text` is not a regular expression JavaScript accepts (without the u flag, leniently). */
function regexProblem(text: string): string | undefined {
  try {
    new RegExp(text);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Patterns that do not compile. ajv does not assert formats (such as "regex") while
 * validating against a meta-schema, so `pattern` and `patternProperties` are checked here.
 */
export function* patternProblems(
  schema: Json,
  base: string,
): Generator<{ path: string; pattern: string; problem: string }> {
  for (const node of walkSchema(schema, base)) {
    const { pattern, patternProperties } = node.schema;
    if (typeof pattern === "string") {
      const problem = regexProblem(pattern);
      if (problem) yield { path: pointer(node.path, "pattern"), pattern, problem };
    }
    if (isJsonObject(patternProperties)) {
      for (const key of Object.keys(patternProperties)) {
        const problem = regexProblem(key);
        if (problem) yield { path: pointer(node.path, "patternProperties", key), pattern: key, problem };
      }
    }
  }
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
