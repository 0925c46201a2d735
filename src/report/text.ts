/**
 * The human report, for every kind: one line per entry (src/report/entries.ts: a change, a
 * tool's hint changes, or a run of one change on many items; for lint, a finding), grouped by
 * section (security drift, then severity; or level), most severe first; then the counts (and
 * the bump, or the tool-list estimate), the verdict, the policy entries that would accept what
 * fails, and the notices last, where the eye lands. Colour only when the caller asks for it. Pure.
 */
import { type Entry, entriesOf, type SectionKey, sectionsOf } from "./entries.ts";
import { hostSummaryLines } from "./hosts.ts";
import {
  type AnyReport,
  gradeRank,
  isChange,
  type LintReport,
  type Report,
  type ReportItem,
  type Side,
} from "./model.ts";
import {
  acceptable,
  acceptEntries,
  bumpLine,
  countsLine,
  escapeControls,
  exemptCount,
  exemptionLabel,
  itemMessage,
  MAX_ACCEPT,
  POLICY_FILE_NAME,
  renameHint,
  SECURITY_EXPLAINED,
  serverLabel,
  showJson,
  toolListLine,
  UNMODELLED_EXPLAINED,
  verdictLine,
  witnessMeaning,
} from "./shared.ts";

export interface TextStyle {
  color: boolean;
}

const paint = (style: TextStyle, code: string, text: string) =>
  style.color ? `\u001b[${code}m${text}\u001b[0m` : text;

/** By grade rank: breaking and error, minor and warning, patch and info. */
const MARKS = [
  { mark: "✖", color: "31" },
  { mark: "▲", color: "33" },
  { mark: "·", color: "36" },
] as const;

function describeSide(side: Side): string {
  const server = serverLabel(side);
  return escapeControls(server ? `${side.source} (${server})` : side.source);
}

/** The rule ids of an entry, dim: `[tool-removed]`, `[tool-now-read-only, tool-now-idempotent]`. */
const rulesOf = (entry: Entry, style: TextStyle) => paint(style, "2", `[${entry.rules.join(", ")}]`);

function entryLines(entry: Entry, style: TextStyle): string[] {
  const { mark, color } = MARKS[gradeRank(entry.grade)] as (typeof MARKS)[number];
  const item = entry.items[0] as ReportItem;
  // Exempt items are listed, marked "(out of scope: …)" or "(ignored: …)"; they do not count toward FAIL.
  // Server-sent text is shown with its control and bidi characters escaped, never raw.
  const exempt = entry.exempt ? ` ${paint(style, "2", `(${escapeControls(exemptionLabel(entry.exempt))})`)}` : "";
  const message = entry.kind === "item" ? itemMessage(item) : entry.message;
  const lines = [`  ${paint(style, color, mark)} ${escapeControls(message)} ${rulesOf(entry, style)}${exempt}`];
  const detail = (label: string, text: string) => lines.push(`      ${paint(style, "2", `${label}:`)} ${text}`);
  if (entry.kind === "item" && isChange(item)) {
    if (item.renamedTo) detail("hint", escapeControls(renameHint(`"${item.renamedTo}"`)));
    if (item.witness !== undefined) {
      detail("witness", `${showJson(item.witness)}  ${paint(style, "2", `(${witnessMeaning(item)})`)}`);
    }
  }
  const example = entry.example;
  if (example?.witness !== undefined) {
    const on = `e.g. on ${escapeControls(JSON.stringify(example.target.name))}: ${witnessMeaning(example)}`;
    detail("witness", `${showJson(example.witness)}  ${paint(style, "2", `(${on})`)}`);
  }
  if (entry.note) detail("note", escapeControls(entry.note));
  return lines;
}

const HEADINGS: Record<SectionKey, string> = {
  security: "SECURITY",
  unmodelled: "NOT MODELLED: REVIEW",
  breaking: "BREAKING",
  minor: "MINOR",
  patch: "PATCH",
  error: "ERROR",
  warning: "WARNING",
  info: "INFO",
};

/** A heading per section that has items, its entries, a blank line. */
function sections(report: AnyReport, style: TextStyle): string[] {
  const out: string[] = [];
  for (const section of sectionsOf(report)) {
    if (section.items.length === 0) continue;
    const { color } = MARKS[gradeRank(section.grade)] as (typeof MARKS)[number];
    out.push(paint(style, `1;${color}`, `${HEADINGS[section.key]} (${section.items.length})`));
    if (section.key === "security") out.push(`  ${paint(style, "2", SECURITY_EXPLAINED)}`);
    if (section.key === "unmodelled") out.push(`  ${paint(style, "2", UNMODELLED_EXPLAINED)}`);
    for (const entry of entriesOf(report, section.items)) out.push(...entryLines(entry, style));
    out.push("");
  }
  return out;
}

