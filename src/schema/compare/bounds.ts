/**
 * Bounds for the variance engine: numeric ranges (minimum/maximum, exclusive or not, and
 * multipleOf) and the counting bounds of strings, arrays and objects (minLength … maxProperties).
 * Every rule id is written out in full in the two tables here (COUNTS, ENDS), so that a search
 * for an id finds where it is emitted. Pure.
 */
import type { JsonObject } from "../../contract/model.ts";
import { jsonEqual } from "../normalize.ts";
import { type Context, emit } from "./context.ts";

/** The counting keywords: what an absent keyword means, and the rule for each direction of change. */
const COUNTS = {
  minLength: { absent: 0, raised: "min-length-raised", lowered: "min-length-lowered" },
  maxLength: { absent: Number.POSITIVE_INFINITY, raised: "max-length-raised", lowered: "max-length-lowered" },
  minItems: { absent: 0, raised: "min-items-raised", lowered: "min-items-lowered" },
  maxItems: { absent: Number.POSITIVE_INFINITY, raised: "max-items-raised", lowered: "max-items-lowered" },
  minProperties: { absent: 0, raised: "min-properties-raised", lowered: "min-properties-lowered" },
  maxProperties: {
    absent: Number.POSITIVE_INFINITY,
    raised: "max-properties-raised",
    lowered: "max-properties-lowered",
  },
} as const;

export type CountKeyword = keyof typeof COUNTS;

/** A counting bound of two nodes (min*: absent means 0; max*: absent means unbounded), at `path/keyword`. */
export function compareCount(a: JsonObject, b: JsonObject, keyword: CountKeyword, path: string, ctx: Context): void {
  const x = a[keyword];
  const y = b[keyword];
  const { absent, raised, lowered } = COUNTS[keyword];
  const before = typeof x === "number" ? x : absent;
  const after = typeof y === "number" ? y : absent;
  if (before === after) return;
  const describe = (v: number) => (Number.isFinite(v) ? String(v) : "none");
  const up = after > before;
  emit(
    ctx,
    up ? raised : lowered,
    `${path}/${keyword}`,
    `${keyword} ${up ? "raised" : "lowered"} from ${describe(before)} to ${describe(after)}`,
    { before: x, after: y },
  );
}

interface Bound {
  value: number;
  exclusive: boolean;
}

function lowerBound(kw: JsonObject): Bound | undefined {
  const inc = typeof kw.minimum === "number" ? kw.minimum : undefined;
  const exc = typeof kw.exclusiveMinimum === "number" ? kw.exclusiveMinimum : undefined;
  if (inc === undefined && exc === undefined) return undefined;
  if (exc !== undefined && (inc === undefined || exc >= inc)) return { value: exc, exclusive: true };
  return { value: inc as number, exclusive: false };
}

function upperBound(kw: JsonObject): Bound | undefined {
  const inc = typeof kw.maximum === "number" ? kw.maximum : undefined;
  const exc = typeof kw.exclusiveMaximum === "number" ? kw.exclusiveMaximum : undefined;
  if (inc === undefined && exc === undefined) return undefined;
  if (exc !== undefined && (inc === undefined || exc <= inc)) return { value: exc, exclusive: true };
  return { value: inc as number, exclusive: false };
}

/** The two ends of a range: the keywords that spell each, how one is tighter, and the rule for each way it moves. */
const ENDS = [
  {
    end: "lower",
    bound: lowerBound,
    sign: { inclusive: ">=", exclusive: ">" },
    keyword: { inclusive: "minimum", exclusive: "exclusiveMinimum" },
    tighter: (before: number, after: number) => after > before,
    narrowed: "minimum-raised",
    widened: "minimum-lowered",
  },
  {
    end: "upper",
    bound: upperBound,
    sign: { inclusive: "<=", exclusive: "<" },
    keyword: { inclusive: "maximum", exclusive: "exclusiveMaximum" },
    tighter: (before: number, after: number) => after < before,
    narrowed: "maximum-lowered",
    widened: "maximum-raised",
  },
] as const;

