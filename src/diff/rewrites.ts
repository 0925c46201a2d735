/**
 * Every changed line of the lockfile is explained. After an item's rules have run, the raw
 * differences between the two copies of the item that no finding accounts for are edits with
 * no effect: a hint written out at its spec default, `execution.taskSupport` absent ↔
 * "forbidden", an unreferenced `$defs` entry, an empty `required` dropped, a schema rewrite
 * the engine found accepts the same values. They are reported at patch as one grouped
 * `equivalent-rewrite` finding per item, with why each has no effect, instead of being
 * skipped silently. Pure.
 */
import { isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import { pointer, pointerSegments, pointerToDotted } from "../contract/pointer.ts";
import type { TargetKind } from "../contract/surface.ts";
import { NAME_CONTAINERS } from "../schema/keywords.ts";
import { decodeFragment, parsePointer } from "../schema/ref.ts";
import { type ChangeSpec, jsonEqual, show, sortedUnionKeys } from "./change.ts";

interface RawDiff {
  path: string;
  before: Json | undefined;
  after: Json | undefined;
  /** Set when before/after are still as read: written() with these flags gives the written values. */
  unwritten?: { inSchema: boolean; sorted: boolean };
}

/** A difference with its values as written (most differences are explained and never need them). */
function asWrittenDiff(d: RawDiff): RawDiff {
  if (d.unwritten === undefined) return d;
  const { inSchema, sorted } = d.unwritten;
  return { path: d.path, before: written(d.before, inSchema, sorted), after: written(d.after, inSchema, sorted) };
}

/**
 * Leaf differences: objects are walked, anything else is one leaf. Outside schemas an object
 * on one side only is walked too (each hint of new annotations is a line of its own); inside
 * a schema it is one node added or removed.
 */
function rawDiffs(a: Json | undefined, b: Json | undefined, path: string, out: RawDiff[]): void {
  if (jsonEqual(a, b)) return;
  const inSchema = /^\/(inputSchema|outputSchema)\//.test(path);
  const container = NAME_CONTAINERS.has(pointerSegments(path).at(-1) as string);
  // Outside schemas, a list whose items keep their place (same length, same names) is walked item by item.
  if (
    !inSchema &&
    Array.isArray(a) &&
    Array.isArray(b) &&
    a.length === b.length &&
    a.every((x, i) => sameName(x, b[i]))
  ) {
    for (const [i, x] of a.entries()) rawDiffs(x, b[i], pointer(path, i), out);
    return;
  }
  const absent: JsonObject | undefined = inSchema && !container ? undefined : {};
  const oa = isJsonObject(a) ? a : a === undefined ? absent : undefined;
  const ob = isJsonObject(b) ? b : b === undefined ? absent : undefined;
  if (!oa || !ob || (a === undefined && Object.keys(ob).length === 0) || (b === undefined && !Object.keys(oa).length)) {
    out.push({ path, before: a, after: b });
    return;
  }
  for (const key of sortedUnionKeys(oa, ob)) rawDiffs(oa[key], ob[key], pointer(path, key), out);
}

const SCHEMA_FIELDS: ReadonlySet<string> = new Set(["inputSchema", "outputSchema"]);
const SCHEMA_DATA: ReadonlySet<string> = new Set(["const", "enum", "default", "examples"]);

/** Whether the value under `key` is written as schema (asWritten's flag), given its parent's. */
const childInSchema = (inSchema: boolean, key: string): boolean =>
  (inSchema && !SCHEMA_DATA.has(key)) || (!inSchema && SCHEMA_FIELDS.has(key));

/** A value as written (asWritten), `sorted` when it sits under a schema's `required`. */
function written(value: Json | undefined, inSchema: boolean, sorted: boolean): Json | undefined {
  if (value === undefined) return undefined;
  const out = asWritten(value, inSchema);
  return sorted && Array.isArray(out) && out.every((v) => typeof v === "string") ? [...(out as string[])].sort() : out;
}

/**
 * rawDiffs(asWritten(a), asWritten(b)) without writing out what is equal: equal values are
 * equal as written, objects are written key for key, so only the differing parts are copied
 * (from an array down, it is rawDiffs on the written values). On a big lockfile the copies
 * of whole items were most of this module's time.
 */
function writtenDiffs(
  a: Json | undefined,
  b: Json | undefined,
  at: { path: string; key: string | undefined; underSchema: boolean; differ?: boolean },
  inSchema: boolean,
  sorted: boolean,
  out: RawDiff[],
): void {
  const { path, key: last, underSchema } = at;
  if (Array.isArray(a) || Array.isArray(b)) {
    rawDiffs(written(a, inSchema, sorted), written(b, inSchema, sorted), path, out);
    return;
  }
  if (!at.differ && jsonEqual(a, b)) return;
  // rawDiffs's tests, from what the walk knows instead of parsing the path again.
  const container = last !== undefined && NAME_CONTAINERS.has(last);
  const absent: JsonObject | undefined = underSchema && !container ? undefined : {};
  const oa = isJsonObject(a) ? a : a === undefined ? absent : undefined;
  const ob = isJsonObject(b) ? b : b === undefined ? absent : undefined;
  if (!oa || !ob || (a === undefined && Object.keys(ob).length === 0) || (b === undefined && !Object.keys(oa).length)) {
    out.push({ path, before: a, after: b, unwritten: { inSchema, sorted } });
    return;
  }
  // Below /inputSchema or /outputSchema (not at them) is inside a schema, as rawDiffs reads the path.
  const childUnder = underSchema || path === "/inputSchema" || path === "/outputSchema";
  for (const key of sortedUnionKeys(oa, ob)) {
    // The same value (a string, a shared object) gives no line: no path to build for it.
    if (oa[key] === ob[key]) continue;
    const child = childInSchema(inSchema, key);
    const childAt = { path: pointer(path, key), key, underSchema: childUnder };
    writtenDiffs(oa[key], ob[key], childAt, child, inSchema && key === "required", out);
  }
}

/**
 * A value as the lockfile writes it, where that differs from what a live capture holds: every
 * schema's `required` sorted, as the set it is (src/contract/canonical.ts), so that another
 * order is no line changed.
 */
function asWritten(value: Json, inSchema: boolean): Json {
  if (Array.isArray(value)) return value.map((v) => asWritten(v, inSchema));
  if (!isJsonObject(value)) return value;
  const entries: [string, Json][] = [];
  for (const [key, child] of Object.entries(value)) {
    entries.push([key, written(child, childInSchema(inSchema, key), inSchema && key === "required") as Json]);
  }
  // fromEntries defines own data properties, so a key named "__proto__" stays data.
  return Object.fromEntries(entries);
}

function sameName(a: Json | undefined, b: Json | undefined): boolean {
  return isJsonObject(a) && isJsonObject(b) && a.name !== undefined && jsonEqual(a.name, b.name);
}

function sameSet(a: readonly Json[], b: readonly Json[]): boolean {
  const key = (list: readonly Json[]) => list.map((v) => JSON.stringify(v)).sort();
  return jsonEqual(key(a), key(b));
}

/** Spellings the schema engine treats as one keyword (it reports the normalized one). */
const ALIAS: Readonly<Record<string, string>> = {
  definitions: "$defs",
  items: "prefixItems",
  dependencies: "dependentRequired",
  dependentSchemas: "dependentRequired",
};
const segmentKey = (segment: string) => ALIAS[segment] ?? segment;

function related(x: string[], y: string[]): boolean {
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (segmentKey(x[i] as string) !== segmentKey(y[i] as string)) return false;
  return true;
}

/** Schema keywords whose findings speak for their whole node. */
const NODE_WIDE: ReadonlySet<string> = new Set(["type", "const", "enum", "nullable"]);

/** The first local $ref on a node or in its applicators (a folded Optional[X] keeps it in anyOf). */
function localRef(node: Json | undefined): string | undefined {
  if (!isJsonObject(node)) return undefined;
  if (typeof node.$ref === "string") return node.$ref.startsWith("#") ? node.$ref : undefined;
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const list = node[key];
    if (Array.isArray(list)) for (const branch of list) if (localRef(branch)) return localRef(branch);
  }
  return undefined;
}

