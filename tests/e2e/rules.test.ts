/**
 * `mcp-contract rules [ID]`: both rule catalogs (diff rules for check/diff, lint rules for
 * lint) in the terminal, as text, JSON and Markdown, always in step with the rule registry
 * (src/rules/) and docs/rules.md.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Rule } from "../../src/rules/model.ts";
import { diffRule, LINT_RULES, lintRule, DIFF_RULES as RULES } from "../../src/rules/registry.ts";
import { expectCleanFailure, ROOT, runCli } from "./e2e-helpers.ts";

/** A rule as `rules --format json` publishes it: every field but the engine's traits. */
function published(rule: Rule): Record<string, unknown> {
  const { traits: _traits, ...fields } = rule as Rule & { traits?: unknown };
  return fields;
}

describe("rules", () => {
  /** The rows of one aligned table: the lines after its header, up to a blank line. */
  function table(lines: string[], header: RegExp): string[][] {
    const start = lines.findIndex((line) => header.test(line));
    expect(start).toBeGreaterThan(0);
    const end = lines.indexOf("", start);
    return lines.slice(start + 1, end === -1 ? undefined : end).map((line) => line.split(/\s{2,}/));
  }

  test.concurrent("lists the diff rules, then the lint rules, each under a heading naming its command", async () => {
    const result = await runCli(["rules"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toContain("Diff rules, reported by `mcp-contract check` and `mcp-contract diff`");
    expect(lines[1]).toMatch(/^RULE\s+INPUT\s+OUTPUT\s+SUMMARY$/);
    const diffRows = table(lines, /^RULE\s+INPUT/);
    expect(diffRows.map((row) => row[0])).toEqual(RULES.map((r) => r.id));
    for (const [i, rule] of RULES.entries()) {
      expect(diffRows[i]).toEqual([rule.id, rule.input, rule.output, rule.summary]);
    }
    const lintHeading = lines.findIndex((line) => line.startsWith("Lint rules, reported by `mcp-contract lint`"));
    expect(lintHeading).toBe(RULES.length + 3);
    expect(lines[lintHeading + 1]).toMatch(/^LINT RULE\s+LEVEL\s+GROUP\s+SUMMARY$/);
    const lintRows = table(lines, /^LINT RULE\s+LEVEL/);
    expect(lintRows).toHaveLength(LINT_RULES.length);
    for (const [i, rule] of LINT_RULES.entries()) {
      expect(lintRows[i]).toEqual([rule.id, rule.level, rule.group, rule.summary]);
    }
    // Aligned: every summary starts in the same column.
    const column = (lines[lintHeading + 1] as string).indexOf("SUMMARY");
    for (const [i, rule] of LINT_RULES.entries()) {
      expect((lines[lintHeading + 2 + i] as string).indexOf(rule.summary)).toBe(column);
    }
  });

  test.concurrent("--catalog lint lists only the lint rules; --catalog diff only the diff rules", async () => {
    const [lint, diff, bad] = await Promise.all([
      runCli(["rules", "--catalog", "lint"]),
      runCli(["rules", "--catalog", "diff"]),
      runCli(["rules", "--catalog", "security"]),
    ]);
    expect(lint.code).toBe(0);
    const lintLines = lint.stdout.trimEnd().split("\n");
    expect(lintLines[0]).toContain("mcp-contract lint");
    expect(lintLines).toHaveLength(LINT_RULES.length + 2);
    expect(lint.stdout).not.toContain("required-added");
    expect(diff.code).toBe(0);
    expect(diff.stdout.trimEnd().split("\n")).toHaveLength(RULES.length + 2);
    expect(diff.stdout).not.toContain("hidden-instructions");
    expectCleanFailure(bad, 2);
    expect(bad.stderr).toContain("diff, lint");
  });

  test.concurrent("rules required-added explains it: breaking on input, minor on output", async () => {
    const result = await runCli(["rules", "required-added"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const rule = diffRule("required-added");
    expect(result.stdout.startsWith("required-added (JSON Schema changes")).toBe(true);
    expect(result.stdout).toContain("A property became required.");
    expect(result.stdout).toContain("Severity: breaking on input, minor on output.");
    expect(result.stdout).toContain(rule.rationale);
    expect(result.stdout).toContain(`Example:\n  ${rule.example}`);
  });

  test.concurrent("a rule outside schemas has one severity", async () => {
    const result = await runCli(["rules", "tool-removed"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Severity: breaking.");
    expect(result.stdout).not.toContain("on output");
  });

  test.concurrent("rules <lint id> explains a lint rule and how to tune it", async () => {
    const [text, json, markdown] = await Promise.all([
      runCli(["rules", "hidden-instructions"]),
      runCli(["rules", "hidden-instructions", "--format", "json"]),
      runCli(["rules", "hidden-instructions", "--format", "markdown"]),
    ]);
    const rule = lintRule("hidden-instructions");
    expect(text.code).toBe(0);
    expect(text.stderr).toBe("");
    expect(text.stdout.startsWith("hidden-instructions (lint: Security: tool poisoning)")).toBe(true);
    expect(text.stdout).toContain(rule.summary.charAt(0).toUpperCase() + rule.summary.slice(1));
    expect(text.stdout).toContain(`Level: ${rule.level}.`);
    expect(text.stdout).toContain(rule.rationale);
    expect(text.stdout).toContain(`Example:\n  ${rule.example}`);
    expect(text.stdout).toContain(
      'Reported by `mcp-contract lint`; change its level or turn it off in the policy file (`"rules": {"hidden-instructions": "warning"}`) or with `--disable hidden-instructions`.',
    );
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(published(rule));
    expect(Object.keys(JSON.parse(json.stdout))[0]).toBe("catalog");
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain("### hidden-instructions");
    expect(markdown.stdout).toContain(`Level: **${rule.level}**.`);
  });

  test.concurrent("an unknown id exits 2 and suggests ids of either catalog that contain it", async () => {
    const [partial, unrelated, lintPartial] = await Promise.all([
      runCli(["rules", "required"]),
      runCli(["rules", "frobnicate"]),
      runCli(["rules", "homoglyph"]),
    ]);
    expectCleanFailure(partial, 2);
    expect(partial.stderr).toContain('no rule named "required".');
    expect(partial.stderr).toMatch(/Did you mean: required-added, required-removed\b/);
    expect(partial.stderr).toContain("Run `mcp-contract rules` for the list.");
    expectCleanFailure(unrelated, 2);
    expect(unrelated.stderr).toContain('no rule named "frobnicate".');
    expect(unrelated.stderr).not.toContain("Did you mean");
    expect(unrelated.stderr).toContain("mcp-contract rules");
    expectCleanFailure(lintPartial, 2);
    expect(lintPartial.stderr).toMatch(/Did you mean: homoglyph-name, homoglyph-mixed-script\b/);
  });

  test.concurrent("a misspelt id finds its rule in either catalog", async () => {
    const [lint, both] = await Promise.all([runCli(["rules", "hiden-instructions"]), runCli(["rules", "tool-name"])]);
    expect(lint.code).toBe(2);
    expect(lint.stderr).toContain("Did you mean: hidden-instructions");
    expect(both.code).toBe(2);
    // "tool-name" is in lint ids (tool-name-invalid, tool-name-duplicate) and close to diff ids (tool-added, ...).
    expect(both.stderr).toContain("tool-name-invalid");
  });

  test.concurrent("an id of the other catalog than --catalog exits 2", async () => {
    const result = await runCli(["rules", "required-added", "--catalog", "lint"]);
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain("required-added is a diff rule, not a lint rule.");
  });

  // Regression: suggestions are ranked by edit distance, so a typo finds its rule.
  test("a misspelt id suggests the rule it is close to", async () => {
    const result = await runCli(["rules", "requried-added"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Did you mean: required-added");
  });

  // Regression: --format markdown renders the rule's section of docs/rules.md.
  test("rules ID --format markdown renders Markdown", async () => {
    const [markdown, text] = await Promise.all([
      runCli(["rules", "required-added", "--format", "markdown"]),
      runCli(["rules", "required-added", "--format", "text"]),
    ]);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).not.toBe(text.stdout);
    expect(markdown.stdout).toContain("### required-added");
  });

  test.concurrent("--format json: one entry per rule of both catalogs, tagged with its catalog", async () => {
    const [all, one, lintOnly] = await Promise.all([
      runCli(["rules", "--format", "json"]),
      runCli(["rules", "enum-value-added", "--format", "json"]),
      runCli(["rules", "--catalog", "lint", "--format", "json"]),
    ]);
    expect(all.code).toBe(0);
    const parsed = JSON.parse(all.stdout) as Record<string, unknown>[];
    const expected = [...RULES.map(published), ...LINT_RULES.map(published)];
    expect(parsed).toEqual(expected);
    expect(new Set(parsed.map((r) => r.id)).size).toBe(parsed.length);
    for (const entry of parsed) expect(Object.keys(entry)[0]).toBe("catalog");
    expect(all.stdout).not.toContain('"check"');
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual(published(diffRule("enum-value-added")));
    expect(JSON.parse(one.stdout)).toMatchObject({ id: "enum-value-added", input: "minor", output: "breaking" });
    expect(lintOnly.code).toBe(0);
    expect(JSON.parse(lintOnly.stdout)).toEqual(expected.filter((r) => r.catalog === "lint"));
  });

  test.concurrent("--format markdown is docs/rules.md; an unknown format exits 2", async () => {
    const [markdown, bad] = await Promise.all([
      runCli(["rules", "--format", "markdown"]),
      runCli(["rules", "--format", "yaml"]),
    ]);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toBe(readFileSync(join(ROOT, "docs/rules.md"), "utf8"));
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain("text, json, markdown");
  });
});
