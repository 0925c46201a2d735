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
import { plural, thousands } from "../util/text.ts";
import { entriesOf, sectionsOf } from "./entries.ts";
import {
  type AnyReport,
  type Exemption,
  isChange,
  isCounted,
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
  skill: "skill",
  server: "server",
};

export function kindWord(kind: TargetKind): string {
  return KIND_WORD[kind];
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
export function lintGroupOf(rule: string): { group?: LintGroup; host?: string } {
  const found = findRule(rule);
  const group = found?.catalog === "lint" ? found.group : undefined;
  if (!group) return {};
  // Host rules (lint --hosts) carry their host profile beside the group, in JSON and SARIF.
  return found?.catalog === "lint" && found.host !== undefined ? { group, host: found.host } : { group };
}

/** "name version" of a side's server, "" when it has neither. */
export function serverLabel(side: Side): string {
  return [side.server.name, side.server.version].filter(Boolean).join(" ");
}

/**
 * "2 breaking, 1 minor, 0 patch"; with security drift "1 security, 2 breaking, …" (breaking
 * then counts the others); for lint "2 errors, 1 warning, 3 info" (info is uncountable).
 */
export function countsLine(report: AnyReport): string {
  if (report.command !== "lint") {
    const { security } = report.summary;
    const counts = SEVERITIES.map((s) => `${s === "breaking" ? report.summary[s] - security : report.summary[s]} ${s}`);
    return [...(security > 0 ? [`${security} security`] : []), ...counts].join(", ");
  }
  const summary = report.summary;
  return LINT_LEVELS.map((level) => (level === "info" ? `${summary.info} info` : plural(summary[level], level))).join(
    ", ",
  );
}

/** What the SECURITY section says once, in every format that has one. */
export const SECURITY_EXPLAINED =
  "Security drift: a text of the surface now carries what lint reports as tool poisoning. It fails the run like a breaking change, but no version bump makes it safe: fix the text, or ignore the finding in the policy file once reviewed.";

/** What the NOT MODELLED section says once (unmodelled-field-changed). */
export const UNMODELLED_EXPLAINED =
  "Not modelled: review. These fields are not in the MCP schema for their item (a draft's new field, a vendor field outside _meta): mcp-contract keeps them but cannot judge a change to them, so it is minor, never patch. Check what reads them.";

/** The same in a few words, for one-line summaries. */
export const SECURITY_SHORT = "security drift fails like a breaking change; no version bump makes it safe";

const SEMVER_PREFIX = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)/;

/**
 * "requires a MAJOR version bump (to 2.0.0)", or "no version bump needed". Below 1.0.0 the
 * rules shift one place (src/policy/semver.ts), and the line names the bump that gets there:
 * "requires a MINOR version bump (to 0.5.0: below 1.0.0 a minor bump may break)".
 */
export function bumpLine(report: Report): string {
  if (report.changeLevel === "none") return "no version bump needed";
  const from = SEMVER_PREFIX.exec(report.baseline.server.version ?? "");
  const to = report.nextVersion === undefined ? null : SEMVER_PREFIX.exec(report.nextVersion);
  if (!from || !to) return `requires a ${report.changeLevel.toUpperCase()} version bump`;
  // The part that moves from the baseline's version to the next allowed one (as requiredBump).
  const bump = from[1] !== to[1] ? "major" : from[2] !== to[2] ? "minor" : "patch";
  if (from[1] !== "0") return `requires a ${bump.toUpperCase()} version bump (to ${report.nextVersion})`;
  const why =
    from[2] === "0"
      ? "every 0.0.z release may break"
      : bump === "minor"
        ? "below 1.0.0 a minor bump may break"
        : report.changeLevel === "minor"
          ? "below 1.0.0 a patch bump may add"
          : "";
  return `requires a ${bump.toUpperCase()} version bump (to ${report.nextVersion}${why ? `: ${why}` : ""})`;
}

