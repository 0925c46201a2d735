/**
 * Every schema rule of the catalog pinned by a table of realistic tool inputSchemas:
 * compareSchemas(old, new) must emit exactly the listed (rule, path) pairs — nothing more —
 * and, where the rule has a natural reverse, the swapped pair must emit the reverse rule.
 * Pairs that mean the same thing written differently must emit nothing.
 *
 * The cases live by keyword family in rules/ (one module each, mirroring src/schema/compare/);
 * here each runs under its family and the rule it pins (`bun test -t required-added` finds a
 * rule's cases). Engine bugs found on real schemas are pinned in rules-regressions.test.ts.
 */
import { describe, expect, test } from "bun:test";
import type { Severity } from "../../../src/rules/model.ts";
import { type DiffRuleId, diffRule, DIFF_RULES as RULES } from "../../../src/rules/registry.ts";
import { ANNOTATION_CASES } from "./rules/annotations.ts";
import { ARRAY_CASES } from "./rules/arrays.ts";
import { NUMBER_CASES } from "./rules/bounds.ts";
import { COMPOSITION_CASES } from "./rules/composition.ts";
import { DEEP_CASES } from "./rules/limits.ts";
import { OBJECT_CASES } from "./rules/objects.ts";
import { PRECISION_CASES } from "./rules/precision.ts";
import { REF_CASES } from "./rules/refs.ts";
import { STRING_CASES } from "./rules/strings.ts";
import { B, type Case, emitted, M, P } from "./rules/table.ts";
import { BOOLEAN_CASES, NULL_CASES, ROOT_CASES, TYPE_CASES } from "./rules/types.ts";
import { VALUE_CASES } from "./rules/values.ts";

const getRule = (id: string) => diffRule(id as DiffRuleId);

const GROUPS: [string, Case[]][] = [
  ["precision (issue #12)", PRECISION_CASES],
  ["root of any type (2026 outputSchema)", ROOT_CASES],
  ["type", TYPE_CASES],
  ["null", NULL_CASES],
  ["enum/const", VALUE_CASES],
  ["object", OBJECT_CASES],
  ["number", NUMBER_CASES],
  ["string", STRING_CASES],
  ["array", ARRAY_CASES],
  ["composition", COMPOSITION_CASES],
  ["$ref", REF_CASES],
  ["annotation", ANNOTATION_CASES],
  ["boolean schema", BOOLEAN_CASES],
  ["deep", DEEP_CASES],
];
const ALL_CASES = GROUPS.flatMap(([, cases]) => cases);

/** The rule a case pins: the first it expects old→new, else new→old; "no change" for equal meanings. */
function pinnedRule(c: Case): string {
  const first = c.expect[0] ?? c.reverse?.[0];
  return first === undefined ? "no change" : first.slice(0, first.indexOf("@"));
}

for (const [group, cases] of GROUPS) {
  describe(`compareSchemas: ${group}`, () => {
    const byRule = new Map<string, Case[]>();
    for (const c of cases) byRule.set(pinnedRule(c), [...(byRule.get(pinnedRule(c)) ?? []), c]);
    for (const [rule, pinned] of byRule) {
      describe(rule, () => {
        for (const c of pinned) {
          test(c.name, () => {
            expect(emitted(c.old, c.new)).toEqual([...c.expect].sort());
            if (c.reverse) expect(emitted(c.new, c.old)).toEqual([...c.reverse].sort());
          });
        }
      });
    }
  });
}

// ── severities: the catalog says what each rule costs in each direction ─────────────────

/** Narrowing rules (the new schema accepts fewer values): breaking for input, minor for output. */
const NARROWING = [
  "type-narrowed",
  "null-removed",
  "enum-added",
  "enum-value-removed",
  "const-added",
  "closed-object-property-removed",
  "required-added",
  "additional-properties-restricted",
  "dependent-required-added",
  "min-properties-raised",
  "max-properties-lowered",
  "minimum-raised",
  "maximum-lowered",
  "multiple-of-narrowed",
  "min-length-raised",
  "max-length-lowered",
  "pattern-added",
  "format-added",
  "min-items-raised",
  "max-items-lowered",
  "unique-items-added",
  "contains-added",
  "any-of-branch-removed",
];
/** Widening rules, index-aligned with their narrowing reverse: minor for input, breaking for output. */
const WIDENING = [
  "type-widened",
  "null-added",
  "enum-removed",
  "enum-value-added",
  "const-removed",
  "closed-object-property-added",
  "required-removed",
  "additional-properties-relaxed",
  "dependent-required-removed",
  "min-properties-lowered",
  "max-properties-raised",
  "minimum-lowered",
  "maximum-raised",
  "multiple-of-widened",
  "min-length-lowered",
  "max-length-raised",
  "pattern-removed",
  "format-removed",
  "min-items-lowered",
  "max-items-raised",
  "unique-items-removed",
  "contains-removed",
  "any-of-branch-added",
];
/** Changes that cannot be judged one way: breaking both ways so that a person reviews them. */
const REVIEW = [
  "const-changed",
  "pattern-properties-changed",
  "multiple-of-changed",
  "pattern-changed",
  "format-changed",
  "items-tuple-changed",
  "composition-changed",
  "not-changed",
  "conditional-changed",
  "ref-target-unresolvable",
];

