/**
 * `type` and null for the variance engine. Types are compared as sets (integer ⊂ number, so
 * number → integer narrows away the non-integer numbers), and null separately, because
 * schemas spell nullability three ways and normalize.ts folds all of them into one flag.
 * Pure.
 */
import { isJsonObject, type Json } from "../../contract/model.ts";
import { allowsType, JSON_TYPES, type JsonType, type Norm, normalize } from "../normalize.ts";
import { resolveRef } from "../ref.ts";
import { type Context, emit } from "./context.ts";

function effectiveTypes(norm: Norm): JsonType[] {
  if (!norm.types) return JSON_TYPES.filter((t) => t !== "integer");
  return [...norm.types];
}

export function compareTypes(A: Norm, B: Norm, path: string, ctx: Context): void {
  if (!A.types && !B.types) return;
  const removed = effectiveTypes(A).filter((t) => !allowsType(B, t));
  // number → integer keeps integers: that is a narrowing of number, named as such.
  const added = effectiveTypes(B).filter((t) => !allowsType(A, t));
  const before = A.types ? [...A.types].sort() : undefined;
  const after = B.types ? [...B.types].sort() : undefined;
  const typePath = `${path}/type`;
  if (removed.length) {
    const what = removed.map((t) => (t === "number" && allowsType(B, "integer") ? "non-integer numbers" : t));
    emit(ctx, "type-narrowed", typePath, `no longer allows ${what.join(", ")}`, { before, after });
  }
  if (added.length) {
    const what = added.map((t) => (t === "number" && allowsType(A, "integer") ? "non-integer numbers" : t));
    emit(ctx, "type-widened", typePath, `now also allows ${what.join(", ")}`, { before, after });
  }
}

export function reportNullability(before: boolean, after: boolean, path: string, ctx: Context): void {
  if (before === after) return;
  if (before) emit(ctx, "null-removed", path, "no longer allows null", { before: null });
  else emit(ctx, "null-added", path, "now allows null", { after: null });
}

/** No type and no null left: the node accepts nothing, however it is spelled. */
export function acceptsNothing(norm: Norm): boolean {
  return norm.types !== undefined && norm.types.size === 0 && !norm.nullable;
}

/** Does null pass this schema? Follows local refs (a target decides for its ref) and applicators. */
export function acceptsNull(schema: Json, root: Json, depth = 0): boolean {
  if (schema === false) return false;
  if (!isJsonObject(schema) || depth > 32) return true;
  if (typeof schema.$ref === "string") {
    const target = resolveRef(root, schema.$ref);
    if (target !== undefined && !acceptsNull(target, root, depth + 1)) return false;
  }
  const bare = { ...schema };
  for (const k of ["$ref", "anyOf", "oneOf", "allOf"]) delete bare[k];
  if (!normalize(bare).nullable) return false;
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (union && !union.some((branch) => acceptsNull(branch, root, depth + 1))) return false;
  if (Array.isArray(schema.allOf) && !schema.allOf.every((part) => acceptsNull(part, root, depth + 1))) return false;
  return true;
}
