/**
 * The report: what a check or diff found, with everything a formatter needs to render
 * it. Formatters never compute verdicts; they only render this. Pure types and functions.
 */
import type { Contract } from "../contract/model.ts";
import { bumpFor, type Change, SEVERITIES, type SemverBump, type Severity, severityRank } from "../diff/model.ts";

/** Bump when the JSON report's shape changes incompatibly (docs/report.schema.json). */
export const REPORT_VERSION = 1;

export const FAIL_ON = ["breaking", "minor", "patch", "never"] as const;
export type FailOn = (typeof FAIL_ON)[number];

export interface Side {
  /** Where this side came from: a file path, or the live server's description. */
  source: string;
  server: { name?: string; version?: string };
  protocolVersion: string;
}

/**
 * Why a change does not count toward the verdict, when it does not: outside what the consumer
 * uses (--used, --used-by), or ignored by the policy file. Such changes are still listed.
 */
export interface Exemption {
  kind: "out-of-scope" | "ignored";
  reason: string;
}

export interface ReportChange extends Change {
  exempt?: Exemption;
}

export interface Report {
  command: "check" | "diff";
  baseline: Side;
  current: Side;
  failOn: FailOn;
  changes: ReportChange[];
  /** Things the reader must see beside the changes: expired ignores, break-glass, semver. */
  notices: string[];
  summary: Record<Severity, number> & { total: number };
  requiredBump: SemverBump;
  /** Changes at or above the threshold. */
  failing: number;
  result: "pass" | "fail";
}

export function sideOf(contract: Contract, source: string): Side {
  const { name, version } = contract.server;
  return {
    source,
    server: { ...(typeof name === "string" ? { name } : {}), ...(typeof version === "string" ? { version } : {}) },
    protocolVersion: contract.protocolVersion,
  };
}

export function isFailing(severity: Severity, failOn: FailOn): boolean {
  return failOn !== "never" && severityRank(severity) <= severityRank(failOn);
}

export function buildReport(
  command: Report["command"],
  baseline: Side,
  current: Side,
  changes: ReportChange[],
  failOn: FailOn,
  notices: string[] = [],
): Report {
  const summary = { breaking: 0, minor: 0, patch: 0, total: changes.length };
  for (const change of changes) summary[change.severity]++;
  const failing = changes.filter((c) => !c.exempt && isFailing(c.severity, failOn)).length;
  return {
    command,
    baseline,
    current,
    failOn,
    changes: [...changes].sort((a, b) => severityRank(a.severity) - severityRank(b.severity)),
    notices,
    summary,
    requiredBump: bumpFor(changes),
    failing,
    result: failing > 0 ? "fail" : "pass",
  };
}

export { SEVERITIES };
