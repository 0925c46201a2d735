/**
 * Run the lint catalog over a contract. Pure; deterministic order (rule catalog order, then
 * target, then path).
 */
import type { Contract } from "../contract/model.ts";
import { LINT_RULES } from "./catalog.ts";
import { DEFAULT_LINT_OPTIONS, type Finding, type LintOptions } from "./model.ts";

export function lintContract(
  contract: Contract,
  options: LintOptions = DEFAULT_LINT_OPTIONS,
  disabled: ReadonlySet<string> = new Set(),
): Finding[] {
  const findings: Finding[] = [];
  for (const rule of LINT_RULES) {
    if (disabled.has(rule.id)) continue;
    const found = rule.check(contract, options).map((f) => ({ ...f, rule: rule.id, level: rule.level }));
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
