import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import {
  renderLintRuleDetail,
  renderLintRuleMarkdown,
  renderRulesList,
  renderRulesMarkdown,
  ruleJson,
  slug,
} from "../../../src/rules/docs.ts";
import type { LintRule } from "../../../src/rules/model.ts";
import { RULES as allRules, findRule, LINT_RULES, lintRule, DIFF_RULES as RULES } from "../../../src/rules/registry.ts";

const _ROOT = join(import.meta.dir, "../../..");

/** Heading anchors as GitHub makes them; a repeated one would get a "-1" suffix. */
function anchors(markdown: string): string[] {
  const out: string[] = [];
  let inCode = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) inCode = !inCode;
    else if (!inCode && /^#{1,6} /.test(line)) out.push(slug(line.replace(/^#+ /, "")));
  }
  return out;
}

describe("rule catalog", () => {
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

  test("no rule id is in both the diff and the lint catalog", () => {
    const diffIds = new Set(RULES.map((r) => r.id));
    expect(LINT_RULES.filter((r) => diffIds.has(r.id)).map((r) => r.id)).toEqual([]);
    for (const rule of LINT_RULES) expect(findRule(rule.id)).toEqual({ ...rule, catalog: "lint" });
    for (const rule of RULES) expect(findRule(rule.id)).toEqual({ ...rule, catalog: "diff" });
  });

  test("every rule of both catalogs has exactly one section, and every heading anchor is unique", () => {
    const doc = renderRulesMarkdown();
    const all = anchors(doc);
    expect(all.filter((a, i) => all.indexOf(a) !== i)).toEqual([]);
    for (const rule of allRules) {
      expect(all.filter((a) => a === rule.id)).toHaveLength(1);
      expect(doc).toContain(`\n### ${rule.id}\n`);
      expect(doc).toContain(`[\`${rule.id}\`](#${rule.id})`);
    }
    // Every in-page link points at a heading.
    for (const [, target] of doc.matchAll(/\]\(#([^)]+)\)/g)) expect(all).toContain(target as string);
  });

  test("the lint part: intro, one table per group, a section per rule with its level", () => {
    const doc = renderRulesMarkdown();
    const lint = doc.slice(doc.indexOf("## Lint rules (`mcp-contract lint`)"));
    expect(lint.length).toBeLessThan(doc.length);
    expect(lint).toContain("`--fail-on` (default `error`");
    expect(lint).toContain("`--disable <id>`");
    for (const title of ["Protocol correctness", "Quality for the model that reads it", "Security: tool poisoning"]) {
      expect(lint).toContain(`\n## ${title}\n\n| rule | level | summary |\n`);
    }
    for (const rule of LINT_RULES) {
      expect(lint).toContain(`\n### ${rule.id}\n`);
      expect(renderLintRuleMarkdown(rule)).toContain(`Level: **${rule.level}**.`);
      expect(renderLintRuleMarkdown(rule)).toContain(`\`\`\`\n${rule.example}\n\`\`\``);
      expect(lint).toContain(renderLintRuleMarkdown(rule));
    }
    // Markup in catalog prose is escaped: <IMPORTANT> must not become an HTML tag.
    expect(renderLintRuleMarkdown(lintRule("hidden-instructions"))).toContain("&lt;IMPORTANT>");
  });

  test("--catalog parts: diff only, lint only", () => {
    const diff = renderRulesMarkdown("diff");
    const lint = renderRulesMarkdown("lint");
    expect(diff).not.toContain("### hidden-instructions");
    expect(diff).toContain("### required-added");
    expect(lint).toContain("### hidden-instructions");
    expect(lint).not.toContain("### required-added");
    expect(renderRulesList("lint")).not.toContain("required-added");
    expect(renderRulesList("diff")).not.toContain("hidden-instructions");
  });

  test("JSON: catalog first, the catalog's own fields, never a lint rule's check function", () => {
    const json = allRules.map(ruleJson);
    expect(json).toHaveLength(RULES.length + LINT_RULES.length);
    for (const entry of json) {
      expect(Object.keys(entry)).toEqual(
        entry.catalog === "diff"
          ? ["catalog", "id", "group", "summary", "input", "output", "rationale", "example"]
          : entry.group === "hosts"
            ? [
                "catalog",
                "id",
                "group",
                "level",
                "summary",
                "rationale",
                "example",
                "host",
                "impact",
                "sources",
                "checked",
              ]
            : ["catalog", "id", "group", "level", "summary", "rationale", "example"],
      );
    }
    expect(JSON.stringify(json)).not.toContain('"check"');
  });

  test("a lint rule explained in the terminal says how to tune it", () => {
    const rule = LINT_RULES[0] as LintRule;
    const text = renderLintRuleDetail(rule);
    expect(text).toContain(`Level: ${rule.level}.`);
    expect(text).toContain(
      `Reported by \`mcp-contract lint\`; change its level or turn it off in the policy file (\`"rules": {"${rule.id}": "warning"}\`) or with \`--disable ${rule.id}\`.`,
    );
  });
});
