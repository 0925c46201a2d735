/**
 * Unions (`anyOf`, `oneOf`) for the variance engine. Branches are paired by meaning, not by
 * position: equivalent branches first (reordering is no change), then the most similar
 * remaining pairs; what is left was added or removed. A plain schema against a union is
 * matched against the union's branches, so that wrapping a schema in a union with a new
 * alternative is a widening, never a removal. Pure.
 */
import { isJsonObject, type Json, type JsonObject } from "../../contract/model.ts";
import { dict } from "../dict.ts";
import { ANNOTATION_KEYWORDS, allowsType, asObject, type Norm, normalize } from "../normalize.ts";
import { VALIDATION_KEYWORDS } from "./annotations.ts";
import { type Context, compareNode, emit, equivalent, show } from "./context.ts";
import { inline } from "./refs.ts";
import { reportNullability } from "./types.ts";

export function unionKey(kw: JsonObject): "anyOf" | "oneOf" | undefined {
  if (Array.isArray(kw.anyOf)) return "anyOf";
  if (Array.isArray(kw.oneOf)) return "oneOf";
  return undefined;
}

function hasOtherValidation(norm: Norm, except: string): boolean {
  if (norm.types || norm.values) return true;
  return Object.keys(norm.kw).some((k) => k !== except && VALIDATION_KEYWORDS.has(k));
}

/** The normalized node as a plain schema again, without null (compared separately). */
function coreSchema(norm: Norm): JsonObject {
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

/** How alike two branches are (after following a top-level $ref): 0 when their types cannot overlap. */
function similarity(x: Json, y: Json, ctx: Context): number {
  const ox = inline(asObject(x), ctx.oldRoot, ctx) ?? asObject(x);
  const oy = inline(asObject(y), ctx.newRoot, ctx) ?? asObject(y);
  const nx = normalize(ox);
  const ny = normalize(oy);
  if (nx.types && ny.types) {
    const overlap =
      [...nx.types].some((t) => allowsType(ny, t)) ||
      [...ny.types].some((t) => allowsType(nx, t)) ||
      (nx.types.size === 0 && ny.types.size === 0 && nx.nullable && ny.nullable);
    if (!overlap) return 0;
  }
  const jaccard = (a: string[], b: string[]) => {
    const union = new Set([...a, ...b]);
    return union.size === 0 ? 0 : a.filter((k) => b.includes(k)).length / union.size;
  };
  const props = (n: Norm) => (isJsonObject(n.kw.properties) ? Object.keys(n.kw.properties) : []);
  const values = (n: Norm) => (n.values ?? []).map((v) => JSON.stringify(v));
  return (
    1 +
    jaccard(Object.keys(nx.kw), Object.keys(ny.kw)) +
    2 * jaccard(props(nx), props(ny)) +
    2 * jaccard(values(nx), values(ny))
  );
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
  branches.forEach((branch, i) => {
    const branchPath = `${path}/${key}/${i}`;
    if (i === best) {
      if (unionIsOld) compareNode(branch, single, branchPath, ctx, true);
      else compareNode(single, branch, branchPath, ctx, true);
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

/** Pair two unions' branches by meaning (see the header); unpaired ones were removed or added. */
export function matchBranches(ba: Json[], bb: Json[], path: string, ctx: Context): void {
  const pairOf = new Map<number, number>();
  const usedB = new Set<number>();
  ba.forEach((branch, i) => {
    const j = bb.findIndex((other, k) => !usedB.has(k) && equivalent(branch, other, ctx));
    if (j !== -1) {
      usedB.add(j);
      pairOf.set(i, j);
    }
  });
  const candidates: { i: number; k: number; score: number }[] = [];
  ba.forEach((branch, i) => {
    if (pairOf.has(i)) return;
    bb.forEach((other, k) => {
      if (usedB.has(k)) return;
      const score = similarity(branch, other, ctx);
      if (score > 0) candidates.push({ i, k, score });
    });
  });
  candidates.sort((x, y) => y.score - x.score || Math.abs(x.i - x.k) - Math.abs(y.i - y.k) || x.i - y.i);
  for (const { i, k } of candidates) {
    if (pairOf.has(i) || usedB.has(k)) continue;
    pairOf.set(i, k);
    usedB.add(k);
  }
  ba.forEach((branch, i) => {
    const k = pairOf.get(i);
    if (k !== undefined) compareNode(branch, bb[k] as Json, `${path}/${i}`, ctx);
    else emit(ctx, "any-of-branch-removed", `${path}/${i}`, `alternative ${show(branch)} removed`, { before: branch });
  });
  bb.forEach((branch, k) => {
    if (!usedB.has(k))
      emit(ctx, "any-of-branch-added", `${path}/${k}`, `alternative ${show(branch)} added`, { after: branch });
  });
}
