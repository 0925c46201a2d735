/**
 * The registry as a whole: every rule, diff and lint, has complete metadata, a section in
 * docs/rules.md, one lookup, and (for diff rules) its mirror rule or a written waiver, as
 * oasdiff's rule-symmetry test asks. The positive and negative case of each rule is pinned by
 * the table-driven tests of its group (tests/unit/diff/rules.test.ts, tests/unit/schema/rules.test.ts,
 * tests/unit/lint/*.test.ts), each of which fails when a rule of its group has no row.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LINT_CHECKS } from "../../../src/lint/catalog.ts";
import {
  catalogOf,
  DIFF_RULES,
  diffRule,
  diffRulesWith,
  findRule,
  LINT_RULES,
  RULES,
  rulesOf,
  suggestRuleIds,
} from "../../../src/rules/registry.ts";

const DOC = readFileSync(join(import.meta.dir, "../../../docs/rules.md"), "utf8");

/** Word pairs that make a rule and its mirror: the same edit in the other direction. */
const MIRROR_WORDS: [string, string][] = [
  ["added", "removed"],
  ["added", "dropped"],
  ["raised", "lowered"],
  ["narrowed", "widened"],
  ["restricted", "relaxed"],
  ["now", "no-longer"],
  ["now-required", "now-optional"],
];

/** Rules with no mirror, and why none is needed. Each entry must name a rule that exists. */
const MIRROR_WAIVERS: Record<string, string> = {
  "prompt-argument-added-required": "the reverse edit (a required argument removed) is prompt-argument-removed",
  "tool-task-support-relaxed": "the compatible direction of tool-task-support-changed, which covers the rest",
  "comparison-limit-reached": "a note that the engine stopped comparing, not an edit with a direction",
  "ref-target-unresolvable": "a $ref that resolves on neither side cannot be compared in either direction",
  "security-finding-introduced": "a finding that goes away is good news, reported by the text change itself",
  "required-added-with-default":
    "its reverse, a property with a default no longer required, is required-removed: consumers may find it missing",
  "security-warning-introduced":
    "as security-finding-introduced: a warning that goes away is reported by the text change",
  "tool-duplicate-added":
    "a duplicate that goes away ends an ambiguity and breaks no one; the copy that stays is compared with the pinned one",
  "resource-duplicate-added": "as tool-duplicate-added: a duplicate that goes away breaks no one",
  "template-duplicate-added": "as tool-duplicate-added: a duplicate that goes away breaks no one",
  "prompt-duplicate-added": "as tool-duplicate-added: a duplicate that goes away breaks no one",
  "skill-duplicate-added": "as tool-duplicate-added: a duplicate that goes away breaks no one",
  "equivalent-rewrite": "a rewrite with no effect has none in either direction: the same rule both ways",
  "union-branch-change-absorbed":
    "an anyOf branch change another branch absorbs, narrowing or widening: one rule both ways",
  "capability-notifications-removed": "the reverse edit (a notification sub-flag added) is capability-added",
  "protocol-version-downgraded": "the reverse edit (an upgrade) is protocol-version-changed",
};

function mirrorOf(id: string): string[] {
  const out: string[] = [];
  for (const [a, b] of MIRROR_WORDS) {
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const suffix = new RegExp(`-${from}$`);
      if (suffix.test(id)) out.push(id.replace(suffix, `-${to}`));
      const infix = new RegExp(`-${from}-`);
      if (infix.test(id)) out.push(id.replace(infix, `-${to}-`));
    }
  }
  return out;
}

