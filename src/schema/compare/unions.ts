/**
 * Unions (`anyOf`, `oneOf`) for the variance engine. Branches are paired by meaning, not by
 * position: the same text first, then the same validation keywords, then equivalent branches
 * (reordering is no change), then the most similar remaining pairs; what is left was added
 * or removed. A plain schema against a union is
 * matched against the union's branches, so that wrapping a schema in a union with a new
 * alternative is a widening, never a removal. A paired branch's change is judged against the
 * whole union (compareBranch): values another branch still takes are not lost. Pure.
 */
import { isJsonObject, type Json, type JsonObject } from "../../contract/model.ts";
import { diffRule } from "../../rules/registry.ts";
import { dict } from "../dict.ts";
import {
  ANNOTATION_KEYWORDS,
  allowsType,
  asObject,
  canonicalText,
  containsRef,
  type Norm,
  normalize,
} from "../normalize.ts";
import {
  ONE_SCHEMA as ONE_SCHEMA_KEYS,
  SCHEMA_LIST as SCHEMA_LIST_KEYS,
  SCHEMA_MAP as SCHEMA_MAP_KEYS,
} from "../subschemas.ts";
import { VALIDATION_KEYWORDS } from "./annotations.ts";
import {
  type Context,
  compareNode,
  emit,
  equivalent,
  findingsOf,
  rulesOf,
  type SchemaChange,
  show,
} from "./context.ts";
import { inline } from "./refs.ts";
import { reportNullability } from "./types.ts";

export function unionKey(kw: JsonObject): "anyOf" | "oneOf" | undefined {
  if (Array.isArray(kw.anyOf)) return "anyOf";
  if (Array.isArray(kw.oneOf)) return "oneOf";
  return undefined;
}

export function hasOtherValidation(norm: Norm, except: string): boolean {
  if (norm.types || norm.values) return true;
  return Object.keys(norm.kw).some((k) => k !== except && VALIDATION_KEYWORDS.has(k));
}

/** The normalized node as a plain schema again, without null (compared separately). */
export function coreSchema(norm: Norm): JsonObject {
  const core = dict();
  for (const [k, v] of Object.entries(norm.kw)) if (!ANNOTATION_KEYWORDS.has(k)) core[k] = v;
  if (norm.types) core.type = [...norm.types].sort();
  if (norm.values) core.enum = norm.values;
  return core;
}

/** Push the constraints beside a union into each of its branches, so that only the union remains. */
export function distributeUnion(norm: Norm): Norm {
  const key = unionKey(norm.kw) as "anyOf" | "oneOf";
  if (!hasOtherValidation(norm, key)) return norm;
  const shared = coreSchema(norm);
  delete shared[key];
  const branches = (norm.kw[key] as Json[]).map((branch): Json => {
    const b = asObject(branch);
    const clash = Object.keys(b).some((k) => shared[k] !== undefined && !ANNOTATION_KEYWORDS.has(k));
    return clash ? { allOf: [shared, branch] } : { ...shared, ...b };
  });
  const annotations: JsonObject = {};
  for (const [k, v] of Object.entries(norm.kw)) if (ANNOTATION_KEYWORDS.has(k)) annotations[k] = v;
  return { ...normalize({ ...annotations, [key]: branches }), nullable: norm.nullable };
}

/** Subschema positions: one schema, a list of schemas, a map of names to schemas. */
const ONE_SCHEMA = new Set(ONE_SCHEMA_KEYS);
const SCHEMA_LIST = new Set(SCHEMA_LIST_KEYS);
const SCHEMA_MAP = new Set(SCHEMA_MAP_KEYS);

const meaningTexts = new WeakMap<object, string>();
/**
 * The canonical text of a schema's validation keywords only, all the way down: two schemas
 * with the same meaning text differ at most in documentation (which the engine's
 * equivalence ignores), so they can be paired without trying every pair. Cached per node.
 */
