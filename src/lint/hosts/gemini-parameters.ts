/**
 * Gemini API, function declarations with `parameters`: the Schema object, "a select subset of an
 * OpenAPI 3.0 schema object". A keyword outside the subset fails the whole request with HTTP 400
 * ("Invalid JSON payload received. Unknown name … Cannot find field"), so every tool of every
 * server in the request stops working. Pure.
 */
import { isJsonObject } from "../../contract/model.ts";
import { dottedChild, pointer } from "../../contract/pointer.ts";
import { FIRST, type HostProfile, NAMED } from "./model.ts";
import { checkName, fitsName, type NameRule, renameFor } from "./names.ts";
import { hostRule } from "./rule.ts";

const HOST = "gemini-parameters";

const SCHEMA_DOC = "https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Schema";
const DECLARATION_DOC = "https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/FunctionDeclaration";

/** The Schema object's fields (the docs above), as JSON Schema keywords. */
export const GEMINI_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);

/**
 * The same keywords as an object without a prototype: the node check looks up every key of
 * every node, and a property read is cheaper than a call to Set.has before the JIT compiles it.
 */
const IN_SCHEMA: Readonly<Record<string, true | undefined>> = Object.assign(
  Object.create(null),
  Object.fromEntries([...GEMINI_SCHEMA_KEYWORDS].map((k) => [k, true])),
);

/** Function names: the FunctionDeclaration docs and the 400 quoted in mcp-router#176. */
export const GEMINI_NAME: NameRule = { char: /[A-Za-z0-9_.:-]/, first: /[A-Za-z_]/, max: 64 };
/** Parameter (property) names, per the `parameters` field's docs. */
const PARAMETER_NAME: NameRule = { char: /[A-Za-z0-9_]/, first: /[A-Za-z_]/, max: 64 };

export const GEMINI_PARAMETERS_RULES = [
  hostRule({
    id: "gemini-parameters-name-invalid",
    host: HOST,
    impact: "list-rejected",
    summary:
      "Gemini rejects a function name that does not start with a letter or _ or has characters outside A–Z a–z 0–9 _ . : - or over 64",
    rationale:
      'Gemini function names must start with a letter or an underscore, use only letters, digits, underscores, dots, colons and dashes, and be at most 64 characters; MCP allows 128. The API answers 400 "Invalid function name" for the whole request. MCP clients that prefix the server name (mcp__server__tool) make the name longer still.',
    example: '"name": "1st-search" (starts with a digit)',
    sources: [DECLARATION_DOC, "https://github.com/mcp-router/mcp-router/issues/176"],
  }),
  hostRule({
    id: "gemini-parameters-keyword-unsupported",
    host: HOST,
    impact: "list-rejected",
    summary:
      "an inputSchema uses a keyword outside Gemini's OpenAPI-subset Schema ($ref, $defs, additionalProperties, const, allOf, oneOf…)",
    rationale:
      "The `parameters` field takes Gemini's Schema object, which holds only type, format, title, description, nullable, enum, items, minItems, maxItems, properties, required, minProperties, maxProperties, minLength, maxLength, pattern, example, anyOf, propertyOrdering, default, minimum and maximum. Any other keyword ($schema, $ref, $defs, additionalProperties, const, allOf, oneOf, not, if/then/else, propertyNames, exclusiveMinimum, multipleOf…) fails the whole request with 400 \"Invalid JSON payload received. Unknown name\". Clients that strip unknown keywords before sending avoid the error but lose the constraint. Gemini's `parametersJsonSchema` field (profile gemini-json-schema) accepts these keywords; third-party notes say the API widened its subset in late 2025, while rejections of `parameters` are still reported in 2026, so this profile keeps the documented subset.",
    example: '"items": {"type": "object", "additionalProperties": false}',
    sources: [
      SCHEMA_DOC,
      "https://github.com/glowingjade/obsidian-smart-composer/issues/455",
      "https://github.com/openswarm-ai/openswarm/issues/24",
      "https://github.com/zed-industries/zed/issues/44875",
      "https://github.com/decolua/9router/issues/2309",
      "https://github.com/google-gemini/gemini-cli/issues/13326",
    ],
  }),
  hostRule({
    id: "gemini-parameters-type-list",
    host: HOST,
    impact: "list-rejected",
    summary: 'an inputSchema node gives "type" as a list, which Gemini\'s Schema takes as one value',
    rationale:
      'In Gemini\'s Schema, `type` is a single enum value; a JSON Schema type list such as ["string", "null"] fails the request with 400 "Proto field is not repeating, cannot start list". Write one type and `"nullable": true`, or an anyOf of single types.',
    example: '"type": ["string", "null"]',
    sources: [SCHEMA_DOC, "https://github.com/zed-industries/zed/issues/53919"],
  }),
  hostRule({
    id: "gemini-parameters-enum-not-string",
    host: HOST,
    impact: "list-rejected",
    summary: "an inputSchema enum holds values that are not strings, which Gemini's Schema does not take",
    rationale:
      'Gemini\'s Schema declares `enum` as a list of strings (an integer enum is written as strings with `"format": "enum"`); numbers, booleans or null in the list do not fit the field and fail the request.',
    example: '"enum": [1, 2, 3]',
    sources: [SCHEMA_DOC],
  }),
  hostRule({
    id: "gemini-parameters-property-name-invalid",
    host: HOST,
    impact: "list-rejected",
    summary: "a parameter name does not start with a letter or _ or has characters outside A–Z a–z 0–9 _ or over 64",
    rationale:
      "The `parameters` field's documentation says parameter names must start with a letter or an underscore and contain only letters, digits and underscores, at most 64 characters. A property named with a dash or a dot (`dry-run`, `file.path`) is outside it.",
    example: '"properties": {"dry-run": {"type": "boolean"}}',
    sources: [DECLARATION_DOC],
  }),
] as const;

