/**
 * What the human formats (text, Markdown, GitHub annotations, JUnit, changelog) list: the
 * report's sections, and in each, entries rather than raw changes, so that the volume a
 * reviewer reads follows what happened, not how many rules fired:
 *
 * - sections: SECURITY (security drift: it fails like a breaking change, but no version makes
 *   it safe), then BREAKING, NOT MODELLED (changed fields the engine cannot judge), MINOR,
 *   PATCH; lint keeps its levels.
 * - a tool's behaviour-hint changes of one severity are one entry ("now read-only, idempotent,
 *   closed-world"), not one line per hint;
 * - the same change on many items is one entry, a run ("100 resources removed:
 *   test://static/resource/1 … /100"), its items in natural order (1, 2, … 10, not 1, 10, 100),
 *   breaking ones too, with one example witness;
 * - the equivalent rewrites of a section (no effect, no release) are one summary line
 *   (`rewrites`); the JSON report keeps each;
 * - entries are in kind order, then natural order of their names.
 *
 * JSON and SARIF list every change as it is; Markdown lists a run's items in a collapsible
 * block. Lint findings are listed one by one, in catalog order. Pure.
 */
import { KIND_ORDER, targetLabel } from "../diff/change.ts";
import type { TargetKind } from "../diff/model.ts";
import { HINT_RULES_IN_ORDER, hintSummary, isHintRule } from "../diff/tools.ts";
import { LINT_LEVELS, SEVERITIES } from "../rules/model.ts";
import { plural } from "../util/text.ts";
import {
  type AnyReport,
  type Exemption,
  type Grade,
  gradeOf,
  gradeRank,
  isChange,
  isSecurity,
  itemsOfGrade,
  type ReportChange,
  type ReportItem,
} from "./model.ts";

/**
 * A section of a report: a grade, or (check, diff) the security drift, or the changes to
 * fields the engine does not model (unmodelled-field-changed: never patch, and never lost
 * among the minor changes).
 */
export type SectionKey = Grade | "security" | "unmodelled";

const isUnmodelled = (item: ReportItem) => item.rule === "unmodelled-field-changed";

/** The most severe grade of some changes, `floor` when there are none. */
function worstOf(changes: readonly ReportChange[], floor: Grade): Grade {
  return changes.reduce<Grade>((worst, c) => (gradeRank(c.severity) < gradeRank(worst) ? c.severity : worst), floor);
}

export interface Section {
  key: SectionKey;
  /** The grade the section is shown with: its own, or for security the most severe of its items (breaking). */
  grade: Grade;
  items: ReportItem[];
}

/** Every section of the report's kind, in order, empty ones included. */
export function sectionsOf(report: AnyReport): Section[] {
  if (report.command === "lint") {
    return LINT_LEVELS.map((level) => ({ key: level, grade: level, items: itemsOfGrade(report, level) }));
  }
  const security = report.changes.filter(isSecurity);
  const unmodelled = report.changes.filter(isUnmodelled);
  const [breaking, ...rest] = SEVERITIES.map((severity) => ({
    key: severity,
    grade: severity,
    items: report.changes.filter((c) => c.severity === severity && !isSecurity(c) && !isUnmodelled(c)),
  }));
  return [
    { key: "security", grade: worstOf(security, "breaking"), items: security },
    breaking as Section,
    { key: "unmodelled", grade: worstOf(unmodelled, "minor"), items: unmodelled },
    ...rest,
  ];
}

export interface Entry {
  /**
   * item: one change or finding; hints: a tool's hint changes; run: one change on many items;
   * rewrites: the section's equivalent rewrites, summed up.
   */
  kind: "item" | "hints" | "run" | "rewrites";
  /** What the entry stands for, in order (a run's in natural order of their items). */
  items: ReportItem[];
  /** The distinct rule ids, in order. */
  rules: string[];
  /** The line, as plain text (formatters escape it): the item's message, or the summary of many. */
  message: string;
  grade: Grade;
  /** The note the items share, if any (hints: their notes, joined). */
  note?: string;
  /** The exemption every item shares. */
  exempt?: Exemption;
  /** A run: its items' kind, their names in natural order, and what happened to each. */
  run?: { kind: TargetKind; names: string[]; what: string };
  /** A run of changes with witnesses: the first one, whose witness the entry shows as an example. */
  example?: ReportChange;
}

/** Runs start at this many items; fewer read fine one per line. */
export const MIN_RUN = 4;

export interface EntryOptions {
  /** Collapse runs of one change on many items (default true; JUnit lists every item). */
  runs?: boolean;
  /** Fold the equivalent rewrites into one summary entry (default true; JUnit lists every item). */
  rewrites?: boolean;
}

/** The entries for some items of the report (a section's): merged and collapsed for changes, one by one for findings. */
export function entriesOf(report: AnyReport, items: readonly ReportItem[], options: EntryOptions = {}): Entry[] {
  if (report.command === "lint") return items.map(single);
  const ordered = naturalOrder(items as ReportChange[]);
  const merged = mergeHints(ordered);
  const entries = options.runs === false ? merged : collapseRuns(merged);
  return options.rewrites === false ? entries : foldRewrites(entries);
}

