/**
 * The Markdown report, for every kind, ready for a pull-request comment or a GitHub job
 * summary: the verdict as a heading, a summary table by severity (check, diff) or level
 * (lint), the tool-list estimate for lint, then one collapsible section per severity or level
 * with a row per change or finding, and for changes the witnesses in code blocks. Everything
 * that comes from a server (names, URIs, descriptions) is escaped, so it renders as text and
 * cannot break the tables; in lint reports invisible characters in names are also spelled
 * out, so that a poisoned name cannot hide in the table. Pure.
 */

import type { Json } from "../contract/model.ts";
import { pointerToDotted } from "../contract/pointer.ts";
import { visible } from "../lint/text-scan.ts";
import {
  type AnyReport,
  type Grade,
  gradeRank,
  gradesOf,
  isChange,
  isCounted,
  itemNoun,
  itemsOf,
  itemsOfGrade,
  type ReportChange,
  type ReportItem,
  type Side,
} from "./model.ts";
import {
  bumpLine,
  escapeControls,
  escapeJsonText,
  exemptCount,
  exemptionLabel,
  INFORMATION_URI,
  kindWord,
  plural,
  renameHint,
  ruleHelpUri,
  serverLabel,
  toolListLine,
  witnessMeaning,
} from "./shared.ts";

/**
 * Characters that start Markdown or HTML syntax inside a line (`$` starts math on GitHub),
 * plus `|`, which ends a table cell. (Line-start syntax such as `#`, `-` or `1.` cannot occur: escaped text never starts
 * a line of the report.)
 */
const SPECIAL = /[\\`*_[\]<>|~$]/g;

/**
 * Text → Markdown that renders as exactly that text, on one line: control and bidi characters
 * escaped (escapeControls), punctuation with a meaning backslash-escaped, `&` as an entity (no
 * accidental entities), and line breaks as <br> (a table row cannot span lines).
 */
export function escapeMarkdown(text: string): string {
  return escapeControls(text.replace(/\r\n|\r/g, "\n"))
    .replace(/&/g, "&amp;")
    .replace(SPECIAL, "\\$&")
    .replace(/\r\n|\r|\n/g, "<br>");
}

/**
 * Text as an inline code span: fenced with more backticks than any run inside, on one
 * line, with `|` escaped (GitHub splits table cells on a pipe even inside code).
 */
export function codeSpan(text: string): string {
  const flat = escapeControls(text.replace(/\r\n|\r|\n/g, " ")).replace(/\|/g, "\\|");
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") || /^ .* $/.test(flat) ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** A fenced code block that no line of `text` can close early, with control and bidi characters escaped. */
export function codeBlock(code: string, language = ""): string {
  const text = escapeControls(code);
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

export interface MarkdownOptions {
  /**
   * At most this many changes (or findings) are listed per severity (or level); the counts
   * stay complete, so that the report fits a pull-request comment (GitHub allows 65,536
   * characters). Default 100.
   */
  maxPerSection?: number;
}

/** Icons by grade rank: breaking and error, minor and warning, patch and info. */
const ICONS = ["🔴", "🟡", "⚪"] as const;
const icon = (grade: Grade) => ICONS[gradeRank(grade)] as string;

const LABELS: Record<Grade, string> = {
  breaking: "Breaking",
  minor: "Minor",
  patch: "Patch",
  error: "Errors",
  warning: "Warnings",
  info: "Info",
};

function describeSide(side: Side): string {
  const server = serverLabel(side);
  return server ? `${codeSpan(side.source)} (${escapeMarkdown(server)})` : codeSpan(side.source);
}

function heading(report: AnyReport): string {
  const command = `mcp-contract ${report.command}`;
  if (report.result === "fail") {
    // Failed with nothing counted (a notice failed it): lint says so; check and diff count "0 changes".
    if (report.command === "lint" && report.failing === 0) return `## ❌ ${command}: failed (see the notices)`;
    return `## ❌ ${command}: ${plural(report.failing, itemNoun(report))} at or above ${report.failOn}`;
  }
  if (itemsOf(report).length === 0) return `## ✅ ${command}: no ${itemNoun(report)}s`;
  if (report.failOn === "never") return `## ✅ ${command}: reporting only`;
  return `## ✅ ${command}: nothing at or above ${report.failOn}`;
}

function verdict(report: AnyReport): string {
  if (report.failOn === "never") return "Reporting only (`--fail-on never`).";
  if (report.command === "lint" && report.result === "fail" && report.failing === 0) {
    return "**FAIL**: see the notices above.";
  }
  return report.result === "fail"
    ? `**FAIL**: ${plural(report.failing, itemNoun(report))} at or above **${report.failOn}** (\`--fail-on ${report.failOn}\`).`
    : `**PASS**: nothing at or above **${report.failOn}** (\`--fail-on ${report.failOn}\`).`;
}

function status(item: ReportItem, report: AnyReport): string {
  if (item.exempt) return item.exempt.kind === "ignored" ? "⏭️ ignored" : "⏭️ out of scope";
  return isCounted(item, report.failOn) ? "❌ fails" : "";
}

/** "tool `name`", "resource `uri`", "server": the item a change or finding is about. */
function target(item: Pick<ReportItem, "target">): string {
  const { kind, name } = item.target;
  return kind === "server" ? "server" : `${kindWord(kind)} ${codeSpan(name)}`;
}