/** The fix in a few words, for the places a finding names after its first. */
function shortFix(keyword: string): string {
  if (keyword === "$ref") return "inline it";
  if (keyword === "$defs" || keyword === "definitions") return "drop it once inlined";
  if (keyword === "const") return 'use "enum"';
  if (keyword === "oneOf") return 'use "anyOf"';
  if (keyword === "exclusiveMinimum") return 'use "minimum"';
  if (keyword === "exclusiveMaximum") return 'use "maximum"';
  return "drop it";
}

function fixFor(keyword: string): string {
  if (keyword === "$ref") return "inline this $ref (copy the definition it points at here)";
  if (keyword === "$defs" || keyword === "definitions") return `drop "${keyword}" once every $ref to it is inlined`;
  if (keyword === "const") return 'write "enum": [value] instead';
  if (keyword === "oneOf") return 'write "anyOf" instead (Gemini accepts anyOf)';
  if (keyword === "exclusiveMinimum" || keyword === "exclusiveMaximum")
    return `write "${keyword === "exclusiveMinimum" ? "minimum" : "maximum"}" instead`;
  if (keyword === "if" || keyword === "then" || keyword === "else")
    return "drop if/then/else (say the condition in the description)";
  if (keyword === "examples") return 'write one "example" instead';
  if (keyword === "$schema") return 'drop "$schema" (Gemini reads no dialect)';
  if (keyword === "additionalProperties")
    return 'drop "additionalProperties", or declare the tool with parametersJsonSchema, which accepts it';
  return `drop "${keyword}" (say it in the description if the model must know it)`;
}

/** Whether every value is a string (a loop: a callback per enum costs more than its few values). */
function allStrings(values: readonly unknown[]): boolean {
  for (let i = 0; i < values.length; i++) if (typeof values[i] !== "string") return false;
  return true;
}

