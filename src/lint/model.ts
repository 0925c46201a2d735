/**
 * Lint: quality and security findings on one surface (a Contract). Pure types; no I/O.
 * Each rule module exports LintRule objects; src/lint/catalog.ts gathers them into the one
 * lint catalog that `mcp-contract rules` and docs/rules.md list.
 */
import type { Contract, Json } from "../contract/model.ts";
import type { TargetKind } from "../diff/model.ts";

export const LINT_LEVELS = ["error", "warning", "info"] as const;
export type LintLevel = (typeof LINT_LEVELS)[number];

export type LintGroup = "protocol" | "quality" | "security";

export interface Finding {
  /** Lint rule id, e.g. "tool-name-invalid". */
  rule: string;
  level: LintLevel;
  target: { kind: TargetKind; name: string };
  /** JSON Pointer inside the item ("" for the item itself), as in a diff Change. */
  path: string;
  /** One line, for people; quotes the offending span with invisible characters made visible. */
  message: string;
  /** The offending text or value, when there is one. */
  evidence?: Json;
}

export interface LintOptions {
  /** Warn when the estimated tokens of the whole tool list exceed this. */
  tokenBudget: number;
}

export const DEFAULT_LINT_OPTIONS: LintOptions = { tokenBudget: 10_000 };

export interface LintRule {
  id: string;
  group: LintGroup;
  level: LintLevel;
  summary: string;
  rationale: string;
  example: string;
  /** Findings for the whole contract; `level` and `rule` are filled in by the caller. */
  check: (contract: Contract, options: LintOptions) => Omit<Finding, "rule" | "level">[];
}
