/**
 * Lint: quality and security findings on one surface (a Contract). Pure types; no I/O.
 * Each rule's metadata (id, level, summary, rationale) is in src/rules/lint/; each
 * rules-*.ts module here exports the checks of one group, keyed by rule id, and
 * src/lint/catalog.ts gathers them.
 */

import type { Contract, Json } from "../contract/model.ts";
import type { TargetKind } from "../contract/surface.ts";
import type { LintLevel } from "../rules/model.ts";
import type { LintRuleId } from "../rules/registry.ts";

export interface Finding {
  /** Lint rule id, e.g. "tool-name-invalid". */
  rule: LintRuleId;
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
  /** Host profiles to check against (`--hosts`, src/lint/hosts/); none: the host rules find nothing. */
  hosts?: readonly string[];
}

export const DEFAULT_LINT_OPTIONS: LintOptions = { tokenBudget: 10_000 };

/** One rule's check: its findings on the whole contract; `rule` and `level` are filled in by lintContract. */
export type LintCheck = (contract: Contract, options: LintOptions) => Omit<Finding, "rule" | "level">[];