/** A node's member or element by segment; undefined below a scalar or where there is none. */
function memberOf(node: Json | undefined, segment: string): Json | undefined {
  return isJsonObject(node) || Array.isArray(node) ? (node as never)[segment] : undefined;
}

/** The value at raw segments below `root`, or undefined where the path leads nowhere. */
function valueAt(root: Json | undefined, segments: readonly string[]): Json | undefined {
  return segments.reduce(memberOf, root);
}

/**
 * The raw lockfile paths a schema finding's path stands for, on one side: a "$ref" segment
 * means "follow this node's reference", so the walk jumps to the definition (and the $ref
 * line itself is covered too).
 */
function rawPaths(item: JsonObject, path: string): string[][] {
  const segments = pointerSegments(path);
  const field = segments[0];
  if ((field !== "inputSchema" && field !== "outputSchema") || !segments.includes("$ref")) return [segments];
  const root = item[field] as Json;
  const out: string[][] = [];
  let raw: string[] = [field];
  let node: Json | undefined = root;
  for (const segment of segments.slice(1)) {
    if (segment === "$ref") {
      const ref = localRef(node);
      const fragment = ref === undefined ? undefined : decodeFragment(ref.slice(1));
      const target = fragment === undefined ? undefined : parsePointer(fragment);
      out.push([...raw, "$ref"]);
      // A reference that leads nowhere here: the finding stays at the $ref line.
      if (target === undefined) {
        raw.push("$ref");
        node = undefined;
        continue;
      }
      raw = [field, ...target];
      node = valueAt(root, target);
      continue;
    }
    raw.push(segment);
    node = memberOf(node, segment);
  }
  out.push(raw);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Why a change has no effect, for the note.

const HINT_DEFAULTS: Readonly<Record<string, boolean>> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

function readOnly(item: JsonObject): boolean {
  return isJsonObject(item.annotations) && item.annotations.readOnlyHint === true;
}

/** Every $ref string in a schema. */
function refsIn(node: Json | undefined, out: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const n of node) refsIn(n, out);
  else if (isJsonObject(node)) {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") out.add(v);
      else refsIn(v, out);
    }
  }
  return out;
}

