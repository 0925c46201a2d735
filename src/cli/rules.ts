/** `mcp-contract rules [ID]`: both rule catalogs (diff: check/diff; lint: lint) in the terminal. */
import { Command, Option } from "@commander-js/extra-typings";
import { UsageError } from "../errors.ts";
import {
  renderAnyRuleDetail,
  renderAnyRuleMarkdown,
  renderRulesList,
  renderRulesMarkdown,
  ruleJson,
} from "../rules/docs.ts";
import { RULE_CATALOGS } from "../rules/model.ts";
import { findRule, rulesOf, suggestRuleIds } from "../rules/registry.ts";
import { writeStdout } from "./globals.ts";

export function rulesCommand() {
  return new Command("rules")
    .summary("list the diff and lint rules, or explain one")
    .description(
      "List both rule catalogs: the diff rules that `check` and `diff` report, with their severity for input and output schemas, and the lint rules that `lint` reports, with their level. With an id, explain that rule with its rationale and an example.",
    )
    .argument("[id]", "a rule id of either catalog, e.g. required-added or hidden-instructions")
    .addOption(
      new Option("--catalog <catalog>", "list only the diff rules (check, diff) or the lint rules (lint)").choices(
        RULE_CATALOGS,
      ),
    )
    .addOption(
      new Option("--format <format>", "text, json or markdown")
        .choices(["text", "json", "markdown"] as const)
        .default("text" as const),
    )
    .addHelpText(
      "after",
      `
Examples:
  $ mcp-contract rules
  $ mcp-contract rules enum-value-added
  $ mcp-contract rules hidden-instructions
  $ mcp-contract rules --catalog lint
  $ mcp-contract rules --format json | jq -r '.[] | select(.catalog == "diff" and .input == "breaking") | .id'`,
    )
    .action(async (id, options) => {
      if (id === undefined) {
        const text =
          options.format === "json"
            ? `${JSON.stringify(rulesOf(options.catalog).map(ruleJson), null, 2)}\n`
            : options.format === "markdown"
              ? renderRulesMarkdown(options.catalog)
              : renderRulesList(options.catalog);
        await writeStdout(text);
        return;
      }
      const entry = findRule(id);
      if (!entry) {
        const close = suggestRuleIds(id, undefined, 5);
        throw new UsageError(
          `no rule named ${JSON.stringify(id)}.${close.length ? ` Did you mean: ${close.join(", ")}?` : ""} Run \`mcp-contract rules\` for the list.`,
        );
      }
      if (options.catalog !== undefined && options.catalog !== entry.catalog) {
        throw new UsageError(
          `${id} is a ${entry.catalog} rule, not a ${options.catalog} rule. Drop --catalog to explain it.`,
        );
      }
      const text =
        options.format === "json"
          ? `${JSON.stringify(ruleJson(entry), null, 2)}\n`
          : options.format === "markdown"
            ? `${renderAnyRuleMarkdown(entry)}\n`
            : renderAnyRuleDetail(entry);
      await writeStdout(text);
    });
}
