/**
 * The report outputs check, diff and lint share, and writing them:
 *
 * - `--format FORMAT[=FILE]` (repeatable): each format to its file, or to stdout. The older
 *   `--format F --output FILE` pairs still work: an --output pairs with the --format before it
 *   whose format its extension names (`--format github --format sarif --output r.sarif` writes
 *   SARIF to r.sarif), else with the first --format before it still unpaired, as it always did
 *   (else with a later one its extension names, or any when it names none). An --output without
 *   a --format takes the format its extension names (.sarif, .json, .md, .xml, .txt), or is refused.
 * - `-q` prints no report on stdout unless a format was asked for.
 * - Annotation paths (GitHub, SARIF) are relative to the repository root: GITHUB_WORKSPACE when
 *   set, else git's top level.
 * - `check --update` accepts the changes into the baseline (or creates it), without rewriting
 *   a file whose bytes would not change.
 */
import { appendFileSync, existsSync, mkdirSync, realpathSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Option } from "@commander-js/extra-typings";
import { serializeContract } from "../contract/canonical.ts";
import { type Contract, emptyContract } from "../contract/model.ts";
import { UsageError } from "../errors.ts";
import { type Comparison, judgeComparison } from "../policy/judge-comparison.ts";
import { usedByNotice } from "../policy/scope.ts";
import { FORMATS, type Format, type ReportContext, type ReportFile } from "../report/context.ts";
import type { AnyReport, Report } from "../report/model.ts";
import type { renderReport } from "../report/render.ts";
import { changesWhat } from "../report/shared.ts";
import { renderText } from "../report/text.ts";
import { gitTopLevel } from "./git-baseline.ts";
import { writeStdout } from "./globals.ts";
import { type LockfileRead, type LockfileReads, readLockfile } from "./lockfile.ts";
import { assertWritable, readRegularFile, writeFileAtomic } from "./output-file.ts";
import { isTerminal, writeErr } from "./std-streams.ts";
import { type Ui, useColor } from "./ui.ts";

export type { ReportContext, ReportFile } from "../report/context.ts";

/**
 * For each --output value list, how many --format values came before each of its entries on
 * the command line. Commander calls option parsers in command-line order, so the parsers of
 * one command's --format and --output note it; planOutputs reads it (absent: all formats first).
 */
const OUTPUT_ORDER = new WeakMap<readonly string[], number[]>();

export function formatOptions() {
  let formatsSeen = 0;
  const collectFormat = (value: string, previous: string[] = []) => {
    formatsSeen++;
    return [...previous, value];
  };
  const collectOutput = (value: string, previous: string[] = []) => {
    const next = [...previous, value];
    OUTPUT_ORDER.set(next, [...(OUTPUT_ORDER.get(previous) ?? previous.map(() => formatsSeen)), formatsSeen]);
    return next;
  };
  return [
    new Option("--no-witness", "skip computing witness values for breaking changes (faster on very large diffs)"),
    new Option(
      "--format <format[=file]>",
      `report format, to stdout or to FILE (repeatable: --format sarif=r.sarif --format github): ${FORMATS.join(", ")}`,
    ).argParser(collectFormat),
    new Option(
      "--output <file>",
      "write the report to FILE (repeatable; the format comes from the --format before it, else from the extension: .txt .json .sarif .md .xml)",
    ).argParser(collectOutput),
  ] as const;
}

export interface OutputPlan {
  format: Format;
  file?: string;
}

/** The format a file name implies, if any. */
export function formatFromExtension(file: string): Format | undefined {
  const name = file.toLowerCase();
  if (name.endsWith(".sarif") || name.endsWith(".sarif.json")) return "sarif";
  if (name.endsWith(".json")) return "json";
  if (name.endsWith(".md") || name.endsWith(".markdown")) return "markdown";
  if (name.endsWith(".xml")) return "junit";
  if (name.endsWith(".txt") || name.endsWith(".text") || name.endsWith(".log")) return "text";
  return undefined;
}

function parseFormat(spec: string): { format: Format; file?: string } {
  const eq = spec.indexOf("=");
  const given = (eq < 0 ? spec : spec.slice(0, eq)).trim();
  // mcp-covenant calls the text report "human" (src/cli/peer-aliases.ts).
  const name = given === "human" ? "text" : given;
  if (!(FORMATS as readonly string[]).includes(name)) {
    throw new UsageError(`unknown --format ${JSON.stringify(name)}; choose from ${FORMATS.join(", ")}.`);
  }
  if (eq < 0) return { format: name as Format };
  const file = spec.slice(eq + 1);
  if (file === "") {
    throw new UsageError(`--format ${name}= names no file; give one (--format ${name}=report.out), or drop the "=".`);
  }
  return { format: name as Format, file };
}

