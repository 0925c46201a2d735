/**
 * Unions (`anyOf`, `oneOf`) for the variance engine. Branches are paired by meaning, not by
 * position: the same text first, then the same validation keywords, then equivalent branches
 * (reordering is no change), then the most similar remaining pairs; what is left was added
 * or removed. A plain schema against a union is
 * matched against the union's branches, so that wrapping a schema in a union with a new
 * alternative is a widening, never a removal. Pure.
 */
import { isJsonObject, type Json, type JsonObject } from "../../contract/model.ts";
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

/** Subschema positions (see ../subschemas.ts): one schema, a list of schemas, a map of names to schemas. */
const ONE_SCHEMA = new Set([
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "additionalItems",
  "unevaluatedItems",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "items",
]);
const SCHEMA_LIST = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const SCHEMA_MAP = new Set(["properties", "patternProperties", "dependentSchemas", "dependencies"]);

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

/**
 * Pair two unions' branches by meaning (see the header); unpaired ones were removed or added.
 * Near-linear in the number of branches: branches with the same canonical text pair first
 * (a pure reordering ends here), and only the leftovers are tried against each other, which
 * the engine's step budget bounds.
 */
export function matchBranches(ba: Json[], bb: Json[], path: string, ctx: Context): void {
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
