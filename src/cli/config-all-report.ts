/**
 * The one report of `check --all`: a section per configured server, in config order, each
 * the server's own check report (or why it could not be checked), then a line per server.
 *
 * - text and markdown: a heading per server, then its report;
 * - json: `{reportVersion, tool, command: "check", all: true, result, exitCode, servers: [{name,
 *   config, lockfile, status, exitCode, report?, error?}]}`, `report` being the JSON report
 *   `check --format json` writes for that server (docs/report.schema.json);
 * - sarif: one run per server; github: every server's annotations; junit: a test suite per server.
 * `changelog` is for one surface and is refused.
 */
import { appendFileSync } from "node:fs";
import { UsageError } from "../errors.ts";
import type { Report } from "../report/model.ts";
import { renderReport } from "../report/render.ts";
import { escapeControls, escapeJsonText } from "../report/shared.ts";
import { VERSION } from "../version.ts";
import { writeStdout } from "./globals.ts";
import { writeFileAtomic } from "./output-file.ts";
import { locatedContext, type OutputPlan, type ReportContext } from "./report-output.ts";
import { useColor } from "./ui.ts";

export interface ServerCheck {
  name: string;
  /** The config file the server came from, as shown. */
  config: string;
  lockfile: string;
  /** pass/fail: checked; missing: no lockfile yet; error: the lockfile, config entry or server failed. */
  status: "pass" | "fail" | "missing" | "error";
  exitCode: number;
  report?: Report;
  context?: ReportContext;
  error?: string;
}

/** Formats that render a report per server and put them together. */
const COMBINED = ["text", "json", "markdown", "sarif", "github", "junit"] as const;

export function assertAllFormats(plans: readonly OutputPlan[]): void {
  const other = plans.find((p) => !(COMBINED as readonly string[]).includes(p.format));
  if (other) {
    throw new UsageError(
      `--format ${other.format} describes one surface, so check --all cannot write it; choose from ${COMBINED.join(", ")}, or check one server with --server NAME.`,
    );
  }
}

function statusLine(r: ServerCheck): string {
  switch (r.status) {
    case "pass":
      return `✔ ${r.name}: pass`;
    case "fail":
      return `✖ ${r.name}: FAIL (${r.report?.failing ?? 0} at or above ${r.report?.failOn ?? "breaking"})`;
    case "missing":
      return `✖ ${r.name}: no lockfile at ${r.lockfile} (exit 2)`;
    case "error":
      return `✖ ${r.name}: not checked (exit ${r.exitCode})`;
  }
}

function overall(results: readonly ServerCheck[]): { result: "pass" | "fail"; exitCode: number; line: string } {
  const exitCode = Math.max(0, ...results.map((r) => r.exitCode));
  const count = (s: ServerCheck["status"]) => results.filter((r) => r.status === s).length;
  const parts = [`${count("pass")} passed`, `${count("fail")} failed`];
  if (count("missing")) parts.push(`${count("missing")} without a lockfile`);
  if (count("error")) parts.push(`${count("error")} not checked`);
  const line = `${results.length} server${results.length === 1 ? "" : "s"}: ${parts.join(", ")}`;
  return { result: exitCode === 0 ? "pass" : "fail", exitCode, line };
}

function renderText(results: readonly ServerCheck[], color: boolean): string {
  const paint = (code: string, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const out: string[] = [];
  for (const r of results) {
    out.push(paint("1;4", `server ${escapeControls(r.name)}`) + paint("2", `  (${r.config} → ${r.lockfile})`), "");
    if (r.report) out.push(renderReport(r.report, "text", r.context ?? {}, color).trimEnd());
    else out.push(paint("1;31", `✖ ${escapeControls(r.error ?? "not checked")}`));
    out.push("");
  }
  const total = overall(results);
  out.push(paint("1", `mcp-contract check --all: ${total.line}`));
  for (const r of results) out.push(`  ${escapeControls(statusLine(r))}`);
  out.push(total.result === "pass" ? paint("1;32", "✔ PASS: every server") : paint("1;31", "✖ FAIL"));
  return `${out.join("\n")}\n`;
}

function renderJson(results: readonly ServerCheck[]): string {
  const total = overall(results);
  const document = {
    reportVersion: 1,
    tool: { name: "mcp-contract", version: VERSION },
    command: "check",
    all: true,
    result: total.result,
    exitCode: total.exitCode,
    servers: results.map((r) => ({
      name: r.name,
      config: r.config,
      lockfile: r.lockfile,
      status: r.status,
      exitCode: r.exitCode,
      ...(r.report && { report: JSON.parse(renderReport(r.report, "json", {}, false)) }),
      ...(r.error !== undefined && { error: r.error }),
    })),
  };
  return `${escapeJsonText(JSON.stringify(document, null, 2))}\n`;
}

function renderMarkdown(results: readonly ServerCheck[]): string {
  const total = overall(results);
  const out = [`# mcp-contract check --all: ${total.result === "pass" ? "✅ pass" : "❌ fail"}`, "", total.line, ""];
  for (const r of results) {
    out.push(`---`, "", `**server \`${r.name.replace(/`/g, "'")}\`** (${r.config} → \`${r.lockfile}\`)`, "");
    if (r.report) out.push(renderReport(r.report, "markdown", {}, false).trimEnd(), "");
    else out.push(`> ❌ ${escapeControls(r.error ?? "not checked")}`, "");
  }
  return `${out.join("\n")}\n`;
}

