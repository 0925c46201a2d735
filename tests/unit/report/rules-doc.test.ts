import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RULES } from "../../../src/diff/catalog.ts";
import { renderRulesMarkdown } from "../../../src/report/rules-doc.ts";

const ROOT = join(import.meta.dir, "../../..");

describe("rule catalog", () => {
  test("docs/rules.md is generated from the catalog (run `npm run docs` after changing rules)", () => {
    expect(readFileSync(join(ROOT, "docs/rules.md"), "utf8")).toBe(renderRulesMarkdown());
  });

  test("ids are unique, kebab-case, and every rule is fully described", () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of RULES) {
      expect(rule.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(rule.summary.length).toBeGreaterThan(10);
      expect(rule.rationale.length).toBeGreaterThan(10);
      expect(rule.example.length).toBeGreaterThan(0);
      if (rule.group !== "schema") expect(rule.output).toBe(rule.input);
    }
  });
});
