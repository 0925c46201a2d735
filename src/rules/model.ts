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

export type DiffGroup =
  | "schema"
  | "tool"
  | "resource"
  | "template"
  | "prompt"
  | "skill"
  | "item"
  | "server"
  | "security";
export type LintGroup = "protocol" | "quality" | "security" | "hosts";

/**
 * What a host does to the user when a tool falls outside what it accepts (host rules only):
 * the whole tool list is rejected (every tool of the server stops working), the tool is
 * dropped, a text is cut, a name is rewritten, or an argument is lost. The first two are
 * errors, the others warnings.
 */
export type HostImpact = "list-rejected" | "tool-dropped" | "text-truncated" | "name-rewritten" | "argument-lost";

interface RuleText {
  id: string;
  /** One line, lower case, no full stop: what the rule reports. */
  summary: string;
  /** Why it matters to clients (Markdown-ish prose: `code` spans). */
  rationale: string;
  /** A before → after (diff) or an offending value (lint). */
  example: string;
}

/**
 * What code elsewhere needs to know of a diff rule, said on its row instead of in lists of ids
 * scattered through the code (where a misspelt id slipped through):
 * - annotation: says nothing about which values are valid (equal meaning; never a witness);
 * - no-interoperable-change: changes values no interoperable client can meet (equal meaning);
 * - node-path: its path names the changed schema node itself, not node + "/" + keyword;
 * - value-identified: fires once per value at one path; the value joins the fingerprint;
 * - duplicate: reports one more copy of an identity (located on its last copy);
 * - text: a rewritten text (reports show a word diff; the changelog, the new text).
 */
export type DiffRuleTrait =
  | "annotation"
  | "no-interoperable-change"
  | "node-path"
  | "value-identified"
  | "duplicate"
  | "text";

export interface DiffRule extends RuleText {
  catalog: "diff";
  group: DiffGroup;
  /** See DiffRuleTrait; most rules have none. */
  traits?: readonly DiffRuleTrait[];
  /** Severity when the change is in what callers send (and for rules outside schemas). */
  input: Severity;
  /** Severity when the change is in what callers receive. */
  output: Severity;
}

export interface LintRule extends RuleText {
  catalog: "lint";
  group: LintGroup;
  level: LintLevel;
  /** Host rules (group "hosts", src/lint/hosts/): the host profile whose constraint this is. */
  host?: string;
  /** Host rules: what happens to the user. */
  impact?: HostImpact;
  /** Host rules: where the constraint is documented (vendor docs, or a public issue quoting the rejection). */
  sources?: readonly string[];
  /** Host rules: the day the sources were last checked (YYYY-MM-DD). */
  checked?: string;
}

export type Rule = DiffRule | LintRule;

/** A row of a rule table before the registry tags it with its catalog. */
export type DiffRuleRow = Omit<DiffRule, "catalog">;
export type LintRuleRow = Omit<LintRule, "catalog">;