const EXPECTED_SEVERITY: Record<string, [input: Severity, output: Severity]> = {
  ...Object.fromEntries(NARROWING.map((id) => [id, [B, M]])),
  ...Object.fromEntries(WIDENING.map((id) => [id, [M, B]])),
  ...Object.fromEntries(REVIEW.map((id) => [id, [B, B]])),
  // An optional property on an open object: minor both ways (a pragmatic choice, see the catalog).
  "property-added": [M, M],
  // Its removal: on output consumers lose the property.
  "property-removed": [M, M],
  // Required with a default: a server that fills in defaults still accepts calls that omit it.
  "required-added-with-default": [M, M],
  "comparison-limit-reached": [B, B],
  // The $schema line alone is a label; meaning changes of a dialect switch get their own rules.
  "schema-dialect-changed": [P, P],
  // ±(2^53−1) on an integer is no bound (RFC 8259 §6, RFC 7493).
  "safe-integer-bound-changed": [P, P],
  // A branch change another branch accepts on both sides: nothing the union accepted is rejected.
  "union-branch-change-absorbed": [P, P],
  // Under oneOf the union moves the other way than the branch (a value matching two branches is rejected).
  "oneof-overlap-removed": [M, B],
  "oneof-overlap-added": [B, M],
  "default-changed": [M, M],
  "deprecated-added": [M, M],
  "deprecated-removed": [M, M],
  "read-write-only-changed": [M, M],
  "description-changed": [P, P],
  "annotation-keyword-changed": [P, P],
};

const SCHEMA_RULES = RULES.filter((rule) => rule.group === "schema");

describe("catalog severities of schema rules", () => {
  test("the expectation table names exactly the catalog's schema rules", () => {
    expect(Object.keys(EXPECTED_SEVERITY).sort()).toEqual(SCHEMA_RULES.map((rule) => rule.id).sort());
  });

  for (const rule of SCHEMA_RULES) {
    const expected = EXPECTED_SEVERITY[rule.id];
    test(`${rule.id}: input ${expected?.[0]}, output ${expected?.[1]}`, () => {
      expect([rule.input, rule.output]).toEqual(expected as [Severity, Severity]);
    });
  }

  test("narrowing and widening rules are mirror images (input of one = output of its reverse)", () => {
    NARROWING.forEach((id, i) => {
      const reverse = getRule(WIDENING[i] as string);
      expect([id, getRule(id).input]).toEqual([id, reverse.output]);
      expect([id, getRule(id).output]).toEqual([id, reverse.input]);
    });
  });

  // The variance property ("the input verdict of old→new equals the output verdict of new→old")
  // needs every rule's input severity to equal its reverse's output severity; property-added and
  // property-removed are such a pair too, though their names do not follow the added/removed
  // pattern of WIDENING above.
  test("property-added / property-removed are mirror images too", () => {
    expect(getRule("property-added").input).toBe(getRule("property-removed").output);
    expect(getRule("property-added").output).toBe(getRule("property-removed").input);
  });
});

describe("coverage of the table", () => {
  test("every schema rule of the catalog is emitted by at least one case", () => {
    const seen = new Set<string>();
    for (const c of ALL_CASES) {
      for (const e of [...c.expect, ...(c.reverse ?? [])]) seen.add(e.slice(0, e.indexOf("@")));
    }
    const missing = SCHEMA_RULES.map((rule) => rule.id).filter((id) => !seen.has(id));
    expect(missing).toEqual([]);
  });

  test("every rule emitted by a case is a schema rule of the catalog", () => {
    for (const c of ALL_CASES) {
      for (const e of [...c.expect, ...(c.reverse ?? [])]) {
        expect(getRule(e.slice(0, e.indexOf("@"))).group).toBe("schema");
      }
    }
  });
});
