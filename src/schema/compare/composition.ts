/**
 * Applicators for the variance engine, where both sides still have them after normalization:
 * unions (paired by unions.ts), allOf parts that could not be merged into their parent, and
 * the keywords whose effect cannot be judged statically in general (`not`, if/then/else,
 * dependentSchemas, min/maxContains). Those are compared for equivalence only and, when they
 * differ, reported with the reason, never guessed at. Pure.
 */
import type { Json, JsonObject } from "../../contract/model.ts";
import { escapeSegment } from "../../contract/pointer.ts";
import { own, sortedKeysOfBoth } from "../dict.ts";
import { asObject, jsonEqual } from "../normalize.ts";
import { type Context, compareNode, emit, equivalent } from "./context.ts";
import { pairwiseDisjoint } from "./disjoint.ts";
import { matchBranches, unionKey } from "./unions.ts";

function bothOrNeitherEquivalent(x: Json | undefined, y: Json | undefined, ctx: Context): boolean {
  if (x === undefined || y === undefined) return x === y;
  return equivalent(x, y, ctx);
}

function compareUnions(a: JsonObject, b: JsonObject, path: string, ctx: Context): void {
  const ka = unionKey(a);
  const kb = unionKey(b);
  if (ka && kb) {
    matchBranches(a[ka] as Json[], b[kb] as Json[], `${path}/${kb}`, ctx, false, ka === "anyOf" && kb === "anyOf");
    // oneOf over branches no value can match twice is anyOf: the keyword switch changes nothing
    // (the lockfile line is then an equivalent rewrite).
    const exclusive = ka === "oneOf" ? pairwiseDisjoint(a.oneOf as Json[], ctx.oldRoot, ctx) : false;
    const exclusiveNow = kb === "oneOf" ? pairwiseDisjoint(b.oneOf as Json[], ctx.newRoot, ctx) : false;
    if (ka !== kb && !exclusive && !exclusiveNow) {
      emit(ctx, "composition-changed", `${path}/${kb}`, `${ka} changed to ${kb}`, {
        before: ka,
        after: kb,
        explains: [`${path}/${ka}`],
        note: "oneOf rejects values that match more than one branch, anyOf does not; review whether the branches overlap",
      });
    }
  } else if (ka || kb) {
    const key = (ka ?? kb) as string;
    emit(ctx, "composition-changed", `${path}/${key}`, `${key} ${ka ? "removed" : "added"} beside other constraints`, {
      before: a[key],
      after: b[key],
      note: "a union combined with sibling keywords cannot be compared branch by branch",
    });
  }
}

function compareAllOf(a: JsonObject, b: JsonObject, path: string, ctx: Context): void {
  const aa = Array.isArray(a.allOf) ? a.allOf : [];
  const ab = Array.isArray(b.allOf) ? b.allOf : [];
  if (aa.length === ab.length) {
    for (const [i, part] of aa.entries()) compareNode(part, ab[i] as Json, `${path}/allOf/${i}`, ctx);
  } else {
    emit(ctx, "composition-changed", `${path}/allOf`, `allOf changed from ${aa.length} to ${ab.length} schemas`, {
      before: a.allOf,
      after: b.allOf,
      note: "allOf parts that could not be merged into their parent changed in number",
    });
  }
}

function compareNotAndConditional(a: JsonObject, b: JsonObject, path: string, ctx: Context): void {
  if (!bothOrNeitherEquivalent(a.not, b.not, ctx)) {
    const what = a.not === undefined ? "`not` added" : b.not === undefined ? "`not` removed" : "`not` changed";
    emit(ctx, "not-changed", `${path}/not`, what, {
      before: a.not,
      after: b.not,
      note: "a negated schema reverses variance; review the effect",
    });
  }
  // `if` without then/else constrains nothing.
  const effective = (x: JsonObject) => (x.then === undefined && x.else === undefined ? {} : x);
  const ca = effective(a);
  const cb = effective(b);
  const conditional = (["if", "then", "else"] as const).every((k) => bothOrNeitherEquivalent(ca[k], cb[k], ctx));
  if (!conditional) {
    emit(ctx, "conditional-changed", `${path}/if`, "if/then/else changed", {
      before: { if: a.if, then: a.then, else: a.else } as Json,
      after: { if: b.if, then: b.then, else: b.else } as Json,
      note: "conditional schemas cannot be compared statically in general; review the effect",
    });
  }
}

function compareDependentSchemas(a: JsonObject, b: JsonObject, path: string, ctx: Context): void {
  const da = asObject(a.dependentSchemas);
  const db = asObject(b.dependentSchemas);
  for (const key of sortedKeysOfBoth(da, db)) {
    const x = own(da, key);
    const y = own(db, key);
    if (!bothOrNeitherEquivalent(x, y, ctx)) {
      emit(
        ctx,
        "composition-changed",
        `${path}/dependentSchemas/${escapeSegment(key)}`,
        `dependentSchemas for "${key}" changed`,
        {
          before: x,
          after: y,
          note: "dependentSchemas changes are not analysed in detail; review the effect",
        },
      );
    }
  }
}

export function compareComposition(a: JsonObject, b: JsonObject, path: string, ctx: Context): void {
  compareUnions(a, b, path, ctx);
  compareAllOf(a, b, path, ctx);
  compareNotAndConditional(a, b, path, ctx);
  compareDependentSchemas(a, b, path, ctx);
  if (a.unevaluatedItems !== undefined || b.unevaluatedItems !== undefined) {
    compareNode(a.unevaluatedItems ?? {}, b.unevaluatedItems ?? {}, `${path}/unevaluatedItems`, ctx);
  }
  for (const key of ["minContains", "maxContains"] as const) {
    if (!jsonEqual(a[key], b[key])) {
      emit(ctx, "composition-changed", `${path}/${key}`, `${key} changed`, {
        before: a[key],
        after: b[key],
        note: `${key} changes are not analysed in detail; review the effect`,
      });
    }
  }
}