describe("the rule registry", () => {
  test("ids are unique across both catalogs, kebab-case, and every rule is fully described", () => {
    const ids = RULES.map((r) => r.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const rule of RULES) {
      expect(rule.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(rule.summary.length).toBeGreaterThan(10);
      expect(rule.summary).toBe(rule.summary.trim());
      expect(rule.rationale.length).toBeGreaterThan(10);
      expect(rule.example.length).toBeGreaterThan(0);
    }
    expect(RULES).toHaveLength(DIFF_RULES.length + LINT_RULES.length);
  });

  test("every rule has its section in docs/rules.md and is found by one lookup", () => {
    for (const rule of RULES) {
      expect(DOC).toContain(`\n### ${rule.id}\n`);
      expect(findRule(rule.id)).toBe(rule);
      expect(catalogOf(rule.id)).toBe(rule.catalog);
      expect(rulesOf(rule.catalog)).toContain(rule);
    }
    expect(findRule("no-such-rule")).toBeUndefined();
    expect(catalogOf("no-such-rule")).toBeUndefined();
  });

  test("every lint rule has exactly one check, and no check lacks a rule", () => {
    expect(Object.keys(LINT_CHECKS).sort()).toEqual(LINT_RULES.map((r) => r.id).sort());
    for (const rule of LINT_RULES) expect(typeof LINT_CHECKS[rule.id as keyof typeof LINT_CHECKS]).toBe("function");
  });

  test("every diff rule has its mirror (added ↔ removed, raised ↔ lowered, …) or a written waiver", () => {
    const ids = new Set(DIFF_RULES.map((r) => r.id));
    const unmirrored = DIFF_RULES.map((r) => r.id).filter((id) => {
      if (id.endsWith("-changed")) return false; // a change is its own mirror
      return !mirrorOf(id).some((m) => ids.has(m));
    });
    expect(unmirrored.filter((id) => MIRROR_WAIVERS[id] === undefined)).toEqual([]);
    // A waiver for a rule that has a mirror, or that does not exist, is stale.
    for (const id of Object.keys(MIRROR_WAIVERS)) {
      expect({ id, exists: ids.has(id), unmirrored: unmirrored.includes(id) }).toEqual({
        id,
        exists: true,
        unmirrored: true,
      });
    }
  });

  test("a schema rule and its mirror trade severities across directions (variance)", () => {
    for (const rule of DIFF_RULES.filter((r) => r.group === "schema")) {
      for (const id of mirrorOf(rule.id)) {
        const mirror = DIFF_RULES.find((r) => r.id === id);
        if (!mirror) continue;
        // Narrowing an input breaks callers exactly when widening an output breaks consumers.
        expect({ id: rule.id, breaksInput: rule.input === "breaking" }).toEqual({
          id: rule.id,
          breaksInput: mirror.output === "breaking",
        });
      }
    }
  });

  test("suggestions for a mistyped id come from the chosen catalog", () => {
    expect(suggestRuleIds("tool-remove")).toEqual(["tool-removed"]);
    expect(suggestRuleIds("hidden-instruction", "lint")).toEqual(["hidden-instructions"]);
    expect(suggestRuleIds("tool-remove", "lint")).toEqual([]);
    expect(diffRule("tool-removed").input).toBe("breaking");
  });
});

describe("rule traits live on the registry rows (issue #28)", () => {
  test("each trait names the rules the code relies on, and only diff rules carry traits", () => {
    const ids = (trait: Parameters<typeof diffRulesWith>[0]) => [...diffRulesWith(trait)].sort();
    expect(ids("annotation")).toEqual([
      "annotation-keyword-changed",
      "default-changed",
      "deprecated-added",
      "deprecated-removed",
      "description-changed",
      "read-write-only-changed",
      "schema-dialect-changed",
    ]);
    expect(ids("no-interoperable-change")).toEqual(["safe-integer-bound-changed", "union-branch-change-absorbed"]);
    expect(ids("duplicate")).toEqual([
      "prompt-duplicate-added",
      "resource-duplicate-added",
      "skill-duplicate-added",
      "template-duplicate-added",
      "tool-duplicate-added",
    ]);
    expect(ids("text")).toEqual(["description-changed", "instructions-changed"]);
    expect(ids("node-path")).toContain("closed-object-property-added");
    expect(ids("value-identified")).toContain("required-added-with-default");
    // A trait is only for schema-engine facts where the code needs them: node paths and value ids are schema rules.
    for (const id of [...ids("node-path"), ...ids("value-identified"), ...ids("annotation")]) {
      expect({ id, group: findRule(id)?.group }).toEqual({ id, group: "schema" });
    }
  });
});
