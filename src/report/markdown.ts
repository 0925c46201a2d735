/**
 * The Markdown report, for every kind, ready for a pull-request comment or a GitHub job
 * summary: the verdict as a heading (never a green tick over breaking changes that count), a
 * summary table by section (security drift, then severity; or level), the tool-list estimate
 * for lint, then one collapsible section per section with a row per entry (a change, a tool's
 * hint changes, a run of one change on many items with its items listed in a collapsed block:
 * src/report/entries.ts; for lint, a finding), for changes the witnesses in code blocks, and
 * the policy-file entries that would accept what fails. Everything
 * that comes from a server (names, URIs, descriptions) is escaped, so it renders as text and
 * cannot break the tables; in lint reports invisible characters in names are also spelled
 * out, so that a poisoned name cannot hide in the table. Pure.
 */

import type { Json } from "../contract/model.ts";
import { pointerToDotted } from "../contract/pointer.ts";
import { visible } from "../lint/text-scan.ts";
import { plural } from "../util/text.ts";
import { type Entry, entriesOf, runMessage, type Section, type SectionKey, sectionsOf } from "./entries.ts";
import { hostSummaryLines } from "./hosts.ts";
import {
  type AnyReport,
  type Grade,
  gradeRank,
  isChange,
  isCounted,
  itemNoun,
  itemsOf,
  type LintReport,
  type ReportChange,
  type ReportItem,
  type Side,
} from "./model.ts";
import {
  acceptable,
  acceptEntries,
  bumpLine,
  escapeControls,
  escapeJsonText,
  exemptCount,
  exemptionLabel,
  INFORMATION_URI,
  kindWord,
  MAX_ACCEPT,
  POLICY_FILE_NAME,
  renameHint,
  ruleHelpUri,
  SECURITY_EXPLAINED,
  serverLabel,
  toolListLine,
  UNMODELLED_EXPLAINED,
  verdictLine,
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
const SECURITY_ICON = "🛡️";
const sectionIcon = (section: Section) => (section.key === "security" ? SECURITY_ICON : icon(section.grade));

const LABELS: Record<SectionKey, string> = {
  security: "Security",
  unmodelled: "Not modelled: review",
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

/** Breaking changes that count for someone (not exempt): a passing report that lists them never gets a green tick. */
function listedBreaking(report: AnyReport): number {
  return report.command === "lint" ? 0 : report.changes.filter((c) => c.severity === "breaking" && !c.exempt).length;
}

function heading(report: AnyReport): string {
  const command = `mcp-contract ${report.command}`;
  if (report.command !== "lint" && report.accepted) return `## ✅ ${command}: ${escapeMarkdown(verdictLine(report))}`;
  if (report.result === "fail") {
    // Failed with nothing counted (a notice failed it): lint says so; check and diff count "0 changes".
    if (report.command === "lint" && report.failing === 0) return `## ❌ ${command}: failed (see the notices)`;
    return `## ❌ ${command}: ${plural(report.failing, itemNoun(report))} at or above ${report.failOn}`;
  }
  if (itemsOf(report).length === 0) return `## ✅ ${command}: no ${itemNoun(report)}s`;
  const breaking = listedBreaking(report);
  if (breaking > 0) {
    const why = report.failOn === "never" ? "reporting only" : `not failing (--fail-on ${report.failOn})`;
    return `## ⚠️ ${command}: ${plural(breaking, "breaking change")}, ${why}`;
  }
  if (report.failOn === "never") return `## ✅ ${command}: reporting only`;
  return `## ✅ ${command}: nothing at or above ${report.failOn}`;
}

function verdict(report: AnyReport): string {
  if (report.command !== "lint" && report.accepted) return `**${capitalized(escapeMarkdown(verdictLine(report)))}**.`;
  if (report.failOn === "never") return "Reporting only (`--fail-on never`).";
  if (report.command === "lint" && report.result === "fail" && report.failing === 0) {
    return "**FAIL**: see the notices above.";
  }
  return report.result === "fail"
    ? `**FAIL**: ${plural(report.failing, itemNoun(report))} at or above **${report.failOn}** (\`--fail-on ${report.failOn}\`).`
    : `**PASS**: nothing at or above **${report.failOn}** (\`--fail-on ${report.failOn}\`).`;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function status(entry: Entry, report: AnyReport): string {
  if (entry.exempt) return entry.exempt.kind === "ignored" ? "⏭️ ignored" : "⏭️ out of scope";
  return entry.items.some((item) => isCounted(item, report.failOn)) ? "❌ fails" : "";
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

/** A merged entry's cell: its summary, the shared note and exemption; a run says its items are listed below. */
function entryCell(entry: Entry): string {
  const run = entry.run;
  const parts = [
    run
      ? `${runMessage(run.kind, run.names, escapeMarkdown(run.what), codeSpan)} (all listed below)`
      : escapeMarkdown(entry.message),
  ];
  if (entry.note) parts.push(`*note:* ${escapeMarkdown(entry.note)}`);
  if (entry.exempt) parts.push(`*${escapeMarkdown(exemptionLabel(entry.exempt))}*`);
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

const KIND_PLURAL: Record<string, string> = {
  tool: "tools",
  resource: "resources",
  resourceTemplate: "resource templates",
  prompt: "prompts",
};

function row(report: AnyReport, entry: Entry): string {
  // Lint spells out invisible characters in what it reports: they are what it warns about.
  const seen = report.command === "lint" ? visible : (text: string) => text;
  const item = entry.items[0] as ReportItem;
  const rules = entry.rules.map((rule) => `[${codeSpan(rule)}](${ruleHelpUri(rule)})`).join(" ");
  const paths = [...new Set(entry.items.map((i) => i.path))];
  const where =
    entry.kind === "hints"
      ? codeSpan("annotations")
      : paths.length === 1 && paths[0] !== ""
        ? codeSpan(seen(pointerToDotted(paths[0] as string)))
        : "";
  const about = entry.run
    ? `${entry.run.names.length} ${KIND_PLURAL[entry.run.kind] ?? entry.run.kind}`
    : target({ target: { kind: item.target.kind, name: seen(item.target.name) } });
  const cell = entry.kind === "item" ? itemCell(item) : entryCell(entry);
  return `| ${status(entry, report)} | ${rules} | ${about} | ${where} | ${cell} |`;
}

function section(report: AnyReport, part: Section, max: number): string[] {
  const noun = itemNoun(report);
  const all = entriesOf(report, part.items);
  const failing = (entry: Entry) => entry.items.some((item) => isCounted(item, report.failOn));
  // Failing entries first when the list is cut, so that none of them is hidden.
  const entries = all.length <= max ? all : [...all.filter(failing), ...all.filter((e) => !failing(e))].slice(0, max);
  const open = entries.some(failing) ? " open" : "";
  const out = [
    `<details${open}>`,
    `<summary>${sectionIcon(part)} <strong>${LABELS[part.key]} (${part.items.length})</strong></summary>`,
    "",
    ...(part.key === "security" ? [escapeMarkdown(SECURITY_EXPLAINED), ""] : []),
    ...(part.key === "unmodelled" ? [escapeMarkdown(UNMODELLED_EXPLAINED), ""] : []),
    `| status | rule | target | location | ${noun} |`,
    "| --- | --- | --- | --- | --- |",
  ];
  for (const entry of entries) out.push(row(report, entry));
  const shown = entries.reduce((n, e) => n + e.items.length, 0);
  if (part.items.length > shown) {
    const label = part.key === "security" ? "security" : part.grade;
    out.push(
      "",
      `…and ${plural(part.items.length - shown, `more ${label} ${noun}`)}, not listed here: see the text or JSON report for all of them.`,
    );
  }
  for (const run of entries.filter((e) => e.run)) {
    const { kind, names, what } = run.run as NonNullable<Entry["run"]>;
    out.push(
      "",
      "<details>",
      `<summary>${names.length} ${KIND_PLURAL[kind] ?? kind}: ${escapeMarkdown(what)}</summary>`,
      "",
      ...names.map((name) => `- ${codeSpan(name)}`),
      "",
      "</details>",
    );
  }
  // One witness per entry: an item's own, a run's first (as an example for all of its items).
  const witnessed = entries
    .map((e) => (e.kind === "item" ? (e.items[0] as ReportItem) : e.example))
    .filter((i): i is ReportChange => i !== undefined && isChange(i) && i.witness !== undefined);
  if (witnessed.length > 0) {
    out.push("", "**Witnesses**", "");
    for (const change of witnessed) out.push(...witnessBlock(change, change.witness as Json));
  } else {
    out.push("");
  }
  out.push("</details>", "");
  return out;
}

/** The policy-file entries that would accept what fails, in a collapsed block, ready to paste. */
function acceptSection(report: AnyReport): string[] {
  const items = acceptable(report);
  if (items.length === 0) return [];
  const more = items.length - MAX_ACCEPT;
  const entries = acceptEntries(items);
  return [
    "<details>",
    `<summary>Accept ${items.length === 1 ? "this change" : `these ${items.length} changes`}</summary>`,
    "",
    `If ${items.length === 1 ? "it is" : "they are"} intended, add these entries to \`"ignore"\` in \`${POLICY_FILE_NAME}\` and write the reasons${more > 0 ? ` (the first ${MAX_ACCEPT}; the others' fingerprints are in the JSON report)` : ""}:`,
    "",
    codeBlock(entries.map((entry, i) => `${entry}${i < entries.length - 1 ? "," : ""}`).join("\n"), "json"),
    "",
    "</details>",
    "",
  ];
}

const EXEMPT_NOTE = {
  changes:
    "Exempt changes (out of scope for the consumer, or ignored by the policy) are listed but do not count toward the verdict.",
  findings: "Exempt findings (ignored by the policy) are listed but do not count toward the verdict.",
};

/** The counts by section: all, failing, exempt; then the totals. */
function summaryTable(report: AnyReport): string[] {
  const out = [
    `| ${report.command === "lint" ? "level" : "severity"} | ${itemNoun(report)}s | failing | exempt |`,
    "| --- | ---: | ---: | ---: |",
  ];
  for (const part of sectionsOf(report)) {
    // The security and unmodelled rows only when they have changes.
    if ((part.key === "security" || part.key === "unmodelled") && part.items.length === 0) continue;
    const failing = part.items.filter((i) => isCounted(i, report.failOn)).length;
    const exempt = part.items.filter((i) => i.exempt).length;
    out.push(`| ${sectionIcon(part)} ${part.key} | ${part.items.length} | ${failing} | ${exempt} |`);
  }
  const exemptTotal = exemptCount(report);
  out.push(`| **total** | **${report.summary.total}** | **${report.failing}** | **${exemptTotal}** |`, "");
  if (exemptTotal > 0) out.push(report.command === "lint" ? EXEMPT_NOTE.findings : EXEMPT_NOTE.changes, "");
  return out;
}

/** With --hosts: one line per host profile, what it does to the surface. */
function hostsSection(report: LintReport): string[] {
  const lines = hostSummaryLines(report);
  if (lines.length === 0) return [];
  return ["**Hosts**", "", ...lines.map((line) => `- ${escapeMarkdown(line)}`), ""];
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
  if (report.command !== "lint" && report.environment && !report.accepted) {
    out.push(`> ℹ️ ${escapeMarkdown(report.environment.message)}`, "");
  }
  const estimate = report.command === "lint" ? [`${escapeMarkdown(toolListLine(report.toolList))}.`, ""] : [];
  if (itemsOf(report).length === 0) {
    if (report.command !== "lint") out.push("The surfaces are identical.", "");
    else out.push(report.result === "fail" ? `${verdict(report)} No findings.` : "No findings.", "", ...estimate);
    if (report.command === "lint") out.push(...hostsSection(report));
    return `${out.join("\n")}\n`;
  }
  out.push(
    report.command === "lint"
      ? verdict(report)
      : `${verdict(report)} The changes ${bumpLine(report).replace(/^requires/, "require")}.`,
    "",
  );
  out.push(...summaryTable(report), ...estimate);
  for (const part of sectionsOf(report)) if (part.items.length > 0) out.push(...section(report, part, max));
  out.push(...acceptSection(report));
  if (report.command === "lint") out.push(...hostsSection(report));
  out.push(
    `<sub>Generated by [mcp-contract](${INFORMATION_URI}). Rule reference: [docs/rules.md](${INFORMATION_URI}/blob/main/docs/rules.md).</sub>`,
  );
  return `${out.join("\n")}\n`;
}
