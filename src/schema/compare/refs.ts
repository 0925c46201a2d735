/**
 * $ref for the variance engine: local references are followed on both sides (through the
 * one resolver, ../ref.ts) so that a shared definition is compared where a schema reaches
 * it, a reference on one side only is compared inlined, and a reference that cannot be
 * followed is reported as such rather than guessed at. Pure.
 */
import { isJsonObject, type Json, type JsonObject } from "../../contract/model.ts";
import { own } from "../dict.ts";
import { ANNOTATION_KEYWORDS, asObject, canonicalText } from "../normalize.ts";
import { resolveRef } from "../ref.ts";
import { type Context, compareNode, emit, without } from "./context.ts";

const UNRESOLVABLE_NOTE = "only local references (#/$defs/…) can be followed, so the effect cannot be judged";

/** allOf: [{$ref: X}] beside annotations only (Pydantic v1's way to annotate a ref) is {$ref: X}. */
function hoistLoneAllOf(node: JsonObject): JsonObject {
  const parts = node.allOf;
  if (!Array.isArray(parts) || parts.length !== 1 || !isJsonObject(parts[0]) || typeof parts[0].$ref !== "string")
    return node;
  const clash = Object.keys(parts[0]).some((k) => own(node, k) !== undefined && !ANNOTATION_KEYWORDS.has(k));
  if (clash) return node;
  return { ...parts[0], ...without(node, "allOf") };
}

/** allOf parts that are local references, replaced by their targets so that they can be merged. */
function inlineAllOfRefs(node: JsonObject, root: Json, ctx: Context): JsonObject {
  const parts = node.allOf;
  if (!Array.isArray(parts) || !parts.some((p) => isJsonObject(p) && typeof p.$ref === "string")) return node;
  const resolved = parts.map((p) => (isJsonObject(p) && typeof p.$ref === "string" ? (inline(p, root, ctx) ?? p) : p));
  return { ...node, allOf: resolved };
}

/** The node with its local $ref replaced by the target, its own keywords winning; cached per node. */
export function inline(node: JsonObject, root: Json, ctx: Context): JsonObject | undefined {
  const ref = node.$ref;
  if (typeof ref !== "string") return node;
  const cached = ctx.shared.inlined.get(node);
  if (cached) return cached;
  const target = resolveRef(root, ref);
  if (target === undefined) return undefined;
  const rest = without(node, "$ref");
  const out = Object.keys(rest).length === 0 && isJsonObject(target) ? target : { ...asObject(target), ...rest };
  ctx.shared.inlined.set(node, out);
  return out;
}

/**
 * Follow the references of a pair of nodes. Both sides referencing: the targets are compared
 * (at `path/$ref`) and the nodes go on without $ref. One side only: the pair is compared
 * inlined. Returns the nodes still to compare, or undefined when nothing is left to do here.
 */
export function compareRefs(
  a: Json,
  b: Json,
  path: string,
  ctx: Context,
  nullHandled: boolean,
): { A: JsonObject; B: JsonObject } | undefined {
  let A = inlineAllOfRefs(hoistLoneAllOf(asObject(a)), ctx.oldRoot, ctx);
  let B = inlineAllOfRefs(hoistLoneAllOf(asObject(b)), ctx.newRoot, ctx);
  const refA = typeof A.$ref === "string" ? A.$ref : undefined;
  const refB = typeof B.$ref === "string" ? B.$ref : undefined;
  if (refA !== undefined && refB !== undefined) {
    const targetA = resolveRef(ctx.oldRoot, refA);
    const targetB = resolveRef(ctx.newRoot, refB);
    if (targetA === undefined || targetB === undefined) {
      if (refA !== refB) {
        emit(ctx, "ref-target-unresolvable", `${path}/$ref`, `reference changed from ${refA} to ${refB}`, {
          before: refA,
          after: refB,
          note: UNRESOLVABLE_NOTE,
        });
      }
    } else {
      compareNode(targetA, targetB, `${path}/$ref`, ctx);
    }
    A = without(A, "$ref");
    B = without(B, "$ref");
    if (Object.keys(A).length === 0 && Object.keys(B).length === 0) return undefined;
  } else if (refA !== undefined || refB !== undefined) {
    // Only one side uses a reference: compare it inlined.
    const nextA = inline(A, ctx.oldRoot, ctx);
    const nextB = inline(B, ctx.newRoot, ctx);
    if (nextA && nextB) {
      compareNode(nextA, nextB, path, ctx, nullHandled);
      return undefined;
    }
    // Unresolvable: harmless if the other side uses the same reference (say, inside a union
    // compared below); otherwise its effect cannot be judged.
    const ref = (refA ?? refB) as string;
    const other = refA !== undefined ? B : A;
    if (!canonicalText(other).includes(JSON.stringify(ref))) {
      emit(ctx, "ref-target-unresolvable", `${path}/$ref`, `reference ${ref} cannot be resolved`, {
        before: refA,
        after: refB,
        note: UNRESOLVABLE_NOTE,
      });
      return undefined;
    }
  }
  return { A, B };
}