/**
 * Equivalent rewrites change no value a client sends or receives and need no release: a reader
 * needs to know they happened and that each lockfile line is accounted for, not each line.
 * Those of a section (not exempt), when there are several, become one entry where the first was;
 * the JSON report lists each.
 */
function foldRewrites(entries: readonly Entry[]): Entry[] {
  const isRewrite = (entry: Entry) =>
    entry.exempt === undefined && entry.rules.every((r) => r === "equivalent-rewrite");
  const rewrites = entries.filter(isRewrite);
  // One is already one line: it keeps its own words (which lines, and why they mean nothing).
  if (rewrites.length < 2) return [...entries];
  const items = rewrites.flatMap((entry) => entry.items) as ReportChange[];
  const lines = items.reduce((n, item) => n + (item.explains?.length ?? 1), 0);
  const targets = items.map((item) => item.target);
  const kinds = new Set(targets.map((t) => t.kind));
  const names = targets.map((t) => t.name);
  const [kind] = kinds;
  const on =
    kinds.size === 1 && kind !== undefined && kind !== "server"
      ? names.length === 1
        ? targetLabel(kind, names[0] as string)
        : `${names.length} ${KIND_PLURAL[kind]} (${rangeOf(names, (s) => s)})`
      : `${plural(names.length, "item")}`;
  const entry: Entry = {
    kind: "rewrites",
    items,
    rules: ["equivalent-rewrite"],
    message: `${on}: ${plural(lines, "lockfile line")} rewritten with no effect on the values accepted (equivalent rewrites; the JSON report lists each)`,
    grade: (rewrites[0] as Entry).grade,
  };
  const first = entries.findIndex(isRewrite);
  return entries.flatMap((e, i) => (i === first ? [entry] : isRewrite(e) ? [] : [e]));
}

function single(item: ReportItem): Entry {
  return {
    kind: "item",
    items: [item],
    rules: [item.rule],
    message: item.message,
    grade: gradeOf(item),
    ...(isChange(item) && item.note !== undefined && { note: item.note }),
    ...(item.exempt && { exempt: item.exempt }),
  };
}

const exemptKey = (exempt: Exemption | undefined) => (exempt ? `${exempt.kind}\u0000${exempt.reason}` : "");

/** Kind order, then natural order of names, then as reported. */
function naturalOrder(changes: readonly ReportChange[]): ReportChange[] {
  return changes
    .map((change, index) => ({ change, index }))
    .sort(
      (a, b) =>
        KIND_ORDER.indexOf(a.change.target.kind) - KIND_ORDER.indexOf(b.change.target.kind) ||
        naturalCompare(a.change.target.name, b.change.target.name) ||
        a.index - b.index,
    )
    .map(({ change }) => change);
}

/** A tool's hint changes of one severity (and exemption) → one entry; a lone hint change stays as it is. */
function mergeHints(changes: readonly ReportChange[]): Entry[] {
  const groups = new Map<string, ReportChange[]>();
  const keyOf = (c: ReportChange) =>
    c.target.kind === "tool" && isHintRule(c.rule)
      ? `${c.target.name}\u0000${c.severity}\u0000${exemptKey(c.exempt)}`
      : undefined;
  for (const change of changes) {
    const key = keyOf(change);
    if (key === undefined) continue;
    const group = groups.get(key);
    if (group) group.push(change);
    else groups.set(key, [change]);
  }
  const out: Entry[] = [];
  const done = new Set<string>();
  for (const change of changes) {
    const key = keyOf(change);
    const group = key === undefined ? undefined : groups.get(key);
    if (!group || group.length === 1) {
      out.push(single(change));
      continue;
    }
    if (done.has(key as string)) continue;
    done.add(key as string);
    const items = [...group].sort((a, b) => HINT_RULES_IN_ORDER.indexOf(a.rule) - HINT_RULES_IN_ORDER.indexOf(b.rule));
    const rules = items.map((c) => c.rule);
    const notes = [...new Set(items.map((c) => c.note).filter((n): n is string => n !== undefined))];
    out.push({
      kind: "hints",
      items,
      rules,
      message: `${targetLabel("tool", change.target.name)}: ${hintSummary(rules)}`,
      grade: change.severity,
      ...(notes.length > 0 && { note: notes.join(" ") }),
      ...(change.exempt && { exempt: change.exempt }),
    });
  }
  return out;
}

const KIND_PLURAL: Record<TargetKind, string> = {
  tool: "tools",
  resource: "resources",
  resourceTemplate: "resource templates",
  prompt: "prompts",
  skill: "skills",
  server: "servers",
};

/** What happened to the item, without it ("removed"); undefined when the entry cannot join a run. */
function runWhat(entry: Entry): string | undefined {
  const first = entry.items[0] as ReportChange;
  const { kind, name } = first.target;
  if (kind === "server") return undefined;
  // A witness does not keep a change out of a run: the run shows one as its example.
  if (entry.items.some((c) => !isChange(c) || c.renamedTo !== undefined)) return undefined;
  const prefix = `${targetLabel(kind, name)}: `;
  return entry.message.startsWith(prefix) ? entry.message.slice(prefix.length) : undefined;
}

