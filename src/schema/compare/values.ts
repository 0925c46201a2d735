/**
 * `enum` and `const` for the variance engine: a value list added or removed, a pinned value
 * changed, and one change per value that became allowed or disallowed, so that each edit is
 * one finding with its own witness. Values are compared by canonical text (key order aside).
 * Pure.
 */
import { canonicalText, jsonEqual, type Norm } from "../normalize.ts";
import { type Context, emit, show } from "./context.ts";

export function compareValues(A: Norm, B: Norm, path: string, ctx: Context): void {
  const va = A.values;
  const vb = B.values;
  if (!va && !vb) return;
  // A side with no non-null type left (only null, or nothing, passes) is judged by types and null alone.
  if (A.types?.size === 0 || B.types?.size === 0) return;
  const keyword = (n: Norm) => (n.isConst ? "const" : "enum");
  if (!va && vb) {
    if (B.isConst) emit(ctx, "const-added", `${path}/const`, `now pinned to ${show(vb[0])}`, { after: vb[0] });
    else emit(ctx, "enum-added", `${path}/enum`, `now restricted to ${show(vb)}`, { after: vb });
    return;
  }
  if (va && !vb) {
    if (A.isConst) emit(ctx, "const-removed", `${path}/const`, `no longer pinned to ${show(va[0])}`, { before: va[0] });
    else emit(ctx, "enum-removed", `${path}/enum`, `no longer restricted to ${show(va)}`, { before: va });
    return;
  }
  if (!va || !vb) return;
  if (A.isConst && B.isConst) {
    if (!jsonEqual(va[0], vb[0])) {
      emit(ctx, "const-changed", `${path}/const`, `const changed from ${show(va[0])} to ${show(vb[0])}`, {
        before: va[0],
        after: vb[0],
      });
    }
    return;
  }
  const inB = new Set(vb.map((v) => canonicalText(v)));
  const inA = new Set(va.map((v) => canonicalText(v)));
  const valuePath = `${path}/${keyword(B)}`;
  for (const v of va) {
    if (!inB.has(canonicalText(v)))
      emit(ctx, "enum-value-removed", valuePath, `value ${show(v)} no longer allowed`, { before: v });
  }
  for (const v of vb) {
    if (!inA.has(canonicalText(v)))
      emit(ctx, "enum-value-added", valuePath, `value ${show(v)} now allowed`, { after: v });
  }
}