function reason(diff: RawDiff, oldItem: JsonObject, newItem: JsonObject): string {
  const segments = pointerSegments(diff.path);
  const [first, second] = segments;
  const written = diff.before === undefined ? diff.after : diff.before;
  const one = diff.before === undefined || diff.after === undefined;
  if (first === "annotations" && second !== undefined && second in HINT_DEFAULTS && segments.length === 2) {
    if ((second === "destructiveHint" || second === "idempotentHint") && readOnly(oldItem) && readOnly(newItem)) {
      return `${second} means something only when readOnlyHint is false, and the tool is read-only`;
    }
    if (one && written === HINT_DEFAULTS[second]) return `${second} ${written} is the spec's default`;
  }
  if (first === "annotations" && second !== undefined && second in HINT_DEFAULTS && typeof written !== "boolean") {
    return "a hint that is not a boolean is read as absent (lint reports it)";
  }
  if (one && isJsonObject(written) && Object.keys(written).length === 0) return "an empty object where there was none";
  if (first === "arguments" && segments.length === 1 && Array.isArray(diff.before) && Array.isArray(diff.after)) {
    return "arguments are matched by name, so their order is no change";
  }
  if (first === "arguments" && segments.at(-1) === "required" && one && written === false) {
    return "an argument is optional unless required is true";
  }
  if (
    Array.isArray(diff.before) &&
    Array.isArray(diff.after) &&
    sameSet(diff.before, diff.after) &&
    first !== "inputSchema" &&
    first !== "outputSchema"
  ) {
    return "the same values in another order, compared as a set";
  }
  if (first === "capabilities" && one && (written === false || written === null)) {
    return "a capability or flag set to false (or null) is one not declared";
  }
  if (first === "execution" && second === "taskSupport" && one && written === "forbidden") {
    return 'an absent taskSupport means "forbidden"';
  }
  if ((first === "inputSchema" || first === "outputSchema") && segments.length >= 2) {
    const last = segments.at(-1) as string;
    const parent = segments.at(-2) as string;
    if ((parent === "$defs" || parent === "definitions") && one) {
      const refs = new Set([...refsIn(oldItem[first], new Set()), ...refsIn(newItem[first], new Set())]);
      const target = `#${pointer("", ...segments.slice(1))}`;
      if (![...refs].some((ref) => ref === target || ref.startsWith(`${target}/`))) {
        return `definition ${JSON.stringify(last)} is referenced by nothing`;
      }
    }
    if (last === "required" && one && Array.isArray(written) && written.length === 0) {
      return "an empty required list requires nothing";
    }
    return "both schemas accept the same values";
  }
  return "no rule judges this field as changing what clients see";
}

