/**
 * --format / --output pairs shared by check, diff and lint: each --format is written to the
 * --output at the same position, or to stdout when it has none.
 */
import { appendFileSync } from "node:fs";
import { Option } from "@commander-js/extra-typings";
import { UsageError } from "../errors.ts";
import { type Comparison, judgeComparison } from "../policy/judge.ts";
import { FORMATS, type Format, type ReportContext } from "../report/context.ts";
import type { AnyReport } from "../report/model.ts";
import { renderReport } from "../report/render.ts";
import { writeStdout } from "./globals.ts";
import { assertWritable, writeFileAtomic } from "./output-file.ts";
import { type Ui, useColor } from "./ui.ts";

export type { ReportContext, ReportFile } from "../report/context.ts";

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function formatOptions() {
  return [
    new Option("--no-witness", "skip computing witness values for breaking changes (faster on very large diffs)"),
    new Option(
      "--format <format>",
      `report format: ${FORMATS.join(", ")} (repeatable, paired with --output)`,
    ).argParser(collect),
    new Option(
      "--output <file>",
      "write the report to FILE instead of stdout (repeatable, pairs with --format)",
    ).argParser(collect),
  ] as const;
}

export interface OutputPlan {
  format: Format;
  file?: string;
}

export function planOutputs(formats: string[] | undefined, outputs: string[] | undefined): OutputPlan[] {
  const fs = formats?.length ? formats : ["text"];
  const os = outputs ?? [];
  if (os.length > fs.length) {
    throw new UsageError(
      `${os.length} --output files but only ${fs.length} --format; give one --format for each --output, in the same order.`,
    );
  }
  const plans = fs.map((format, i) => {
    if (!(FORMATS as readonly string[]).includes(format)) {
      throw new UsageError(`unknown --format ${JSON.stringify(format)}; choose from ${FORMATS.join(", ")}.`);
    }
    const file = os[i] === "-" ? undefined : os[i];
    return { format: format as Format, file };
  });
  if (plans.filter((p) => !p.file).length > 1) {
    throw new UsageError("only one report can go to stdout; give the others an --output FILE.");
  }
  for (const plan of plans) if (plan.file) assertWritable(plan.file, "--output");
  return plans;
}

/**
 * Write every planned report, whatever its kind (check, diff or lint): each plan to its file
 * or stdout, colour for text only on a terminal. `context` carries the lockfile texts and
 * surfaces that sarif, github and junit use to point at lines and list every item; without
 * it they still render, with less. When a github report is written inside GitHub Actions
 * (GITHUB_STEP_SUMMARY is set), the Markdown report is also appended to the job summary.
 */
export async function writeReports(
  report: AnyReport,
  plans: OutputPlan[],
  colorMode: "auto" | "always" | "never",
  context: ReportContext = {},
): Promise<void> {
  for (const plan of plans) {
    const color = !plan.file && plan.format === "text" && useColor(colorMode, process.stdout);
    const text = renderReport(report, plan.format, context, color);
    if (plan.file) writeFileAtomic(plan.file, text);
    else await writeStdout(text);
  }
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (summaryFile && plans.some((p) => p.format === "github")) {
    appendStepSummary(summaryFile, renderReport(report, "markdown", context, false));
  }
}

/**
 * check and diff once both surfaces are in hand: judge them (src/policy/judge.ts), write every
 * report, warn when break-glass let a failing run pass; returns the exit code. `files` are the
 * lockfile texts reports point into (SARIF, GitHub annotations, JUnit).
 */
export async function reportComparison(
  comparison: Comparison,
  plans: OutputPlan[],
  colorMode: "auto" | "always" | "never",
  files: Pick<ReportContext, "baseline" | "current">,
  ui: Ui,
): Promise<number> {
  const verdict = await judgeComparison(comparison);
  await writeReports(verdict.report, plans, colorMode, {
    ...files,
    baselineContract: comparison.baseline.contract,
    currentContract: comparison.current.contract,
  });
  if (verdict.warning) ui.warn(verdict.warning);
  return verdict.exitCode;
}

function appendStepSummary(file: string, markdown: string): void {
  try {
    appendFileSync(file, `${markdown}\n`);
  } catch (error) {
    // The reports are written; a job summary that cannot be written must not change the verdict.
    process.stderr.write(
      `warning: cannot append the report to the job summary ${file} (GITHUB_STEP_SUMMARY): ${(error as Error).message}\n`,
    );
  }
}
