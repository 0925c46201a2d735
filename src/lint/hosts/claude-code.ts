/** Claude Code: tool descriptions and server instructions cut at 2 KB each. Pure. */
import type { HostProfile } from "./model.ts";
import { hostRule } from "./rule.ts";

const HOST = "claude-code";
/** 2048 characters ("2KB" in the docs; the constant in the client counts characters). */
export const CLAUDE_CODE_TEXT_MAX = 2048;
const DOC = "https://docs.anthropic.com/en/docs/claude-code/mcp#for-mcp-server-authors";

export const CLAUDE_CODE_RULES = [
  hostRule({
    id: "claude-code-description-truncated",
    host: HOST,
    impact: "text-truncated",
    summary: "a tool description is longer than the 2,048 characters Claude Code passes to the model",
    rationale:
      'Claude Code cuts MCP tool descriptions at 2 KB (2,048 characters) and appends "… [truncated]"; the model never reads the rest, with no log line, while /mcp shows the whole text. A description that embeds a usage contract can look complete when cut. Put what the model must know first.',
    example: "a 9,336-character description listing 60 functions: the model sees 15",
    sources: [
      DOC,
      "https://github.com/anthropics/claude-code/issues/41593",
      "https://github.com/anthropics/claude-code/issues/87650",
    ],
  }),
  hostRule({
    id: "claude-code-instructions-truncated",
    host: HOST,
    impact: "text-truncated",
    summary: "the server instructions are longer than the 2,048 characters Claude Code passes to the model",
    rationale:
      "Claude Code cuts server instructions at 2 KB, as it cuts tool descriptions; what follows is never read by the model.",
    example: "3.2 KB of instructions",
    sources: [DOC, "https://github.com/RedHatInsights/insights-mcp/issues/340"],
  }),
] as const;

function cutMessage(length: number, what: string, text: string): string {
  const tail = text.slice(CLAUDE_CODE_TEXT_MAX, CLAUDE_CODE_TEXT_MAX + 40).replace(/\s+/g, " ");
  return `${what} is ${length} characters: Claude Code cuts it at ${CLAUDE_CODE_TEXT_MAX}, so the model never reads the last ${length - CLAUDE_CODE_TEXT_MAX} (from ${JSON.stringify(`${tail}…`)}); fix: shorten it to ${CLAUDE_CODE_TEXT_MAX} characters or fewer, most important first`;
}

export const CLAUDE_CODE: HostProfile = {
  id: HOST,
  title: "Claude Code",
  rules: CLAUDE_CODE_RULES,
  tool(tool, hit) {
    const text = tool.description;
    if (typeof text !== "string" || text.length <= CLAUDE_CODE_TEXT_MAX) return;
    hit({
      rule: "claude-code-description-truncated",
      path: "/description",
      message: cutMessage(text.length, "the description", text),
      evidence: text.length,
    });
  },
  list(contract, hit) {
    const text = contract.instructions;
    if (typeof text !== "string" || text.length <= CLAUDE_CODE_TEXT_MAX) return;
    hit({
      rule: "claude-code-instructions-truncated",
      kind: "server",
      name: "",
      path: "/instructions",
      message: cutMessage(text.length, "the server instructions", text),
      evidence: text.length,
    });
  },
};
