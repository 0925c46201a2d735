/**
 * The Markdown report, ready for a pull-request comment or a GitHub job summary: the
 * verdict as a heading, a summary table, then one collapsible section per severity with a
 * row per change and the witnesses in code blocks. Everything that comes from a server
 * (names, URIs, descriptions) is escaped, so it renders as text and cannot break the
 * tables. Pure.
 */
import type { Json } from "../contract/model.ts";
import type { Severity } from "../diff/model.ts";
import { type Report, type ReportChange, SEVERITIES, type Side } from "./model.ts";
import { pointerToDisplay } from "./paths.ts";
import {
  bumpLine,
  countsAsFailing,
  exemptionLabel,
  INFORMATION_URI,
  kindWord,
  plural,
  ruleHelpUri,
  witnessMeaning,
} from "./shared.ts";

/**
 * Characters that start Markdown or HTML syntax inside a line (`$` starts math on GitHub),
 * plus `|`, which ends a table cell. (Line-start syntax such as `#`, `-` or `1.` cannot occur: escaped text never starts
 * a line of the report.)
 */
const SPECIAL = /[\\`*_[\]<>|~$]/g;

/**
 * Text → Markdown that renders as exactly that text, on one line: punctuation with a
 * meaning is backslash-escaped, `&` becomes an entity (no accidental entities), and line
 * breaks become <br> (a table row cannot span lines).
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(SPECIAL, "\\$&")
    .replace(/\r\n|\r|\n/g, "<br>");
}

/**
 * Text as an inline code span: fenced with more backticks than any run inside, on one
 * line, with `|` escaped (GitHub splits table cells on a pipe even inside code).
 */
export function codeSpan(text: string): string {
  const flat = text.replace(/\r\n|\r|\n/g, " ").replace(/\|/g, "\\|");
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") || /^ .* $/.test(flat) ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** A fenced code block that no line of `text` can close early. */
export function codeBlock(text: string, language = ""): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

export interface MarkdownOptions {
  /**
   * At most this many changes are listed per severity (the counts stay complete), so that
   * the report fits a pull-request comment (GitHub allows 65,536 characters). Default 100.
   */
  maxChangesPerSeverity?: number;
}

const TITLES: Record<Severity, { label: string; icon: string }> = {
  breaking: { label: "Breaking", icon: "🔴" },
  minor: { label: "Minor", icon: "🟡" },
  patch: { label: "Patch", icon: "⚪" },
};

export function describeSide(side: Side): string {
  const server = [side.server.name, side.server.version].filter(Boolean).join(" ");
  return server ? `${codeSpan(side.source)} (${escapeMarkdown(server)})` : codeSpan(side.source);
}

function heading(report: Report): string {
  const command = `mcp-contract ${report.command}`;
  if (report.result === "fail") {
    return `## ❌ ${command}: ${plural(report.failing, "change")} at or above ${report.failOn}`;
  }
  if (report.changes.length === 0) return `## ✅ ${command}: no changes`;
  if (report.failOn === "never") return `## ✅ ${command}: reporting only`;
  return `## ✅ ${command}: nothing at or above ${report.failOn}`;
}

function verdict(report: Report): string {
  if (report.failOn === "never") return "Reporting only (`--fail-on never`).";
  return report.result === "fail"
    ? `**FAIL**: ${plural(report.failing, "change")} at or above **${report.failOn}** (\`--fail-on ${report.failOn}\`).`
    : `**PASS**: nothing at or above **${report.failOn}** (\`--fail-on ${report.failOn}\`).`;
}

function status(change: ReportChange, report: Report): string {
  if (change.exempt) return change.exempt.kind === "ignored" ? "⏭️ ignored" : "⏭️ out of scope";
  return countsAsFailing(change, report.failOn) ? "❌ fails" : "";
}

/** "tool `name`", "resource `uri`", "server": the item a change (or a lint finding) is about. */
export function target(change: Pick<ReportChange, "target">): string {
  const { kind, name } = change.target;
  return kind === "server" ? "server" : `${kindWord(kind)} ${codeSpan(name)}`;
}

