import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseContract } from "../../../src/contract/read.ts";
import { lintContract } from "../../../src/lint/lint.ts";
import { LINT_RULES, DIFF_RULES as RULES } from "../../../src/rules/registry.ts";

const weather = () =>
  parseContract(readFileSync(join(import.meta.dir, "../../../examples/weather.contract.json"), "utf8"), "weather");

describe("lint catalog", () => {
  test("ids are unique, kebab-case, fully described, and distinct from the diff rules", () => {
    const ids = LINT_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const diffIds = new Set(RULES.map((r) => r.id));
    for (const rule of LINT_RULES) {
      expect(rule.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(diffIds.has(rule.id)).toBe(false);
      expect(rule.summary.length).toBeGreaterThan(10);
      expect(rule.rationale.length).toBeGreaterThan(10);
      expect(rule.example.length).toBeGreaterThan(0);
    }
  });

  test("lintContract stamps rule and level, honours disabled rules, and is deterministic", () => {
    const contract = weather();
    const all = lintContract(contract);
    expect(all.length).toBeGreaterThan(0);
    for (const finding of all) expect(LINT_RULES.find((r) => r.id === finding.rule)?.level).toBe(finding.level);
    expect(lintContract(contract)).toEqual(all);
    const without = lintContract(contract, undefined, new Set(["parameter-description-missing"]));
    expect(without.some((f) => f.rule === "parameter-description-missing")).toBe(false);
    expect(all.some((f) => f.rule === "parameter-description-missing")).toBe(true);
  });
});
