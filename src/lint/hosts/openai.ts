/**
 * OpenAI API, function tools (Chat Completions and Responses), not strict: the function-name
 * pattern and the 128-tool cap of a request. Pure.
 */
import type { Contract } from "../../contract/model.ts";
import type { HostHit, HostProfile } from "./model.ts";
import { checkName, type NameRule } from "./names.ts";
import { hostRule } from "./rule.ts";

const HOST = "openai";

/** `^[a-zA-Z0-9_-]{1,64}$`: OpenAI's FunctionDefinition.name, as its SDKs' docs repeat it. */
export const OPENAI_NAME: NameRule = { char: /[A-Za-z0-9_-]/, max: 64 };
export const OPENAI_MAX_TOOLS = 128;

/** The rejection first (its error text), then a copy of OpenAI's FunctionDefinition reference. */
export const OPENAI_NAME_SOURCES = [
  "https://github.com/Lucassssss/eechat/issues/52",
  "https://github.com/modelcontextprotocol/csharp-sdk/issues/679",
  "https://v02.api.js.langchain.com/interfaces/_langchain_core.language_models_base.FunctionDefinition.html",
];
export const OPENAI_COUNT_SOURCES = [
  "https://github.com/zed-industries/zed/issues/32946",
  "https://github.com/vishalmysore/Tools4AI/issues/16",
];

export const OPENAI_NAME_RATIONALE =
  "OpenAI function names must be 1–64 characters of letters, digits, underscores and dashes (`^[a-zA-Z0-9_-]{1,64}$`); MCP also allows dots and 128 characters. One bad name fails the whole request with 400 \"Invalid 'tools[N].function.name': string does not match pattern\", so no tool of any server works. Many MCP clients that bridge to OpenAI rename on their side (dots to underscores), but not all do.";
export const OPENAI_COUNT_RATIONALE =
  "A request may carry at most 128 tools; more fails with 400 \"Invalid 'tools': array too long. Expected an array with maximum length 128\". The count is over every server a client has enabled, so a server that alone lists more than 128 can never be used whole.";

export const OPENAI_RULES = [
  hostRule({
    id: "openai-name-invalid",
    host: HOST,
    impact: "list-rejected",
    summary: "OpenAI rejects a function name outside ^[a-zA-Z0-9_-]{1,64}$",
    rationale: OPENAI_NAME_RATIONALE,
    example: '"name": "files.read" (dot)',
    sources: OPENAI_NAME_SOURCES,
  }),
  hostRule({
    id: "openai-too-many-tools",
    host: HOST,
    impact: "list-rejected",
    summary: "the server lists more than the 128 tools an OpenAI request may carry",
    rationale: OPENAI_COUNT_RATIONALE,
    example: "tools/list returns 150 tools",
    sources: OPENAI_COUNT_SOURCES,
  }),
] as const;

/** The list check for a tool cap: `ruleId` when the server alone lists more than `max`. */
export function checkCount(ruleId: string, max: number, does: string) {
  return (contract: Contract, hit: (h: HostHit & { kind: "server"; name: string }) => void): void => {
    const count = contract.tools.length;
    if (count <= max) return;
    hit({
      rule: ruleId,
      kind: "server",
      name: "",
      path: "/tools",
      message: `the server lists ${count} tools, over the ${max} ${does}; fix: split it into servers of at most ${max} tools, or let users enable a subset (toolsets)`,
      evidence: { tools: count, max },
    });
  };
}

export const OPENAI: HostProfile = {
  id: HOST,
  title: "OpenAI API, function tools",
  rules: OPENAI_RULES,
  tool: checkName("openai-name-invalid", OPENAI_NAME, "OpenAI answers 400 for the whole request"),
  list: checkCount(
    "openai-too-many-tools",
    OPENAI_MAX_TOOLS,
    "an OpenAI request may carry: the request fails with 400",
  ),
};
