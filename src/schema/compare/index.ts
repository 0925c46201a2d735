/**
 * Compare two JSON Schemas as sets of values. Direction-neutral: each change's rule id
 * says whether the new schema accepts fewer values (a narrowing rule) or more (a widening
 * rule), and the diff layer turns that into a severity for input or output via the rule registry.
 * Pure; no I/O.
 *
 * This module is the engine: it bounds the work, follows references, normalizes both nodes
 * (see ../normalize.ts) and hands each keyword family to its comparator (types, values,
 * bounds, strings, arrays, objects, unions, composition, annotations). Local $refs are
 * followed on both sides with a memo of compared pairs, so shared and recursive definitions
 * terminate and a definition is compared only where a schema reaches it.
 */
import type { Json, JsonObject } from "../../contract/model.ts";
import { SEVERITIES, type Severity } from "../../rules/model.ts";
import { diffRule, diffRulesWith } from "../../rules/registry.ts";
import { acceptsAll, allowsType, containsRef, foldNullBranches, isNever, jsonEqual, normalize } from "../normalize.ts";
import { resolveRef } from "../ref.ts";
import { withRegexSession } from "../regex.ts";
import { compareAnnotations } from "./annotations.ts";
import { compareArrays } from "./arrays.ts";
import { compareNumbers } from "./bounds.ts";
import { compareComposition } from "./composition.ts";
import { type Context, compareNode, type Engine, emit, type SchemaChange, type Shared, without } from "./context.ts";
import { compareNestedUnion } from "./nested-union.ts";
import { compareObjects } from "./objects.ts";
import { compareRefs } from "./refs.ts";
import { compareStrings } from "./strings.ts";
import { acceptsNothing, acceptsNull, compareTypes, reportNullability } from "./types.ts";
import { compareOneSidedUnion, distributeUnion, unionKey } from "./unions.ts";
import { compareValues } from "./values.ts";

export type { SchemaChange } from "./context.ts";

/** Deeper than this, a schema is either pathological or cyclic through inlined refs. */
const MAX_DEPTH = 256;
/** Comparison steps allowed for one pair of schemas (a realistic tool schema needs hundreds). */
const MAX_STEPS = 10_000;

/**
 * Rules that say nothing about which values are valid, or change only values no interoperable
 * client can meet (see bounds.ts and unions.ts): they do not make two schemas differ in meaning.
 */
const DOCUMENTATION_RULES: ReadonlySet<string> = new Set([
  ...diffRulesWith("annotation"),
  ...diffRulesWith("no-interoperable-change"),
]);

const ENGINE: Engine = { compare: compareBounded, equivalent: sameMeaning };

export function compareSchemas(oldSchema: Json | undefined, newSchema: Json | undefined): SchemaChange[] {
  if (jsonEqual(oldSchema, newSchema)) return [];
  // Server patterns met on the way share one regex budget (../regex.ts).
  return withRegexSession(() => compareChanged(oldSchema, newSchema));
}

function compareChanged(oldSchema: Json | undefined, newSchema: Json | undefined): SchemaChange[] {
  const rootOut: SchemaChange[] = [];
  const shared: Shared = {
    engine: ENGINE,
    rootOut,
    steps: 0,
    exhausted: false,
    equivalent: new WeakMap(),
    inlined: new WeakMap(),
    sameTarget: new Map(),
  };
  const ctx = { ...newContext(oldSchema ?? {}, newSchema ?? {}, shared), out: rootOut };
  compareNode(ctx.oldRoot, ctx.newRoot, "", ctx);
  return ctx.out;
}

function newContext(oldRoot: Json, newRoot: Json, shared: Shared): Context {
  return { oldRoot, newRoot, out: [], seen: new WeakMap(), depth: 0, shared };
}

/**
 * Do two nodes accept the same values? Decided by running the engine itself on them and
 * ignoring documentation changes, so every normalization applies (draft-07 forms, null
 * encodings, refs). Cached per pair; a pair under decision counts as equivalent, so
 * recursive definitions terminate.
 */
