/** VS Code (GitHub Copilot Chat): at most 128 tools in a request. Pure. */
import type { HostProfile } from "./model.ts";
import { checkCount } from "./openai.ts";
import { hostRule } from "./rule.ts";

const HOST = "vscode";

export const VSCODE_RULES = [
  hostRule({
    id: "vscode-too-many-tools",
    host: HOST,
    impact: "list-rejected",
    summary: "the server lists more than the 128 tools a Copilot Chat request may carry",
    rationale:
      'Copilot Chat in VS Code sends at most 128 tools per request; with more enabled, every request fails ("You may not include more than 128 tools in your request", "Cannot have more than 128 tools per request"). The count is over all enabled servers and built-in tools, so a server alone over 128 cannot be enabled whole. Later releases changed how tools are counted and grouped ("many fixes since then", microsoft/vscode#257846, December 2025), so newer VS Code may cope; users on the releases in the issues cannot.',
    example: "tools/list returns 150 tools",
    sources: [
      "https://github.com/microsoft/vscode-copilot-release/issues/9375",
      "https://github.com/microsoft/vscode-copilot-release/issues/11653",
      "https://github.com/microsoft/vscode/issues/257846",
    ],
  }),
] as const;

export const VSCODE: HostProfile = {
  id: HOST,
  title: "VS Code (GitHub Copilot Chat)",
  rules: VSCODE_RULES,
  list: checkCount("vscode-too-many-tools", 128, "tools a Copilot Chat request may carry: every request fails"),
};
