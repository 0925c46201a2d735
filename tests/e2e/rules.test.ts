/**
 * `mcp-contract rules [ID]`: the rule catalog in the terminal, as text, JSON and Markdown,
 * always in step with src/diff/catalog.ts and docs/rules.md.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RULES, type Rule } from "../../src/diff/catalog.ts";
import { expectCleanFailure, ROOT, runCli } from "./e2e-helpers.ts";

describe("rules", () => {
  test.concurrent("lists every catalog rule with its input and output severity", async () => {
    const result = await runCli(["rules"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^RULE\s+INPUT\s+OUTPUT\s+SUMMARY$/);
    const rows = lines.slice(1).map((line) => line.split(/\s{2,}/));
    expect(rows.map((row) => row[0])).toEqual(RULES.map((r) => r.id));
    for (const [i, rule] of RULES.entries()) {
      expect(rows[i]).toEqual([rule.id, rule.input, rule.output, rule.summary]);
    }
  });

  test.concurrent("rules required-added explains it: breaking on input, minor on output", async () => {
    const result = await runCli(["rules", "required-added"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const rule = RULES.find((r) => r.id === "required-added") as Rule;
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

  test.concurrent("an unknown id exits 2 and suggests ids that contain it", async () => {
    const [partial, unrelated] = await Promise.all([runCli(["rules", "required"]), runCli(["rules", "frobnicate"])]);
    expectCleanFailure(partial, 2);
    expect(partial.stderr).toContain('no rule named "required".');
    expect(partial.stderr).toMatch(/Did you mean: required-added, required-removed\b/);
    expect(partial.stderr).toContain("Run `mcp-contract rules` for the list.");
    expectCleanFailure(unrelated, 2);
    expect(unrelated.stderr).toContain('no rule named "frobnicate".');
    expect(unrelated.stderr).not.toContain("Did you mean");
    expect(unrelated.stderr).toContain("mcp-contract rules");
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

  test.concurrent("--format json: one entry per catalog rule, the catalog's own data", async () => {
    const [all, one] = await Promise.all([
      runCli(["rules", "--format", "json"]),
      runCli(["rules", "enum-value-added", "--format", "json"]),
    ]);
    expect(all.code).toBe(0);
    const parsed = JSON.parse(all.stdout) as Rule[];
    expect(parsed).toHaveLength(RULES.length);
    expect(parsed).toEqual(RULES as Rule[]);
    expect(new Set(parsed.map((r) => r.id)).size).toBe(RULES.length);
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ id: "enum-value-added", input: "minor", output: "breaking" });
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
