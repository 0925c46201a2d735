/**
 * Compare two JSON Schemas as sets of values. Direction-neutral: each change's rule id
 * says whether the new schema accepts fewer values (a narrowing rule) or more (a widening
 * rule), and the diff layer turns that into a severity for input or output via the catalog.
 * Pure; no I/O.
 *
 * Both schemas are normalized first (see normalize.ts). Local $refs are followed on both
 * sides with a memo of compared pairs, so shared and recursive definitions terminate and a
 * definition is compared only where a schema reaches it.
 */
import { isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import {
  ANNOTATION_KEYWORDS,
  acceptsAll,
  allowsType,
  asObject,
  canonicalText,
  containsRef,
  escapePointer,
  foldNullBranches,
  isNever,
  JSON_TYPES,
  type JsonType,
  jsonEqual,
  type Norm,
  normalize,
  resolveRef,
} from "./normalize.ts";

export interface SchemaChange {
  /** Rule id from src/diff/catalog.ts (group "schema"). */
  rule: string;
  /**
   * JSON Pointer from the schema root to the changed node. Segments are schema keywords
   * and property names; a "$ref" segment means "follow this node's local reference", so the
   * path can be walked on both the old and the new schema.
   */
  path: string;
  before?: Json;
  after?: Json;
  message: string;
  note?: string;
}

/** Keywords the comparators below understand; anything else is an annotation. */
const VALIDATION_KEYWORDS = new Set([
  "$ref",
  "type",
  "nullable",
  "enum",
  "const",
  "properties",
  "required",
  "additionalProperties",
  "unevaluatedProperties",
  "patternProperties",
  "propertyNames",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "minProperties",
  "maxProperties",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "items",
  "prefixItems",
  "additionalItems",
  "unevaluatedItems",
  "minItems",
  "maxItems",
  "uniqueItems",
  "contains",
  "minContains",
  "maxContains",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
]);

/** Deeper than this, a schema is either pathological or cyclic through inlined refs. */
const MAX_DEPTH = 256;
/** Comparison steps allowed for one pair of schemas (a realistic tool schema needs hundreds). */
const MAX_STEPS = 10_000;

/** Rules that say nothing about which values are valid: they do not make two schemas differ in meaning. */
const DOCUMENTATION_RULES = new Set([
  "description-changed",
  "annotation-keyword-changed",
  "default-changed",
  "deprecated-added",
  "deprecated-removed",
  "read-write-only-changed",
  "schema-dialect-changed",
]);

interface Context {
  oldRoot: Json;
  newRoot: Json;
  out: SchemaChange[];
  /** Pairs of nodes already compared (or being compared): shared and cyclic parts end here. */
  seen: WeakMap<object, WeakSet<object>>;
  depth: number;
  /** Shared by every sub-comparison of one compareSchemas call. */
  shared: Shared;
}

interface Shared {
  /** The changes of the top-level comparison. */
  rootOut: SchemaChange[];
  steps: number;
  exhausted: boolean;
  /** Whether two nodes mean the same, per pair; a pair being decided counts as equal (cycles). */
  equivalent: WeakMap<object, WeakMap<object, boolean>>;
  /** A node with a $ref and siblings, inlined once so that its identity is stable. */
  inlined: WeakMap<object, JsonObject>;
}

export function compareSchemas(oldSchema: Json | undefined, newSchema: Json | undefined): SchemaChange[] {
  if (jsonEqual(oldSchema, newSchema)) return [];
  const rootOut: SchemaChange[] = [];
  const shared: Shared = { rootOut, steps: 0, exhausted: false, equivalent: new WeakMap(), inlined: new WeakMap() };
  const ctx = { ...newContext(oldSchema ?? {}, newSchema ?? {}, shared), out: rootOut };
  compareNode(ctx.oldRoot, ctx.newRoot, "", ctx);
  return ctx.out;
}

function newContext(oldRoot: Json, newRoot: Json, shared: Shared): Context {
  return { oldRoot, newRoot, out: [], seen: new WeakMap(), depth: 0, shared };
}

/**
 * Do two nodes accept the same values? Decided by running the engine itself on them and
 * ignoring documentation changes, so every normalization applies (draft-07 forms, null
 * encodings, refs). Cached per pair; a pair under decision counts as equivalent, so
 * recursive definitions terminate.
 */
function equivalent(a: Json, b: Json, ctx: Context): boolean {
  if (!containsRef(a) && jsonEqual(a, b)) return true;
  const ka = a !== null && typeof a === "object" ? a : undefined;
  const kb = b !== null && typeof b === "object" ? b : undefined;
  let row = ka ? ctx.shared.equivalent.get(ka) : undefined;
  if (ka && kb) {
    const cached = row?.get(kb);
    if (cached !== undefined) return cached;
    if (!row) {
      row = new WeakMap();
      ctx.shared.equivalent.set(ka, row);
    }
    row.set(kb, true);
  }
  const scratch = newContext(ctx.oldRoot, ctx.newRoot, ctx.shared);
  scratch.depth = ctx.depth;
  compareNode(a, b, "", scratch);
  const same = scratch.out.every((change) => DOCUMENTATION_RULES.has(change.rule));
  if (ka && kb) row?.set(kb, same);
  return same;
}

function emit(ctx: Context, rule: string, path: string, message: string, extra: Partial<SchemaChange> = {}): void {
  ctx.out.push({ rule, path, message, ...extra });
}

const show = (value: Json | undefined): string => {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
};

function without(node: JsonObject, key: string): JsonObject {
  const copy = { ...node };
  delete copy[key];
  return copy;
}

function compareNode(a: Json, b: Json, path: string, ctx: Context, nullHandled = false): void {
  // Identical text is identical meaning, unless a $ref inside points at a changed definition.
  if (!containsRef(a) && jsonEqual(a, b)) return;
  if (!nullHandled && alreadyCompared(ctx, a, b)) return;
  if (ctx.depth > MAX_DEPTH) {
    emit(
      ctx,
      "comparison-limit-reached",
      path,
      `nested deeper than ${MAX_DEPTH} levels: not compared below this point`,
      {
        note: "a schema this deep is pathological or recursive in a way that could not be matched; review it",
      },
    );
    return;
  }
  // A hard bound on the work for one schema pair, counted (not timed) so that results stay
  // deterministic: recursive unions can otherwise multiply the comparisons.
  if (++ctx.shared.steps > MAX_STEPS) {
    if (!ctx.shared.exhausted) {
      ctx.shared.exhausted = true;
      // Reported at the top level even when the limit strikes inside a sub-comparison.
      emit(
        { ...ctx, out: ctx.shared.rootOut },
        "comparison-limit-reached",
        path,
        `stopped after ${MAX_STEPS} comparison steps: not compared from here on`,
        {
          note: "the schemas are too intricate (recursive unions, deep references) to compare completely; review them",
        },
      );
    }
    return;
  }
  ctx.depth++;
  try {
    compareResolved(a, b, path, ctx, nullHandled);
  } finally {
    ctx.depth--;
  }
}

/** allOf: [{$ref: X}] beside annotations only (Pydantic v1's way to annotate a ref) is {$ref: X}. */
function hoistLoneAllOf(node: JsonObject): JsonObject {
  const parts = node.allOf;
  if (!Array.isArray(parts) || parts.length !== 1 || !isJsonObject(parts[0]) || typeof parts[0].$ref !== "string")
    return node;
  const clash = Object.keys(parts[0]).some((k) => node[k] !== undefined && !ANNOTATION_KEYWORDS.has(k));
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
function inline(node: JsonObject, root: Json, ctx: Context): JsonObject | undefined {
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

function compareResolved(a: Json, b: Json, path: string, ctx: Context, nullHandled: boolean): void {
  // false accepts nothing: against anything else it is the whole difference.
  if (isNever(a) && isNever(b)) return;
  if (isNever(a) !== isNever(b)) {
    const narrowing = isNever(b);
    emit(
      ctx,
      narrowing ? "type-narrowed" : "type-widened",
      path,
      narrowing ? "now allows no value at all" : "now allows values where it allowed none",
      {
        before: a,
        after: b,
      },
    );
    return;
  }
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
          note: "only local references (#/$defs/…) can be followed, so the effect cannot be judged",
        });
      }
    } else {
      compareNode(targetA, targetB, `${path}/$ref`, ctx);
    }
    A = without(A, "$ref");
    B = without(B, "$ref");
    if (Object.keys(A).length === 0 && Object.keys(B).length === 0) return;
  } else if (refA !== undefined || refB !== undefined) {
    // Only one side uses a reference: compare it inlined.
    const nextA = inline(A, ctx.oldRoot, ctx);
    const nextB = inline(B, ctx.newRoot, ctx);
    if (nextA && nextB) {
      compareNode(nextA, nextB, path, ctx, nullHandled);
      return;
    }
    // Unresolvable: harmless if the other side uses the same reference (say, inside a union
    // compared below); otherwise its effect cannot be judged.
    const ref = (refA ?? refB) as string;
    const other = refA !== undefined ? B : A;
    if (!canonicalText(other).includes(JSON.stringify(ref))) {
      emit(ctx, "ref-target-unresolvable", `${path}/$ref`, `reference ${ref} cannot be resolved`, {
        before: refA,
        after: refB,
        note: "only local references (#/$defs/…) can be followed, so the effect cannot be judged",
      });
      return;
    }
  }

  // An anyOf with a branch that accepts everything constrains nothing. When only one side has
  // such a union, the branch that made it vacuous is the whole difference of the union: added
  // (a widening) or removed (a narrowing). The rest of the node is compared without it.
  const vacuousA = vacuousBranch(A);
  const vacuousB = vacuousBranch(B);
  if ((vacuousA === undefined) !== (vacuousB === undefined) && (Array.isArray(A.anyOf) || Array.isArray(B.anyOf))) {
    if (vacuousB !== undefined) {
      emit(ctx, "any-of-branch-added", `${path}/anyOf/${vacuousB}`, "an alternative that accepts any value added", {
        after: (B.anyOf as Json[])[vacuousB],
      });
    } else {
      emit(
        ctx,
        "any-of-branch-removed",
        `${path}/anyOf/${vacuousA}`,
        "an alternative that accepted any value removed",
        {
          before: (A.anyOf as Json[])[vacuousA as number],
        },
      );
    }
    compareNode(without(A, "anyOf"), without(B, "anyOf"), path, ctx, nullHandled);
    return;
  }

  // Optional[X] written as a union with a null branch (or a union of one branch) that holds a
  // $ref: compare null-ness of the whole, then X, so that the reference is followed.
  if (!nullHandled) {
    const fa = foldNullBranches(A);
    const fb = foldNullBranches(B);
    const folded = fa.node !== A || fb.node !== B;
    if (folded && (containsRef(fa.node) || containsRef(fb.node))) {
      reportNullability(acceptsNull(A, ctx.oldRoot), acceptsNull(B, ctx.newRoot), path, ctx);
      compareNode(fa.node, fb.node, path, ctx, true);
      return;
    }
  }

  let NA = normalize(A);
  let NB = normalize(B);
  compareAnnotations(NA.kw, NB.kw, path, ctx);
  // Two schemas that both provably accept nothing (no type and no null left, e.g. const 0
  // beside type string) mean the same, however differently they are spelled: what else sits
  // beside them can only constrain further.
  if (acceptsNothing(NA) && acceptsNothing(NB)) return;
  // A union beside other constraints on one side only: S ∧ anyOf(Bi) ≡ anyOf(S ∧ Bi).
  if (unionKey(NA.kw) && !unionKey(NB.kw)) NA = distributeUnion(NA);
  else if (unionKey(NB.kw) && !unionKey(NA.kw)) NB = distributeUnion(NB);
  if (compareOneSidedComposition(NA, NB, path, ctx, nullHandled)) return;
  compareTypes(NA, NB, path, ctx);
  if (!nullHandled) reportNullability(NA.nullable, NB.nullable, path, ctx);
  compareValues(NA, NB, path, ctx);
  if (allowsType(NA, "object") && allowsType(NB, "object")) compareObjects(NA.kw, NB.kw, path, ctx);
  if (allowsType(NA, "number") || allowsType(NA, "integer")) {
    if (allowsType(NB, "number") || allowsType(NB, "integer")) compareNumbers(NA.kw, NB.kw, path, ctx);
  }
  if (allowsType(NA, "string") && allowsType(NB, "string")) compareStrings(NA.kw, NB.kw, path, ctx);
  if (allowsType(NA, "array") && allowsType(NB, "array")) compareArrays(NA.kw, NB.kw, path, ctx);
  compareComposition(NA.kw, NB.kw, path, ctx);
}

