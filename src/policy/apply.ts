/**
 * Applying a policy file to the changes of one comparison. Two steps, because witnesses
 * are computed in between: first severity overrides (which change `severity`, or remove
 * the change with "off"), then ignores (which mark changes exempt, keep them listed, and
 * stop applying after their expiry date). Pure: "today" is a parameter.
 */
import type { Change, ChangeTarget } from "../diff/model.ts";
import type { Finding } from "../lint/model.ts";
import type { Exemption } from "../report/model.ts";
import type { RuleCatalog } from "../rules/model.ts";
import { catalogOf } from "../rules/registry.ts";
import { compileGlob } from "./glob.ts";
import type { IgnoreEntry, Policy, RuleLevel, RuleOverride } from "./policy.ts";

/** Today as YYYY-MM-DD in UTC: the date ignores expire against. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

function levelFor(override: RuleOverride, change: Change): RuleLevel | undefined {
  if ("all" in override) return override.all;
  return change.direction ? override[change.direction] : undefined;
}

/** Severity overrides: a new severity, or "off" to drop the change altogether. */
export function applyRuleOverrides<C extends Change>(changes: readonly C[], policy: Policy): C[] {
  if (policy.rules.size === 0) return [...changes];
  const out: C[] = [];
  for (const change of changes) {
    const override = policy.rules.get(change.rule);
    const level = override && levelFor(override, change);
    if (level === "off") continue;
    out.push(level && level !== change.severity ? { ...change, severity: level } : change);
  }
  return out;
}

/** Lint level overrides: another level, or "off" to drop the finding. */
export function applyLintOverrides<F extends Finding>(findings: readonly F[], policy: Policy): F[] {
  if (policy.lintRules.size === 0) return [...findings];
  const out: F[] = [];
  for (const finding of findings) {
    const level = policy.lintRules.get(finding.rule);
    if (level === "off") continue;
    out.push(level && level !== finding.level ? { ...finding, level } : finding);
  }
  return out;
}

/** "rule tool-removed on tool:legacy_*", "fingerprint 3f2a…", "tool:get_*": what an ignore selects. */
export function describeIgnore(entry: IgnoreEntry): string {
  const parts: string[] = [];
  if (entry.rule) parts.push(`rule ${entry.rule}`);
  if (entry.target) parts.push(entry.rule ? `on ${entry.target.text}` : entry.target.text);
  if (entry.fingerprint)
    parts.push(parts.length ? `(fingerprint ${entry.fingerprint})` : `fingerprint ${entry.fingerprint}`);
  return parts.join(" ");
}

/** What an ignore can select: a diff change or a lint finding. */
export interface Ignorable {
  rule: string;
  target: ChangeTarget;
  fingerprint: string;
  exempt?: Exemption;
}

function ignoreMatcher(entry: IgnoreEntry): (change: Ignorable) => boolean {
  const target = entry.target;
  const nameMatches = target ? compileGlob(target.glob) : undefined;
  return (change) => {
    if (entry.fingerprint !== undefined && change.fingerprint !== entry.fingerprint) return false;
    if (entry.rule !== undefined && change.rule !== entry.rule) return false;
    if (target) {
      if (target.kind !== undefined && change.target.kind !== target.kind) return false;
      if (target.kind !== "server" && !nameMatches?.(change.target.name)) return false;
    }
    return true;
  };
}

export interface IgnoreOutcome<T> {
  changes: T[];
  notices: string[];
}

/**
 * Mark changes (or findings) that an active ignore selects as exempt ("ignored", with its
 * reason). The first matching ignore gives the reason. Expired ignores do not apply and each
 * adds a notice; so does an active ignore that matched nothing, so stale entries get cleaned up.
 *
 * One policy file serves check/diff (catalog "diff") and lint ("lint"): an ignore that names a
 * rule of the other catalog is left to that command. One that names no rule applies to both,
 * and only check/diff calls it unused (lint cannot know whether a change needs it).
 */
export function applyIgnores<T extends Ignorable>(
  changes: readonly T[],
  policy: Policy,
  today: string,
  catalog: RuleCatalog = "diff",
): IgnoreOutcome<T & { exempt?: Exemption }> {
  const notices: string[] = [];
  const active: { entry: IgnoreEntry; matches: (c: Ignorable) => boolean; used: boolean }[] = [];
  const where = (entry: IgnoreEntry) => `${policy.source} ($.ignore[${entry.index}])`;
  const mine = (entry: IgnoreEntry) => entry.rule === undefined || catalogOf(entry.rule) === catalog;
  const reportsUnused = (entry: IgnoreEntry) => entry.rule !== undefined || catalog === "diff";
  for (const entry of policy.ignore.filter(mine)) {
    if (entry.expires !== undefined && entry.expires < today) {
      notices.push(
        `ignore for ${describeIgnore(entry)} expired on ${entry.expires} (${entry.reason}): it no longer applies. Remove it from ${where(entry)}, or move its "expires" date if it is still needed.`,
      );
    } else {
      active.push({ entry, matches: ignoreMatcher(entry), used: false });
    }
  }
  // Without an active ignore every item passes as it is (a --hosts lint has thousands).
  const out =
    active.length === 0
      ? [...changes]
      : changes.map((change) => {
          if (change.exempt) return change;
          const hits = active.filter((a) => a.matches(change));
          const hit = hits[0];
          if (!hit) return change;
          for (const h of hits) h.used = true;
          return { ...change, exempt: { kind: "ignored" as const, reason: hit.entry.reason } };
        });
  for (const { entry, used } of active) {
    if (!used && reportsUnused(entry)) {
      notices.push(
        `unused ignore for ${describeIgnore(entry)} (${entry.reason}): it matched no ${catalog === "diff" ? "change" : "finding"}. Remove it from ${where(entry)} if it is no longer needed.`,
      );
    }
  }
  return { changes: out, notices };
}