/**
 * A property declared and required in one release is one change, required-added (src/schema/
 * compare/objects.ts), and a required property removed is required-removed: that finding
 * explains the declaration too. Only a declaration the other side lacks: a property that merely
 * became required (or optional) keeps its own rewrites.
 */
function requiredDeclaration(spec: ChangeSpec, oldItem: JsonObject, newItem: JsonObject): string | undefined {
  if (!spec.path.endsWith("/required")) return;
  const [name, other] =
    spec.rule === "required-added" || spec.rule === "required-added-with-default"
      ? [spec.after, oldItem]
      : spec.rule === "required-removed"
        ? [spec.before, newItem]
        : [];
  if (typeof name !== "string" || other === undefined) return;
  const declaration = pointer(spec.path.slice(0, -"/required".length), "properties", name);
  return valueAt(other, rawPaths(other, declaration).at(-1) ?? []) === undefined ? declaration : undefined;
}

/**
 * The one equivalent-rewrite finding for an item's unexplained changes, when there are any.
 * `covered`: paths a finding accounts for without sitting at them (a folded consequence).
 */
export function explainRest(
  kind: TargetKind,
  name: string,
  oldItem: JsonObject,
  newItem: JsonObject,
  specs: readonly ChangeSpec[],
  covered: readonly string[] = [],
): ChangeSpec[] {
  const diffs: RawDiff[] = [];
  // The diff passes items it found different: no walk to say so again (equal ones would give no lines either).
  writtenDiffs(oldItem, newItem, { path: "", key: undefined, underSchema: false, differ: true }, false, false, diffs);
  if (diffs.length === 0) return [];
  const explained: string[][] = [];
  const declarations = specs.flatMap((s) => requiredDeclaration(s, oldItem, newItem) ?? []);
  const paths = specs.flatMap((s) => s.explains ?? [s.path]);
  for (const path of [...paths, ...covered, ...declarations]) {
    explained.push(...rawPaths(oldItem, path), ...rawPaths(newItem, path));
    // Which types and values a node admits decides which of its other keywords apply (an
    // object's properties mean nothing on a string): such a finding explains the whole node.
    const segments = pointerSegments(path);
    if (segments.length > 1 && NODE_WIDE.has(segments.at(-1) as string)) {
      const node = pointer("", ...segments.slice(0, -1));
      explained.push(...rawPaths(oldItem, node), ...rawPaths(newItem, node));
    }
  }
  const rest = diffs
    .filter((d) => {
      const segments = pointerSegments(d.path);
      return !explained.some((e) => related(e, segments));
    })
    .map(asWrittenDiff);
  if (rest.length === 0) return [];
  const lines = rest.map((d) => `${pointerToDotted(d.path)} ${show(d.before)} → ${show(d.after)}`);
  const reasons = rest.map((d) => `${pointerToDotted(d.path)}: ${reason(d, oldItem, newItem)}`);
  return [
    {
      rule: "equivalent-rewrite",
      kind,
      name,
      // The item itself, so that the fingerprint stays put as lines come and go.
      path: "",
      message: `equivalent rewrite, no effect: ${lines.join("; ")}`,
      note: `${reasons.join("; ")}.`,
      // Its path is the item: the lines it accounts for, each by its pointer.
      explains: rest.map((d) => d.path),
    },
  ];
}
