/**
 * Applying a policy file to the changes of one comparison. Two steps, because witnesses
 * are computed in between: first severity overrides (which change `severity`, or remove
 * the change with "off"), then ignores (which mark changes exempt, keep them listed, and
 * stop applying after their expiry date). Pure: "today" is a parameter.
 */
import type { Change } from "../diff/model.ts";
import type { ReportChange } from "../report/model.ts";
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

/** "rule tool-removed on tool:legacy_*", "fingerprint 3f2a…", "tool:get_*": what an ignore selects. */
export function describeIgnore(entry: IgnoreEntry): string {
  const parts: string[] = [];
  if (entry.rule) parts.push(`rule ${entry.rule}`);
  if (entry.target) parts.push(entry.rule ? `on ${entry.target.text}` : entry.target.text);
  if (entry.fingerprint)
    parts.push(parts.length ? `(fingerprint ${entry.fingerprint})` : `fingerprint ${entry.fingerprint}`);
  return parts.join(" ");
}

function ignoreMatcher(entry: IgnoreEntry): (change: Change) => boolean {
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

export interface IgnoreOutcome {
  changes: ReportChange[];
  notices: string[];
}

/**
 * Mark changes that an active ignore selects as exempt ("ignored", with its reason). The
 * first matching ignore gives the reason. Expired ignores do not apply and each adds a notice; so does
 * an active ignore that matched nothing, so stale entries get cleaned up.
 */
export function applyIgnores(changes: readonly ReportChange[], policy: Policy, today: string): IgnoreOutcome {
  const notices: string[] = [];
  const active: { entry: IgnoreEntry; matches: (c: Change) => boolean; used: boolean }[] = [];
  const where = (entry: IgnoreEntry) => `${policy.source} ($.ignore[${entry.index}])`;
  for (const entry of policy.ignore) {
    if (entry.expires !== undefined && entry.expires < today) {
      notices.push(
        `ignore for ${describeIgnore(entry)} expired on ${entry.expires} (${entry.reason}): it no longer applies. Remove it from ${where(entry)}, or move its "expires" date if it is still needed.`,
      );
    } else {
      active.push({ entry, matches: ignoreMatcher(entry), used: false });
    }
  }
  const out = changes.map((change) => {
    if (change.exempt) return change;
    const hits = active.filter((a) => a.matches(change));
    const hit = hits[0];
    if (!hit) return change;
    for (const h of hits) h.used = true;
    return { ...change, exempt: { kind: "ignored" as const, reason: hit.entry.reason } };
  });
  for (const { entry, used } of active) {
    if (!used) {
      notices.push(
        `unused ignore for ${describeIgnore(entry)} (${entry.reason}): it matched no change. Remove it from ${where(entry)} if it is no longer needed.`,
      );
    }
  }
  return { changes: out, notices };
}
