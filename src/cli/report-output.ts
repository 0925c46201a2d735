/**
 * --format / --output pairs shared by check and diff: each --format is written to the
 * --output at the same position, or to stdout when it has none.
 */
import { Option } from "@commander-js/extra-typings";
import { UsageError } from "../errors.ts";
import { renderJson } from "../report/json.ts";
import type { Report } from "../report/model.ts";
import { renderText } from "../report/text.ts";
import { assertWritable, writeFileAtomic } from "../util/write-atomic.ts";
import { writeStdout } from "./globals.ts";
import { useColor } from "./ui.ts";

export const FORMATS = ["text", "json"] as const;
export type Format = (typeof FORMATS)[number];

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

export async function writeReports(
  report: Report,
  plans: OutputPlan[],
  colorMode: "auto" | "always" | "never",
): Promise<void> {
  for (const plan of plans) {
    const color = !plan.file && plan.format === "text" && useColor(colorMode, process.stdout);
    const text = plan.format === "json" ? renderJson(report) : renderText(report, { color });
    if (plan.file) writeFileAtomic(plan.file, text);
    else await writeStdout(text);
  }
}
