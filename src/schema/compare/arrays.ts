/**
 * Array keywords for the variance engine: tuple positions (`prefixItems`, draft-07 tuple
 * `items` already rewritten by normalize.ts), `items`, item counts (via bounds.ts),
 * `uniqueItems` and `contains`. Positions are compared pairwise; a change in their number is
 * reported once. Pure.
 */
import type { Json, JsonObject } from "../../contract/model.ts";
import { compareCount } from "./bounds.ts";
import { type Context, compareNode, emit } from "./context.ts";

export function compareArrays(a: JsonObject, b: JsonObject, path: string, ctx: Context): void {
  const ta = Array.isArray(a.prefixItems) ? a.prefixItems : [];
  const tb = Array.isArray(b.prefixItems) ? b.prefixItems : [];
  for (let i = 0; i < Math.min(ta.length, tb.length); i++) {
    compareNode(ta[i] as Json, tb[i] as Json, `${path}/prefixItems/${i}`, ctx);
  }
  if (ta.length !== tb.length) {
    emit(
      ctx,
      "items-tuple-changed",
      `${path}/prefixItems`,
      `tuple positions changed from ${ta.length} to ${tb.length}`,
      { before: ta.length, after: tb.length },
    );
  }
  if (a.items !== undefined || b.items !== undefined) compareNode(a.items ?? {}, b.items ?? {}, `${path}/items`, ctx);
  compareCount(a, b, "minItems", path, ctx);
  compareCount(a, b, "maxItems", path, ctx);
  const ua = a.uniqueItems === true;
  const ub = b.uniqueItems === true;
  if (ua !== ub) {
    emit(
      ctx,
      ub ? "unique-items-added" : "unique-items-removed",
      `${path}/uniqueItems`,
      ub ? "items must now be unique" : "items need no longer be unique",
      { before: a.uniqueItems, after: b.uniqueItems },
    );
  }
  if (a.contains === undefined && b.contains !== undefined) {
    emit(ctx, "contains-added", `${path}/contains`, "must now contain a matching item", { after: b.contains });
  } else if (a.contains !== undefined && b.contains === undefined) {
    emit(ctx, "contains-removed", `${path}/contains`, "need no longer contain a matching item", { before: a.contains });
  } else if (a.contains !== undefined && b.contains !== undefined) {
    compareNode(a.contains, b.contains, `${path}/contains`, ctx);
  }
}
