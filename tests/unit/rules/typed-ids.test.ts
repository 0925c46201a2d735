/**
 * Rule ids are typed: `npm run typecheck` fails when a misspelt id would compile, e.g. if the
 * registry's rows lost their literal types (the `@ts-expect-error` lines then have no error).
 */
import { expect, test } from "bun:test";
import { type DiffRuleId, diffRule, type LintRuleId, lintRule } from "../../../src/rules/registry.ts";

test("ids of both catalogs are literal types; a misspelt one does not compile", () => {
  const schema: DiffRuleId = "type-narrowed";
  const tool: DiffRuleId = "tool-removed";
  const lint: LintRuleId = "hidden-instructions";
  // @ts-expect-error a misspelt diff rule id
  const misspelt: DiffRuleId = "tool-remove";
  // @ts-expect-error a lint rule id is not a diff rule id
  const crossed: DiffRuleId = "hidden-instructions";
  expect([diffRule(schema).group, diffRule(tool).group, lintRule(lint).group]).toEqual(["schema", "tool", "security"]);
  expect([misspelt, crossed] as string[]).toEqual(["tool-remove", "hidden-instructions"]);
});
