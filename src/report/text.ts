/**
 * The human report, for every kind: one line per change (check, diff) or finding (lint),
 * grouped by severity or level, most severe first; then the counts (and the bump, or the
 * tool-list estimate), the verdict, and the notices last, where the eye lands. Colour only
 * when the caller asks for it. Pure.
 */
import {
  type AnyReport,
  gradeOf,
  gradeRank,
  gradesOf,
  isChange,
  itemsOfGrade,
  type LintReport,
  type Report,
  type ReportItem,
  type Side,
} from "./model.ts";
import {
  bumpLine,
  countsLine,
  escapeControls,
  exemptCount,
  exemptionLabel,
  itemMessage,
  renameHint,
  serverLabel,
  showJson,
  toolListLine,
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

const marksOf = (item: ReportItem) => MARKS[gradeRank(gradeOf(item))] as (typeof MARKS)[number];

function describeSide(side: Side): string {
  const server = serverLabel(side);
  return escapeControls(server ? `${side.source} (${server})` : side.source);
}

function itemLines(item: ReportItem, style: TextStyle): string[] {
  const { mark, color } = marksOf(item);
  const rule = paint(style, "2", `[${item.rule}]`);
  // Exempt items are listed, marked "(out of scope: …)" or "(ignored: …)"; they do not count toward FAIL.
  // Server-sent text is shown with its control and bidi characters escaped, never raw.
  const exempt = item.exempt ? ` ${paint(style, "2", `(${escapeControls(exemptionLabel(item.exempt))})`)}` : "";
  const lines = [`  ${paint(style, color, mark)} ${escapeControls(itemMessage(item))} ${rule}${exempt}`];
  if (!isChange(item)) return lines;
  const detail = (label: string, text: string) => lines.push(`      ${paint(style, "2", `${label}:`)} ${text}`);
  if (item.renamedTo) detail("hint", escapeControls(renameHint(`"${item.renamedTo}"`)));
  if (item.witness !== undefined) {
    detail("witness", `${showJson(item.witness)}  ${paint(style, "2", `(${witnessMeaning(item)})`)}`);
  }
  if (item.note) detail("note", escapeControls(item.note));
  return lines;
}

/** A heading per grade that has items, its items, a blank line. */
function sections(report: AnyReport, style: TextStyle): string[] {
  const out: string[] = [];
  for (const grade of gradesOf(report)) {
    const items = itemsOfGrade(report, grade);
    if (items.length === 0) continue;
    const { color } = MARKS[gradeRank(grade)] as (typeof MARKS)[number];
    out.push(paint(style, `1;${color}`, `${grade.toUpperCase()} (${items.length})`));
    for (const item of items) out.push(...itemLines(item, style));
    out.push("");
  }
  return out;
}

const SEE_NOTICES = "✖ FAIL: see the notices below";

/** The verdict line that ends a text report. */
function verdictText(report: AnyReport, style: TextStyle): string {
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

function changesBody(report: Report, style: TextStyle): string[] {
  if (report.changes.length === 0) return [`${paint(style, "32", "✔")} no changes: the surfaces are identical`];
  return [
    ...sections(report, style),
    `${countsLine(report)} · ${bumpLine(report)}${exemptNote(report)}`,
    verdictText(report, style),
  ];
}

function findingsBody(report: LintReport, style: TextStyle): string[] {
  const estimate = paint(style, "2", toolListLine(report.toolList));
  if (report.findings.length === 0) {
    const failed = report.result === "fail" ? [paint(style, "1;31", SEE_NOTICES)] : [];
    return [`${paint(style, "32", "✔")} no findings`, estimate, ...failed];
  }
  return [
    ...sections(report, style),
    `${countsLine(report)}${exemptNote(report)}`,
    estimate,
    verdictText(report, style),
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
