/**
 * Every host profile, in the order reports list them, and every host rule for the registry.
 * `--hosts` and the policy file's "hosts" name profiles by id; "all" is every one. Pure.
 */
import { suggest } from "../../util/text.ts";
import { ANTHROPIC, ANTHROPIC_RULES } from "./anthropic.ts";
import { CLAUDE_CODE, CLAUDE_CODE_RULES } from "./claude-code.ts";
import { CURSOR, CURSOR_RULES } from "./cursor.ts";
import { GEMINI_CLI, GEMINI_CLI_RULES } from "./gemini-cli.ts";
import { GEMINI_JSON_SCHEMA, GEMINI_JSON_SCHEMA_RULES } from "./gemini-json-schema.ts";
import { GEMINI_PARAMETERS, GEMINI_PARAMETERS_RULES } from "./gemini-parameters.ts";
import type { HostProfile } from "./model.ts";
import { OPENAI, OPENAI_RULES } from "./openai.ts";
import { OPENAI_STRICT, OPENAI_STRICT_RULES } from "./openai-strict.ts";
import { VSCODE, VSCODE_RULES } from "./vscode.ts";

/** Model APIs first, then MCP clients. */
export const HOST_PROFILES: readonly HostProfile[] = [
  GEMINI_PARAMETERS,
  GEMINI_JSON_SCHEMA,
  OPENAI,
  OPENAI_STRICT,
  ANTHROPIC,
  VSCODE,
  CLAUDE_CODE,
  CURSOR,
  GEMINI_CLI,
];

/** Every host rule, profile by profile: the registry appends them to the lint rules. */
export const HOST_RULE_ROWS = [
  ...GEMINI_PARAMETERS_RULES,
  ...GEMINI_JSON_SCHEMA_RULES,
  ...OPENAI_RULES,
  ...OPENAI_STRICT_RULES,
  ...ANTHROPIC_RULES,
  ...VSCODE_RULES,
  ...CLAUDE_CODE_RULES,
  ...CURSOR_RULES,
  ...GEMINI_CLI_RULES,
] as const;

export const HOST_IDS: readonly string[] = HOST_PROFILES.map((p) => p.id);

const BY_ID = new Map(HOST_PROFILES.map((p) => [p.id, p]));

export function hostProfile(id: string): HostProfile | undefined {
  return BY_ID.get(id);
}

/** The profile whose rules include this id, when it is a host rule. */
export function hostOfRule(ruleId: string): HostProfile | undefined {
  return HOST_PROFILES.find((p) => p.rules.some((r) => r.id === ruleId));
}

/**
 * Host names as users give them ("gemini-parameters,openai", "all"; repeatable, any case),
 * deduplicated in profile order; an unknown name is an error message naming the close ones.
 */
export function parseHostNames(values: readonly string[]): { hosts: string[] } | { error: string } {
  const names = values
    .flatMap((v) => v.split(","))
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
  const wanted = new Set<string>();
  for (const name of names) {
    if (name === "all") {
      for (const id of HOST_IDS) wanted.add(id);
      continue;
    }
    if (!BY_ID.has(name)) {
      const close = suggest(name, [...HOST_IDS], 3);
      return {
        error: `no host profile is named ${JSON.stringify(name)}.${close.length ? ` Did you mean ${close.join(" or ")}?` : ""} The profiles are ${HOST_IDS.join(", ")} (or all).`,
      };
    }
    wanted.add(name);
  }
  return { hosts: HOST_IDS.filter((id) => wanted.has(id)) };
}
