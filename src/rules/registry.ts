/**
 * The one registry of every rule, diff and lint, and the one way to look a rule up. Rule ids
 * are typed: an emit site that names a rule the registry does not have fails to compile.
 * Pure; imports nothing but the rule tables.
 */
import { HOST_RULE_ROWS } from "../lint/hosts/profiles.ts";
import { suggest } from "../util/text.ts";
import { DIFF_RULE_ROWS } from "./diff/index.ts";
import { LINT_RULE_ROWS } from "./lint/index.ts";
import type { DiffRule, DiffRuleTrait, LintRule, Rule, RuleCatalog } from "./model.ts";

export type DiffRuleId = (typeof DIFF_RULE_ROWS)[number]["id"];
/** Lint rules, host rules (src/lint/hosts/, group "hosts", reported with `lint --hosts`) among them. */
export type LintRuleId = (typeof LINT_RULE_ROWS)[number]["id"] | (typeof HOST_RULE_ROWS)[number]["id"];
export type RuleId = DiffRuleId | LintRuleId;

/**
 * Each row gets its catalog in place, once, as the module loads. A copy of every row (a spread
 * per rule) cost 0.6 ms of every run's start-up, in code that runs once and so never gets fast.
 */
function tag<Row, C extends RuleCatalog>(rows: readonly Row[], catalog: C): readonly (Row & { catalog: C })[] {
  for (const row of rows) (row as Row & { catalog: C }).catalog = catalog;
  return rows as readonly (Row & { catalog: C })[];
}

/** The diff rules (`check`, `diff`), in catalog order. */
export const DIFF_RULES: readonly DiffRule[] = tag(DIFF_RULE_ROWS, "diff");
/** The lint rules (`lint`), in catalog order: protocol, quality, security, then the host rules. */
export const LINT_RULES: readonly LintRule[] = tag([...LINT_RULE_ROWS, ...HOST_RULE_ROWS], "lint");
/** Every rule: diff rules first. Ids never collide (a unit test says so). */
export const RULES: readonly Rule[] = [...DIFF_RULES, ...LINT_RULES];

// A loop, not a Map built from mapped pairs: code that runs once, at every start-up, runs in the
// interpreter, where a callback and a pair per rule cost more than the map they fill.
const BY_ID = new Map<string, Rule>();
for (const rule of RULES) BY_ID.set(rule.id, rule);

/** The rule of either catalog with this id, when there is one (ids typed by users). */
export function findRule(id: string): Rule | undefined {
  return BY_ID.get(id);
}

/** A diff rule by its typed id: it always exists. */
export function diffRule(id: DiffRuleId): DiffRule {
  return BY_ID.get(id) as DiffRule;
}

let withTrait: Map<DiffRuleTrait, Set<string>> | undefined;

/**
 * The ids of the diff rules with a trait (see DiffRuleTrait), as a set. Every trait's set is
 * made in one pass over the rows on the first call: five modules ask for one as they load, and
 * a pass per trait was five walks over every row at every start-up.
 */
export function diffRulesWith(trait: DiffRuleTrait): ReadonlySet<string> {
  if (withTrait === undefined) {
    withTrait = new Map();
    for (const rule of DIFF_RULES) {
      for (const t of rule.traits ?? []) {
        const ids = withTrait.get(t) ?? new Set<string>();
        ids.add(rule.id);
        withTrait.set(t, ids);
      }
    }
  }
  return withTrait.get(trait) ?? NO_IDS;
}

const NO_IDS: ReadonlySet<string> = new Set();

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
