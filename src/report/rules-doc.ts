/**
 * The catalog rendered for people: docs/rules.md (generated; a test fails when it drifts)
 * and the `mcp-contract rules` command. Pure.
 */
import { RULES, type Rule, type RuleGroup } from "../diff/catalog.ts";

const GROUP_TITLES: Record<RuleGroup, string> = {
  schema: "JSON Schema changes (tool inputSchema and outputSchema)",
  tool: "Tools",
  resource: "Resources",
  template: "Resource templates",
  prompt: "Prompts",
  server: "Server",
  security: "Security drift (text that turns hostile)",
};

const GROUP_INTRO: Partial<Record<RuleGroup, string>> = {
  schema:
    "Schema rules have two severities. **Input** applies to what callers send (a tool's `inputSchema`): there, accepting fewer values breaks callers. **Output** applies to what callers receive (a tool's `outputSchema`): there, producing values the old schema did not allow breaks consumers.",
};

export function renderRulesMarkdown(): string {
  const out: string[] = [
    "# Rules",
    "",
    "<!-- Generated from src/diff/catalog.ts by `npm run docs`. Do not edit by hand: a test fails when this file and the catalog differ. -->",
    "",
    "Every change `mcp-contract check` and `diff` report has a rule id and a severity:",
    "**breaking** (clients built against the old surface can fail; requires a MAJOR version bump),",
    "**minor** (compatible additions; MINOR) or **patch** (documentation and metadata only; PATCH).",
    "`mcp-contract rules ID` explains one rule in the terminal.",
    "",
  ];
  for (const group of Object.keys(GROUP_TITLES) as RuleGroup[]) {
    const rules = RULES.filter((r) => r.group === group);
    out.push(`## ${GROUP_TITLES[group]}`, "");
    if (GROUP_INTRO[group]) out.push(GROUP_INTRO[group] as string, "");
    out.push(group === "schema" ? "| rule | input | output | summary |" : "| rule | severity | summary |");
    out.push(group === "schema" ? "| --- | --- | --- | --- |" : "| --- | --- | --- |");
    for (const r of rules) {
      out.push(
        group === "schema"
          ? `| [\`${r.id}\`](#${r.id}) | ${r.input} | ${r.output} | ${r.summary} |`
          : `| [\`${r.id}\`](#${r.id}) | ${r.input} | ${r.summary} |`,
      );
    }
    out.push("");
    for (const r of rules) out.push(renderRuleMarkdown(r), "");
  }
  return `${out.join("\n").trimEnd()}\n`;
}

/** One rule's section of docs/rules.md. */
export function renderRuleMarkdown(r: Rule): string {
  const lines = [
    `### ${r.id}`,
    "",
    `${capitalize(r.summary)}. ${severityLine(r)}`,
    "",
    r.rationale,
    "",
    "Example:",
    "",
    "```",
    r.example,
    "```",
  ];
  return lines.join("\n");
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function severityLine(rule: Rule): string {
  return rule.group === "schema" && rule.input !== rule.output
    ? `Severity: **${rule.input}** on input, **${rule.output}** on output.`
    : `Severity: **${rule.input}**.`;
}

export function renderRulesList(): string {
  const width = Math.max(...RULES.map((r) => r.id.length));
  const lines = [`${"RULE".padEnd(width)}  ${"INPUT".padEnd(8)}  ${"OUTPUT".padEnd(8)}  SUMMARY`];
  for (const r of RULES) lines.push(`${r.id.padEnd(width)}  ${r.input.padEnd(8)}  ${r.output.padEnd(8)}  ${r.summary}`);
  return `${lines.join("\n")}\n`;
}

export function renderRuleDetail(rule: Rule): string {
  return `${rule.id} (${GROUP_TITLES[rule.group]})\n\n${capitalize(rule.summary)}.\n${severityLine(rule).replace(/\*\*/g, "")}\n\n${rule.rationale}\n\nExample:\n  ${rule.example}\n`;
}