function changeCell(change: ReportChange): string {
  const parts = [escapeMarkdown(change.message)];
  if (change.renamedTo) {
    parts.push(
      `*hint:* possibly renamed to ${codeSpan(change.renamedTo)} (the removal still breaks callers of the old name)`,
    );
  }
  if (change.note) parts.push(`*note:* ${escapeMarkdown(change.note)}`);
  if (change.exempt) parts.push(`*${escapeMarkdown(exemptionLabel(change.exempt))}*`);
  return parts.join("<br>");
}

function witnessBlock(change: ReportChange, witness: Json): string[] {
  return [
    `${codeSpan(change.rule)} on ${target(change)}: ${witnessMeaning(change)}`,
    "",
    codeBlock(JSON.stringify(witness, null, 2), "json"),
    "",
  ];
}

function section(report: Report, severity: Severity, all: ReportChange[], max: number): string[] {
  const { label, icon } = TITLES[severity];
  // Failing changes first when the list is cut, so that none of them is hidden.
  const changes =
    all.length <= max
      ? all
      : [
          ...all.filter((c) => countsAsFailing(c, report.failOn)),
          ...all.filter((c) => !countsAsFailing(c, report.failOn)),
        ].slice(0, max);
  const open = changes.some((c) => countsAsFailing(c, report.failOn)) ? " open" : "";
  const out = [
    `<details${open}>`,
    `<summary>${icon} <strong>${label} (${all.length})</strong></summary>`,
    "",
    "| status | rule | target | location | change |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const change of changes) {
    const where = change.path === "" ? "" : codeSpan(pointerToDisplay(change.path));
    const rule = `[${codeSpan(change.rule)}](${ruleHelpUri(change.rule)})`;
    out.push(`| ${status(change, report)} | ${rule} | ${target(change)} | ${where} | ${changeCell(change)} |`);
  }
  if (all.length > changes.length) {
    out.push(
      "",
      `…and ${plural(all.length - changes.length, `more ${severity} change`)}, not listed here: see the text or JSON report for all of them.`,
    );
  }
  const witnessed = changes.filter((c) => c.witness !== undefined);
  if (witnessed.length > 0) {
    out.push("", "**Witnesses**", "");
    for (const change of witnessed) out.push(...witnessBlock(change, change.witness as Json));
  } else {
    out.push("");
  }
  out.push("</details>", "");
  return out;
}

export function renderMarkdown(report: Report, options: MarkdownOptions = {}): string {
  const max = Math.max(1, options.maxChangesPerSeverity ?? 100);
  const out: string[] = [heading(report), ""];
  out.push(`${describeSide(report.baseline)} → ${describeSide(report.current)}`, "");
  for (const notice of report.notices) out.push(`> ⚠️ ${escapeMarkdown(notice)}`);
  if (report.notices.length > 0) out.push("");
  if (report.changes.length === 0) {
    out.push("The surfaces are identical.", "");
    return `${out.join("\n")}\n`;
  }
  out.push(`${verdict(report)} The changes ${bumpLine(report).replace(/^requires/, "require")}.`, "");
  out.push("| severity | changes | failing | exempt |", "| --- | ---: | ---: | ---: |");
  for (const severity of SEVERITIES) {
    const changes = report.changes.filter((c) => c.severity === severity);
    const failing = changes.filter((c) => countsAsFailing(c, report.failOn)).length;
    const exempt = changes.filter((c) => c.exempt).length;
    out.push(`| ${TITLES[severity].icon} ${severity} | ${changes.length} | ${failing} | ${exempt} |`);
  }
  const exemptTotal = report.changes.filter((c) => c.exempt).length;
  out.push(`| **total** | **${report.summary.total}** | **${report.failing}** | **${exemptTotal}** |`, "");
  if (exemptTotal > 0) {
    out.push(
      `Exempt changes (out of scope for the consumer, or ignored by the policy) are listed but do not count toward the verdict.`,
      "",
    );
  }
  for (const severity of SEVERITIES) {
    const changes = report.changes.filter((c) => c.severity === severity);
    if (changes.length > 0) out.push(...section(report, severity, changes, max));
  }
  out.push(
    `<sub>Generated by [mcp-contract](${INFORMATION_URI}). Rule reference: [docs/rules.md](${INFORMATION_URI}/blob/main/docs/rules.md).</sub>`,
  );
  return `${out.join("\n")}\n`;
}
