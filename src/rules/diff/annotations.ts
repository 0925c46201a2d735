/**
 * The diff rules of group "schema" for keywords that validate nothing: the dialect,
 * defaults, deprecation, readOnly/writeOnly, texts and unknown keywords. They change no set
 * of valid values; src/rules/diff/schema.ts lists them last among the schema rules.
 * Pure data.
 */
import type { DiffRuleRow } from "../model.ts";

export const ANNOTATION_RULE_ROWS = [
  {
    id: "schema-dialect-changed",
    traits: ["annotation"],
    group: "schema",
    input: "patch",
    output: "patch",
    summary: "$schema (the JSON Schema dialect) changed",
    rationale:
      "Keyword meanings differ between dialects (draft-07 items arrays vs 2020-12 prefixItems), and mcp-contract compares what the schemas mean under their dialects: a dialect change that changes which values are valid is reported as that change, under its own rule. The `$schema` line itself is then only a label: patch.",
    example: '"$schema": "http://json-schema.org/draft-07/schema#" → "https://json-schema.org/draft/2020-12/schema"',
  },
  {
    id: "default-changed",
    traits: ["annotation"],
    group: "schema",
    input: "minor",
    output: "minor",
    summary: "a default value was added, removed or changed",
    rationale: "Callers that omit the value now get different behaviour without any error.",
    example: '"default": 3 → "default": 7',
  },
  {
    id: "deprecated-added",
    traits: ["annotation"],
    group: "schema",
    input: "minor",
    output: "minor",
    summary: "marked deprecated",
    rationale: "Still valid, but a signal to move off it before it is removed.",
    example: '"deprecated": true',
  },
  {
    id: "deprecated-removed",
    traits: ["annotation"],
    group: "schema",
    input: "minor",
    output: "minor",
    summary: "no longer marked deprecated",
    rationale: "A promise of continued support: the mirror image of deprecated-added.",
    example: '"deprecated": true → (absent)',
  },
  {
    id: "read-write-only-changed",
    traits: ["annotation"],
    group: "schema",
    input: "minor",
    output: "minor",
    summary: "readOnly or writeOnly changed",
    rationale:
      "These annotate which side of an exchange may carry the value; tooling that honours them behaves differently.",
    example: '"readOnly": true → (absent)',
  },
  {
    id: "description-changed",
    traits: ["annotation", "text"],
    group: "schema",
    input: "patch",
    output: "patch",
    summary: "a title, description or examples changed (in a schema or on any item)",
    rationale:
      "Documentation only for compatibility, but models read these: review rewritten text (see lint's security rules).",
    example: '"description": "City" → "description": "City name"',
  },
  {
    id: "annotation-keyword-changed",
    traits: ["annotation"],
    group: "schema",
    input: "patch",
    output: "patch",
    summary: "a keyword with no validation meaning changed",
    rationale: "Unknown keywords and extension fields (x-…) do not change which values are valid.",
    example: '"x-order": 1 → 2',
  },
] as const satisfies readonly DiffRuleRow[];
