/**
 * The lint report: what `mcp-contract lint` found on one surface, with everything a
 * formatter needs to render it. Formatters never compute verdicts; they only render this.
 * Pure types and functions (the counterpart of src/report/model.ts for check and diff).
 */
import { fnv1a64 } from "../diff/fingerprint.ts";
import { type Finding, LINT_LEVELS, type LintLevel } from "../lint/model.ts";
import type { Exemption, Side } from "./model.ts";

export const LINT_FAIL_ON = ["error", "warning", "info", "never"] as const;
export type LintFailOn = (typeof LINT_FAIL_ON)[number];

/** A finding as reported: with a stable fingerprint, and why it does not count, when it does not. */
export interface ReportFinding extends Finding {
  /** Stable across runs and commits: same rule, target, path (and evidence, when needed to tell findings apart). */
  fingerprint: string;
  /** Ignored by the policy file: still listed, never counted. */
  exempt?: Exemption;
}

/** The estimated size of the tool list in a model's context (src/lint/rules-quality.ts toolListSize). */
export interface ToolListSize {
  tools: number;
  characters: number;
  tokens: number;
  /** The budget tool-list-too-large warns over. */
  budget: number;
}

export interface LintReport {
  command: "lint";
  /** The surface linted: a lockfile path or the live server's description. */
  subject: Side;
  failOn: LintFailOn;
  /** Most severe first; within a level, in catalog order, then target and path. */
  findings: ReportFinding[];
  /** Things the reader must see beside the findings: expired or unused ignores, break-glass. */
  notices: string[];
  summary: Record<LintLevel, number> & { total: number };
  toolList: ToolListSize;
  /** Findings at or above the threshold that are not exempt. */
  failing: number;
  result: "pass" | "fail";
}

export function levelRank(level: LintLevel): number {
  return LINT_LEVELS.indexOf(level);
}

export function isLintFailing(level: LintLevel, failOn: LintFailOn): boolean {
  return failOn !== "never" && levelRank(level) <= levelRank(failOn);
}

/** Counts toward the verdict: not exempt, and at or above the threshold. */
export function findingCounts(finding: ReportFinding, failOn: LintFailOn): boolean {
  return !finding.exempt && isLintFailing(finding.level, failOn);
}

/**
 * Fingerprints for findings, computed the way diff fingerprints are: from rule, target and
 * path; findings that share those (two URLs in one description) are told apart by their
 * evidence, then by order. Independent of levels, so a severity override keeps them.
 */
export function fingerprintFindings(findings: readonly Finding[]): ReportFinding[] {
  const keyOf = (f: Finding) => `lint|${f.rule}|${f.target.kind}|${f.target.name}|${f.path}`;
  const keys = findings.map(keyOf);
  const counts = countOf(keys);
  const refined = findings.map((f, i) =>
    (counts.get(keys[i] as string) as number) > 1
      ? `${keys[i]}|${JSON.stringify(f.evidence ?? null)}`
      : (keys[i] as string),
  );
  const refinedCounts = countOf(refined);
  const seen = new Map<string, number>();
  return findings.map((finding, i) => {
    let key = refined[i] as string;
    if ((refinedCounts.get(key) as number) > 1) {
      const n = seen.get(key) ?? 0;
      seen.set(key, n + 1);
      key = `${key}|#${n}`;
    }
    return { ...finding, fingerprint: fnv1a64(key) };
  });
}

function countOf(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

export function buildLintReport(
  subject: Side,
  findings: readonly ReportFinding[],
  toolList: ToolListSize,
  failOn: LintFailOn,
  notices: string[] = [],
): LintReport {
  const summary = { error: 0, warning: 0, info: 0, total: findings.length };
  for (const finding of findings) summary[finding.level]++;
  const failing = findings.filter((f) => findingCounts(f, failOn)).length;
  // A stable sort keeps catalog order within a level.
  const sorted = [...findings].sort((a, b) => levelRank(a.level) - levelRank(b.level));
  return {
    command: "lint",
    subject,
    failOn,
    findings: sorted,
    notices,
    summary,
    toolList,
    failing,
    result: failing > 0 ? "fail" : "pass",
  };
}