export const GEMINI_PARAMETERS: HostProfile = {
  id: HOST,
  title: "Gemini API, `parameters` (OpenAPI-subset Schema)",
  rules: GEMINI_PARAMETERS_RULES,
  walkDefs: false,
  // A keyword outside the subset, a type list, an enum, the root's parameter names.
  wakes: { within: GEMINI_SCHEMA_KEYWORDS, keys: ["enum", "properties"], typeList: true },
  tool: checkName(
    "gemini-parameters-name-invalid",
    GEMINI_NAME,
    "Gemini answers 400 for the whole request",
    " (Gemini CLI rewrites names itself; other clients send them as they are)",
  ),
  node(node, hits) {
    const { schema } = node;
    // for...in: JSON objects inherit no enumerable keys, and Object.keys allocates per node.
    for (const key in schema) {
      if (IN_SCHEMA[key] === true) continue;
      // x- extensions and annotations of our own are not sent by every client; they are still keywords Gemini rejects.
      switch (hits.place("gemini-parameters-keyword-unsupported")) {
        case FIRST:
          hits.first("gemini-parameters-keyword-unsupported", {
            path: pointer(node.path, key),
            message: `"${key}" at ${node.dotted} is not in Gemini's Schema, so the request fails with 400 "Unknown name"; fix: ${fixFor(key)}`,
            evidence: key,
          });
          break;
        case NAMED:
          hits.named("gemini-parameters-keyword-unsupported", `${dottedChild(node.dotted, key)}: ${shortFix(key)}`);
      }
    }
    // typeof first: most nodes' type is a string, and Array.isArray is a call until compiled.
    if (typeof schema.type === "object" && Array.isArray(schema.type)) {
      const types = schema.type.filter((t) => t !== "null");
      const fix =
        types.length === 1
          ? `write "type": ${JSON.stringify(types[0])}${types.length < schema.type.length ? ' with "nullable": true' : ""}`
          : "write an anyOf with one type per branch";
      switch (hits.place("gemini-parameters-type-list")) {
        case FIRST:
          hits.first("gemini-parameters-type-list", {
            path: pointer(node.path, "type"),
            message: `"type" at ${node.dotted} is a list, which Gemini's Schema does not take (400 "Proto field is not repeating"); fix: ${fix}`,
            evidence: schema.type,
          });
          break;
        case NAMED:
          hits.named("gemini-parameters-type-list", dottedChild(node.dotted, "type"));
      }
    }
    const values = schema.enum;
    if (values !== undefined && Array.isArray(values) && !allStrings(values)) {
      switch (hits.place("gemini-parameters-enum-not-string")) {
        case FIRST:
          hits.first("gemini-parameters-enum-not-string", {
            path: pointer(node.path, "enum"),
            message: `the enum at ${node.dotted} holds values that are not strings, which Gemini's Schema does not take; fix: write them as strings (${JSON.stringify(values.slice(0, 3).map((v) => String(v)))}) with "format": "enum", or drop the enum and list the values in the description`,
            evidence: values,
          });
          break;
        case NAMED:
          hits.named("gemini-parameters-enum-not-string", dottedChild(node.dotted, "enum"));
      }
    }
    // Parameter names are the root's properties (the docs say nothing of nested objects' keys).
    if (schema.properties !== undefined && node.via === "" && isJsonObject(schema.properties)) {
      for (const name in schema.properties) {
        if (fitsName(name, PARAMETER_NAME)) continue;
        const fixed = renameFor(name, PARAMETER_NAME);
        switch (hits.place("gemini-parameters-property-name-invalid")) {
          case FIRST:
            hits.first("gemini-parameters-property-name-invalid", {
              path: pointer(node.path, "properties", name),
              message: `the parameter name ${JSON.stringify(name)} is outside Gemini's parameter names (letters, digits, _; at most 64); fix: rename it to ${JSON.stringify(fixed)}`,
              evidence: name,
            });
            break;
          case NAMED:
            hits.named(
              "gemini-parameters-property-name-invalid",
              dottedChild(dottedChild(node.dotted, "properties"), name),
            );
        }
      }
    }
  },
};