function sameMeaning(a: Json, b: Json, ctx: Context): boolean {
  if (identical(a, b, ctx)) return true;
  const ka = a !== null && typeof a === "object" ? a : undefined;
  const kb = b !== null && typeof b === "object" ? b : undefined;
  let row = ka ? ctx.shared.equivalent.get(ka) : undefined;
  if (ka && kb) {
    const cached = row?.get(kb);
    if (cached !== undefined) return cached;
    if (!row) {
      row = new WeakMap();
      ctx.shared.equivalent.set(ka, row);
    }
    row.set(kb, true);
  }
  const scratch = newContext(ctx.oldRoot, ctx.newRoot, ctx.shared);
  scratch.depth = ctx.depth;
  compareNode(a, b, "", scratch);
  const same = scratch.out.every((change) => DOCUMENTATION_RULES.has(change.rule));
  if (ka && kb) row?.set(kb, same);
  return same;
}

function alreadyCompared(ctx: Context, a: Json, b: Json): boolean {
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  let partners = ctx.seen.get(a);
  if (!partners) {
    partners = new WeakSet();
    ctx.seen.set(a, partners);
  }
  if (partners.has(b)) return true;
  partners.add(b);
  return false;
}

/**
 * Identical text is identical meaning, unless a $ref inside points at a definition that
 * differs: the same text whose references all lead, in both roots and as far as they go on,
 * to the same text (or to nothing on either side) is the same schema, and the engine would
 * find nothing in it. Its steps are not spent (a repeated definition used to count against
 * MAX_STEPS at every use).
 */
function identical(a: Json, b: Json, ctx: Context): boolean {
  if (!jsonEqual(a, b)) return false;
  if (!containsRef(a)) return true;
  const pending = refsIn(a);
  const visited = new Set<string>();
  while (pending.length > 0) {
    const ref = pending.pop() as string;
    if (visited.has(ref)) continue;
    visited.add(ref);
    if (!sameTarget(ref, ctx)) return false;
    const target = resolveRef(ctx.oldRoot, ref);
    if (target !== undefined && containsRef(target)) pending.push(...refsIn(target));
  }
  return true;
}

/** Whether a reference leads to the same text in both roots, or to nothing in both; remembered per comparison. */
function sameTarget(ref: string, ctx: Context): boolean {
  const known = ctx.shared.sameTarget.get(ref);
  if (known !== undefined) return known;
  const before = resolveRef(ctx.oldRoot, ref);
  const after = resolveRef(ctx.newRoot, ref);
  const same = before === undefined ? after === undefined : after !== undefined && jsonEqual(before, after);
  ctx.shared.sameTarget.set(ref, same);
  return same;
}

/** The `$ref` strings anywhere in a value (as containsRef finds them), remembered per node. */
const refLists = new WeakMap<object, string[]>();

function refsIn(value: Json): string[] {
  if (value === null || typeof value !== "object") return [];
  const known = refLists.get(value);
  if (known) return [...known];
  const found: string[] = [];
  const walk = (node: Json): void => {
    if (node === null || typeof node !== "object" || !containsRef(node)) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    for (const key in node) {
      const child = node[key] as Json;
      if (key === "$ref" && typeof child === "string") found.push(child);
      else walk(child);
    }
  };
  walk(value);
  refLists.set(value, found);
  return [...found];
}

/** compareNode as the engine runs it: memo of compared pairs, depth limit, step budget. */
function compareBounded(a: Json, b: Json, path: string, ctx: Context, nullHandled: boolean): void {
  if (identical(a, b, ctx)) return;
  if (!nullHandled && alreadyCompared(ctx, a, b)) return;
  if (ctx.depth > MAX_DEPTH) {
    emit(
      ctx,
      "comparison-limit-reached",
      path,
      `nested deeper than ${MAX_DEPTH} levels: not compared below this point`,
      {
        note: "a schema this deep is pathological or recursive in a way that could not be matched; review it",
      },
    );
    return;
  }
  // A hard bound on the work for one schema pair, counted (not timed) so that results stay
  // deterministic: recursive unions can otherwise multiply the comparisons.
  if (++ctx.shared.steps > MAX_STEPS) {
    if (!ctx.shared.exhausted) {
      ctx.shared.exhausted = true;
      // Reported at the top level even when the limit strikes inside a sub-comparison.
      emit(
        { ...ctx, out: ctx.shared.rootOut },
        "comparison-limit-reached",
        path,
        `stopped after ${MAX_STEPS} comparison steps: not compared from here on`,
        {
          note: "the schemas are too intricate (recursive unions, deep references) to compare completely; review them",
        },
      );
    }
    return;
  }
  ctx.depth++;
  try {
    compareResolved(a, b, path, ctx, nullHandled);
  } finally {
    ctx.depth--;
  }
}

