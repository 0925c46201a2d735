/**
 * A union that became one branch of a new union, or the reverse: old `oneOf [A, B]` (often
 * behind a `$ref`) is now `anyOf [<that union>, C]`. Paired branch by branch, the old A and B
 * would meet the new branches positionally and read as "branches removed"; judged as sets,
 * every value the old union accepted is still accepted through the branch that holds it, and C
 * adds values: a widening. Run before the branch pairing, on unions with nothing beside them.
 * Pure.
 */
import type { Json } from "../../contract/model.ts";
import { asObject, type Norm } from "../normalize.ts";
import { type Context, compareNode, emit, equivalent, show } from "./context.ts";
import { pairwiseDisjoint } from "./disjoint.ts";
import { inline } from "./refs.ts";
import { reportNullability } from "./types.ts";
import { coreSchema, hasOtherValidation, unionKey } from "./unions.ts";

type UnionKey = "anyOf" | "oneOf";

/** Unions larger than this are paired branch by branch only (the test costs a comparison per branch). */
const MAX_BRANCHES = 64;

/** Returns whether the pair was handled here. */
export function compareNestedUnion(A: Norm, B: Norm, path: string, ctx: Context, nullHandled: boolean): boolean {
  const ka = unionKey(A.kw);
  const kb = unionKey(B.kw);
  if (!ka || !kb || hasOtherValidation(A, ka) || hasOtherValidation(B, kb)) return false;
  const oldBranches = A.kw[ka] as Json[];
  const newBranches = B.kw[kb] as Json[];
  if (oldBranches.length + newBranches.length > MAX_BRANCHES) return false;
  // Only a branch that is itself a union (once its reference is followed) can hold a whole union.
  const isUnion = (branch: Json, root: Json) => unionKey(inline(asObject(branch), root, ctx) ?? {}) !== undefined;
  // The whole old union is one branch of the new union (a widening by the others) …
  const whole = coreSchema(A);
  const k =
    newBranches.length > 1
      ? newBranches.findIndex((branch) => isUnion(branch, ctx.newRoot) && equivalent(whole, branch, ctx))
      : -1;
  if (k !== -1) {
    if (!nullHandled) reportNullability(A.nullable, B.nullable, path, ctx);
    compareNode(whole, newBranches[k] as Json, `${path}/${kb}/${k}`, ctx, true);
    others(newBranches, k, kb, ctx.newRoot, path, ctx, "added");
    return true;
  }
  // … or the whole new union is one branch of the old one (a narrowing by the others).
  const now = coreSchema(B);
  const i =
    oldBranches.length > 1
      ? oldBranches.findIndex((branch) => isUnion(branch, ctx.oldRoot) && equivalent(branch, now, ctx))
      : -1;
  if (i === -1) return false;
  if (!nullHandled) reportNullability(A.nullable, B.nullable, path, ctx);
  compareNode(oldBranches[i] as Json, now, `${path}/${ka}/${i}`, ctx, true);
  others(oldBranches, i, ka, ctx.oldRoot, path, ctx, "removed");
  return true;
}

/**
 * The branches beside the one that holds the other side's whole union: each added (or removed).
 * Under oneOf, a value that matches two branches is rejected, so when the branches may overlap
 * the outer keyword changes more than the branches say: reported for review.
 */
function others(
  branches: Json[],
  kept: number,
  key: UnionKey,
  root: Json,
  path: string,
  ctx: Context,
  how: "added" | "removed",
): void {
  branches.forEach((branch, n) => {
    if (n === kept) return;
    const at = `${path}/${key}/${n}`;
    if (how === "added") emit(ctx, "any-of-branch-added", at, `alternative ${show(branch)} added`, { after: branch });
    else emit(ctx, "any-of-branch-removed", at, `alternative ${show(branch)} removed`, { before: branch });
  });
  if (key === "oneOf" && !pairwiseDisjoint(branches, root, ctx)) {
    const what = how === "added" ? "is now one branch of a oneOf" : "was one branch of a oneOf";
    emit(ctx, "composition-changed", `${path}/${key}`, `the union ${what}`, {
      note: "oneOf rejects values that match more than one branch, and these branches may overlap; review whether values of the old union now match two branches",
    });
  }
}