export interface PlanOptions {
  /** -q: no report on stdout unless a format was asked for. */
  quiet?: boolean;
}

/** Create the missing directories above an output file, so that `--output reports/r.sarif` works in a fresh checkout. */
function ensureDirectory(file: string): void {
  const dir = dirname(resolve(file));
  if (existsSync(dir)) return;
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    // assertWritable says what is wrong (a file in the way, no permission).
  }
}

export function planOutputs(
  formats: readonly string[] | undefined,
  outputs: readonly string[] | undefined,
  options: PlanOptions = {},
): OutputPlan[] {
  const specs = (formats ?? []).map(parseFormat);
  const outs = outputs ?? [];
  const before = (outputs && OUTPUT_ORDER.get(outputs)) ?? outs.map(() => specs.length);
  // Formats without "=FILE" wait for an --output; those with one are done.
  const open = specs.map((spec, index) => ({ ...spec, index, paired: spec.file !== undefined }));
  const extra: { format: Format; file: string }[] = [];
  outs.forEach((out, i) => {
    const implied = formatFromExtension(out);
    const waiting = open.filter((spec) => !spec.paired);
    const earlier = waiting.filter((spec) => spec.index < (before[i] as number));
    // A later --format only when the extension agrees with it, or names no format.
    const pick =
      earlier.find((spec) => spec.format === implied) ??
      earlier[0] ??
      waiting.find((spec) => spec.format === implied) ??
      (implied === undefined ? waiting[0] : undefined);
    if (pick) {
      pick.file = out;
      pick.paired = true;
    } else if (implied) {
      extra.push({ format: implied, file: out });
    } else {
      throw new UsageError(
        `--output ${out}: which format? Its extension names none; give it as --format FORMAT=${out} (${FORMATS.join(", ")}).`,
      );
    }
  });
  const asked = specs.length > 0 || outs.length > 0;
  let plans: OutputPlan[] = [...open, ...extra].map(({ format, file }) => ({
    format,
    ...(file !== undefined && file !== "-" && { file }),
  }));
  if (!asked) plans = options.quiet ? [] : [{ format: "text" }];
  if (plans.filter((p) => !p.file).length > 1) {
    throw new UsageError(
      "only one report can go to stdout; give the others a file (--format sarif=r.sarif, or --format F --output FILE).",
    );
  }
  const files = new Map<string, Format>();
  for (const plan of plans) {
    if (!plan.file) continue;
    const key = resolve(plan.file);
    const other = files.get(key);
    if (other !== undefined) {
      throw new UsageError(
        `two reports (${other} and ${plan.format}) would be written to ${plan.file}; give each its own file.`,
      );
    }
    files.set(key, plan.format);
    ensureDirectory(plan.file);
    assertWritable(plan.file, "--output");
  }
  return plans;
}

/** The real path of a file, when it exists (so that paths compare with git's, which resolves symlinks). */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The repository root that annotation paths are relative to: GITHUB_WORKSPACE when set (the
 * checkout GitHub resolves annotation and SARIF paths from), else git's top level; undefined
 * outside a repository (paths are then relative to the working directory).
 */
export function repositoryRoot(cwd: string, env: Record<string, string | undefined> = process.env): string | undefined {
  const workspace = env.GITHUB_WORKSPACE?.trim();
  if (workspace && isDirectory(workspace)) return realPath(workspace);
  const top = gitTopLevel(cwd);
  return top === undefined ? undefined : realPath(top);
}

/** The context with real, absolute paths and the repository root, for the formats that point into files. */
export function locatedContext(context: ReportContext, plans: readonly OutputPlan[]): ReportContext {
  if (!plans.some((p) => p.format === "sarif" || p.format === "github")) return context;
  const cwd = realPath(context.cwd ?? process.cwd());
  const root = context.root ?? repositoryRoot(cwd);
  const real = (file: ReportFile | undefined) =>
    file && { ...file, path: file.revision === undefined ? realPath(resolve(cwd, file.path)) : file.path };
  return {
    ...context,
    ...(context.baseline && { baseline: real(context.baseline) }),
    ...(context.current && { current: real(context.current) }),
    ...(context.worktree && { worktree: real(context.worktree) }),
    cwd,
    ...(root !== undefined && { root }),
  };
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
  const located = locatedContext(context, plans);
  const render = await rendererFor(plans);
  for (const plan of plans) {
    const color = !plan.file && plan.format === "text" && useColor(colorMode, { isTTY: isTerminal(1) });
    const text = render(report, plan.format, located, color);
    if (plan.file) writeFileAtomic(plan.file, text);
    else await writeStdout(text);
  }
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (summaryFile && plans.some((p) => p.format === "github")) {
    appendStepSummary(summaryFile, render(report, "markdown", located, false));
  }
}