function itemCell(item: ReportItem): string {
  const parts = [escapeMarkdown(item.message)];
  if (isChange(item)) {
    if (item.renamedTo) parts.push(`*hint:* ${renameHint(codeSpan(item.renamedTo))}`);
    if (item.note) parts.push(`*note:* ${escapeMarkdown(item.note)}`);
  }
  if (item.exempt) parts.push(`*${escapeMarkdown(exemptionLabel(item.exempt))}*`);
  return parts.join("<br>");
}

function witnessBlock(change: ReportChange, witness: Json): string[] {
  return [
    `${codeSpan(change.rule)} on ${target(change)}: ${witnessMeaning(change)}`,
    "",
    codeBlock(escapeJsonText(JSON.stringify(witness, null, 2)), "json"),
    "",
  ];
}

function section(report: AnyReport, grade: Grade, all: ReportItem[], max: number): string[] {
  const noun = itemNoun(report);
  // Lint spells out invisible characters in what it reports: they are what it warns about.
  const seen = report.command === "lint" ? visible : (text: string) => text;
  const failing = (item: ReportItem) => isCounted(item, report.failOn);
  // Failing items first when the list is cut, so that none of them is hidden.
  const items = all.length <= max ? all : [...all.filter(failing), ...all.filter((i) => !failing(i))].slice(0, max);
  const open = items.some(failing) ? " open" : "";
  const out = [
    `<details${open}>`,
    `<summary>${icon(grade)} <strong>${LABELS[grade]} (${all.length})</strong></summary>`,
    "",
    `| status | rule | target | location | ${noun} |`,
    "| --- | --- | --- | --- | --- |",
  ];
  for (const item of items) {
    const where = item.path === "" ? "" : codeSpan(seen(pointerToDotted(item.path)));
    const rule = `[${codeSpan(item.rule)}](${ruleHelpUri(item.rule)})`;
    const about = target({ target: { kind: item.target.kind, name: seen(item.target.name) } });
    out.push(`| ${status(item, report)} | ${rule} | ${about} | ${where} | ${itemCell(item)} |`);
  }
  if (all.length > items.length) {
    out.push(
      "",
      `…and ${plural(all.length - items.length, `more ${grade} ${noun}`)}, not listed here: see the text or JSON report for all of them.`,
    );
  }
  const witnessed = items.filter((i): i is ReportChange => isChange(i) && i.witness !== undefined);
  if (witnessed.length > 0) {
    out.push("", "**Witnesses**", "");
    for (const change of witnessed) out.push(...witnessBlock(change, change.witness as Json));
  } else {
    out.push("");
  }
  out.push("</details>", "");
  return out;
}

const EXEMPT_NOTE = {
  changes:
    "Exempt changes (out of scope for the consumer, or ignored by the policy) are listed but do not count toward the verdict.",
  findings: "Exempt findings (ignored by the policy) are listed but do not count toward the verdict.",
};

/** The counts by grade: all, failing, exempt; then the totals. */
function summaryTable(report: AnyReport): string[] {
  const out = [
    `| ${report.command === "lint" ? "level" : "severity"} | ${itemNoun(report)}s | failing | exempt |`,
    "| --- | ---: | ---: | ---: |",
  ];
  for (const grade of gradesOf(report)) {
    const items = itemsOfGrade(report, grade);
    const failing = items.filter((i) => isCounted(i, report.failOn)).length;
    const exempt = items.filter((i) => i.exempt).length;
    out.push(`| ${icon(grade)} ${grade} | ${items.length} | ${failing} | ${exempt} |`);
  }
  const exemptTotal = exemptCount(report);
  out.push(`| **total** | **${report.summary.total}** | **${report.failing}** | **${exemptTotal}** |`, "");
  if (exemptTotal > 0) out.push(report.command === "lint" ? EXEMPT_NOTE.findings : EXEMPT_NOTE.changes, "");
  return out;
}

export function renderMarkdown(report: AnyReport, options: MarkdownOptions = {}): string {
  const max = Math.max(1, options.maxPerSection ?? 100);
  const sides =
    report.command === "lint"
      ? describeSide(report.subject)
      : `${describeSide(report.baseline)} → ${describeSide(report.current)}`;
  const out: string[] = [heading(report), "", sides, ""];
  for (const notice of report.notices) out.push(`> ⚠️ ${escapeMarkdown(notice)}`);
  if (report.notices.length > 0) out.push("");
  const estimate = report.command === "lint" ? [`${escapeMarkdown(toolListLine(report.toolList))}.`, ""] : [];
  if (itemsOf(report).length === 0) {
    if (report.command !== "lint") out.push("The surfaces are identical.", "");
    else out.push(report.result === "fail" ? `${verdict(report)} No findings.` : "No findings.", "", ...estimate);
    return `${out.join("\n")}\n`;
  }
  out.push(
    report.command === "lint"
      ? verdict(report)
      : `${verdict(report)} The changes ${bumpLine(report).replace(/^requires/, "require")}.`,
    "",
  );
  out.push(...summaryTable(report), ...estimate);
  for (const grade of gradesOf(report)) {
    const items = itemsOfGrade(report, grade);
    if (items.length > 0) out.push(...section(report, grade, items, max));
  }
  out.push(
    `<sub>Generated by [mcp-contract](${INFORMATION_URI}). Rule reference: [docs/rules.md](${INFORMATION_URI}/blob/main/docs/rules.md).</sub>`,
  );
  return `${out.join("\n")}\n`;
}