const which = (bound: Bound) => (bound.exclusive ? "exclusive" : "inclusive");

/**
 * ±(2^53−1): zod's `.int()` writes it on every integer, and RFC 8259 §6 / I-JSON (RFC 7493
 * §2.2) say integers beyond it are not interoperable anyway, so on an integer-only node a
 * bound at exactly this limit (or exclusive at ±2^53) restricts nothing a client can send.
 */
function atInteropLimit(end: "lower" | "upper", bound: Bound): boolean {
  const sign = end === "lower" ? -1 : 1;
  return bound.value === sign * (bound.exclusive ? 2 ** 53 : Number.MAX_SAFE_INTEGER);
}

const INTEROP_NOTE =
  "integers beyond ±9007199254740991 (2^53−1) are not interoperable in JSON (RFC 8259 §6, I-JSON RFC 7493 §2.2): parsers that use IEEE 754 doubles cannot represent them exactly, so this bound (zod's .int() writes it) only spells out what every client already lives with";

/**
 * `integerOnly`: for the old and the new side, whether it accepts integers and no other numbers,
 * where the interoperability limit is no bound. The side that holds such a bound decides: when
 * `number` became `integer` in the same release, the type change carries the verdict (large
 * non-integers are gone with it) and the bound restricts nothing more a client can send.
 */
export function compareNumbers(
  a: JsonObject,
  b: JsonObject,
  path: string,
  ctx: Context,
  integerOnly: readonly [boolean, boolean] = [false, false],
): void {
  for (const end of ENDS) {
    const x = end.bound(a);
    const y = end.bound(b);
    if (jsonEqual(x as never, y as never)) continue;
    const one = x ?? y;
    const boundSideIntegerOnly = x === undefined ? integerOnly[1] : integerOnly[0];
    if (boundSideIntegerOnly && (x === undefined || y === undefined) && one && atInteropLimit(end.end, one)) {
      emit(
        ctx,
        "safe-integer-bound-changed",
        `${path}/${end.keyword[which(one)]}`,
        `${end.end} bound at the JSON interoperability limit ${x ? "removed" : "added"} (${end.sign[which(one)]} ${one.value})`,
        { before: x?.value, after: y?.value, note: INTEROP_NOTE },
      );
      continue;
    }
    // A tighter bound, or the same value turned exclusive: fewer numbers pass.
    const narrowed =
      y !== undefined &&
      (x === undefined || end.tighter(x.value, y.value) || (y.value === x.value && y.exclusive && !x.exclusive));
    const show = (bound: Bound | undefined) => (bound ? `${end.sign[which(bound)]} ${bound.value}` : "none");
    const moved = (y ?? x) as Bound;
    emit(
      ctx,
      narrowed ? end.narrowed : end.widened,
      `${path}/${end.keyword[which(moved)]}`,
      `${end.end} bound changed from ${show(x)} to ${show(y)}`,
      { before: x?.value, after: y?.value },
    );
  }
  const ma = typeof a.multipleOf === "number" && a.multipleOf > 0 ? a.multipleOf : undefined;
  const mb = typeof b.multipleOf === "number" && b.multipleOf > 0 ? b.multipleOf : undefined;
  if (ma !== mb) {
    const isMultiple = (x: number, y: number) => Math.abs(x / y - Math.round(x / y)) < 1e-9;
    const rule =
      ma === undefined || (mb !== undefined && isMultiple(mb, ma))
        ? "multiple-of-narrowed"
        : mb === undefined || isMultiple(ma, mb)
          ? "multiple-of-widened"
          : "multiple-of-changed";
    emit(ctx, rule, `${path}/multipleOf`, `multipleOf changed from ${ma ?? "none"} to ${mb ?? "none"}`, {
      before: ma,
      after: mb,
    });
  }
}