function renderGithub(results: readonly ServerCheck[], located: (r: ServerCheck) => ReportContext): string {
  const out: string[] = [];
  const command = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  for (const r of results) {
    if (r.report) out.push(renderReport(r.report, "github", { ...located(r), server: r.name }, false).trimEnd());
    else out.push(`::error title=mcp-contract (${command(r.name)})::${command(r.error ?? "not checked")}`);
  }
  return `${out.filter(Boolean).join("\n")}\n`;
}

function renderSarif(results: readonly ServerCheck[], located: (r: ServerCheck) => ReportContext): string {
  let log: { runs: { automationDetails?: { id: string } }[] } | undefined;
  for (const r of results) {
    if (!r.report) continue;
    const one = JSON.parse(renderReport(r.report, "sarif", located(r), false)) as typeof log & object;
    // automationDetails tells the runs apart in code scanning: one category per server.
    for (const run of one.runs) run.automationDetails = { id: `mcp-contract/${r.name}/` };
    if (log) log.runs.push(...one.runs);
    else log = one;
  }
  return `${JSON.stringify(log ?? { version: "2.1.0", runs: [] }, null, 2)}\n`;
}

function renderJunit(results: readonly ServerCheck[], located: (r: ServerCheck) => ReportContext): string {
  const xml = (s: string) =>
    s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;").replace(/>/g, "&gt;");
  const suites: string[] = [];
  const totals = { tests: 0, failures: 0, errors: 0 };
  for (const r of results) {
    const name = xml(`mcp-contract: ${r.name}`);
    if (!r.report) {
      totals.tests++;
      totals.errors++;
      suites.push(
        `  <testsuite name="${name}" tests="1" failures="0" errors="1" skipped="0" time="0">`,
        `    <testcase classname="server" name="${xml(r.name)}" time="0">`,
        `      <error message="${xml(r.error ?? "not checked")}"/>`,
        "    </testcase>",
        "  </testsuite>",
      );
      continue;
    }
    const lines = renderReport(r.report, "junit", located(r), false).split("\n");
    const inner = lines.slice(2, lines.lastIndexOf("</testsuites>"));
    const head = inner[0] ?? "";
    totals.tests += Number(/ tests="(\d+)"/.exec(head)?.[1] ?? 0);
    totals.failures += Number(/ failures="(\d+)"/.exec(head)?.[1] ?? 0);
    suites.push(head.replace(/ name="[^"]*"/, ` name="${name}"`), ...inner.slice(1));
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mcp-contract check --all" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" time="0">`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}

/** Write the combined report in every planned format, each to its file or stdout. */
export async function writeAllReports(
  results: readonly ServerCheck[],
  plans: readonly OutputPlan[],
  colorMode: "auto" | "always" | "never",
): Promise<void> {
  const cache = new Map<ServerCheck, ReportContext>();
  const located = (r: ServerCheck) => {
    let context = cache.get(r);
    if (!context) {
      context = locatedContext(r.context ?? {}, [{ format: "sarif" }]);
      cache.set(r, context);
    }
    return context;
  };
  for (const plan of plans) {
    const color = !plan.file && plan.format === "text" && useColor(colorMode, process.stdout);
    const text =
      plan.format === "json"
        ? renderJson(results)
        : plan.format === "markdown"
          ? renderMarkdown(results)
          : plan.format === "github"
            ? renderGithub(results, located)
            : plan.format === "sarif"
              ? renderSarif(results, located)
              : plan.format === "junit"
                ? renderJunit(results, located)
                : renderText(results, color);
    if (plan.file) writeFileAtomic(plan.file, text);
    else await writeStdout(text);
  }
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (summaryFile && plans.some((p) => p.format === "github")) {
    try {
      appendFileSync(summaryFile, `${renderMarkdown(results)}\n`);
    } catch (error) {
      // The reports are written; a job summary that cannot be written must not change the verdict.
      process.stderr.write(
        `warning: cannot append the report to the job summary ${summaryFile} (GITHUB_STEP_SUMMARY): ${(error as Error).message}\n`,
      );
    }
  }
}
