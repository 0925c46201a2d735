/** `mcp-contract rules [ID]`: the rule catalog in the terminal. */
import { Command, Option } from "@commander-js/extra-typings";
import { findRule, RULES } from "../diff/catalog.ts";
import { levenshtein } from "../diff/rename.ts";
import { UsageError } from "../errors.ts";
import { renderRuleDetail, renderRuleMarkdown, renderRulesList, renderRulesMarkdown } from "../report/rules-doc.ts";
import { writeStdout } from "./globals.ts";

export function rulesCommand() {
  return new Command("rules")
    .summary("list the rules, or explain one")
    .description(
      "List every rule with its severity for input and output schemas, or explain one rule with its rationale and an example.",
    )
    .argument("[id]", "a rule id, e.g. required-added")
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
  $ mcp-contract rules --format json | jq -r '.[] | select(.input == "breaking") | .id'`,
    )
    .action(async (id, options) => {
      if (id === undefined) {
        const text =
          options.format === "json"
            ? `${JSON.stringify(RULES, null, 2)}\n`
            : options.format === "markdown"
              ? renderRulesMarkdown()
              : renderRulesList();
        await writeStdout(text);
        return;
      }
      const rule = findRule(id);
      if (!rule) {
        const close = RULES.map((r) => ({ id: r.id, distance: levenshtein(r.id, id) }))
          .filter((r) => r.distance <= Math.max(2, Math.floor(id.length / 3)) || (id.length >= 3 && r.id.includes(id)))
          .sort((a, b) => a.distance - b.distance)
          .map((r) => r.id);
        throw new UsageError(
          `no rule named ${JSON.stringify(id)}.${close.length ? ` Did you mean: ${close.slice(0, 5).join(", ")}?` : ""} Run \`mcp-contract rules\` for the list.`,
        );
      }
      const text =
        options.format === "json"
          ? `${JSON.stringify(rule, null, 2)}\n`
          : options.format === "markdown"
            ? `${renderRuleMarkdown(rule)}\n`
            : renderRuleDetail(rule);
      await writeStdout(text);
    });
}
