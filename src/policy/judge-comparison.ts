/**
 * The check and diff pipeline, from two surfaces in hand to a verdict (src/policy/judge.ts
 * holds it beside lint's): compare (surface diff + security drift lens) → rule overrides →
 * ignores → consumer scope (--used, --used-by, --calls) → witnesses → report → semver and
 * break-glass. A module of its own so that check and diff do not load the lint checks, which
 * only lint's pipeline runs (0.65M instructions of a small diff's start-up). Pure.
 */
import type { Contract } from "../contract/model.ts";
import { importedNotice } from "../contract/peers/imported.ts";
import { attachWitnesses } from "../diff/witnesses.ts";
import { buildReport, type FailOn, sideOf } from "../report/model.ts";
import { applyIgnores, applyRuleOverrides } from "./apply.ts";
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
