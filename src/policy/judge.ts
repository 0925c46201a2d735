/**
 * The two pipelines, side by side, from surfaces in hand to a verdict. Each is a chain of
 * `(changes) → changes` steps in a fixed order, so that what a flag does is read here once:
 *
 *   check, diff: compare (surface diff + security drift lens) → rule overrides → ignores
 *                → consumer scope (--used, --used-by) → witnesses → report → semver and
 *                break-glass (the verdict)
 *   lint:        checks (minus --disable) → level overrides → fingerprints → ignores → report
 *
 * Pure: the commands in src/cli/ read the files and flags, call one of these, and write the
 * reports. (Witnesses are async only because the validator they use is loaded on first use.)
 */
import type { Contract } from "../contract/model.ts";
import { importedNotice } from "../contract/peers/imported.ts";
import { attachWitnesses } from "../diff/witnesses.ts";
import { hostOutcomes } from "../lint/hosts/summary.ts";
import { lintContract } from "../lint/lint.ts";
import { toolListSize } from "../lint/rules-quality.ts";
import type { SecurityOptions } from "../lint/rules-security.ts";
import {
  buildLintReport,
  buildReport,
  type FailOn,
  fingerprintFindings,
  type LintFailOn,
  type LintReport,
  sideOf,
} from "../report/model.ts";
import { applyIgnores, applyLintOverrides, applyRuleOverrides } from "./apply.ts";
import { applyCalls, type ConsumerCalls } from "./calls.ts";
import { compareSurfaces } from "./compare.ts";
import type { Policy } from "./policy.ts";
import { applyScope, type ConsumerUsage, resolveScope, withScope } from "./scope.ts";
import { comparisonNotices, finishVerdict, type Verdict, type VerdictOptions } from "./verdict.ts";

/** The policy of one run: the file's rules and ignores, the consumer's usage, semver and break-glass. */
export interface JudgePolicy extends VerdictOptions {
  policy: Policy;
  usage?: ConsumerUsage;
  /** --calls: the consumer's recorded calls; changes none of them depends on are out of scope. */
  calls?: ConsumerCalls;
  /** YYYY-MM-DD (UTC), for ignores that expire. */
  today: string;
}

export interface Comparison {
  command: "check" | "diff";
  baseline: { contract: Contract; source: string };
  current: { contract: Contract; source: string };
  policy: JudgePolicy;
  failOn: FailOn;
  /** Compute witness values for breaking changes (--no-witness turns it off). */
  witness: boolean;
  /** --hosts: host profiles whose new rejections are breaking; absent: the policy file's "hosts", if any. */
  hosts?: readonly string[];
}

/** check and diff. */
export async function judgeComparison(c: Comparison): Promise<Verdict> {
  const before = c.baseline.contract;
  const after = c.current.contract;
  const hosts = c.hosts ?? c.policy.policy.hosts ?? [];
  const surfaces = compareSurfaces(before, after, {
    allowHosts: c.policy.policy.allowHosts,
    ...(hosts.length > 0 && { hosts }),
  });
  const judged = applyRuleOverrides(surfaces, c.policy.policy);
  const ignored = applyIgnores(judged, c.policy.policy, c.policy.today);
  // A --used name that selects nothing on either side is a usage error, not a silent pass.
  const scope = c.policy.usage ? resolveScope(c.policy.usage, before, after) : undefined;
  const used = c.policy.usage ? applyScope(ignored.changes, c.policy.usage) : ignored.changes;
  const scoped = c.policy.calls ? await applyCalls(used, c.policy.calls, after) : used;
  // Witnesses last: only for what is still reported, and after overrides changed severities.
  const changes = c.witness ? await attachWitnesses(scoped, before, after) : scoped;
  const report = buildReport(
    c.command,
    sideOf(before, c.baseline.source),
    sideOf(after, c.current.source),
    changes,
    c.failOn,
    [...importedNotices(c), ...comparisonNotices(before, after), ...ignored.notices],
  );
  return finishVerdict(scope && c.policy.usage ? withScope(report, scope, c.policy.usage) : report, c.policy);
}

/** Once per report: what a side converted from a peer tool's file could not hold. */
function importedNotices(c: Comparison): string[] {
  const notices: string[] = [];
  const { baseline, current } = c;
  if (baseline.contract.capture.importedFrom) {
    notices.push(importedNotice("baseline", baseline.source, baseline.contract.capture.importedFrom));
  }
  if (current.contract.capture.importedFrom) {
    notices.push(importedNotice("current side", current.source, current.contract.capture.importedFrom));
  }
  return notices;
}

export interface LintRun {
  contract: Contract;
  source: string;
  policy: Policy;
  today: string;
  tokenBudget: number;
  /** Rule ids turned off for this run (--disable). */
  disabled: ReadonlySet<string>;
  failOn: LintFailOn;
  /** Host profiles (`--hosts`): their rules run, and the report ends with their outcomes; absent: the policy file's "hosts", if any. */
  hosts?: readonly string[];
}

/** lint. */
export function judgeLint(run: LintRun): { report: LintReport; exitCode: 0 | 1 } {
  const hosts = run.hosts ?? run.policy.hosts ?? [];
  const options: SecurityOptions = {
    tokenBudget: run.tokenBudget,
    allowHosts: run.policy.allowHosts,
    ...(hosts.length > 0 && { hosts }),
  };
  const found = lintContract(run.contract, options, run.disabled);
  const findings = fingerprintFindings(applyLintOverrides(found, run.policy));
  const ignored = applyIgnores(findings, run.policy, run.today, "lint");
  const imported = run.contract.capture.importedFrom;
  const report = buildLintReport(
    sideOf(run.contract, run.source),
    ignored.changes,
    { ...toolListSize(run.contract), budget: run.tokenBudget },
    run.failOn,
    [...(imported ? [importedNotice("linted file", run.source, imported, true)] : []), ...ignored.notices],
  );
  if (hosts.length > 0) report.hosts = hostOutcomes(report.findings, hosts);
  return { report, exitCode: report.result === "fail" ? 1 : 0 };
}