/** "tools/list ≈ 2,431 tokens for 14 tools (budget 10,000)" */
export function toolListLine(toolList: ToolListSize): string {
  const over = toolList.tokens > toolList.budget;
  return `tools/list ≈ ${thousands(toolList.tokens)} tokens for ${plural(toolList.tools, "tool")} (${over ? "over the budget of" : "budget"} ${thousands(toolList.budget)})`;
}

/** "2 breaking changes", "2 breaking, 1 minor and 3 patch changes": what a report's changes are, by severity. */
export function changesWhat(report: Report): string {
  const parts = SEVERITIES.filter((s) => report.summary[s] > 0).map((s) => `${report.summary[s]} ${s}`);
  if (parts.length === 0) return "no changes";
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
  return `${list} change${report.summary.total === 1 ? "" : "s"}`;
}

/** `check --update`: what happened to the lockfile, in one sentence. */
export function acceptedLine(report: Report): string | undefined {
  const accepted = report.accepted;
  if (!accepted) return undefined;
  if (accepted.outcome === "created") return `created ${accepted.file} with the current surface (--update)`;
  if (accepted.outcome === "unchanged") return `${accepted.file} is up to date: nothing to accept (--update)`;
  return `accepted ${changesWhat(report)} into ${accepted.file} (--update)`;
}

/** The verdict in one sentence, without a mark: "FAIL: 2 changes at or above breaking (--fail-on breaking)". */
export function verdictLine(report: AnyReport): string {
  const { failOn, failing } = report;
  const accepted = report.command === "lint" ? undefined : acceptedLine(report);
  if (accepted) return accepted;
  if (failOn === "never") return "reporting only (--fail-on never)";
  if (report.result === "pass") return `PASS: nothing at or above ${failOn} (--fail-on ${failOn})`;
  // Failed with nothing counted (a notice failed it, e.g. semver): lint says so; check and diff count "0 changes".
  if (failing === 0 && report.command === "lint") return "FAIL: see the notices";
  return `FAIL: ${plural(failing, itemNoun(report))} at or above ${failOn} (--fail-on ${failOn})`;
}

/** The policy file the "accept" snippets name (src/policy/policy.ts POLICY_FILE; the report cannot import policy). */
export const POLICY_FILE_NAME = "mcp-contract.config.json";

/** At most this many entries in an "accept these changes" snippet. */
export const MAX_ACCEPT = 20;

/**
 * The changes an "accept" snippet offers to ignore: those that fail a check or diff (none
 * once --update accepted them), in the order the report lists them.
 */
export function acceptable(report: AnyReport): ReportItem[] {
  // Nothing fails at --fail-on never (isFailing): no sections to build again.
  if (report.command === "lint" || report.accepted || report.failOn === "never") return [];
  return sectionsOf(report)
    .flatMap((section) => entriesOf(report, section.items))
    .flatMap((entry) => entry.items)
    .filter((item) => isCounted(item, report.failOn));
}

/**
 * The policy-file `ignore` entries that would accept these items (at most MAX_ACCEPT), one
 * JSON object a line: `{ "rule": "tool-removed", "fingerprint": "3f2a9c0d1e4b5a67", "reason": "…" }`.
 * The reason is for the reviewer to write.
 */
export function acceptEntries(items: readonly ReportItem[]): string[] {
  return items.slice(0, MAX_ACCEPT).map((item) => {
    const entry = {
      rule: item.rule,
      fingerprint: item.fingerprint,
      reason: `TODO (${itemLabel(item)}): why it is fine`,
    };
    return `{ ${Object.entries(entry)
      .map(([k, v]) => `${JSON.stringify(k)}: ${showJson(v)}`)
      .join(", ")} }`;
  });
}

/** "tool search", "server": the item of an accept entry, unquoted. */
function itemLabel(item: ReportItem): string {
  const { kind, name } = item.target;
  return kind === "server" ? "server" : `${kindWord(kind)} ${name}`;
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
        changeLevel: report.changeLevel,
        requiredBump: report.requiredBump,
      };
}

/** The counts that follow (and, for lint, the tool-list estimate). */
export function tallyFields(report: AnyReport) {
  return report.command === "lint"
    ? { summary: report.summary, toolList: report.toolList }
    : { summary: report.summary };
}
