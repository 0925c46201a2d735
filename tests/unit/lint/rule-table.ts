/**
 * What the table-driven lint rule tests (protocol, quality) share: comparing a rule's findings
 * with a row's expectations, and the checks every catalog group must pass (a positive and a
 * negative row per rule; complete, kebab-case, unique metadata).
 */
import { expect } from "bun:test";
import { LINT_CHECKS } from "../../../src/lint/catalog.ts";
import type { Finding, LintCheck } from "../../../src/lint/model.ts";
import type { LintGroup, LintRule } from "../../../src/rules/model.ts";
import { LINT_RULES, type LintRuleId } from "../../../src/rules/registry.ts";

/** A lint rule's registry entry with its check, as the table-driven tests run it. */
export type CheckedRule = LintRule & { id: LintRuleId; check: LintCheck };

/** The rules of one lint group, in registry order, each with its check. */
export function checkedRules(group: LintGroup): CheckedRule[] {
  return LINT_RULES.filter((rule) => rule.group === group).map((rule) => ({
    ...rule,
    id: rule.id as LintRuleId,
    check: LINT_CHECKS[rule.id as LintRuleId],
  }));
}

export interface ExpectedFinding {
  path: string;
  /** A part of the message. */
  message: string;
  kind?: string;
  name?: string;
}

export function expectFindings(
  findings: readonly Omit<Finding, "rule" | "level">[],
  expected: readonly ExpectedFinding[],
) {
  expect(findings).toHaveLength(expected.length);
  expected.forEach((want, i) => {
    const got = findings[i]!;
    expect(got.path).toBe(want.path);
    expect(got.message).toContain(want.message);
    if (want.kind) expect(got.target.kind).toBe(want.kind as never);
    if (want.name !== undefined) expect(got.target.name).toBe(want.name);
  });
}

/** Every rule has a row with findings and a row without. */
export function expectPositiveAndNegativeRows(
  rules: readonly LintRule[],
  rows: readonly { rule: string; expected: readonly unknown[] }[],
) {
  for (const rule of rules) {
    const mine = rows.filter((row) => row.rule === rule.id);
    expect({ id: rule.id, positive: mine.some((r) => r.expected.length > 0) }).toEqual({ id: rule.id, positive: true });
    expect({ id: rule.id, negative: mine.some((r) => r.expected.length === 0) }).toEqual({
      id: rule.id,
      negative: true,
    });
  }
}

export function expectCompleteMetadata(rules: readonly LintRule[], group: LintGroup) {
  const ids = new Set<string>();
  for (const rule of rules) {
    expect(rule.id).toMatch(/^[a-z]+(-[a-z0-9]+)*$/);
    expect(ids.has(rule.id)).toBe(false);
    ids.add(rule.id);
    expect(rule.group).toBe(group);
    for (const field of [rule.summary, rule.rationale, rule.example]) expect(field.length).toBeGreaterThan(0);
  }
}