function meaningText(node: Json): string {
  if (node === null || typeof node !== "object") return canonicalText(node);
  if (Array.isArray(node)) return `[${node.map(meaningText).join(",")}]`;
  const cached = meaningTexts.get(node);
  if (cached !== undefined) return cached;
  const parts: string[] = [];
  for (const key of Object.keys(node).sort()) {
    if (!VALIDATION_KEYWORDS.has(key)) continue;
    const value = node[key] as Json;
    let text: string;
    if (ONE_SCHEMA.has(key) || SCHEMA_LIST.has(key)) text = meaningText(value);
    else if (SCHEMA_MAP.has(key) && isJsonObject(value)) {
      const names = Object.keys(value).sort();
      text = `{${names.map((n) => `${JSON.stringify(n)}:${meaningText(value[n] as Json)}`).join(",")}}`;
    } else text = canonicalText(value);
    parts.push(`${JSON.stringify(key)}:${text}`);
  }
  const text = `{${parts.join(",")}}`;
  meaningTexts.set(node, text);
  return text;
}

/** Group the free branches of `list` by a key, in order. */
function byKey(list: Json[], free: (k: number) => boolean, key: (branch: Json) => string): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  list.forEach((branch, k) => {
    if (!free(k)) return;
    const text = key(branch);
    const group = groups.get(text);
    if (group) group.push(k);
    else groups.set(text, [k]);
  });
  return groups;
}

/** What similarity() reads off a branch (after following a top-level $ref), computed once per branch. */
interface Shape {
  norm: Norm;
  keys: Set<string>;
  props: Set<string>;
  values: Set<string>;
}

function shapeOf(x: Json, root: Json, ctx: Context): Shape {
  const o = inline(asObject(x), root, ctx) ?? asObject(x);
  const norm = normalize(o);
  return {
    norm,
    keys: new Set(Object.keys(norm.kw)),
    props: new Set(isJsonObject(norm.kw.properties) ? Object.keys(norm.kw.properties) : []),
    values: new Set((norm.values ?? []).map((v) => JSON.stringify(v))),
  };
}

