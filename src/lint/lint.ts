/**
 * Run every lint rule's check over a contract. Pure; deterministic order (registry order,
 * then target, then path).
 */
import type { Contract } from "../contract/model.ts";
import { LINT_RULES, type LintRuleId } from "../rules/registry.ts";
import { LINT_CHECKS } from "./catalog.ts";
import { DEFAULT_LINT_OPTIONS, type Finding, type LintOptions } from "./model.ts";
import { indexShapes } from "./shapes.ts";

export function lintContract(
  contract: Contract,
  options: LintOptions = DEFAULT_LINT_OPTIONS,
  disabled: ReadonlySet<string> = new Set(),
): Finding[] {
  const findings: Finding[] = [];
  // Shapes and sizes as the contract is now (a caller may have changed it since an earlier run).
  indexShapes(contract, true);
  for (const rule of LINT_RULES) {
    if (disabled.has(rule.id)) continue;
    const id = rule.id as LintRuleId;
    const found = LINT_CHECKS[id](contract, options).map((f) => ({ ...f, rule: id, level: rule.level }));
    found.sort(
      (a, b) =>
        a.target.kind.localeCompare(b.target.kind) ||
        a.target.name.localeCompare(b.target.name) ||
        a.path.localeCompare(b.path),
    );
    findings.push(...found);
  }
  return findings;
}