const SEE_NOTICES = "✖ FAIL: see the notices below";

/** The verdict line that ends a text report. */
function verdictText(report: AnyReport, style: TextStyle): string {
  if (report.command !== "lint" && report.accepted) return paint(style, "1;32", `✔ ${verdictLine(report)}`);
  // Failed on something other than the items' grades (semver enforcement): the notices say what.
  if (report.result === "fail" && report.failing === 0) return paint(style, "1;31", SEE_NOTICES);
  if (report.failOn === "never") return paint(style, "2", "(--fail-on never: reporting only)");
  return report.result === "fail"
    ? paint(style, "1;31", `✖ ${verdictLine(report)}`)
    : paint(style, "1;32", `✔ ${verdictLine(report)}`);
}

function exemptNote(report: AnyReport): string {
  const exempt = exemptCount(report);
  return exempt ? ` · ${exempt} exempt (not counted)` : "";
}

/** The policy-file entries that would accept what fails the run, ready to paste. */
function acceptBlock(report: AnyReport, style: TextStyle): string[] {
  const items = acceptable(report);
  if (items.length === 0) return [];
  const noun = report.command === "lint" ? "findings" : "changes";
  const more = items.length - MAX_ACCEPT;
  return [
    "",
    `${paint(style, "1", "accept:")} if these ${noun} are intended, add to "ignore" in ${POLICY_FILE_NAME} (and write the reasons):`,
    ...acceptEntries(items).map((entry, i, all) => `  ${entry}${i < all.length - 1 || more > 0 ? "," : ""}`),
    ...(more > 0 ? [`  …and ${more} more: their fingerprints are in the JSON report (--format json)`] : []),
  ];
}

/** Beside the verdict: the sides were given different environment variable or header names (not once accepted). */
function environmentLine(report: Report, style: TextStyle): string[] {
  if (!report.environment || report.accepted) return [];
  return [`${paint(style, "1;33", "note:")} ${escapeControls(report.environment.message)}`];
}

function changesBody(report: Report, style: TextStyle): string[] {
  if (report.changes.length === 0) {
    const verdict = report.failOn === "never" && !report.accepted ? [] : [verdictText(report, style)];
    return [
      `${paint(style, "32", "✔")} no changes: the surfaces are identical`,
      ...verdict,
      ...environmentLine(report, style),
    ];
  }
  return [
    ...sections(report, style),
    `${countsLine(report)} · ${bumpLine(report)}${exemptNote(report)}`,
    verdictText(report, style),
    ...environmentLine(report, style),
    ...acceptBlock(report, style),
  ];
}

/** With --hosts: what each host profile does to the surface, last. */
function hostsBlock(report: LintReport, style: TextStyle): string[] {
  const lines = hostSummaryLines(report);
  if (lines.length === 0) return [];
  return ["", paint(style, "1", "hosts:"), ...lines.map((line) => `  ${escapeControls(line)}`)];
}

function findingsBody(report: LintReport, style: TextStyle): string[] {
  const estimate = paint(style, "2", toolListLine(report.toolList));
  if (report.findings.length === 0) {
    const verdict = report.failOn === "never" ? [] : [verdictText(report, style)];
    return [`${paint(style, "32", "✔")} no findings`, estimate, ...verdict, ...hostsBlock(report, style)];
  }
  return [
    ...sections(report, style),
    `${countsLine(report)}${exemptNote(report)}`,
    estimate,
    verdictText(report, style),
    ...acceptBlock(report, style),
    ...hostsBlock(report, style),
  ];
}

export function renderText(report: AnyReport, style: TextStyle): string {
  const sides =
    report.command === "lint"
      ? describeSide(report.subject)
      : `${describeSide(report.baseline)} → ${describeSide(report.current)}`;
  const out = [`${paint(style, "1", `mcp-contract ${report.command}`)}  ${sides}`, ""];
  out.push(...(report.command === "lint" ? findingsBody(report, style) : changesBody(report, style)));
  if (report.notices.length > 0) {
    out.push("", ...report.notices.map((notice) => `${paint(style, "1;33", "notice:")} ${escapeControls(notice)}`));
  }
  return `${out.join("\n")}\n`;
}
