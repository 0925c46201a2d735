/** Small pieces the CI formatters (sarif, markdown, junit, github) share. Pure. */
import { findRule } from "../diff/catalog.ts";
import type { Change, TargetKind } from "../diff/model.ts";
import { type Exemption, type FailOn, isFailing, type Report, type ReportChange, SEVERITIES } from "./model.ts";

/** Placeholder home page until the project has a published one; used in SARIF and rule links. */
export const INFORMATION_URI = "https://github.com/mcp-contract/mcp-contract";

/** Where one rule is documented (docs/rules.md, generated from the catalog). */
export function ruleHelpUri(ruleId: string): string {
  return `${INFORMATION_URI}/blob/main/docs/rules.md#${ruleId}`;
}

/** Counts toward the verdict: not exempt, and at or above the threshold. */
export function countsAsFailing(change: ReportChange, failOn: FailOn): boolean {
  return !change.exempt && isFailing(change.severity, failOn);
}

export function exemptionLabel(exempt: Exemption): string {
  return `${exempt.kind === "out-of-scope" ? "out of scope" : "ignored"}: ${exempt.reason}`;
}

/** What a witness shows, by direction. */
export function witnessMeaning(change: Change): string {
  return change.direction === "output"
    ? "a value the new schema allows and the old did not"
    : "arguments the old schema accepted and the new one rejects";
}

const KIND_WORD: Record<TargetKind, string> = {
  tool: "tool",
  resource: "resource",
  resourceTemplate: "resource template",
  prompt: "prompt",
  server: "server",
};

export function kindWord(kind: TargetKind): string {
  return KIND_WORD[kind];
}

/** "2 breaking, 1 minor, 0 patch" */
export function countsLine(report: Report): string {
  return SEVERITIES.map((s) => `${report.summary[s]} ${s}`).join(", ");
}

export function bumpLine(report: Report): string {
  const line =
    report.requiredBump === "none"
      ? "no version bump needed"
      : `requires a ${report.requiredBump.toUpperCase()} version bump`;
  // Security drift fails the run without calling for a version (src/diff/model.ts bumpFor).
  const security = report.changes.some((c) => findRule(c.rule)?.group === "security");
  return security ? `${line} (security findings aside: no version makes them safe)` : line;
}

/** The verdict in one sentence, as the text report ends. */
export function verdictLine(report: Report): string {
  if (report.failOn === "never") return "reporting only (--fail-on never)";
  if (report.result === "fail") {
    return `FAIL: ${report.failing} change${report.failing === 1 ? "" : "s"} at or above ${report.failOn} (--fail-on ${report.failOn})`;
  }
  return `PASS: nothing at or above ${report.failOn} (--fail-on ${report.failOn})`;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
