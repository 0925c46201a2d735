/**
 * What every comparator of the variance engine shares: the change it emits, the context of
 * one comparison (where changes go, which pairs were compared, how deep and how much work),
 * and the two ways back into the engine: compare two subschemas, and ask whether two accept
 * the same values. The engine (index.ts) puts those two in the context, so that the keyword
 * modules reach it without importing it back. Pure.
 */
import type { Json, JsonObject } from "../../contract/model.ts";
import type { DiffRuleId } from "../../rules/registry.ts";

export interface SchemaChange {
  /** A diff rule of group "schema" (src/rules/diff/). */
  rule: DiffRuleId;
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
  /**
   * The same edit as a second rule sees it: a property added and required on a closed object
   * is required-added (callers must send it) and closed-object-property-added (old consumers
   * reject it). One edit is one finding: the diff layer reports the rule whose verdict is the
   * stronger in its direction, and the other one's reason in the note.
   */
  also?: Omit<SchemaChange, "also">;
  /** Paths of edits folded into this one (consequences of the same edit), beside its own. */
  explains?: string[];
}

/** The rules a change stands for: its own and, for one edit two rules see, the other's. */
export const rulesOf = (change: SchemaChange): DiffRuleId[] =>
  change.also === undefined ? [change.rule] : [change.rule, change.also.rule];

/** The engine as the comparators see it. */
export interface Engine {
  /** Compare two subschemas at `path`, into ctx.out. */
  compare(a: Json, b: Json, path: string, ctx: Context, nullHandled: boolean): void;
  /** Whether two subschemas accept the same values. */
  equivalent(a: Json, b: Json, ctx: Context): boolean;
}

export interface Context {
  oldRoot: Json;
  newRoot: Json;
  out: SchemaChange[];
  /** Pairs of nodes already compared (or being compared): shared and cyclic parts end here. */
  seen: WeakMap<object, WeakSet<object>>;
  depth: number;
  /** Set inside a side question (findingsOf with probe): branches are compared alone. */
  probe?: boolean;
  /** Shared by every sub-comparison of one compareSchemas call. */
  shared: Shared;
}

export interface Shared {
  engine: Engine;
  /** The changes of the top-level comparison. */
  rootOut: SchemaChange[];
  steps: number;
  exhausted: boolean;
  /** Whether two nodes mean the same, per pair; a pair being decided counts as equal (cycles). */
  equivalent: WeakMap<object, WeakMap<object, boolean>>;
  /** A node with a $ref and siblings, inlined once so that its identity is stable. */
  inlined: WeakMap<object, JsonObject>;
  /** Per reference text: whether it leads to the same text in both roots (or to nothing in both). */
  sameTarget: Map<string, boolean>;
}

/** Compare two subschemas at `path`; `nullHandled`: null-ness was already reported for this node. */
export function compareNode(a: Json, b: Json, path: string, ctx: Context, nullHandled = false): void {
  ctx.shared.engine.compare(a, b, path, ctx, nullHandled);
}

/** Do two subschemas accept the same values (documentation aside)? */
export function equivalent(a: Json, b: Json, ctx: Context): boolean {
  return ctx.shared.engine.equivalent(a, b, ctx);
}

/**
 * The findings of comparing two subschemas, collected aside (nothing reaches ctx.out).
 * `probe`: a side question (is one branch within another?), answered by the plain engine
 * with a memo of its own, so it neither asks side questions of its own nor marks pairs as
 * compared for the real comparison.
 */
export function findingsOf(a: Json, b: Json, ctx: Context, probe = false): SchemaChange[] {
  const scratch: Context = probe ? { ...ctx, out: [], seen: new WeakMap(), probe: true } : { ...ctx, out: [] };
  compareNode(a, b, "", scratch);
  return scratch.out;
}

export function emit(
  ctx: Context,
  rule: DiffRuleId,
  path: string,
  message: string,
  extra: Partial<SchemaChange> = {},
): void {
  ctx.out.push({ rule, path, message, ...extra });
}

/** A value for a message: its JSON, cut to 60 characters. */
export const show = (value: Json | undefined): string => {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
};

export function without(node: JsonObject, key: string): JsonObject {
  const copy = { ...node };
  delete copy[key];
  return copy;
}
