/**
 * The rule registry rendered for people and scripts: docs/rules.md (generated; a test fails
 * when it drifts) and the `mcp-contract rules` command, in text, JSON and Markdown. Diff rules
 * judge what `check` and `diff` report; lint rules are what `lint` reports. Pure.
 */
import type { DiffGroup, DiffRule, LintGroup, LintRule, Rule, RuleCatalog } from "./model.ts";
import { DIFF_RULES, LINT_RULES } from "./registry.ts";

export const GROUP_TITLES: Record<DiffGroup, string> = {
  schema: "JSON Schema changes (tool inputSchema and outputSchema)",
  tool: "Tools",
  resource: "Resources",
  template: "Resource templates",
  prompt: "Prompts",
  skill: "Skills (the Skills extension, SEP-2640)",
  item: "Any item (tools, resources, templates, prompts)",
  server: "Server",
  security: "Security drift (text that turns hostile)",
};

export const LINT_GROUP_TITLES: Record<LintGroup, string> = {
  protocol: "Protocol correctness",
  quality: "Quality for the model that reads it",
  security: "Security: tool poisoning",
  hosts: "Host compatibility (`lint --hosts`)",
};

const HOSTS_INTRO =
  'Reported only for the host profiles named by `--hosts NAME,…` (or `all`, or the policy file\'s `"hosts"`): what a model API or MCP client rejects or rewrites although MCP allows it. An error when the host rejects the tool or the whole tool list, a warning when it cuts a text or rewrites a name. Each rule names its host, what happens to the user, its sources (vendor documentation, or a public issue quoting the rejection) and the day they were checked. With `check --hosts` and `diff --hosts`, a change that brings in such a rejection is breaking (`host-incompatibility-added`).';

const IMPACT_LABEL: Record<NonNullable<LintRule["impact"]>, string> = {
  "list-rejected": "the whole tool list is rejected",
  "tool-dropped": "the tool is dropped",
  "text-truncated": "the text is cut",
  "name-rewritten": "the name is rewritten",
  "argument-lost": "part of the schema is lost",
};

/** A host rule's facts as lines: host, impact, sources with the day checked. */
function hostLines(r: LintRule, markdown: boolean): string[] {
  if (r.host === undefined) return [];
  const code = (t: string) => (markdown ? `\`${t}\`` : t);
  const impact = r.impact ? IMPACT_LABEL[r.impact] : "";
  return [
    `Host: ${code(r.host)}. Impact: ${impact}.`,
    `Sources (checked ${r.checked}):`,
    ...(r.sources ?? []).map((url) => (markdown ? `- <${url}>` : `  ${url}`)),
  ];
}

const GROUP_INTRO: Partial<Record<DiffGroup, string>> = {
  schema:
    "Schema rules have two severities. **Input** applies to what callers send (a tool's `inputSchema`): there, accepting fewer values breaks callers. **Output** applies to what callers receive (a tool's `outputSchema`): there, producing values the old schema did not allow breaks consumers.",
};

const LINT_HEADING = "Lint rules (`mcp-contract lint`)";

// ---------------------------------------------------------------------------------------------
// JSON

export interface DiffRuleJson {
  catalog: "diff";
  id: string;
  group: DiffGroup;
  summary: string;
  input: DiffRule["input"];
  output: DiffRule["output"];
  rationale: string;
  example: string;
}

export interface LintRuleJson {
  catalog: "lint";
  id: string;
  group: LintGroup;
  level: LintRule["level"];
  summary: string;
  rationale: string;
  example: string;
  /** Host rules only. */
  host?: string;
  impact?: LintRule["impact"];
  sources?: readonly string[];
  checked?: string;
}

/** One rule as `rules --format json` prints it: `catalog` first, then the catalog's own fields (never a lint rule's check). */
export function ruleJson(rule: Rule): DiffRuleJson | LintRuleJson {
  if (rule.catalog === "diff") {
    const { id, group, summary, input, output, rationale, example } = rule;
    return { catalog: "diff", id, group, summary, input, output, rationale, example };
  }
  const { id, group, level, summary, rationale, example, host, impact, sources, checked } = rule;
  const hostFields = host === undefined ? {} : { host, impact, sources, checked };
  return { catalog: "lint", id, group, level, summary, rationale, example, ...hostFields };
}

// ---------------------------------------------------------------------------------------------
// Markdown (docs/rules.md)

/**
 * docs/rules.md: the diff rules, then the lint rules. With a catalog, only that part (without
 * the generated-file comment), for `mcp-contract rules --catalog lint --format markdown`.
 */
export function renderRulesMarkdown(catalog?: RuleCatalog): string {
  const out: string[] = ["# Rules", ""];
  if (catalog === undefined) {
    out.push(
      "<!-- Generated from the rule registry (src/rules/) by `npm run docs`. Do not edit by hand: a test fails when this file and the registry differ. -->",
      "",
    );
  }
  if (catalog === undefined || catalog === "diff") out.push(...diffMarkdown(catalog === undefined));
  if (catalog === undefined || catalog === "lint") out.push(...lintMarkdown());
  return `${out.join("\n").trimEnd()}\n`;
}

