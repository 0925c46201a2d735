/**
 * Every lint rule's check, by rule id: protocol correctness, quality for the model that reads
 * the surface, and security (tool poisoning), one module per group. The type says every lint
 * rule of the registry has exactly one check here; the host rules' checks run only with --hosts.
 */

import type { LintRuleId } from "../rules/registry.ts";
import { HOST_CHECKS, hostRider } from "./hosts/lint-checks.ts";
import type { LintCheck } from "./model.ts";
import { PROTOCOL_CHECKS, PROTOCOL_SCHEMA_VISITORS } from "./rules-protocol.ts";
import { QUALITY_CHECKS, QUALITY_SCHEMA_VISITORS } from "./rules-quality.ts";
import { SECURITY_CHECKS } from "./rules-security.ts";
import { SKILL_CHECKS } from "./rules-skills.ts";
import { schemaPassChecks } from "./schema-pass.ts";

export const LINT_CHECKS: Readonly<Record<LintRuleId, LintCheck>> = {
  ...PROTOCOL_CHECKS,
  ...QUALITY_CHECKS,
  ...SECURITY_CHECKS,
  ...SKILL_CHECKS,
  ...HOST_CHECKS,
  // Rules that read every node of every tool schema: one walk for all of them, the host
  // profiles' schema checks riding along with --hosts.
  ...schemaPassChecks({ ...PROTOCOL_SCHEMA_VISITORS, ...QUALITY_SCHEMA_VISITORS }, hostRider),
};
