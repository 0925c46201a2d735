/**
 * Gemini API, function declarations with `parametersJsonSchema`: the parameters as JSON Schema
 * ($ref, $defs, anyOf, additionalProperties are accepted), exclusive with `parameters`. What is
 * left: the function-name rule of every declaration, and a $ref may carry only a description
 * and a default beside it. Pure.
 */

import { pointer } from "../../contract/pointer.ts";
import { GEMINI_NAME } from "./gemini-parameters.ts";
import { FIRST, type HostProfile, NAMED } from "./model.ts";
import { checkName } from "./names.ts";
import { hostRule } from "./rule.ts";

const HOST = "gemini-json-schema";
const DECLARATION_DOC = "https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/FunctionDeclaration";

/** What may stand beside a $ref (the 400 quoted in anomalyco/opencode#12295). */
const BESIDE_REF: ReadonlySet<string> = new Set(["$ref", "description", "default"]);

export const GEMINI_JSON_SCHEMA_RULES = [
  hostRule({
    id: "gemini-json-schema-name-invalid",
    host: HOST,
    impact: "list-rejected",
    summary:
      "Gemini rejects a function name that does not start with a letter or _ or has characters outside A–Z a–z 0–9 _ . : - or over 64",
    rationale:
      'The function-name rule holds whichever way the parameters are declared: start with a letter or an underscore; letters, digits, underscores, dots, colons and dashes; at most 64 characters (MCP allows 128). The API answers 400 "Invalid function name" for the whole request.',
    example: '"name": "github::search" is fine; "name": "search repos" (space) is not',
    sources: [DECLARATION_DOC, "https://github.com/mcp-router/mcp-router/issues/176"],
  }),
  hostRule({
    id: "gemini-json-schema-ref-with-siblings",
    host: HOST,
    impact: "list-rejected",
    summary: "a $ref stands beside keywords other than description and default, which Gemini rejects",
    rationale:
      'Gemini resolves `$ref` in `parametersJsonSchema`, but a node with a $ref may carry only `description` and `default` beside it: anything else fails the request with 400 "$ref … was set alongside unsupported fields". Older JSON Schema drafts ignored $ref siblings; 2020-12 (the MCP default) applies them, so generators emit them (a `type` or `title` next to the $ref).',
    example: '"unit": {"$ref": "#/$defs/Unit", "title": "Unit"}',
    sources: [
      DECLARATION_DOC,
      "https://github.com/anomalyco/opencode/issues/12295",
      "https://github.com/DEEIX-AI/DEEIX-Chat/pull/564",
    ],
  }),
] as const;

export const GEMINI_JSON_SCHEMA: HostProfile = {
  id: HOST,
  title: "Gemini API, `parametersJsonSchema` (JSON Schema)",
  rules: GEMINI_JSON_SCHEMA_RULES,
  tool: checkName("gemini-json-schema-name-invalid", GEMINI_NAME, "Gemini answers 400 for the whole request"),
  wakes: { keys: ["$ref"] },
  node(node, hits) {
    const { schema } = node;
    if (typeof schema.$ref !== "string") return;
    const extra = Object.keys(schema).filter((key) => !BESIDE_REF.has(key));
    if (extra.length === 0) return;
    switch (hits.place("gemini-json-schema-ref-with-siblings")) {
      case FIRST:
        hits.first("gemini-json-schema-ref-with-siblings", {
          path: pointer(node.path, extra[0] as string),
          message: `the $ref at ${node.dotted} stands beside ${extra.map((k) => `"${k}"`).join(", ")}, which Gemini rejects (only description and default may); fix: move ${extra.length === 1 ? "it" : "them"} into the definition the $ref points at, or inline the $ref`,
          evidence: extra,
        });
        break;
      case NAMED:
        hits.named("gemini-json-schema-ref-with-siblings", node.dotted);
    }
  },
};
