/**
 * The diff rules: what each kind of change between two surfaces is called and how severe it
 * is in each direction. One object per rule; `check`, `diff`, the policy file, reports and
 * docs/rules.md all read it through src/rules/registry.ts. One module per family of rules,
 * here in catalog order. Pure data.
 *
 * Severity by direction follows variance: a schema for what callers send (input) breaks
 * when it accepts less; a schema for what callers receive (output) breaks when it can
 * produce more. Rules outside schemas have the same severity both ways.
 */
import { HOST_DRIFT_RULE_ROWS } from "./hosts.ts";
import { ITEM_RULE_ROWS } from "./items.ts";
import { PROMPT_RULE_ROWS } from "./prompts.ts";
import { RESOURCE_RULE_ROWS } from "./resources.ts";
import { SCHEMA_RULE_ROWS } from "./schema.ts";
import { SECURITY_RULE_ROWS } from "./security.ts";
import { SERVER_RULE_ROWS } from "./server.ts";
import { SKILL_RULE_ROWS } from "./skills.ts";
import { TEMPLATE_RULE_ROWS } from "./templates.ts";
import { TOOL_RULE_ROWS } from "./tools.ts";

export const DIFF_RULE_ROWS = [
  ...SCHEMA_RULE_ROWS,
  ...TOOL_RULE_ROWS,
  ...RESOURCE_RULE_ROWS,
  ...TEMPLATE_RULE_ROWS,
  ...PROMPT_RULE_ROWS,
  ...HOST_DRIFT_RULE_ROWS,
  ...SKILL_RULE_ROWS,
  ...ITEM_RULE_ROWS,
  ...SERVER_RULE_ROWS,
  ...SECURITY_RULE_ROWS,
] as const;