/** The index of an anyOf branch that accepts every value (which makes the union vacuous), if any. */
function vacuousBranch(node: JsonObject): number | undefined {
  if (!Array.isArray(node.anyOf)) return undefined;
  const i = node.anyOf.findIndex((branch) => acceptsAll(branch));
  return i === -1 ? undefined : i;
}

/**
 * An anyOf with a branch that accepts everything constrains nothing. When only one side has
 * such a union, the branch that made it vacuous is the whole difference of the union: added
 * (a widening) or removed (a narrowing). The rest of the node is compared without it.
 */
function compareVacuousUnion(A: JsonObject, B: JsonObject, path: string, ctx: Context, nullHandled: boolean): boolean {
  const vacuousA = vacuousBranch(A);
  const vacuousB = vacuousBranch(B);
  if ((vacuousA === undefined) === (vacuousB === undefined) || !(Array.isArray(A.anyOf) || Array.isArray(B.anyOf)))
    return false;
  if (vacuousB !== undefined) {
    emit(ctx, "any-of-branch-added", `${path}/anyOf/${vacuousB}`, "an alternative that accepts any value added", {
      after: (B.anyOf as Json[])[vacuousB],
    });
  } else {
    emit(ctx, "any-of-branch-removed", `${path}/anyOf/${vacuousA}`, "an alternative that accepted any value removed", {
      before: (A.anyOf as Json[])[vacuousA as number],
    });
  }
  compareNode(without(A, "anyOf"), without(B, "anyOf"), path, ctx, nullHandled);
  return true;
}

/** A value list added or removed, and the type and null findings it implies at the same node. */
const VALUE_LIST_FOLDS: Record<string, readonly string[]> = {
  "const-added": ["type-narrowed", "null-removed"],
  "enum-added": ["type-narrowed", "null-removed"],
  "const-removed": ["type-widened", "null-added"],
  "enum-removed": ["type-widened", "null-added"],
};

/**
 * One edit, one finding: pinning a node to a const (or an enum) also removes every type and
 * null that no listed value has, and lifting the pin brings them back. Those are consequences
 * of the one edit, not edits of their own (the `type` finding would even name a keyword
 * neither side has): they go into the value finding's note, which keeps the verdict, as
 * every folded rule has the same severity in each direction.
 */
function foldIntoValueList(out: SchemaChange[], start: number, path: string): void {
  const list = out.slice(start).find((c) => c.rule in VALUE_LIST_FOLDS && /\/(const|enum)$/.test(c.path));
  if (!list) return;
  const folds = VALUE_LIST_FOLDS[list.rule] as readonly string[];
  foldInto(list, out, start, (c) => folds.includes(c.rule) && (c.path === path || c.path === `${path}/type`));
}

/**
 * `number` turned `integer` with zod's ±(2^53−1) bounds beside it is one edit (`.int()`): the
 * type change carries the verdict, and the bounds (no restriction a client can meet) go into
 * its note.
 */
function foldSafeBounds(out: SchemaChange[], start: number, path: string): void {
  const type = out.slice(start).find((c) => c.path === `${path}/type` && /^type-(narrowed|widened)$/.test(c.rule));
  if (!type) return;
  const depth = path.split("/").length + 1;
  foldInto(type, out, start, (c) => c.rule === "safe-integer-bound-changed" && c.path.split("/").length === depth);
}

const severityRank = (severity: Severity) => SEVERITIES.indexOf(severity);

/** Whether `primary`'s verdict is at least `other`'s in both directions, so that folding loses nothing. */
function dominates(primary: SchemaChange, other: SchemaChange): boolean {
  const p = diffRule(primary.rule);
  const o = diffRule(other.rule);
  return severityRank(p.input) <= severityRank(o.input) && severityRank(p.output) <= severityRank(o.output);
}

