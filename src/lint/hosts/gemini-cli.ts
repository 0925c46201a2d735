/** Gemini CLI: MCP tool names rewritten to what the Gemini API accepts. Pure. */
import type { HostProfile } from "./model.ts";
import { type NameRule, nameProblem, renameFor } from "./names.ts";
import { hostRule } from "./rule.ts";

const HOST = "gemini-cli";
/** What Gemini CLI keeps of a name: letters, digits, _ . : -, a letter or _ first, 63 characters. */
const KEPT: NameRule = { char: /[A-Za-z0-9_.:-]/, first: /[A-Za-z_]/, max: 63 };

export const GEMINI_CLI_RULES = [
  hostRule({
    id: "gemini-cli-name-rewritten",
    host: HOST,
    impact: "name-rewritten",
    summary: "Gemini CLI rewrites a tool name the Gemini API would reject (characters replaced, long names cut)",
    rationale:
      "Gemini CLI sanitizes MCP tool names before sending them: characters other than letters, digits, underscores, dots, colons and dashes become underscores, a name that starts with a digit is prefixed, and names over 63 characters are cut in the middle. The tool still works, but the model (and the user's policy rules) see another name than the one your documentation and prompts use. The server-qualified name (server__tool) is what is cut, so the tool's own name should stay well under 63.",
    example: '"name": "search repos" becomes "search_repos"',
    sources: [
      "https://github.com/google-gemini/gemini-cli/pull/20987",
      "https://github.com/google-gemini/gemini-cli/pull/21039",
    ],
  }),
] as const;

export const GEMINI_CLI: HostProfile = {
  id: HOST,
  title: "Gemini CLI",
  rules: GEMINI_CLI_RULES,
  tool(tool, hit) {
    const name = typeof tool.name === "string" ? tool.name : "";
    const problem = nameProblem(name, KEPT);
    if (problem === undefined) return;
    hit({
      rule: "gemini-cli-name-rewritten",
      path: "/name",
      message:
        name.length > KEPT.max
          ? `the name ${problem}: Gemini CLI cuts it in the middle (it rewrites names itself, so the tool works under the cut name); fix: rename it to ${KEPT.max} characters or fewer, such as ${JSON.stringify(renameFor(name, KEPT))}`
          : `the name ${problem}: Gemini CLI sends it as ${JSON.stringify(renameFor(name, KEPT))} (it rewrites names itself, so the tool works under that name); fix: rename it to that so the model and your docs see one name`,
      evidence: name,
    });
  },
};
