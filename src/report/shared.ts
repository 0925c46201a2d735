/**
 * The small vocabulary every format shares, for both report kinds: rule links, the words for
 * items, exemptions, witnesses and renames, counts and plurals, the verdict sentence, the
 * tool-list estimate, the fields the machine formats open with, JSON Pointers as people read
 * them, and how list items are identified in a lockfile. Pure.
 */
import type { Change, TargetKind } from "../diff/model.ts";
import { show } from "../lint/found.ts";
import { charLabel } from "../lint/text-scan.ts";
import { LINT_LEVELS, type LintGroup, SEVERITIES } from "../rules/model.ts";
import { findRule } from "../rules/registry.ts";
import {
  type AnyReport,
  type Exemption,
  isChange,
  itemNoun,
  itemsOf,
  type Report,
  type ReportFinding,
  type ReportItem,
  type Side,
  type ToolListSize,
} from "./model.ts";

/**
 * Code points that never reach a report (or a terminal) as they are: C0 controls but tab and
 * line feed (ESC starts terminal escape sequences, BEL rings, NUL truncates, CR overwrites a
 * line), DEL and the C1 controls, the bidi embeddings, overrides, isolates and marks, which
 * reorder what a reviewer sees (Trojan Source), and the line and paragraph separators.
 */
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

const jsonEscape = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * Server-sent text as a report shows it: controls as `\u001b`, bidi and separator characters
 * spelled out as lint spells them (`<U+202E RIGHT-TO-LEFT OVERRIDE>`); everything else as it
 * is. Every renderer passes what it shows through here (JSON and SARIF through escapeJsonText).
 */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, (ch) => (ch.charCodeAt(0) <= 0x9f ? jsonEscape(ch) : charLabel(ch.charCodeAt(0))));
}

/**
 * JSON text with those code points written as `\u` escapes: the same value once parsed, and
 * safe to print or show. (JSON.stringify escapes C0 controls itself, not the rest.)
 */
export function escapeJsonText(json: string): string {
  return json.replace(UNSAFE, jsonEscape);
}

/** A value as JSON on one line, safe to show (escapeJsonText). */
export function showJson(value: unknown): string {
  return escapeJsonText(JSON.stringify(value));
}

/** Placeholder home page until the project has a published one; used in SARIF and rule links. */
export const INFORMATION_URI = "https://github.com/mcp-contract/mcp-contract";

/** Where one rule is documented (docs/rules.md, generated from the catalogs). */
export function ruleHelpUri(ruleId: string): string {
  return `${INFORMATION_URI}/blob/main/docs/rules.md#${ruleId}`;
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

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** "12,431" — grouped by hand, so the output does not depend on the runtime's locale data. */
export function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
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

/** The hint beside a removal that looks like a rename; `name` comes quoted as the format quotes. */
export function renameHint(name: string): string {
  return `possibly renamed to ${name} (the removal still breaks callers of the old name)`;
}

/**
 * The finding's message, naming its item when the message does not already start with it:
 * the security rules say where in the item ("description: …"), not which item, and a text,
 * annotation or SARIF message must stand on its own. `tool "add": description: …`
 */
export function findingMessage(finding: ReportFinding): string {
  const { kind, name } = finding.target;
  if (kind === "server" || finding.message.startsWith(`${kindWord(kind)} `)) return finding.message;
  return `${kindWord(kind)} ${show(name)}: ${finding.message}`;
}

/** A message that stands on its own: a change's as it is, a finding's naming its item. */
export function itemMessage(item: ReportItem): string {
  return isChange(item) ? item.message : findingMessage(item);
}

/** `{ group }` of a lint catalog rule, to spread into an object; empty for an id the catalog does not know. */
export function lintGroupOf(rule: string): { group?: LintGroup } {
  const found = findRule(rule);
  const group = found?.catalog === "lint" ? found.group : undefined;
  return group ? { group } : {};
}

/** "name version" of a side's server, "" when it has neither. */
export function serverLabel(side: Side): string {
  return [side.server.name, side.server.version].filter(Boolean).join(" ");
}

/** "2 breaking, 1 minor, 0 patch"; for lint "2 errors, 1 warning, 3 info" (info is uncountable). */
export function countsLine(report: AnyReport): string {
  if (report.command !== "lint") return SEVERITIES.map((s) => `${report.summary[s]} ${s}`).join(", ");
  const summary = report.summary;
  return LINT_LEVELS.map((level) => (level === "info" ? `${summary.info} info` : plural(summary[level], level))).join(
    ", ",
  );
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

/** "tools/list ≈ 2,431 tokens for 14 tools (budget 10,000)" */
export function toolListLine(toolList: ToolListSize): string {
  const over = toolList.tokens > toolList.budget;
  return `tools/list ≈ ${thousands(toolList.tokens)} tokens for ${plural(toolList.tools, "tool")} (${over ? "over the budget of" : "budget"} ${thousands(toolList.budget)})`;
}

/** The verdict in one sentence, without a mark: "FAIL: 2 changes at or above breaking (--fail-on breaking)". */
export function verdictLine(report: AnyReport): string {
  const { failOn, failing } = report;
  if (failOn === "never") return "reporting only (--fail-on never)";
  if (report.result === "pass") return `PASS: nothing at or above ${failOn} (--fail-on ${failOn})`;
  // Failed with nothing counted (a notice failed it, e.g. semver): lint says so; check and diff count "0 changes".
  if (failing === 0 && report.command === "lint") return "FAIL: see the notices";
  return `FAIL: ${plural(failing, itemNoun(report))} at or above ${failOn} (--fail-on ${failOn})`;
}

/** The changes or findings that are exempt. */
export function exemptCount(report: AnyReport): number {
  return itemsOf(report).filter((item) => item.exempt).length;
}

/** What the JSON report and the SARIF run properties open with, in that order: the command, its sides, the verdict. */
export function verdictFields(report: AnyReport) {
  const { command, failOn, result } = report;
  return report.command === "lint"
    ? { command, subject: report.subject, failOn, result }
    : {
        command,
        baseline: report.baseline,
        current: report.current,
        failOn,
        result,
        requiredBump: report.requiredBump,
      };
}

/** The counts that follow (and, for lint, the tool-list estimate). */
export function tallyFields(report: AnyReport) {
  return report.command === "lint"
    ? { summary: report.summary, toolList: report.toolList }
    : { summary: report.summary };
}
