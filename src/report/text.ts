/** The human report: grouped by severity, one line per change, then the verdict. */
import type { Severity } from "../diff/model.ts";
import { type Report, type ReportChange, SEVERITIES, type Side } from "./model.ts";
import { bumpLine, countsLine, exemptionLabel } from "./shared.ts";

export interface TextStyle {
  color: boolean;
}

export const paint = (style: TextStyle, code: string, text: string) =>
  style.color ? `\u001b[${code}m${text}\u001b[0m` : text;

const HEADINGS: Record<Severity, { label: string; mark: string; color: string }> = {
  breaking: { label: "BREAKING", mark: "✖", color: "31" },
  minor: { label: "MINOR", mark: "▲", color: "33" },
  patch: { label: "PATCH", mark: "·", color: "36" },
};

export function describeSide(side: Side): string {
  const server = [side.server.name, side.server.version].filter(Boolean).join(" ");
  return server ? `${side.source} (${server})` : side.source;
}

function renderChange(change: ReportChange, style: TextStyle): string[] {
  const heading = HEADINGS[change.severity];
  const mark = paint(style, heading.color, heading.mark);
  const rule = paint(style, "2", `[${change.rule}]`);
  // Exempt changes are listed, marked "(out of scope: …)" or "(ignored: …)"; they do not count toward FAIL.
  const exempt = change.exempt ? ` ${paint(style, "2", `(${exemptionLabel(change.exempt)})`)}` : "";
  const lines = [`  ${mark} ${change.message} ${rule}${exempt}`];
  const detail = (label: string, text: string) => lines.push(`      ${paint(style, "2", `${label}:`)} ${text}`);
  if (change.renamedTo)
    detail("hint", `possibly renamed to "${change.renamedTo}" (the removal still breaks callers of the old name)`);
  if (change.witness !== undefined) {
    const what =
      change.direction === "output"
        ? "a value the new schema allows and the old did not"
        : "arguments the old schema accepted and the new one rejects";
    detail("witness", `${JSON.stringify(change.witness)}  ${paint(style, "2", `(${what})`)}`);
  }
  if (change.note) detail("note", change.note);
  return lines;
}

export function renderText(report: Report, style: TextStyle): string {
  const out: string[] = [];
  out.push(
    `${paint(style, "1", `mcp-contract ${report.command}`)}  ${describeSide(report.baseline)} → ${describeSide(report.current)}`,
  );
  out.push("");
  if (report.changes.length === 0) {
    out.push(`${paint(style, "32", "✔")} no changes: the surfaces are identical`);
    pushNotices(out, report, style);
    return `${out.join("\n")}\n`;
  }
  for (const severity of SEVERITIES) {
    const changes = report.changes.filter((c) => c.severity === severity);
    if (changes.length === 0) continue;
    const heading = HEADINGS[severity];
    out.push(paint(style, `1;${heading.color}`, `${heading.label} (${changes.length})`));
    for (const change of changes) out.push(...renderChange(change, style));
    out.push("");
  }
  const counts = countsLine(report);
  const bump = bumpLine(report);
  const exempt = report.changes.filter((c) => c.exempt).length;
  out.push(`${counts} · ${bump}${exempt ? ` · ${exempt} exempt (not counted)` : ""}`);
  out.push(verdictText(report, "change", style));
  pushNotices(out, report, style);
  return `${out.join("\n")}\n`;
}

/** The verdict line that ends a text report, for check, diff ("change") and lint ("finding"). */
export function verdictText(
  verdict: { result: "pass" | "fail"; failing: number; failOn: string },
  noun: string,
  style: TextStyle,
): string {
  const { result, failing, failOn } = verdict;
  // Failed on something other than the items' levels (semver enforcement): the notices say what.
  if (result === "fail" && failing === 0) return paint(style, "1;31", "✖ FAIL: see the notices below");
  if (failOn === "never") return paint(style, "2", "(--fail-on never: reporting only)");
  if (result === "fail") {
    return paint(
      style,
      "1;31",
      `✖ FAIL: ${failing} ${noun}${failing === 1 ? "" : "s"} at or above ${failOn} (--fail-on ${failOn})`,
    );
  }
  return paint(style, "1;32", `✔ PASS: nothing at or above ${failOn} (--fail-on ${failOn})`);
}

/** Notices (expired ignores, break-glass, semver) come last, where the eye lands. */
export function pushNotices(out: string[], report: Pick<Report, "notices">, style: TextStyle): void {
  if (report.notices.length === 0) return;
  out.push("");
  for (const notice of report.notices) out.push(`${paint(style, "1;33", "notice:")} ${notice}`);
}
