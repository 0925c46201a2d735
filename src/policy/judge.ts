/**
 * The two pipelines, from surfaces in hand to a verdict (lint's here). Each is a chain of
 * `(changes) → changes` steps in a fixed order, so that what a flag does is read in one place:
 *
 *   check, diff: compare (surface diff + security drift lens) → rule overrides → ignores
 *                → consumer scope (--used, --used-by) → witnesses → report → semver and
 *                break-glass (the verdict): src/policy/judge-comparison.ts, a module of its own
 *                so that check and diff do not load the lint checks
 *   lint:        checks (minus --disable) → level overrides → fingerprints → ignores → report
 *
 * Pure: the commands in src/cli/ read the files and flags, call one of these, and write the
 * reports. (Witnesses are async only because the validator they use is loaded on first use.)
 */
import type { Contract } from "../contract/model.ts";
import { importedNotice } from "../contract/peers/imported.ts";
import { hostOutcomes } from "../lint/hosts/summary.ts";
import { lintContract } from "../lint/lint.ts";
import { toolListSize } from "../lint/rules-quality.ts";
import type { SecurityOptions } from "../lint/rules-security.ts";
import { buildLintReport, fingerprintFindings, type LintFailOn, type LintReport, sideOf } from "../report/model.ts";
import { applyIgnores, applyLintOverrides } from "./apply.ts";
import type { Policy } from "./policy.ts";

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
