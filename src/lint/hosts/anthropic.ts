/**
 * Anthropic Messages API, custom tools: the tool-name pattern and the pattern of input_schema
 * property keys. Pure.
 */
import { isJsonObject } from "../../contract/model.ts";
import { dottedChild, pointer } from "../../contract/pointer.ts";
import { FIRST, type HostProfile, NAMED } from "./model.ts";
import { checkName, fitsName, type NameRule, nameProblem, renameFor } from "./names.ts";
import { hostRule } from "./rule.ts";

const HOST = "anthropic";

/** `^[a-zA-Z0-9_-]{1,128}$` as the API's 400 quotes it today (it said {1,64} in 2025). */
const TOOL_NAME: NameRule = { char: /[A-Za-z0-9_-]/, max: 128 };
/** `^[a-zA-Z0-9_.-]{1,64}$` for input_schema property keys. */
const PROPERTY_KEY: NameRule = { char: /[A-Za-z0-9_.-]/, max: 64 };

export const ANTHROPIC_RULES = [
  hostRule({
    id: "anthropic-name-invalid",
    host: HOST,
    impact: "list-rejected",
    summary: "the Anthropic API rejects a tool name outside ^[a-zA-Z0-9_-]{1,128}$",
    rationale:
      'Tool names must be letters, digits, underscores and dashes; MCP also allows dots. One bad name fails the whole request with 400 "tools.N.custom.name: String should match pattern \'^[a-zA-Z0-9_-]{1,128}$\'". The length limit changed: the same error quoted `{1,64}` in March 2025 and `{1,128}` since late 2025 ("String should have at most 128 characters" in 2026); the rule checks 128. Clients that prefix the server name (Claude Code\'s mcp__server__tool) make the name longer.',
    example: '"name": "devserver.stop" (dot)',
    sources: [
      "https://github.com/vybestack/llxprt-code/issues/482",
      "https://github.com/anthropics/claude-code/issues/96152",
      "https://github.com/apify/tester-mcp-client/issues/11",
      "https://github.com/whoz-oss/coday/pull/1239",
    ],
  }),
  hostRule({
    id: "anthropic-property-key-invalid",
    host: HOST,
    impact: "list-rejected",
    summary: "an input_schema property key is outside ^[a-zA-Z0-9_.-]{1,64}$, which the Anthropic API rejects",
    rationale:
      "Property keys of a tool's input_schema must be 1–64 letters, digits, underscores, dots and dashes; a key with a space, a slash or a parenthesis fails the request with 400 \"Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'\".",
    example: '"properties": {"score (1-5)": {"type": "integer"}}',
    sources: ["https://github.com/dimagi/open-chat-studio/issues/4027"],
  }),
] as const;

export const ANTHROPIC: HostProfile = {
  id: HOST,
  title: "Anthropic Messages API, custom tools",
  rules: ANTHROPIC_RULES,
  tool: checkName("anthropic-name-invalid", TOOL_NAME, "the API answers 400 for the whole request"),
  wakes: { keys: ["properties"] },
  node(node, hits) {
    const properties = node.schema.properties;
    if (properties === undefined || !isJsonObject(properties)) return;
    for (const key in properties) {
      if (fitsName(key, PROPERTY_KEY)) continue;
      const problem = nameProblem(key, PROPERTY_KEY) as string;
      switch (hits.place("anthropic-property-key-invalid")) {
        case FIRST:
          hits.first("anthropic-property-key-invalid", {
            path: pointer(node.path, "properties", key),
            message: `the property key ${JSON.stringify(key)} ${problem}: the API answers 400 for the whole request; fix: rename it to ${JSON.stringify(renameFor(key, PROPERTY_KEY))}`,
            evidence: key,
          });
          break;
        case NAMED:
          hits.named("anthropic-property-key-invalid", dottedChild(dottedChild(node.dotted, "properties"), key));
      }
    }
  },
};
