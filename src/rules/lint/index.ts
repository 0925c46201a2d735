/**
 * The lint rules: what `mcp-contract lint` reports about one surface, with its level. The
 * checks live in src/lint/, keyed by these ids (the compiler proves each rule has exactly one
 * check); keeping the metadata here lets `rules`, the policy file, reports and docs read the
 * catalog without loading any check. One module per group, here in catalog order. Pure data.
 */
import { PROTOCOL_RULE_ROWS } from "./protocol.ts";
import { QUALITY_RULE_ROWS } from "./quality.ts";
import { SECURITY_LINT_RULE_ROWS } from "./security.ts";

export { MAX_DESCRIPTION, MIN_DESCRIPTION } from "./quality.ts";

export const LINT_RULE_ROWS = [...PROTOCOL_RULE_ROWS, ...QUALITY_RULE_ROWS, ...SECURITY_LINT_RULE_ROWS] as const;
