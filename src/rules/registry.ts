/**
 * The one registry of every rule, diff and lint, and the one way to look a rule up. Rule ids
 * are typed: an emit site that names a rule the registry does not have fails to compile.
 * Pure; imports nothing but the rule tables.
 */
import { suggest } from "../util/text.ts";
import { DIFF_RULE_ROWS } from "./diff-rules.ts";
import { LINT_RULE_ROWS } from "./lint-rules.ts";
import type { DiffRule, LintRule, Rule, RuleCatalog } from "./model.ts";

export type DiffRuleId = (typeof DIFF_RULE_ROWS)[number]["id"];
export type LintRuleId = (typeof LINT_RULE_ROWS)[number]["id"];
export type RuleId = DiffRuleId | LintRuleId;

/** The diff rules (`check`, `diff`), in catalog order. */
export const DIFF_RULES: readonly DiffRule[] = DIFF_RULE_ROWS.map((row) => ({ catalog: "diff", ...row }));
/** The lint rules (`lint`), in catalog order: protocol, quality, security. */
export const LINT_RULES: readonly LintRule[] = LINT_RULE_ROWS.map((row) => ({ catalog: "lint", ...row }));
/** Every rule: diff rules first. Ids never collide (a unit test says so). */
export const RULES: readonly Rule[] = [...DIFF_RULES, ...LINT_RULES];

const BY_ID = new Map<string, Rule>(RULES.map((rule) => [rule.id, rule]));

/** The rule of either catalog with this id, when there is one (ids typed by users). */
export function findRule(id: string): Rule | undefined {
  return BY_ID.get(id);
}

/** A diff rule by its typed id: it always exists. */
export function diffRule(id: DiffRuleId): DiffRule {
  return BY_ID.get(id) as DiffRule;
}

/** A lint rule by its typed id: it always exists. */
export function lintRule(id: LintRuleId): LintRule {
  return BY_ID.get(id) as LintRule;
}

/** Which catalog an id belongs to, or undefined for an id no rule has. */
export function catalogOf(id: string): RuleCatalog | undefined {
  return BY_ID.get(id)?.catalog;
}

export function isLintRuleId(id: string): id is LintRuleId {
  return catalogOf(id) === "lint";
}

/** The rules of one catalog, or of both when none is given, in registry order. */
export function rulesOf(catalog?: RuleCatalog): readonly Rule[] {
  return catalog === "diff" ? DIFF_RULES : catalog === "lint" ? LINT_RULES : RULES;
}

/** Ids close to a mistyped one, of one catalog or both, best first. */
export function suggestRuleIds(id: string, catalog?: RuleCatalog, max = 3): string[] {
  return suggest(
    id,
    rulesOf(catalog).map((rule) => rule.id),
    max,
  );
}
