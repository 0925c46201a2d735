/**
 * The one lint catalog: protocol correctness, quality for the model that reads the surface,
 * and security (tool poisoning). Each group lives in its own module; this only gathers them.
 */
import type { LintRule } from "./model.ts";
import { PROTOCOL_RULES } from "./rules-protocol.ts";
import { QUALITY_RULES } from "./rules-quality.ts";
import { SECURITY_RULES } from "./rules-security.ts";

export const LINT_RULES: readonly LintRule[] = [...PROTOCOL_RULES, ...QUALITY_RULES, ...SECURITY_RULES];

const BY_ID = new Map(LINT_RULES.map((rule) => [rule.id, rule]));

export function findLintRule(id: string): LintRule | undefined {
  return BY_ID.get(id);
}