/** Moves the findings from `start` on that `derived` picks (and `primary` dominates) into primary's note. */
function foldInto(
  primary: SchemaChange,
  out: SchemaChange[],
  start: number,
  derived: (c: SchemaChange) => boolean,
): void {
  const implied: string[] = [];
  const paths: string[] = [];
  for (let i = out.length - 1; i >= start; i--) {
    const c = out[i] as SchemaChange;
    if (c === primary || !derived(c) || !dominates(primary, c)) continue;
    implied.unshift(c.message);
    paths.push(c.path, ...(c.explains ?? []));
    out.splice(i, 1);
  }
  if (implied.length === 0) return;
  primary.explains = [...new Set([...(primary.explains ?? []), ...paths])];
  const consequence = `Implied by the same edit: ${implied.join("; ")}.`;
  primary.note = primary.note ? `${primary.note} ${consequence}` : consequence;
}

function compareResolved(a: Json, b: Json, path: string, ctx: Context, nullHandled: boolean): void {
  // false accepts nothing: against anything else it is the whole difference.
  if (isNever(a) && isNever(b)) return;
  if (isNever(a) !== isNever(b)) {
    const narrowing = isNever(b);
    emit(
      ctx,
      narrowing ? "type-narrowed" : "type-widened",
      path,
      narrowing ? "now allows no value at all" : "now allows values where it allowed none",
      { before: a, after: b },
    );
    return;
  }
  const refs = compareRefs(a, b, path, ctx, nullHandled);
  if (!refs) return;
  const { A, B } = refs;
  if (compareVacuousUnion(A, B, path, ctx, nullHandled)) return;

  // Optional[X] written as a union with a null branch (or a union of one branch) that holds a
  // $ref: compare null-ness of the whole, then X, so that the reference is followed.
  if (!nullHandled) {
    const fa = foldNullBranches(A);
    const fb = foldNullBranches(B);
    const folded = fa.node !== A || fb.node !== B;
    if (folded && (containsRef(fa.node) || containsRef(fb.node))) {
      reportNullability(acceptsNull(A, ctx.oldRoot), acceptsNull(B, ctx.newRoot), path, ctx);
      compareNode(fa.node, fb.node, path, ctx, true);
      return;
    }
  }

  let NA = normalize(A);
  let NB = normalize(B);
  compareAnnotations(NA.kw, NB.kw, path, ctx);
  // Two schemas that both provably accept nothing (no type and no null left, e.g. const 0
  // beside type string) mean the same, however differently they are spelled: what else sits
  // beside them can only constrain further.
  if (acceptsNothing(NA) && acceptsNothing(NB)) return;
  // A union beside other constraints on one side only: S ∧ anyOf(Bi) ≡ anyOf(S ∧ Bi).
  if (unionKey(NA.kw) && !unionKey(NB.kw)) NA = distributeUnion(NA);
  else if (unionKey(NB.kw) && !unionKey(NA.kw)) NB = distributeUnion(NB);
  if (compareOneSidedUnion(NA, NB, path, ctx, nullHandled)) return;
  if (compareNestedUnion(NA, NB, path, ctx, nullHandled)) return;
  const typeStart = ctx.out.length;
  compareTypes(NA, NB, path, ctx);
  if (!nullHandled) reportNullability(NA.nullable, NB.nullable, path, ctx);
  compareValues(NA, NB, path, ctx);
  foldIntoValueList(ctx.out, typeStart, path);
  if (allowsType(NA, "object") && allowsType(NB, "object")) compareObjects(NA.kw, NB.kw, path, ctx);
  if (allowsType(NA, "number") || allowsType(NA, "integer")) {
    if (allowsType(NB, "number") || allowsType(NB, "integer")) {
      compareNumbers(NA.kw, NB.kw, path, ctx, [!allowsType(NA, "number"), !allowsType(NB, "number")]);
      foldSafeBounds(ctx.out, typeStart, path);
    }
  }
  if (allowsType(NA, "string") && allowsType(NB, "string")) compareStrings(NA.kw, NB.kw, path, ctx);
  if (allowsType(NA, "array") && allowsType(NB, "array")) compareArrays(NA.kw, NB.kw, path, ctx);
  compareComposition(NA.kw, NB.kw, path, ctx);
}
