/**
 * The one Rule type: every rule that `check`, `diff` or `lint` can report, with the metadata
 * people read (`mcp-contract rules`, docs/rules.md, SARIF) and the verdict it carries. Diff
 * rules judge a change by the direction values flow (input: what callers send; output: what
 * they receive); lint rules judge one surface with a level. Pure types and constants.
 */

/** How much a change breaks clients, most severe first. */
export const SEVERITIES = ["breaking", "minor", "patch"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** How serious a lint finding is, most serious first. */
export const LINT_LEVELS = ["error", "warning", "info"] as const;
export type LintLevel = (typeof LINT_LEVELS)[number];

/** Which command family judges a rule: diff rules `check` and `diff`, lint rules `lint`. */
export type RuleCatalog = "diff" | "lint";
export const RULE_CATALOGS: readonly RuleCatalog[] = ["diff", "lint"];

export type DiffGroup = "schema" | "tool" | "resource" | "template" | "prompt" | "server" | "security";
export type LintGroup = "protocol" | "quality" | "security";

interface RuleText {
  id: string;
  /** One line, lower case, no full stop: what the rule reports. */
  summary: string;
  /** Why it matters to clients (Markdown-ish prose: `code` spans). */
  rationale: string;
  /** A before → after (diff) or an offending value (lint). */
  example: string;
}

export interface DiffRule extends RuleText {
  catalog: "diff";
  group: DiffGroup;
  /** Severity when the change is in what callers send (and for rules outside schemas). */
  input: Severity;
  /** Severity when the change is in what callers receive. */
  output: Severity;
}

export interface LintRule extends RuleText {
  catalog: "lint";
  group: LintGroup;
  level: LintLevel;
}

export type Rule = DiffRule | LintRule;

/** A row of a rule table before the registry tags it with its catalog. */
export type DiffRuleRow = Omit<DiffRule, "catalog">;
export type LintRuleRow = Omit<LintRule, "catalog">;
