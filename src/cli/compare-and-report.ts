/**
 * The pipeline `check` and `diff` share once both surfaces are in hand: diff, apply the
 * policy (overrides, ignores, scope), attach witnesses, decide the verdict, write every
 * report. Returns the exit code.
 */
import type { Contract } from "../contract/model.ts";
import { diffContracts } from "../diff/diff.ts";
import { attachWitnesses } from "../diff/witnesses.ts";
import { finishVerdict } from "../policy/verdict.ts";
import type { ReportContext } from "../report/context.ts";
import { buildReport, type FailOn, type Report, sideOf } from "../report/model.ts";
import { exemptChanges, judgeChanges, type PreparedPolicy } from "./policy-options.ts";
import { type OutputPlan, writeReports } from "./report-output.ts";
import type { ColorMode, Ui } from "./ui.ts";

export interface Comparison {
  command: Report["command"];
  baseline: { contract: Contract; source: string };
  current: { contract: Contract; source: string };
  policy: PreparedPolicy;
  failOn: FailOn;
  witness: boolean;
  plans: OutputPlan[];
  color: ColorMode;
  /** Where findings are located (lockfile texts) for SARIF, GitHub annotations and JUnit. */
  context: ReportContext;
  ui: Ui;
}

export async function compareAndReport(c: Comparison): Promise<number> {
  const before = c.baseline.contract;
  const after = c.current.contract;
  const exempted = exemptChanges(judgeChanges(diffContracts(before, after), c.policy), c.policy);
  if (c.witness) exempted.changes = await attachWitnesses(exempted.changes, before, after);
  const { report, exitCode, warning } = finishVerdict(
    buildReport(
      c.command,
      sideOf(before, c.baseline.source),
      sideOf(after, c.current.source),
      exempted.changes,
      c.failOn,
      exempted.notices,
    ),
    c.policy,
  );
  await writeReports(report, c.plans, c.color, { ...c.context, baselineContract: before, currentContract: after });
  if (warning) c.ui.warn(warning);
  return exitCode;
}