/** MIN_RUN or more entries that say the same of different items → one run, where the first of them was. */
function collapseRuns(entries: readonly Entry[]): Entry[] {
  const keys = entries.map((entry) => {
    const what = runWhat(entry);
    if (what === undefined) return undefined;
    const target = (entry.items[0] as ReportChange).target;
    return [target.kind, entry.grade, exemptKey(entry.exempt), entry.note ?? "", entry.rules.join(","), what].join(
      "\u0000",
    );
  });
  const groups = new Map<string, Entry[]>();
  entries.forEach((entry, i) => {
    const key = keys[i];
    if (key === undefined) return;
    const group = groups.get(key);
    if (group) group.push(entry);
    else groups.set(key, [entry]);
  });
  const out: Entry[] = [];
  const done = new Set<string>();
  entries.forEach((entry, i) => {
    const key = keys[i];
    const group = key === undefined ? undefined : groups.get(key);
    if (!group || group.length < MIN_RUN) {
      out.push(entry);
      return;
    }
    if (done.has(key as string)) return;
    done.add(key as string);
    const { kind } = (entry.items[0] as ReportChange).target;
    const names = group.map((e) => (e.items[0] as ReportChange).target.name);
    const what = runWhat(entry) as string;
    const example = group.flatMap((e) => e.items).find((c) => isChange(c) && c.witness !== undefined);
    out.push({
      kind: "run",
      items: group.flatMap((e) => e.items),
      rules: entry.rules,
      message: runMessage(kind, names, what, (s) => s),
      grade: entry.grade,
      ...(entry.note !== undefined && { note: entry.note }),
      ...(entry.exempt && { exempt: entry.exempt }),
      run: { kind, names, what },
      ...(example !== undefined && { example: example as ReportChange }),
    });
  });
  return out;
}

/** Words that read as what happened to the items ("100 resources removed"), not as a remark about them. */
const VERB_LIKE = /^(?:added|removed|now |no longer )/;

/**
 * "100 resources removed: test://static/resource/1 … /100", "5 tools (a, b, c, d, e):
 * property "x" is now required at inputSchema"; `quote` renders each name as the format does.
 */
export function runMessage(kind: TargetKind, names: readonly string[], what: string, quote: (name: string) => string) {
  const range = rangeOf(names, quote);
  return VERB_LIKE.test(what)
    ? `${names.length} ${KIND_PLURAL[kind]} ${pluralVerb(what)}: ${range}`
    : `${names.length} ${KIND_PLURAL[kind]} (${range}): ${what}`;
}

/**
 * What one item does, said of many: "now reaches …" → "now reach …", "no longer performs" →
 * "no longer perform", "is now required" → "are now required".
 */
function pluralVerb(what: string): string {
  return what.replace(/^((?:now|no longer|may now)\s+)?(\w+)/, (whole, adverb: string | undefined, verb: string) => {
    const plural = VERB_PLURALS[verb];
    return plural === undefined ? whole : `${adverb ?? ""}${plural}`;
  });
}

const VERB_PLURALS: Record<string, string> = {
  is: "are",
  has: "have",
  reaches: "reach",
  performs: "perform",
  accepts: "accept",
  returns: "return",
  requires: "require",
  allows: "allow",
  carries: "carry",
};

/** Past this width a list of names shows its first and last; a few names are always listed whole. */
const LIST_WIDTH = 120;
const FEW = 5;

/** Names listed in full when few or short, else the first and the last, the last without the path they share. */
export function rangeOf(names: readonly string[], quote: (name: string) => string): string {
  const all = names.map(quote).join(", ");
  if (names.length <= FEW || all.length <= LIST_WIDTH) return all;
  const first = names[0] as string;
  const last = names.at(-1) as string;
  let common = 0;
  while (common < first.length && common < last.length && first[common] === last[common]) common++;
  const slash = first.slice(0, common).lastIndexOf("/");
  return `${quote(first)} … ${quote(slash > 0 ? last.slice(slash) : last)}`;
}

/** "a2" < "a10": runs of digits compare as numbers, the rest by code unit; equal-looking names by code unit. */
export function naturalCompare(a: string, b: string): number {
  const chunks = /(\d+|\D+)/g;
  const x = a.match(chunks) ?? [];
  const y = b.match(chunks) ?? [];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i] as string;
    const q = y[i] as string;
    if (p === q) continue;
    const digits = /^\d/.test(p) && /^\d/.test(q);
    if (digits) {
      const pn = p.replace(/^0+(?=\d)/, "");
      const qn = q.replace(/^0+(?=\d)/, "");
      if (pn.length !== qn.length) return pn.length - qn.length;
      if (pn !== qn) return pn < qn ? -1 : 1;
      continue;
    }
    return p < q ? -1 : 1;
  }
  if (x.length !== y.length) return x.length - y.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