/**
 * What renders the planned reports. Text alone (a plain diff, check or lint) needs only the text
 * renderer: the other formats' modules (SARIF, JUnit, GitHub, Markdown, JSON, changelog) load
 * when a plan names one, where loading them with every run cost a plain diff 0.8M instructions.
 * A github plan also writes the job summary in Markdown, so it takes the full switch too.
 */
async function rendererFor(plans: readonly OutputPlan[]): Promise<typeof renderReport> {
  if (plans.every((plan) => plan.format === "text"))
    return (report, _format, _context, color) => renderText(report, { color });
  return (await import("../report/render.ts")).renderReport;
}

/** `check --update`: the baseline lockfile, or, when there is none yet, an empty one (no file: it will be created). */
export function readBaselineOrNone(
  path: string,
  reads?: LockfileReads,
): { contract: Contract; file?: LockfileRead["file"] } {
  if (existsSync(path)) return readLockfile(path, "baseline", reads ? { reads } : {});
  // It will be created, in a directory that may not exist yet either.
  ensureDirectory(path);
  return { contract: emptyContract() };
}

export interface ComparisonOutput {
  /** `check --update`: accept the changes into this lockfile (the baseline). */
  update?: string;
}

/**
 * `check --update`: write the current surface to the baseline unless its bytes are already
 * those (no rewrite, no new mtime), creating the file (and its directory) when there is none.
 */
function acceptInto(file: string, current: Contract, created: boolean): NonNullable<Report["accepted"]> {
  const text = serializeContract(current);
  if (!created && readRegularFile(file) === text) return { file, outcome: "unchanged" };
  if (created) ensureDirectory(file);
  writeFileAtomic(file, text);
  return { file, outcome: created ? "created" : "updated" };
}

/**
 * check and diff once both surfaces are in hand: judge them (src/policy/judge.ts), write every
 * report, warn when break-glass let a failing run pass; returns the exit code. `files` are the
 * lockfile texts reports point into (SARIF, GitHub annotations, JUnit). With `update`, the
 * changes are accepted into the baseline and the run passes (exit 0).
 */
export async function reportComparison(
  comparison: Comparison,
  plans: OutputPlan[],
  colorMode: "auto" | "always" | "never",
  files: Pick<ReportContext, "baseline" | "current">,
  ui: Ui,
  output: ComparisonOutput = {},
): Promise<number> {
  const created = output.update !== undefined && files.baseline === undefined;
  // A baseline about to be created has the current protocol: the report lists what is added, not a protocol change.
  const judged: Comparison = created
    ? {
        ...comparison,
        baseline: {
          ...comparison.baseline,
          contract: { ...comparison.baseline.contract, protocolVersion: comparison.current.contract.protocolVersion },
        },
      }
    : comparison;
  const verdict = await judgeComparison(judged);
  let report = verdict.report;
  if (report.scope && judged.policy.usage) {
    const notice = usedByNotice(report.scope, judged.policy.usage);
    if (notice) ui.warn(notice);
  }
  if (output.update !== undefined) {
    const accepted = acceptInto(output.update, comparison.current.contract, created);
    report = { ...report, accepted, result: "pass" };
  }
  // check --baseline-ref: the revision's text has other lines than the working tree's lockfile, the file a pull request changes.
  const worktree =
    files.baseline?.revision !== undefined && files.current === undefined
      ? worktreeFile(files.baseline.path)
      : undefined;
  await writeReports(report, plans, colorMode, {
    ...files,
    ...(worktree && { worktree }),
    baselineContract: judged.baseline.contract,
    currentContract: comparison.current.contract,
  });
  // A text report on stdout ends with the verdict line, which says what --update did: said once.
  const textOnStdout = plans.some((p) => p.format === "text" && !p.file);
  if (report.accepted) {
    const { file, outcome } = report.accepted;
    if (textOnStdout) return 0;
    ui.info(
      outcome === "created"
        ? `created ${file} with the current surface`
        : outcome === "unchanged"
          ? `${file} is up to date: nothing to accept`
          : `accepted ${changesWhat(report)} into ${file}`,
    );
    return 0;
  }
  // The break-glass notice is in the report too: say it on stderr only when no text report on stdout shows it.
  if (verdict.warning && !textOnStdout) ui.warn(verdict.warning);
  return verdict.exitCode;
}

function worktreeFile(path: string): ReportFile | undefined {
  const text = readRegularFile(path);
  return text === undefined ? undefined : { path, text };
}

function appendStepSummary(file: string, markdown: string): void {
  try {
    appendFileSync(file, `${markdown}\n`);
  } catch (error) {
    // The reports are written; a job summary that cannot be written must not change the verdict.
    writeErr(
      `warning: cannot append the report to the job summary ${file} (GITHUB_STEP_SUMMARY): ${(error as Error).message}\n`,
    );
  }
}
