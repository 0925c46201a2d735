/**
 * The changelog view (`--format changelog`): release notes in Markdown, grouped by item, as
 * `oasdiff changelog` does for OpenAPI. Per kind (tools, resources, resource templates,
 * prompts, then the server): the items removed and added, each on one line, then one heading
 * per changed item with a bullet per change (a tool's hint changes as one bullet, src/report/
 * entries.ts), each marked with its severity (or "security" for security drift). Items in
 * natural order. Lint findings are grouped the same way, marked with their levels. Pure.
 */
import { KIND_ORDER, targetLabel } from "../diff/change.ts";
import type { TargetKind } from "../diff/model.ts";
import { type Entry, entriesOf, naturalCompare, sectionsOf } from "./entries.ts";
import { codeSpan, escapeMarkdown } from "./markdown.ts";
import { type AnyReport, isChange, isSecurity, type ReportItem, type Side } from "./model.ts";
import { bumpLine, countsLine, exemptionLabel, kindWord, serverLabel, toolListLine } from "./shared.ts";
import { proseTextChange } from "./text-changes.ts";

const KIND_HEADINGS: Record<TargetKind, string> = {
  tool: "Tools",
  resource: "Resources",
  resourceTemplate: "Resource templates",
  prompt: "Prompts",
  skill: "Skills",
  server: "Server",
};

/** Item-level removals and additions: listed as names, not as headings of their own. */
const REMOVED = new Set(["tool-removed", "resource-removed", "template-removed", "prompt-removed", "skill-removed"]);
const ADDED = new Set(["tool-added", "resource-added", "template-added", "prompt-added", "skill-added"]);

function sideText(side: Side): string {
  const server = serverLabel(side);
  return server ? `${codeSpan(side.source)} (${escapeMarkdown(server)})` : codeSpan(side.source);
}

/** What a change says without the item it is about (the heading names it). */
function withoutTarget(item: ReportItem, message: string): string {
  const prefix = `${isChange(item) ? targetLabel(item.target.kind, item.target.name) : kindLabel(item)}: `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

const kindLabel = (item: ReportItem) =>
  item.target.kind === "server" ? "server" : `${kindWord(item.target.kind)} ${JSON.stringify(item.target.name)}`;

function label(entry: Entry): string {
  const item = entry.items[0] as ReportItem;
  const word = isSecurity(item) ? "security" : entry.grade;
  return entry.grade === "breaking" || entry.grade === "error" ? `**${word}**` : word;
}

function exemptText(entry: Entry): string {
  return entry.exempt ? ` *(${escapeMarkdown(exemptionLabel(entry.exempt))})*` : "";
}

function bullet(entry: Entry): string {
  const item = entry.items[0] as ReportItem;
  // A word diff (security drift's note) is markup for reviewers; prose leaves it to the other formats.
  const note = entry.note && !entry.note.startsWith("text diff: ") ? ` ${escapeMarkdown(`(${entry.note})`)}` : "";
  // A rewritten text reads as the new text, not as word-diff markup.
  const prose = entry.kind === "item" && isChange(item) ? proseTextChange(item) : undefined;
  return `- ${label(entry)}: ${escapeMarkdown(withoutTarget(item, prose ?? entry.message))}${note}${exemptText(entry)}`;
}

/** "Removed (**breaking**):" and one name a line; each name with its own label when they differ. */
function nameList(title: string, entries: readonly Entry[]): string[] {
  const labels = new Set(entries.map(label));
  const uniform = labels.size === 1 ? [...labels][0] : undefined;
  const line = (entry: Entry) => {
    const item = entry.items[0] as ReportItem;
    const hint = isChange(item) && item.renamedTo ? ` (possibly renamed to ${codeSpan(item.renamedTo)})` : "";
    return `- ${codeSpan(item.target.name)}${uniform ? "" : ` ${label(entry)}`}${hint}${exemptText(entry)}`;
  };
  return [`${title}${uniform ? ` (${uniform})` : ""}:`, "", ...entries.map(line), ""];
}

export function renderChangelog(report: AnyReport): string {
  const lint = report.command === "lint";
  const out: string[] = [];
  if (report.command === "lint") {
    out.push(`## Findings in ${sideText(report.subject)}`, "");
    out.push(`${escapeMarkdown(countsLine(report))} · ${escapeMarkdown(toolListLine(report.toolList))}.`, "");
  } else {
    const to = serverLabel(report.current) || report.current.source;
    out.push(`## Changes in ${escapeMarkdown(to)}`, "");
    out.push(`From ${sideText(report.baseline)} to ${sideText(report.current)}.`, "");
    if (report.changes.length === 0) {
      out.push("No changes: the surfaces are identical.", "");
      return `${out.join("\n")}\n`;
    }
    out.push(`${escapeMarkdown(countsLine(report))} · ${escapeMarkdown(bumpLine(report))}.`, "");
  }
  // Entries in section order (security, breaking, minor, patch), then grouped by item.
  const entries = sectionsOf(report).flatMap((section) => entriesOf(report, section.items, { runs: false }));
  if (entries.length === 0) {
    out.push(lint ? "No findings." : "No changes.", "");
    return `${out.join("\n")}\n`;
  }
  for (const kind of KIND_ORDER) {
    const ofKind = entries.filter((e) => (e.items[0] as ReportItem).target.kind === kind);
    if (ofKind.length === 0) continue;
    out.push(`### ${KIND_HEADINGS[kind]}`, "");
    const removed = ofKind.filter((e) => REMOVED.has(e.rules[0] as string));
    const added = ofKind.filter((e) => ADDED.has(e.rules[0] as string));
    const byName = (a: Entry, b: Entry) =>
      naturalCompare((a.items[0] as ReportItem).target.name, (b.items[0] as ReportItem).target.name);
    if (removed.length > 0) out.push(...nameList("Removed", [...removed].sort(byName)));
    if (added.length > 0) out.push(...nameList("Added", [...added].sort(byName)));
    const changed = ofKind.filter((e) => !removed.includes(e) && !added.includes(e));
    const names = [...new Set(changed.map((e) => (e.items[0] as ReportItem).target.name))].sort(naturalCompare);
    for (const name of names) {
      if (kind !== "server") out.push(`#### ${kindWord(kind)} ${codeSpan(name)}`, "");
      out.push(...changed.filter((e) => (e.items[0] as ReportItem).target.name === name).map(bullet), "");
    }
  }
  return `${out.join("\n")}\n`;
}