const jaccard = (a: Set<string>, b: Set<string>): number => {
  let shared = 0;
  for (const k of a) if (b.has(k)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
};

/** How alike two branches are: 0 when their types cannot overlap. */
function alike(x: Shape, y: Shape): number {
  const nx = x.norm;
  const ny = y.norm;
  if (nx.types && ny.types) {
    const overlap =
      [...nx.types].some((t) => allowsType(ny, t)) ||
      [...ny.types].some((t) => allowsType(nx, t)) ||
      (nx.types.size === 0 && ny.types.size === 0 && nx.nullable && ny.nullable);
    if (!overlap) return 0;
  }
  return 1 + jaccard(x.keys, y.keys) + 2 * jaccard(x.props, y.props) + 2 * jaccard(x.values, y.values);
}

/** How alike an old and a new branch are (after following a top-level $ref): 0 when their types cannot overlap. */
function similarity(x: Json, y: Json, ctx: Context): number {
  return alike(shapeOf(x, ctx.oldRoot, ctx), shapeOf(y, ctx.newRoot, ctx));
}

/**
 * One side is a union (anyOf/oneOf) and the other is not, and the union has no sibling
 * constraints: match the plain side against the union's branches structurally. A new union
 * that keeps the old schema as a branch is a widening, never a removal. Returns whether the
 * pair was handled here.
 */
export function compareOneSidedUnion(A: Norm, B: Norm, path: string, ctx: Context, nullHandled: boolean): boolean {
  const ka = unionKey(A.kw);
  const kb = unionKey(B.kw);
  if ((ka === undefined) === (kb === undefined)) return false;
  const unionSide = ka ? A : B;
  const key = (ka ?? kb) as "anyOf" | "oneOf";
  if (hasOtherValidation(unionSide, key)) return false;
  const plain = ka ? B : A;
  if (!nullHandled) reportNullability(A.nullable, B.nullable, path, ctx);
  const branches = unionSide.kw[key] as Json[];
  const single = coreSchema(plain);
  const unionIsOld = ka !== undefined;
  const same = (branch: Json) => (unionIsOld ? equivalent(branch, single, ctx) : equivalent(single, branch, ctx));
  let best = branches.findIndex(same);
  // A type list is a union too: {type: [a, b], …rest} accepts exactly anyOf [{type: a, …rest},
  // {type: b, …rest}]. Against a union of one type per branch, split it, so that branches pair
  // one by one (a const added to one type's branch is that edit, not "no longer allows" the
  // other types plus a branch added).
  const oneTypeEach = () =>
    branches.every((branch) => shapeOf(branch, unionIsOld ? ctx.oldRoot : ctx.newRoot, ctx).norm.types?.size === 1);
  if (best === -1 && plain.types && plain.types.size > 1 && oneTypeEach()) {
    const split: Json[] = [...plain.types].sort().map((type) => ({ ...single, type }));
    // Paths name the union's branches (the type list has no branch of its own to point at).
    if (unionIsOld) matchBranches(branches, split, `${path}/${key}`, ctx, false, key === "anyOf");
    else matchBranches(split, branches, `${path}/${key}`, ctx, true, key === "anyOf");
    return true;
  }
  if (best === -1) {
    let bestScore = 0;
    branches.forEach((branch, i) => {
      const score = unionIsOld ? similarity(branch, single, ctx) : similarity(single, branch, ctx);
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    });
  }
  // An anyOf branch whose values the branch that stands for the plain side accepts too (a
  // repeated alternative) adds, or took away, nothing.
  const repeated = (branch: Json) =>
    key === "anyOf" &&
    best !== -1 &&
    branches.length <= MAX_ABSORB_BRANCHES &&
    covers(branches[best] as Json, branch, unionIsOld ? "old" : "new", ctx);
  branches.forEach((branch, i) => {
    const branchPath = `${path}/${key}/${i}`;
    if (i === best) {
      if (unionIsOld) compareNode(branch, single, branchPath, ctx, true);
      else compareNode(single, branch, branchPath, ctx, true);
    } else if (repeated(branch)) {
      return;
    } else if (unionIsOld) {
      emit(ctx, "any-of-branch-removed", branchPath, `alternative ${show(branch)} removed`, { before: branch });
    } else {
      emit(ctx, "any-of-branch-added", branchPath, `alternative ${show(branch)} added`, { after: branch });
    }
  });
  if (best === -1) {
    // Nothing in the union resembles the plain schema: its values are gone (or new).
    if (unionIsOld) emit(ctx, "any-of-branch-added", path, `${key} replaced by ${show(single)}`, { after: single });
    else emit(ctx, "any-of-branch-removed", path, `schema ${show(single)} replaced by ${key}`, { before: single });
  }
  return true;
}

/**
 * Pair two unions' branches by meaning (see the header); unpaired ones were removed or added.
 * Near-linear in the number of branches: branches with the same canonical text pair first
 * (a pure reordering ends here), and only the leftovers are tried against each other, which
 * the engine's step budget bounds. `pairedAtNew`: a paired branch is reported at its new
 * index (when the old side is a split type list, not a union).
 */
export function matchBranches(
  ba: Json[],
  bb: Json[],
  path: string,
  ctx: Context,
  pairedAtNew = false,
  coverable = false,
): void {
  const pairOf = new Map<number, number>();
  const usedB = new Set<number>();
  // 1. The same text, then the same validation keywords (documentation aside), in order: a
  // moved branch is the same branch. Branches with a $ref pair by text only (a target may differ).
  const pairBy = (key: (branch: Json) => string, eligible: (branch: Json) => boolean): void => {
    const groups = byKey(bb, (k) => !usedB.has(k) && eligible(bb[k] as Json), key);
    const taken = new Map<string, number>();
    ba.forEach((branch, i) => {
      if (pairOf.has(i) || !eligible(branch)) return;
      const text = key(branch);
      const group = groups.get(text);
      const n = taken.get(text) ?? 0;
      if (group && n < group.length) {
        const k = group[n] as number;
        taken.set(text, n + 1);
        pairOf.set(i, k);
        usedB.add(k);
      }
    });
  };
  pairBy(canonicalText, () => true);
  pairBy(meaningText, (branch) => !containsRef(branch));
  // 2. The same meaning (documentation aside), for the leftovers: the first free one, in order.
  let free = bb.map((_, k) => k).filter((k) => !usedB.has(k));
  let dead = 0;
  ba.forEach((branch, i) => {
    if (pairOf.has(i) || free.length === dead) return;
    if (dead > 64 && dead * 2 > free.length) {
      free = free.filter((k) => !usedB.has(k));
      dead = 0;
    }
    for (const k of free) {
      if (usedB.has(k)) continue;
      // Past the step budget nothing is compared any more (and reported so): take the next one.
      if (ctx.shared.exhausted || equivalent(branch, bb[k] as Json, ctx)) {
        pairOf.set(i, k);
        usedB.add(k);
        dead++;
        break;
      }
    }
  });
  // 3. The most similar of what is still left.
  const leftA = ba.map((_, i) => i).filter((i) => !pairOf.has(i));
  const leftB = bb.map((_, k) => k).filter((k) => !usedB.has(k));
  const candidates: { i: number; k: number; score: number }[] = [];
  if (leftA.length && leftB.length) {
    const shapesB = leftB.map((k) => shapeOf(bb[k] as Json, ctx.newRoot, ctx));
    for (const i of leftA) {
      const shape = shapeOf(ba[i] as Json, ctx.oldRoot, ctx);
      leftB.forEach((k, n) => {
        const score = alike(shape, shapesB[n] as Shape);
        if (score > 0) candidates.push({ i, k, score });
      });
    }
  }
  candidates.sort((x, y) => y.score - x.score || Math.abs(x.i - x.k) - Math.abs(y.i - y.k) || x.i - y.i);
  for (const { i, k } of candidates) {
    if (pairOf.has(i) || usedB.has(k)) continue;
    pairOf.set(i, k);
    usedB.add(k);
  }
  // Under anyOf (coverable), a branch removed whose values a new branch accepts, or one added whose
  // values an old branch accepted, changes nothing the union accepts: no finding (a rewrite).
  // Under anyOf (coverable), a branch removed or added whose values a branch kept on its side (one
  // paired across the edit) accepts anyway, a repeated alternative, changes nothing the union accepts.
  const small = coverable && ba.length + bb.length <= MAX_ABSORB_BRANCHES;
  const keptOld = ba.filter((_, i) => pairOf.has(i));
  const keptNew = bb.filter((_, k) => usedB.has(k));
  ba.forEach((branch, i) => {
    const k = pairOf.get(i);
    if (k !== undefined) compareBranch(ba, bb, i, k, `${path}/${pairedAtNew ? k : i}`, ctx);
    else if (small && keptOld.some((kept) => covers(kept, branch, "old", ctx))) return;
    else emit(ctx, "any-of-branch-removed", `${path}/${i}`, `alternative ${show(branch)} removed`, { before: branch });
  });
  bb.forEach((branch, k) => {
    if (usedB.has(k)) return;
    if (small && keptNew.some((kept) => covers(kept, branch, "new", ctx))) return;
    emit(ctx, "any-of-branch-added", `${path}/${k}`, `alternative ${show(branch)} added`, { after: branch });
  });
}

/**
 * Whether every value `inner` accepts is accepted by `outer`, both branches of the same side's
 * union (`side`: whose root their references resolve in). A side question on the plain engine;
 * unions past MAX_ABSORB_BRANCHES are not asked.
 */
function covers(outer: Json, inner: Json, side: "old" | "new", ctx: Context): boolean {
  if (ctx.probe) return false;
  const root = side === "old" ? ctx.oldRoot : ctx.newRoot;
  const same: Context = { ...ctx, oldRoot: root, newRoot: root };
  return !findingsOf(inner, outer, same, true).some(narrows);
}

/** Narrowing: some value was accepted and is not; widening: the reverse (by the rule's two severities). */
const narrows = (c: SchemaChange) => rulesOf(c).some((rule) => diffRule(rule).input === "breaking");
const widens = (c: SchemaChange) => rulesOf(c).some((rule) => diffRule(rule).output === "breaking");

/** Judging a branch against the rest costs a comparison per other branch: only for unions of a realistic size. */
const MAX_ABSORB_BRANCHES = 64;

/**
 * A paired branch is judged against the whole union, not alone. When every value it stopped
 * accepting is accepted by another branch of the new union, and every value it started
 * accepting was accepted by another branch of the old one, the union as a set is unchanged
 * under anyOf; under oneOf those values matched two branches on one side (rejected by
 * exclusivity) and one on the other, and the branch that accepts them on both sides is what
 * clients built against. Either way, nothing the union accepted is rejected for the edit:
 * one finding, union-branch-change-absorbed, instead of the branch's narrowings.
 * (A const added to a branch that overlaps a catch-all branch is the common case.)
 */
function compareBranch(ba: Json[], bb: Json[], i: number, k: number, at: string, ctx: Context): void {
  const oldBranch = ba[i] as Json;
  const newBranch = bb[k] as Json;
  if (ctx.probe || ba.length + bb.length > MAX_ABSORB_BRANCHES) {
    compareNode(oldBranch, newBranch, at, ctx);
    return;
  }
  const found = findingsOf(oldBranch, newBranch, ctx);
  const narrowed = found.some(narrows);
  const widened = found.some(widens);
  // old branch ⊆ another new branch; new branch ⊆ another old branch. Branches whose types cannot
  // overlap are skipped before the engine is asked.
  // Shapes only when a covered test runs: most paired branches change neither way.
  const lostCovered = () => {
    const oldShape = shapeOf(oldBranch, ctx.oldRoot, ctx);
    return bb.some(
      (other, j) =>
        j !== k &&
        alike(oldShape, shapeOf(other, ctx.newRoot, ctx)) > 0 &&
        !findingsOf(oldBranch, other, ctx, true).some(narrows),
    );
  };
  const gainedCovered = () => {
    const newShape = shapeOf(newBranch, ctx.newRoot, ctx);
    return ba.some(
      (other, j) =>
        j !== i &&
        alike(shapeOf(other, ctx.oldRoot, ctx), newShape) > 0 &&
        !findingsOf(other, newBranch, ctx, true).some(widens),
    );
  };
  const absorbed =
    (narrowed || widened) &&
    !found.some((c) => narrows(c) && widens(c)) &&
    (!narrowed || lostCovered()) &&
    (!widened || gainedCovered());
  const kept = absorbed ? found.filter((c) => !narrows(c) && !widens(c)) : found;
  for (const c of kept) ctx.out.push({ ...c, path: `${at}${c.path}` });
  if (!absorbed) return;
  const union = at.split("/").at(-2);
  const what = found.filter((c) => narrows(c) || widens(c)).map((c) => c.message);
  if (union === "oneOf") {
    emitOverlapChange(ctx, at, oldBranch, newBranch, what, narrowed, widened);
    return;
  }
  emit(
    ctx,
    "union-branch-change-absorbed",
    at,
    `${union} branch changed, but another branch accepts the values it ${narrowed ? "no longer accepts" : "now accepts"}`,
    {
      before: oldBranch,
      after: newBranch,
      note: `The branch ${what.join("; ")}; judged against the whole union, the values involved are accepted by another branch on both sides, so the union accepts the same values.`,
    },
  );
}

/**
 * Under oneOf a value must match exactly one branch, so an absorbed branch change moves the
 * union the other way: values a narrowed branch gave up matched two branches before (rejected)
 * and one now (accepted); values a widened branch took on matched one branch before and two
 * now, and are rejected.
 */
function emitOverlapChange(
  ctx: Context,
  at: string,
  before: Json,
  after: Json,
  what: string[],
  narrowed: boolean,
  widened: boolean,
): void {
  const branch = `The branch ${what.join("; ")}; judged against the whole union, another branch accepts the values involved on both sides.`;
  if (narrowed) {
    emit(
      ctx,
      "oneof-overlap-removed",
      at,
      "oneOf branch no longer overlaps another branch: values that matched both are now accepted",
      {
        before,
        after,
        note: `${branch} Under oneOf a value that matches two branches is rejected, so those values were invalid and are now valid through the other branch alone: nothing the union accepted is rejected.`,
      },
    );
  }
  if (widened) {
    emit(
      ctx,
      "oneof-overlap-added",
      at,
      "oneOf branch now overlaps another branch: values that matched one branch now match two and are rejected",
      {
        before,
        after,
        note: `${branch} Under oneOf a value that matches two branches is rejected, so values that were valid through the other branch alone are rejected now. If the union is meant as "any of", say anyOf.`,
      },
    );
  }
}
