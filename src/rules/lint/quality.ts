/** Quality for the model that reads the surface: descriptions, names, enums, the size of the tool list. Pure data; src/rules/lint/index.ts puts the groups in catalog order. */
import { thousands } from "../../util/text.ts";
import type { LintRuleRow } from "../model.ts";

/** Tool descriptions shorter than this (in characters) are checked for saying anything. */
export const MIN_DESCRIPTION = 20;
/** Tool descriptions longer than this (in characters) are too long. */
export const MAX_DESCRIPTION = 1024;

export const QUALITY_RULE_ROWS = [
  {
    id: "tool-description-missing",
    group: "quality",
    level: "warning",
    summary: "a tool has no description",
    rationale:
      "The model chooses tools from their names and descriptions; without a description it guesses from the name alone, picks the tool for the wrong task or never picks it.",
    example: '{"name": "sync", "inputSchema": {...}} without "description"',
  },
  {
    id: "tool-description-too-short",
    group: "quality",
    level: "info",
    summary: `a tool or skill description is under ${MIN_DESCRIPTION} characters and says nothing the name does not`,
    rationale:
      'A description of one word, or of only the name\'s own words ("Runs query" for run_query), does not say when to use the tool, what it returns or what it changes. A short description that adds something ("Close the page" for browser_close) passes. An info, not a warning: a self-explanatory tool with a good title and schema can be fine as it is. A skill\'s frontmatter description (the Skills extension) is judged the same way: it is all a host shows the model to choose the skill by.',
    example: '"name": "run_query", "description": "Runs a query"',
  },
  {
    id: "description-too-long",
    group: "quality",
    level: "warning",
    summary: `a tool or skill description is over ${thousands(MAX_DESCRIPTION)} characters`,
    rationale:
      "Every description is sent to the model with every request. Long ones crowd the context window, and some clients truncate long descriptions, dropping whatever the end said; instructions hidden deep in long text are also where tool poisoning lives.",
    example: "a 3,000-character description with usage examples pasted in",
  },
  {
    id: "parameter-description-missing",
    group: "quality",
    level: "info",
    summary: "top-level tool parameters have no description",
    rationale:
      "The model fills arguments from the parameter name and its description; without one it guesses formats, units and meaning (is `path` absolute? is `limit` in items or bytes?). One finding per tool lists the bare parameters; a description reached through a local $ref counts.",
    example: '"properties": {"path": {"type": "string"}}',
  },
  {
    id: "prompt-description-missing",
    group: "quality",
    level: "info",
    summary: "a prompt has no description",
    rationale:
      "Clients show prompts to people (slash commands, menus) by name and description; without one the user cannot tell what the prompt does before running it.",
    example: '{"name": "review", "arguments": [...]} without "description"',
  },
  {
    id: "naming-style-inconsistent",
    group: "quality",
    level: "info",
    summary: "tool names mix naming styles",
    rationale:
      "Names in one style (snake_case, kebab-case, camelCase, PascalCase, dot.case) read as one API; a mix suggests tools bolted on from elsewhere and makes the model's guesses at names less reliable. Single lowercase words fit every style and are not counted. One finding names the majority style and the outliers.",
    example: "get_forecast, set_alert, listStations",
  },
  {
    id: "mutation-without-hints",
    group: "quality",
    level: "warning",
    summary: "a tool whose name suggests it changes state declares neither readOnlyHint nor destructiveHint",
    rationale:
      "Clients decide whether to ask the user before a call from the annotations. Without readOnlyHint or destructiveHint, the specification's defaults (not read-only, destructive) apply, which is safe but tells a reviewer nothing; a tool named delete_*, update_*, send_* and so on should say explicitly what it does. Names are split into words in any style (deleteFile, delete-file, delete_file).",
    example: '{"name": "delete_file"} without annotations',
  },
  {
    id: "enum-duplicate-values",
    group: "quality",
    level: "warning",
    summary: "an enum lists the same value twice",
    rationale:
      "JSON Schema says enum values SHOULD be unique. A duplicate is harmless to validation but usually a copy-paste slip hiding a missing value, and it costs tokens.",
    example: '"enum": ["metric", "imperial", "metric"]',
  },
  {
    id: "tool-list-too-large",
    group: "quality",
    level: "warning",
    summary: "the estimated size of tools/list is over the token budget",
    rationale:
      "A tool list over the configured token budget (default 10,000 tokens; estimated as ceil(characters / 4)) crowds out the conversation, raises cost and latency, and degrades tool choice. Split the server, trim descriptions, or drop rarely used tools; the message names the largest tools.",
    example: "tools/list is about 14,200 tokens, over the budget of 10,000",
  },
] as const satisfies readonly LintRuleRow[];
