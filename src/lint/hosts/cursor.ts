/** Cursor: a cap on the tools sent to the agent, and tool names of letters, digits and underscores. Pure. */
import type { HostProfile } from "./model.ts";
import { checkName, type NameRule } from "./names.ts";
import { checkCount } from "./openai.ts";
import { hostRule } from "./rule.ts";

const HOST = "cursor";
export const CURSOR_MAX_TOOLS = 40;
/**
 * Cursor's error says "alphanumeric characters and underscores", but every name its issue shows
 * rejected has a dot; with no source showing a dashed name rejected, dashes are let through.
 */
const NAME: NameRule = { char: /[A-Za-z0-9_-]/, max: 128 };

export const CURSOR_RULES = [
  hostRule({
    id: "cursor-too-many-tools",
    host: HOST,
    impact: "tool-dropped",
    summary: "the server lists more than the 40 tools Cursor gives its agent",
    rationale:
      'Cursor gives the agent at most 40 MCP tools across all enabled servers and warns beyond that; tools past the cap are not available to the agent. Sources disagree on the number as Cursor changed: 40 in 2025 (user reports, server READMEs), "under 50" in a 2026 vendor guide; the rule checks 40.',
    example: "tools/list returns 45 tools",
    sources: [
      "https://github.com/modelcontextprotocol/.github/discussions/360",
      "https://gitlab.com/fforster/gitlab-mcp/-/issues/36",
      "https://gcore.com/docs/developer-tools/mcp-server/connect-cursor-to-gcore-mcp-server",
    ],
  }),
  hostRule({
    id: "cursor-name-invalid",
    host: HOST,
    impact: "tool-dropped",
    summary: "Cursor drops a tool whose name has characters other than letters, digits, underscores and dashes",
    rationale:
      'Cursor refuses a tool whose name has anything but letters, digits and underscores ("Tool name must only contain alphanumeric characters and underscores", July 2026): dotted names such as `meta.index` are dropped while the server\'s other tools still work. The error text also excludes dashes, but every name the issue shows rejected has a dot and no source shows a dashed name rejected, so dashes are not reported.',
    example: '"name": "components.list"',
    sources: ["https://github.com/webstudio-is/webstudio/issues/5960"],
  }),
] as const;

export const CURSOR: HostProfile = {
  id: HOST,
  title: "Cursor",
  rules: CURSOR_RULES,
  tool: checkName("cursor-name-invalid", NAME, "Cursor drops the tool"),
  list: checkCount("cursor-too-many-tools", CURSOR_MAX_TOOLS, "tools Cursor gives its agent: the rest are dropped"),
};