function diffMarkdown(withLintLink: boolean): string[] {
  const out: string[] = [
    "Every change `mcp-contract check` and `diff` report has a rule id and a severity:",
    "**breaking** (clients built against the old surface can fail; requires a MAJOR version bump),",
    "**minor** (compatible additions; MINOR) or **patch** (documentation and metadata only; PATCH).",
    ...(withLintLink
      ? [
          `The findings of \`mcp-contract lint\` have rules of their own, with a level instead: see [${LINT_HEADING}](#${slug(LINT_HEADING)}).`,
        ]
      : []),
    "`mcp-contract rules ID` explains one rule in the terminal.",
    "",
  ];
  for (const group of Object.keys(GROUP_TITLES) as DiffGroup[]) {
    const rules = DIFF_RULES.filter((r) => r.group === group);
    if (rules.length === 0) continue;
    out.push(`## ${GROUP_TITLES[group]}`, "");
    if (GROUP_INTRO[group]) out.push(GROUP_INTRO[group] as string, "");
    out.push(group === "schema" ? "| rule | input | output | summary |" : "| rule | severity | summary |");
    out.push(group === "schema" ? "| --- | --- | --- | --- |" : "| --- | --- | --- |");
    for (const r of rules) {
      out.push(
        group === "schema"
          ? `| [\`${r.id}\`](#${r.id}) | ${r.input} | ${r.output} | ${cell(r.summary)} |`
          : `| [\`${r.id}\`](#${r.id}) | ${r.input} | ${cell(r.summary)} |`,
      );
    }
    out.push("");
    for (const r of rules) out.push(renderRuleMarkdown(r), "");
  }
  return out;
}

function lintMarkdown(): string[] {
  const groups = (Object.keys(LINT_GROUP_TITLES) as LintGroup[]).filter((g) => LINT_RULES.some((r) => r.group === g));
  const out: string[] = [
    `## ${LINT_HEADING}`,
    "",
    "`mcp-contract lint` checks one surface on its own, a live server or a lockfile, with no baseline. Every finding has a rule id and a level:",
    "**error** (the surface is broken for clients, or hostile to the model that reads it),",
    "**warning** (probably a mistake, worth fixing) or **info** (a suggestion).",
    "The command exits 1 when a finding is at or above `--fail-on` (default `error`; `never` only reports).",
    "`--disable <id>` (comma-separated, repeatable) turns rules off for one run; the policy file, mcp-contract.config.json,",
    'changes a rule\'s level or turns it off for good: `"rules": {"embedded-url": "info", "tool-description-too-short": "off"}`.',
    "",
    ...groups.map((g) => `- [${LINT_GROUP_TITLES[g]}](#${slug(LINT_GROUP_TITLES[g])})`),
    "",
  ];
  for (const group of groups) {
    const rules = LINT_RULES.filter((r) => r.group === group);
    out.push(`## ${LINT_GROUP_TITLES[group]}`, "");
    if (group === "hosts") out.push(HOSTS_INTRO, "");
    out.push(group === "hosts" ? "| rule | host | level | summary |" : "| rule | level | summary |");
    out.push(group === "hosts" ? "| --- | --- | --- | --- |" : "| --- | --- | --- |");
    for (const r of rules) {
      out.push(
        group === "hosts"
          ? `| [\`${r.id}\`](#${r.id}) | ${r.host} | ${r.level} | ${cell(r.summary)} |`
          : `| [\`${r.id}\`](#${r.id}) | ${r.level} | ${cell(r.summary)} |`,
      );
    }
    out.push("");
    for (const r of rules) out.push(renderLintRuleMarkdown(r), "");
  }
  return out;
}

/** One diff rule's section of docs/rules.md. */
export function renderRuleMarkdown(r: DiffRule): string {
  return section(r.id, `${prose(sentence(r.summary))} ${severityLine(r)}`, r.rationale, r.example);
}

/** One lint rule's section of docs/rules.md. */
export function renderLintRuleMarkdown(r: LintRule): string {
  const text = section(r.id, `${prose(sentence(r.summary))} Level: **${r.level}**.`, r.rationale, r.example);
  return r.host === undefined ? text : `${text}\n\n${hostLines(r, true).join("\n")}`;
}

/** One rule of either catalog as Markdown. */
export function renderAnyRuleMarkdown(rule: Rule): string {
  return rule.catalog === "diff" ? renderRuleMarkdown(rule) : renderLintRuleMarkdown(rule);
}

/** `lead` is Markdown already; the rationale is catalog prose. */
function section(id: string, lead: string, rationale: string, example: string): string {
  const fence = codeFence(example);
  return [`### ${id}`, "", lead, "", prose(rationale), "", "Example:", "", fence, example, fence].join("\n");
}

