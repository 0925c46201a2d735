/**
 * OpenAI API, function tools with `strict: true` (Structured Outputs): only a subset of JSON
 * Schema, and every object closed (`additionalProperties: false`) with every property required.
 * A schema outside it fails the request with 400. Pure.
 */
import { isJsonObject, type JsonObject } from "../../contract/model.ts";
import { dottedChild, pointer } from "../../contract/pointer.ts";
import { FIRST, type HostProfile, NAMED } from "./model.ts";
import { checkName } from "./names.ts";
import {
  checkCount,
  OPENAI_COUNT_RATIONALE,
  OPENAI_COUNT_SOURCES,
  OPENAI_MAX_TOOLS,
  OPENAI_NAME,
  OPENAI_NAME_RATIONALE,
  OPENAI_NAME_SOURCES,
} from "./openai.ts";
import { hostRule } from "./rule.ts";

const HOST = "openai-strict";
const SUPPORTED_DOC = "https://platform.openai.com/docs/guides/structured-outputs/supported-schemas";
const STRICT_DOC = "https://platform.openai.com/docs/guides/function-calling#strict-mode";
/** The docs' history: the Responses API makes a non-strict schema strict itself when `strict` is omitted. */
const DOC_HISTORY = "https://spybara.com/openai/api/history/docs/en/2026-03-31-1624..2026-04-01-0553/";

/** Keywords strict mode does not support (the supported-schemas page). */
export const STRICT_UNSUPPORTED: ReadonlySet<string> = new Set([
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "patternProperties",
  "unevaluatedProperties",
  "propertyNames",
]);

export const OPENAI_STRICT_RULES = [
  hostRule({
    id: "openai-strict-name-invalid",
    host: HOST,
    impact: "list-rejected",
    summary: "OpenAI rejects a function name outside ^[a-zA-Z0-9_-]{1,64}$",
    rationale: OPENAI_NAME_RATIONALE,
    example: '"name": "files.read" (dot)',
    sources: OPENAI_NAME_SOURCES,
  }),
  hostRule({
    id: "openai-strict-too-many-tools",
    host: HOST,
    impact: "list-rejected",
    summary: "the server lists more than the 128 tools an OpenAI request may carry",
    rationale: OPENAI_COUNT_RATIONALE,
    example: "tools/list returns 150 tools",
    sources: OPENAI_COUNT_SOURCES,
  }),
  hostRule({
    id: "openai-strict-object-open",
    host: HOST,
    impact: "list-rejected",
    summary: 'an object schema lacks "additionalProperties": false, which strict mode requires on every object',
    rationale:
      "Strict mode requires `additionalProperties: false` on every object of the schema, the root and each nested one; otherwise the request fails with 400 \"Invalid schema for function …: In context=(…), 'additionalProperties' is required to be supplied and to be false\". When `strict` is omitted, the Responses API makes the schema strict by itself (closing objects and requiring every field), while Chat Completions stays non-strict.",
    example: '{"type": "object", "properties": {"path": {"type": "string"}}}',
    sources: [
      STRICT_DOC,
      SUPPORTED_DOC,
      "https://github.com/lastmile-ai/openai-agents-mcp/issues/2",
      "https://github.com/xemantic/xemantic-ai-tool-schema/issues/37",
      DOC_HISTORY,
    ],
  }),
  hostRule({
    id: "openai-strict-property-optional",
    host: HOST,
    impact: "list-rejected",
    summary: "an object schema has properties that are not required, which strict mode does not allow",
    rationale:
      'In strict mode every key of `properties` must be listed in `required`; an optional field is written as required with a null type (`"type": ["string", "null"]`). Otherwise the request fails with 400. The Responses API, when `strict` is omitted, makes every field required itself: a field that was optional becomes mandatory.',
    example: '"properties": {"path": {...}, "recursive": {...}}, "required": ["path"]',
    sources: [STRICT_DOC, SUPPORTED_DOC, DOC_HISTORY],
  }),
  hostRule({
    id: "openai-strict-keyword-unsupported",
    host: HOST,
    impact: "list-rejected",
    summary:
      "an inputSchema uses a keyword strict mode does not support (allOf, not, if/then/else, patternProperties…)",
    rationale:
      "Strict mode supports a subset of JSON Schema: no allOf, not, if/then/else, dependentRequired or dependentSchemas, and no patternProperties, unevaluatedProperties or propertyNames on objects. A schema using them fails the request with 400. The subset has grown over time (string, number and array constraints such as pattern, format, minimum and minItems were once unsupported and are now accepted), so only the keywords the page still lists are reported.",
    example: '"if": {"properties": {"mode": {"const": "copy"}}}, "then": {"required": ["target"]}',
    sources: [SUPPORTED_DOC],
  }),
] as const;

