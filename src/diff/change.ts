/**
 * Turning findings into Changes: severity from the rule registry, the target prefix on messages,
 * fingerprints, and one deterministic order. Plus the small JSON helpers the surface diffs
 * share. Pure.
 */
import { stableStringify } from "../contract/canonical.ts";
import { jsonEqual } from "../contract/json-equal.ts";
import { isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import { pointer, pointerToDotted } from "../contract/pointer.ts";
import type { TargetKind } from "../contract/surface.ts";
import { type DiffRuleId, diffRule } from "../rules/registry.ts";
import { fnv1a64 } from "./fingerprint.ts";
import type { Change } from "./model.ts";
import { compareStrings, findRenames, type RenameCandidate } from "./rename.ts";

/** A Change before the registry's severity and the fingerprint are applied. */
export interface ChangeSpec
  extends Pick<
    Change,
    "rule" | "direction" | "path" | "before" | "after" | "note" | "renamedTo" | "witness" | "explains"
  > {
  kind: TargetKind;
  name: string;
  /** What changed, without the target ("enum value … removed at …"); the target is prefixed. */
  message: string;
  /**
   * Extra fingerprint input for rules that can fire more than once at one path by design
   * (e.g. one template-variable-added per variable, all at /uriTemplate).
   */
  discriminator?: string;
}

export const KIND_ORDER: readonly TargetKind[] = ["tool", "resource", "resourceTemplate", "prompt", "skill", "server"];

const KIND_LABEL: Record<TargetKind, string> = {
  tool: "tool",
  resource: "resource",
  resourceTemplate: "resource template",
  prompt: "prompt",
  skill: "skill",
  server: "server",
};

export function targetLabel(kind: TargetKind, name: string): string {
  return kind === "server" ? "server" : `${KIND_LABEL[kind]} ${JSON.stringify(name)}`;
}

/** The fingerprint input: rule|kind|name|direction|path (|discriminator when given). */
export function fingerprintKey(spec: ChangeSpec): string {
  const base = [spec.rule, spec.kind, spec.name, spec.direction ?? "", spec.path].join("|");
  return spec.discriminator === undefined ? base : `${base}|${spec.discriminator}`;
}

function valueText(value: Json | undefined): string {
  return value === undefined ? "" : stableStringify(value);
}

function compareSpecs(a: ChangeSpec, b: ChangeSpec): number {
  return (
    KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
    compareStrings(a.name, b.name) ||
    compareStrings(a.path, b.path) ||
    compareStrings(a.rule, b.rule) ||
    compareStrings(a.discriminator ?? "", b.discriminator ?? "") ||
    compareStrings(valueText(a.before), valueText(b.before)) ||
    compareStrings(valueText(a.after), valueText(b.after)) ||
    compareStrings(a.message, b.message)
  );
}

/**
 * Sorts the specs (kind, name, path, rule, then tie-breaks on content) and builds Changes.
 * Fingerprints hash rule|kind|name|direction|path; if two changes still share that key
 * (a schema engine reporting two enum values removed at one path), those changes get their
 * before/after values appended, and as a last resort their position, so fingerprints stay distinct.
 */
export function buildChanges(specs: readonly ChangeSpec[]): Change[] {
  const sorted = [...specs].sort(compareSpecs);
  const keys = sorted.map(fingerprintKey);
  const counts = countOf(keys);
  const refined = sorted.map((spec, i) => {
    const key = keys[i]!;
    return counts.get(key)! > 1 ? `${key}|${valueText(spec.before)}|${valueText(spec.after)}` : key;
  });
  const refinedCounts = countOf(refined);
  const seen = new Map<string, number>();
  return sorted.map((spec, i) => {
    let key = refined[i]!;
    if (refinedCounts.get(key)! > 1) {
      const n = seen.get(key) ?? 0;
      seen.set(key, n + 1);
      key = `${key}|#${n}`;
    }
    return toChange(spec, fnv1a64(key));
  });
}

function countOf(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

function toChange(spec: ChangeSpec, fingerprint: string): Change {
  const rule = diffRule(spec.rule);
  // Optional fields only when set, in a fixed key order, so JSON reports are byte-stable.
  return {
    rule: spec.rule,
    severity: spec.direction === "output" ? rule.output : rule.input,
    target: { kind: spec.kind, name: spec.name },
    ...(spec.direction !== undefined && { direction: spec.direction }),
    path: spec.path,
    ...(spec.before !== undefined && { before: spec.before }),
    ...(spec.after !== undefined && { after: spec.after }),
    message: `${targetLabel(spec.kind, spec.name)}: ${spec.message}`,
    ...(spec.note !== undefined && { note: spec.note }),
    ...(spec.renamedTo !== undefined && { renamedTo: spec.renamedTo }),
    ...(spec.witness !== undefined && { witness: spec.witness }),
    ...(spec.explains !== undefined && { explains: spec.explains }),
    fingerprint,
  };
}

// ---------------------------------------------------------------------------------------------
// Shared helpers

export function asObject(value: Json | undefined): JsonObject {
  return isJsonObject(value) ? value : {};
}

/**
 * Items by identity, the first of each. A surface should not hold two items with one identity;
 * where only one item per identity can be used (witnesses, the drift lens's own look-up), the
 * first one is. The surface diff sees every copy (copiesById), and `lint` reports duplicates.
 */
export function firstById<T extends JsonObject>(items: readonly T[], id: string): Map<string, T> {
  const byId = new Map<string, T>();
  for (const item of items) {
    const key = item[id];
    if (typeof key === "string" && !byId.has(key)) byId.set(key, item);
  }
  return byId;
}

/** Items by identity, every copy in list order: a misbehaving (or hostile) server can list one name twice. */
export function copiesById<T extends JsonObject>(items: readonly T[], id: string): Map<string, T[]> {
  const byId = new Map<string, T[]>();
  for (const item of items) {
    const key = item[id];
    if (typeof key !== "string") continue;
    const copies = byId.get(key);
    if (copies) copies.push(item);
    else byId.set(key, [item]);
  }
  return byId;
}

/**
 * The copies of one identity on both sides, matched: identical copies pair off first (their
 * order does not matter), the rest pair in list order and are diffed, and the new copies left
 * over are duplicates the old side did not have. Old copies left over are duplicates that
 * went away, which breaks no one: they are not reported. With one copy a side (every sane
 * surface) this is one comparison.
 */
export function matchCopies<T extends JsonObject>(
  before: readonly T[],
  after: readonly T[],
): { changed: [T, T][]; extra: T[] } {
  if (before.length === 1 && after.length === 1) {
    const [oldItem, newItem] = [before[0] as T, after[0] as T];
    return { changed: jsonEqual(oldItem, newItem) ? [] : [[oldItem, newItem]], extra: [] };
  }
  const oldLeft = [...before];
  const newLeft: T[] = [];
  for (const item of after) {
    const same = oldLeft.findIndex((old) => jsonEqual(old, item));
    if (same >= 0) oldLeft.splice(same, 1);
    else newLeft.push(item);
  }
  const paired = Math.min(oldLeft.length, newLeft.length);
  return {
    changed: newLeft.slice(0, paired).map((item, i) => [oldLeft[i] as T, item]),
    extra: newLeft.slice(paired),
  };
}

const IDENTITY_WORD: Record<string, string> = { name: "name", uri: "URI", uriTemplate: "uriTemplate" };
/** The plural, and what a client does with one, for the duplicate message. */
const DUPLICATE_WORDS: Record<TargetKind, [string, string]> = {
  tool: ["tools", "calls"],
  resource: ["resources", "reads"],
  resourceTemplate: ["resource templates", "expands"],
  prompt: ["prompts", "gets"],
  skill: ["skills", "reads"],
  server: ["servers", "talks to"],
};

/**
 * One change per new copy of an identity that was already taken: `count` is how many items
 * share it now. The n-th extra copy is told apart by n, so fingerprints stay stable.
 */
export function duplicateSpecs(
  rule: DiffRuleId,
  kind: TargetKind,
  id: string,
  name: string,
  extra: number,
  count: number,
): ChangeSpec[] {
  const word = IDENTITY_WORD[id] ?? id;
  const [plural, verb] = DUPLICATE_WORDS[kind];
  return Array.from({ length: extra }, (_, n) => ({
    rule,
    kind,
    name,
    path: "",
    message: `another ${KIND_LABEL[kind]} with the same ${word} was added (${count} ${plural} share it now; a client cannot tell which one it ${verb})`,
    ...(n > 0 && { discriminator: String(n + 1) }),
  }));
}

export { jsonEqual };

export function sortedUnionKeys(a: JsonObject, b: JsonObject): string[] {
  const keys = Object.keys(a);
  // Two versions of one item mostly have the same fields: then the union is one side's keys.
  let shared = 0;
  for (const key in b) {
    if (!Object.hasOwn(a, key)) return [...new Set([...keys, ...Object.keys(b)])].sort(compareStrings);
    shared++;
  }
  return (shared === keys.length ? keys : [...new Set([...keys, ...Object.keys(b)])]).sort(compareStrings);
}

const MAX_SHOWN = 60;

/** A value for a one-line message: JSON, shortened; "absent" for a missing value. */
export function show(value: Json | undefined): string {
  if (value === undefined) return "absent";
  if (typeof value === "string") {
    return JSON.stringify(value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN - 1)}…` : value);
  }
  const text = stableStringify(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

/** "title changed from "A" to "B"", "title added: "B"", "title removed (was "A")". */
export function describeFieldChange(label: string, before: Json | undefined, after: Json | undefined): string {
  if (before === undefined) return `${label} added: ${show(after)}`;
  if (after === undefined) return `${label} removed (was ${show(before)})`;
  return `${label} changed from ${show(before)} to ${show(after)}`;
}

/**
 * One change per differing key of two objects (keys in `skip` are handled elsewhere).
 * `base` is the objects' JSON Pointer inside the item; `ruleFor` picks the rule per key;
 * `label` names the field in the message (by default its dotted path, e.g. annotations.title).
 */
export function diffFields(
  kind: TargetKind,
  name: string,
  oldObject: JsonObject,
  newObject: JsonObject,
  base: string,
  skip: ReadonlySet<string>,
  ruleFor: (key: string) => DiffRuleId,
  label: (key: string, path: string) => string = (_key, path) => pointerToDotted(path),
): ChangeSpec[] {
  const specs: ChangeSpec[] = [];
  for (const key of sortedUnionKeys(oldObject, newObject)) {
    if (skip.has(key)) continue;
    const before = oldObject[key];
    const after = newObject[key];
    if (jsonEqual(before, after)) continue;
    const path = pointer(base, key);
    specs.push({
      rule: ruleFor(key),
      kind,
      name,
      path,
      before,
      after,
      message: describeFieldChange(label(key, path), before, after),
    });
  }
  return specs;
}

/**
 * An item the surface diff found added or different (never an unchanged or a removed one),
 * under the identity the diff reports it by. The drift lens (src/lint/drift-lens.ts) reads
 * only these, so diffing two big lockfiles never lints what did not change.
 */
export interface TouchedItem {
  kind: Exclude<TargetKind, "server">;
  /** The target name the diff uses (for a template whose uriTemplate changed: the old one). */
  name: string;
  /** Absent for an added item. */
  before?: JsonObject;
  after: JsonObject;
}

/**
 * The shape every list shares: match items by identity, report removals (with a rename hint
 * when a removed item resembles an added one) and additions, then diff each matched pair
 * that is not identical, and report each new copy of an identity already taken (matchCopies).
 * Added (new copies too) and differing items are appended to `touched` when given.
 */
export function diffById<T extends JsonObject>(options: {
  kind: TargetKind;
  id: string;
  removedRule: DiffRuleId;
  addedRule: DiffRuleId;
  /** A copy of an identity the new side lists more often than the old (a poisoned duplicate). */
  duplicateRule: DiffRuleId;
  before: readonly T[];
  after: readonly T[];
  renameCandidate: (id: string, item: T) => RenameCandidate;
  diffItem: (id: string, oldItem: T, newItem: T) => ChangeSpec[];
  touched?: TouchedItem[];
}): ChangeSpec[] {
  const before = copiesById(options.before, options.id);
  const after = copiesById(options.after, options.id);
  const first = (copies: Map<string, T[]>, id: string) => (copies.get(id) as T[])[0] as T;
  const removed = [...before.keys()].filter((id) => !after.has(id));
  const added = [...after.keys()].filter((id) => !before.has(id));
  // A rename pairs a removed item with an added one: with either side empty there is none, and
  // no candidate is made (a tool's serializes its inputSchema; a release that only adds tools
  // made one per added tool for nothing).
  const renames =
    removed.length === 0 || added.length === 0
      ? NO_RENAMES
      : findRenames(
          removed.map((id) => options.renameCandidate(id, first(before, id))),
          added.map((id) => options.renameCandidate(id, first(after, id))),
        );
  const specs: ChangeSpec[] = [];
  for (const id of removed) specs.push(removal(options.removedRule, options.kind, id, renames.get(id)));
  const kind = options.kind as TouchedItem["kind"];
  const duplicated = (id: string, extra: T[], count: number) => {
    if (extra.length === 0) return;
    specs.push(...duplicateSpecs(options.duplicateRule, options.kind, options.id, id, extra.length, count));
    for (const copy of extra) options.touched?.push({ kind, name: id, after: copy });
  };
  for (const id of added) {
    const [item, ...extra] = after.get(id) as T[];
    specs.push({ rule: options.addedRule, kind: options.kind, name: id, path: "", message: "added" });
    options.touched?.push({ kind, name: id, after: item as T });
    duplicated(id, extra, extra.length + 1);
  }
  for (const [id, oldCopies] of before) {
    const newCopies = after.get(id);
    if (!newCopies) continue;
    // One item on each side, the same object (a tool two lockfiles share, tool-spans.ts): unchanged.
    if (oldCopies.length === 1 && newCopies.length === 1 && oldCopies[0] === newCopies[0]) continue;
    // One walk settles an unchanged item (most of a big lockfile); only differing ones are diffed field by field.
    const { changed, extra } = matchCopies(oldCopies, newCopies);
    for (const [oldItem, newItem] of changed) {
      options.touched?.push({ kind, name: id, before: oldItem, after: newItem });
      specs.push(...options.diffItem(id, oldItem, newItem));
    }
    duplicated(id, extra, newCopies.length);
  }
  return specs;
}

const NO_RENAMES: ReadonlyMap<string, string> = new Map();

export function removal(rule: DiffRuleId, kind: TargetKind, id: string, renamedTo: string | undefined): ChangeSpec {
  return {
    rule,
    kind,
    name: id,
    path: "",
    message: renamedTo === undefined ? "removed" : `removed (renamed to ${JSON.stringify(renamedTo)}?)`,
    ...(renamedTo !== undefined && { renamedTo }),
  };
}

/** title and description are texts people and models read; everything else is metadata. */
export const DESCRIPTIVE_KEYS: ReadonlySet<string> = new Set(["title", "description"]);

export function textOrMetadata(metadataRule: DiffRuleId): (key: string) => DiffRuleId {
  return (key) => (DESCRIPTIVE_KEYS.has(key) ? "description-changed" : metadataRule);
}