/** The index of an anyOf branch that accepts every value (which makes the union vacuous), if any. */
function vacuousBranch(node: JsonObject): number | undefined {
  if (!Array.isArray(node.anyOf)) return undefined;
  const i = node.anyOf.findIndex((branch) => acceptsAll(branch));
  return i === -1 ? undefined : i;
}

function acceptsNothing(norm: Norm): boolean {
  return norm.types !== undefined && norm.types.size === 0 && !norm.nullable;
}

/** Does null pass this schema? Follows local refs (a target decides for its ref) and applicators. */
function acceptsNull(schema: Json, root: Json, depth = 0): boolean {
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

function alreadyCompared(ctx: Context, a: Json, b: Json): boolean {
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  let partners = ctx.seen.get(a);
  if (!partners) {
    partners = new WeakSet();
    ctx.seen.set(a, partners);
  }
  if (partners.has(b)) return true;
  partners.add(b);
  return false;
}

// ── types, null, enum/const ────────────────────────────────────────────────────────────

function effectiveTypes(norm: Norm): JsonType[] {
  if (!norm.types) return JSON_TYPES.filter((t) => t !== "integer");
  return [...norm.types];
}

function compareTypes(A: Norm, B: Norm, path: string, ctx: Context): void {
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

function reportNullability(before: boolean, after: boolean, path: string, ctx: Context): void {
  if (before === after) return;
  if (before) emit(ctx, "null-removed", path, "no longer allows null", { before: null });
  else emit(ctx, "null-added", path, "now allows null", { after: null });
}

function compareValues(A: Norm, B: Norm, path: string, ctx: Context): void {
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

// ── objects ────────────────────────────────────────────────────────────────────────────

/** open: anything goes; closed: nothing; schema: constrained. */
/** The schema an object applies to an undeclared property name, when it is a real constraint. */
function undeclaredSchema(object: JsonObject, name: string): Json | undefined {
  if (isJsonObject(object.patternProperties)) {
    for (const [pattern, schema] of Object.entries(object.patternProperties)) {
      try {
        if (new RegExp(pattern, "u").test(name)) return schema;
      } catch {
        // An invalid pattern matches nothing here; lint reports it.
      }
    }
  }
  return openness(object.additionalProperties) === "schema" ? object.additionalProperties : undefined;
}

function openness(schema: Json | undefined): "open" | "closed" | "schema" {
  if (schema === undefined || schema === true) return "open";
  if (isNever(schema)) return "closed";
  const node = asObject(schema);
  return Object.keys(node).some((k) => !ANNOTATION_KEYWORDS.has(k)) ? "schema" : "open";
}

function compareObjects(a: JsonObject, b: JsonObject, path: string, ctx: Context): void {
  const pa = isJsonObject(a.properties) ? a.properties : {};
  const pb = isJsonObject(b.properties) ? b.properties : {};
  const closedA = openness(a.additionalProperties) === "closed" && !isJsonObject(a.patternProperties);
  const closedB = openness(b.additionalProperties) === "closed" && !isJsonObject(b.patternProperties);
  const names = [...new Set([...Object.keys(pa), ...Object.keys(pb)])].sort();
  for (const name of names) {
    const propPath = `${path}/properties/${escapePointer(name)}`;
    const inA = Object.hasOwn(pa, name);
    const inB = Object.hasOwn(pb, name);
    if (inA && inB) compareNode(pa[name] as Json, pb[name] as Json, propPath, ctx);
    else if (inA) {
      // Where the new object still constrains the name (patternProperties, a schema for
      // additionalProperties), compare with that schema; otherwise it is open or closed.
      const fallback = undeclaredSchema(b, name);
      if (fallback !== undefined) compareNode(pa[name] as Json, fallback, propPath, ctx);
      else {
        const rule = closedB ? "closed-object-property-removed" : "property-removed";
        emit(ctx, rule, propPath, `property "${name}" removed`, { before: pa[name] as Json });
      }
    } else {
      const fallback = undeclaredSchema(a, name);
      if (fallback !== undefined) compareNode(fallback, pb[name] as Json, propPath, ctx);
      else {
        const rule = closedA ? "closed-object-property-added" : "property-added";
        emit(ctx, rule, propPath, `property "${name}" added`, { after: pb[name] as Json });
      }
    }
  }

  const ra = new Set(stringList(a.required));
  const rb = new Set(stringList(b.required));
  for (const name of [...rb].sort()) {
    if (!ra.has(name))
      emit(ctx, "required-added", `${path}/required`, `property "${name}" is now required`, { after: name });
  }
  for (const name of [...ra].sort()) {
    if (!rb.has(name))
      emit(ctx, "required-removed", `${path}/required`, `property "${name}" is no longer required`, { before: name });
  }

  for (const keyword of ["additionalProperties", "unevaluatedProperties"] as const) {
    compareOpenness(a[keyword], b[keyword], `${path}/${keyword}`, keyword, ctx);
  }
  if (!jsonEqual(a.patternProperties, b.patternProperties)) {
    const ppa = asObject(a.patternProperties);
    const ppb = asObject(b.patternProperties);
    const same =
      Object.keys(ppa).length === Object.keys(ppb).length && Object.keys(ppa).every((k) => Object.hasOwn(ppb, k));
    if (same) {
      for (const k of Object.keys(ppa))
        compareNode(ppa[k] as Json, ppb[k] as Json, `${path}/patternProperties/${escapePointer(k)}`, ctx);
    } else {
      emit(ctx, "pattern-properties-changed", `${path}/patternProperties`, "patternProperties changed", {
        before: a.patternProperties,
        after: b.patternProperties,
        note: "which property names the patterns match cannot be compared statically",
      });
    }
  }
  if (a.propertyNames !== undefined || b.propertyNames !== undefined) {
    compareNode(a.propertyNames ?? {}, b.propertyNames ?? {}, `${path}/propertyNames`, ctx);
  }
  const da = asObject(a.dependentRequired);
  const db = asObject(b.dependentRequired);
  for (const key of [...new Set([...Object.keys(da), ...Object.keys(db)])].sort()) {
    const before = new Set(stringList(da[key]));
    const after = new Set(stringList(db[key]));
    const depPath = `${path}/dependentRequired/${escapePointer(key)}`;
    for (const dep of after) {
      if (!before.has(dep))
        emit(ctx, "dependent-required-added", depPath, `"${key}" now requires "${dep}"`, { after: dep });
    }
    for (const dep of before) {
      if (!after.has(dep))
        emit(ctx, "dependent-required-removed", depPath, `"${key}" no longer requires "${dep}"`, { before: dep });
    }
  }
  compareCount(
    a.minProperties,
    b.minProperties,
    "min",
    `${path}/minProperties`,
    "minProperties",
    "min-properties",
    ctx,
  );
  compareCount(
    a.maxProperties,
    b.maxProperties,
    "max",
    `${path}/maxProperties`,
    "maxProperties",
    "max-properties",
    ctx,
  );
}

function compareOpenness(x: Json | undefined, y: Json | undefined, path: string, keyword: string, ctx: Context): void {
  if (jsonEqual(x, y)) return;
  const ox = openness(x);
  const oy = openness(y);
  if (ox === "schema" && oy === "schema") {
    compareNode(x as Json, y as Json, path, ctx);
    return;
  }
  if (ox === oy) return;
  const rank = { open: 2, schema: 1, closed: 0 };
  if (rank[oy] < rank[ox]) {
    const how = oy === "closed" ? "are no longer allowed" : "are now constrained by a schema";
    emit(ctx, "additional-properties-restricted", path, `properties not declared ${how} (${keyword})`, {
      before: x,
      after: y,
    });
  } else {
    const how = oy === "open" ? "are now allowed" : "are now allowed when they match a schema";
    emit(ctx, "additional-properties-relaxed", path, `properties not declared ${how} (${keyword})`, {
      before: x,
      after: y,
    });
  }
}

function stringList(value: Json | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** min*: absent means 0; max*: absent means unbounded. Rule ids end in -raised / -lowered. */
function compareCount(
  x: Json | undefined,
  y: Json | undefined,
  kind: "min" | "max",
  path: string,
  keyword: string,
  rulePrefix: string,
  ctx: Context,
): void {
  const absent = kind === "min" ? 0 : Number.POSITIVE_INFINITY;
  const a = typeof x === "number" ? x : absent;
  const b = typeof y === "number" ? y : absent;
  if (a === b) return;
  const describe = (v: number) => (Number.isFinite(v) ? String(v) : "none");
  const rule = `${rulePrefix}-${b > a ? "raised" : "lowered"}`;
  emit(ctx, rule, path, `${keyword} ${b > a ? "raised" : "lowered"} from ${describe(a)} to ${describe(b)}`, {
    before: x,
    after: y,
  });
}

// ── numbers ────────────────────────────────────────────────────────────────────────────

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

const showBound = (bound: Bound | undefined, lower: boolean) =>
  bound ? `${lower ? (bound.exclusive ? ">" : ">=") : bound.exclusive ? "<" : "<="} ${bound.value}` : "none";

function compareNumbers(a: JsonObject, b: JsonObject, path: string, ctx: Context): void {
  const la = lowerBound(a);
  const lb = lowerBound(b);
  if (!jsonEqual(la as never, lb as never)) {
    // Higher lower bound, or the same value turned exclusive: fewer numbers pass.
    const raised =
      lb !== undefined &&
      (la === undefined || lb.value > la.value || (lb.value === la.value && lb.exclusive && !la.exclusive));
    const keyword = (lb ?? la)?.exclusive ? "exclusiveMinimum" : "minimum";
    emit(
      ctx,
      raised ? "minimum-raised" : "minimum-lowered",
      `${path}/${keyword}`,
      `lower bound changed from ${showBound(la, true)} to ${showBound(lb, true)}`,
      {
        before: la?.value,
        after: lb?.value,
      },
    );
  }
  const ua = upperBound(a);
  const ub = upperBound(b);
  if (!jsonEqual(ua as never, ub as never)) {
    const lowered =
      ub !== undefined &&
      (ua === undefined || ub.value < ua.value || (ub.value === ua.value && ub.exclusive && !ua.exclusive));
    const keyword = (ub ?? ua)?.exclusive ? "exclusiveMaximum" : "maximum";
    emit(
      ctx,
      lowered ? "maximum-lowered" : "maximum-raised",
      `${path}/${keyword}`,
      `upper bound changed from ${showBound(ua, false)} to ${showBound(ub, false)}`,
      {
        before: ua?.value,
        after: ub?.value,
      },
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

// ── strings ────────────────────────────────────────────────────────────────────────────

function compareStrings(a: JsonObject, b: JsonObject, path: string, ctx: Context): void {
  compareCount(a.minLength, b.minLength, "min", `${path}/minLength`, "minLength", "min-length", ctx);
  compareCount(a.maxLength, b.maxLength, "max", `${path}/maxLength`, "maxLength", "max-length", ctx);
  const pa = typeof a.pattern === "string" ? a.pattern : undefined;
  const pb = typeof b.pattern === "string" ? b.pattern : undefined;
  if (pa !== pb) {
    if (pa === undefined) emit(ctx, "pattern-added", `${path}/pattern`, `pattern /${pb}/ added`, { after: pb });
    else if (pb === undefined)
      emit(ctx, "pattern-removed", `${path}/pattern`, `pattern /${pa}/ removed`, { before: pa });
    else {
      emit(ctx, "pattern-changed", `${path}/pattern`, `pattern changed from /${pa}/ to /${pb}/`, {
        before: pa,
        after: pb,
        note: "whether the new pattern accepts every string the old one did cannot be decided statically; review it",
      });
    }
  }
  const fa = typeof a.format === "string" ? a.format : undefined;
  const fb = typeof b.format === "string" ? b.format : undefined;
  if (fa !== fb) {
    if (fa === undefined) emit(ctx, "format-added", `${path}/format`, `format "${fb}" added`, { after: fb });
    else if (fb === undefined) emit(ctx, "format-removed", `${path}/format`, `format "${fa}" removed`, { before: fa });
    else
      emit(ctx, "format-changed", `${path}/format`, `format changed from "${fa}" to "${fb}"`, {
        before: fa,
        after: fb,
      });
  }
}

// ── arrays ─────────────────────────────────────────────────────────────────────────────

function compareArrays(a: JsonObject, b: JsonObject, path: string, ctx: Context): void {
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
      {
        before: ta.length,
        after: tb.length,
      },
    );
  }
  if (a.items !== undefined || b.items !== undefined) compareNode(a.items ?? {}, b.items ?? {}, `${path}/items`, ctx);
  compareCount(a.minItems, b.minItems, "min", `${path}/minItems`, "minItems", "min-items", ctx);
  compareCount(a.maxItems, b.maxItems, "max", `${path}/maxItems`, "maxItems", "max-items", ctx);
  const ua = a.uniqueItems === true;
  const ub = b.uniqueItems === true;
  if (ua !== ub) {
    emit(
      ctx,
      ub ? "unique-items-added" : "unique-items-removed",
      `${path}/uniqueItems`,
      ub ? "items must now be unique" : "items need no longer be unique",
      {
        before: a.uniqueItems,
        after: b.uniqueItems,
      },
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

// ── composition ────────────────────────────────────────────────────────────────────────

function unionKey(kw: JsonObject): "anyOf" | "oneOf" | undefined {
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
  const core: JsonObject = {};
  for (const [k, v] of Object.entries(norm.kw)) if (!ANNOTATION_KEYWORDS.has(k)) core[k] = v;
  if (norm.types) core.type = [...norm.types].sort();
  if (norm.values) core.enum = norm.values;
  return core;
}

/** Push the constraints beside a union into each of its branches, so that only the union remains. */
function distributeUnion(norm: Norm): Norm {
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
 * that keeps the old schema as a branch is a widening, never a removal.
 */
function compareOneSidedComposition(A: Norm, B: Norm, path: string, ctx: Context, nullHandled: boolean): boolean {
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

function bothOrNeitherEquivalent(x: Json | undefined, y: Json | undefined, ctx: Context): boolean {
  if (x === undefined || y === undefined) return x === y;
  return equivalent(x, y, ctx);
}

function compareComposition(a: JsonObject, b: JsonObject, path: string, ctx: Context): void {
  const ka = unionKey(a);
  const kb = unionKey(b);
  if (ka && kb) {
    matchBranches(a[ka] as Json[], b[kb] as Json[], `${path}/${kb}`, ctx);
    if (ka !== kb) {
      emit(ctx, "composition-changed", `${path}/${kb}`, `${ka} changed to ${kb}`, {
        before: ka,
        after: kb,
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
  const da = asObject(a.dependentSchemas);
  const db = asObject(b.dependentSchemas);
  for (const key of [...new Set([...Object.keys(da), ...Object.keys(db)])].sort()) {
    if (!bothOrNeitherEquivalent(da[key], db[key], ctx)) {
      emit(
        ctx,
        "composition-changed",
        `${path}/dependentSchemas/${escapePointer(key)}`,
        `dependentSchemas for "${key}" changed`,
        {
          before: da[key],
          after: db[key],
          note: "dependentSchemas changes are not analysed in detail; review the effect",
        },
      );
    }
  }
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

/**
 * Pair union branches by meaning, not position: equivalent branches first (reordering is no
 * change), then the most similar remaining pairs, best first; the rest were added or removed.
 */
function matchBranches(ba: Json[], bb: Json[], path: string, ctx: Context): void {
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

// ── annotations ────────────────────────────────────────────────────────────────────────

function compareAnnotations(a: JsonObject, b: JsonObject, path: string, ctx: Context): void {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const key of keys) {
    if (VALIDATION_KEYWORDS.has(key) || key === "$defs" || key === "definitions") continue;
    const x = a[key];
    const y = b[key];
    if (jsonEqual(x, y)) continue;
    const at = `${path}/${escapePointer(key)}`;
    const extra = { before: x, after: y };
    switch (key) {
      case "title":
      case "description":
      case "examples":
        emit(
          ctx,
          "description-changed",
          at,
          `${key} ${x === undefined ? "added" : y === undefined ? "removed" : "changed"}`,
          extra,
        );
        break;
      case "default":
        emit(
          ctx,
          "default-changed",
          at,
          `default ${x === undefined ? `added: ${show(y)}` : y === undefined ? `removed (was ${show(x)})` : `changed from ${show(x)} to ${show(y)}`}`,
          extra,
        );
        break;
      case "deprecated":
        if (Boolean(x) !== Boolean(y)) {
          emit(
            ctx,
            y === true ? "deprecated-added" : "deprecated-removed",
            at,
            y === true ? "marked deprecated" : "no longer deprecated",
            extra,
          );
        }
        break;
      case "readOnly":
      case "writeOnly":
        if (Boolean(x) !== Boolean(y))
          emit(ctx, "read-write-only-changed", at, `${key} ${y === true ? "set" : "cleared"}`, extra);
        break;
      case "$schema":
        emit(ctx, "schema-dialect-changed", at, `dialect changed from ${show(x)} to ${show(y)}`, extra);
        break;
      default:
        emit(ctx, "annotation-keyword-changed", at, `${key} changed`, extra);
    }
  }
}