/** STRICT_UNSUPPORTED as an object without a prototype: looked up for every key of every node. */
const UNSUPPORTED: Readonly<Record<string, true | undefined>> = Object.assign(
  Object.create(null),
  Object.fromEntries([...STRICT_UNSUPPORTED].map((k) => [k, true])),
);

function isObjectSchema(schema: JsonObject): boolean {
  const type = schema.type;
  if (type === "object") return true;
  if (typeof type === "object" && Array.isArray(type) && type.includes("object")) return true;
  return schema.properties !== undefined && isJsonObject(schema.properties);
}

/** The keys of `properties` that `required` does not list, or undefined when it lists them all. */
function optionalKeys(properties: JsonObject, required: readonly unknown[]): string[] | undefined {
  let optional: string[] | undefined;
  for (const key in properties) {
    if (required.includes(key)) continue;
    if (optional === undefined) optional = [key];
    else optional.push(key);
  }
  return optional;
}

const NONE: readonly unknown[] = [];

export const OPENAI_STRICT: HostProfile = {
  id: HOST,
  title: "OpenAI API, function tools with strict: true",
  rules: OPENAI_STRICT_RULES,
  tool: checkName("openai-strict-name-invalid", OPENAI_NAME, "OpenAI answers 400 for the whole request"),
  list: checkCount(
    "openai-strict-too-many-tools",
    OPENAI_MAX_TOOLS,
    "an OpenAI request may carry: the request fails with 400",
  ),
  // An unsupported keyword, or an object schema (isObjectSchema).
  wakes: { keys: [...STRICT_UNSUPPORTED, "properties"], types: ["object"], typeList: true },
  node(node, hits) {
    const { schema } = node;
    // for...in: JSON objects inherit no enumerable keys, and Object.keys allocates per node.
    for (const key in schema) {
      if (UNSUPPORTED[key] !== true) continue;
      const fix =
        key === "if" || key === "then" || key === "else"
          ? "drop if/then/else (say the condition in the description)"
          : key === "allOf"
            ? "merge the allOf branches into this schema"
            : `drop "${key}"`;
      switch (hits.place("openai-strict-keyword-unsupported")) {
        case FIRST:
          hits.first("openai-strict-keyword-unsupported", {
            path: pointer(node.path, key),
            message: `strict mode does not support "${key}" (at ${node.dotted}): the request fails with 400; fix: ${fix}`,
            evidence: key,
          });
          break;
        case NAMED:
          hits.named("openai-strict-keyword-unsupported", dottedChild(node.dotted, key));
      }
    }
    if (!isObjectSchema(schema)) return;
    if (schema.additionalProperties !== false) {
      switch (hits.place("openai-strict-object-open")) {
        case FIRST:
          hits.first("openai-strict-object-open", {
            path: node.path,
            message: `the object at ${node.dotted} lacks "additionalProperties": false, which strict mode requires (400 otherwise); fix: add "additionalProperties": false here${schema.additionalProperties === undefined ? "" : " in place of the current value"} (the Responses API does this itself when a tool omits strict)`,
            ...(schema.additionalProperties !== undefined && { evidence: schema.additionalProperties }),
          });
          break;
        case NAMED:
          hits.named("openai-strict-object-open", node.dotted);
      }
    }
    if (schema.properties !== undefined && isJsonObject(schema.properties)) {
      const optional = optionalKeys(schema.properties, Array.isArray(schema.required) ? schema.required : NONE);
      if (optional !== undefined) {
        switch (hits.place("openai-strict-property-optional")) {
          case FIRST:
            hits.first("openai-strict-property-optional", {
              path: pointer(node.path, "required"),
              message: `${optional.length === 1 ? "property" : "properties"} ${optional.map((k) => JSON.stringify(k)).join(", ")} of ${node.dotted} ${optional.length === 1 ? "is" : "are"} not required, which strict mode does not allow (400 otherwise); fix: add ${optional.length === 1 ? "it" : "them"} to "required" and add "null" to ${optional.length === 1 ? "its" : "their"} type so callers may still leave ${optional.length === 1 ? "it" : "them"} empty`,
              evidence: optional,
            });
            break;
          case NAMED:
            hits.named(
              "openai-strict-property-optional",
              `${optional.map((k) => JSON.stringify(k)).join(", ")} of ${node.dotted}`,
            );
        }
      }
    }
  },
};