/**
 * GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. SARIF reports
 * link to docs/rules.md#<rule id>, so rule ids must be the only headings with those anchors.
 */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/**
 * Catalog prose as Markdown text: outside `code spans`, a `<` would start an HTML tag
 * (`<IMPORTANT>` would vanish), a `*` could start emphasis and two `$` (`$ref … #/$defs`)
 * could make GitHub typeset math, so all three are escaped.
 */
function prose(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, "&lt;").replace(/([*$])/g, "\\$1")))
    .join("");
}

/** Prose inside a table cell: additionally, `|` would end the cell. */
function cell(text: string): string {
  return prose(text).replace(/\|/g, "\\|");
}

function codeFence(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return "`".repeat(Math.max(3, longest + 1));
}

// ---------------------------------------------------------------------------------------------
// Terminal text

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A summary as a sentence: capitalized, ending in a full stop (lint summaries may already have one). */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? capitalize(text) : `${capitalize(text)}.`;
}

function severityLine(rule: DiffRule): string {
  return rule.group === "schema" && rule.input !== rule.output
    ? `Severity: **${rule.input}** on input, **${rule.output}** on output.`
    : `Severity: **${rule.input}**.`;
}

export const DIFF_LIST_HEADING =
  "Diff rules, reported by `mcp-contract check` and `mcp-contract diff` (severity of a change):";
export const LINT_LIST_HEADING = "Lint rules, reported by `mcp-contract lint` (level of a finding):";

/** The aligned tables of `mcp-contract rules`: diff rules, then lint rules (or only one catalog), each under a one-line heading. */
export function renderRulesList(catalog?: RuleCatalog): string {
  const sections: string[] = [];
  if (catalog === undefined || catalog === "diff") sections.push(renderDiffList());
  if (catalog === undefined || catalog === "lint") sections.push(renderLintList());
  return sections.join("\n");
}

function renderDiffList(): string {
  const width = Math.max("RULE".length, ...DIFF_RULES.map((r) => r.id.length));
  const lines = [DIFF_LIST_HEADING, `${"RULE".padEnd(width)}  ${"INPUT".padEnd(8)}  ${"OUTPUT".padEnd(8)}  SUMMARY`];
  for (const r of DIFF_RULES)
    lines.push(`${r.id.padEnd(width)}  ${r.input.padEnd(8)}  ${r.output.padEnd(8)}  ${r.summary}`);
  return `${lines.join("\n")}\n`;
}

function renderLintList(): string {
  const width = Math.max("LINT RULE".length, ...LINT_RULES.map((r) => r.id.length));
  const levelWidth = Math.max("LEVEL".length, ...LINT_RULES.map((r) => r.level.length));
  const groupWidth = Math.max("GROUP".length, ...LINT_RULES.map((r) => r.group.length));
  const lines = [
    LINT_LIST_HEADING,
    `${"LINT RULE".padEnd(width)}  ${"LEVEL".padEnd(levelWidth)}  ${"GROUP".padEnd(groupWidth)}  SUMMARY`,
  ];
  for (const r of LINT_RULES) {
    lines.push(`${r.id.padEnd(width)}  ${r.level.padEnd(levelWidth)}  ${r.group.padEnd(groupWidth)}  ${r.summary}`);
  }
  return `${lines.join("\n")}\n`;
}

export function renderRuleDetail(rule: DiffRule): string {
  return `${rule.id} (${GROUP_TITLES[rule.group]})\n\n${sentence(rule.summary)}\n${severityLine(rule).replace(/\*\*/g, "")}\n\n${rule.rationale}\n\nExample:\n  ${rule.example}\n\nReported by \`mcp-contract check\` and \`mcp-contract diff\`.\n`;
}

export function renderLintRuleDetail(rule: LintRule): string {
  // The override shown is another level than the rule's own, so the example changes something.
  const other = rule.level === "warning" ? "info" : "warning";
  return [
    `${rule.id} (lint: ${LINT_GROUP_TITLES[rule.group]})`,
    "",
    sentence(rule.summary),
    `Level: ${rule.level}.`,
    "",
    rule.rationale,
    "",
    "Example:",
    `  ${rule.example}`,
    "",
    ...(rule.host === undefined ? [] : [...hostLines(rule, false), ""]),
    `Reported by \`mcp-contract lint${rule.host === undefined ? "" : ` --hosts ${rule.host}`}\`; change its level or turn it off in the policy file (\`"rules": {"${rule.id}": "${other}"}\`) or with \`--disable ${rule.id}\`.`,
    "",
  ].join("\n");
}

/** One rule of either catalog, explained in the terminal. */
export function renderAnyRuleDetail(rule: Rule): string {
  return rule.catalog === "diff" ? renderRuleDetail(rule) : renderLintRuleDetail(rule);
}
