/**
 * Normalization: bring the many spellings of one JSON Schema meaning to one form before
 * comparing, so that only real differences surface. Pure; no I/O.
 *
 * - boolean schemas: true → {}, false → a schema that accepts nothing
 * - nullability in all three encodings (type array with "null", an anyOf/oneOf branch
 *   {"type":"null"}, OpenAPI's nullable: true) → one `nullable` flag beside the other types
 * - const → a one-value enum (remembering it was a const, for rule naming)
 * - draft-04 boolean exclusiveMinimum/Maximum → numeric bounds
 * - draft-07 tuple `items: [...]` + `additionalItems` → `prefixItems` + `items`
 * - draft-07 `dependencies` with array values → `dependentRequired`
 * - allOf → merged into the node where the branches do not conflict
 */
import { jsonEqual } from "../contract/json-equal.ts";
import { isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import { dict } from "./dict.ts";

export const JSON_TYPES = ["string", "number", "integer", "boolean", "object", "array"] as const;
export type JsonType = (typeof JSON_TYPES)[number];

/** A schema node after normalization. */
export interface Norm {
  /** Non-null types the node accepts; undefined means any type. An empty set accepts nothing. */
  types: Set<JsonType> | undefined;
  /** Whether null is accepted. */
  nullable: boolean;
  /** enum/const values without null; undefined when unconstrained. */
  values: Json[] | undefined;
  /** The values came from `const`. */
  isConst: boolean;
  /** Every other keyword, with the normalized forms above folded out. */
  kw: JsonObject;
}

/** Canonical text of a JSON value (sorted keys), cached per object: keys for sets of small values. */
const textCache = new WeakMap<object, string>();
export function canonicalText(value: Json | undefined): string {
  if (value === undefined) return "undefined";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const cached = textCache.get(value);
  if (cached !== undefined) return cached;
  let text: string;
  if (Array.isArray(value)) {
    text = `[${value.map((v) => canonicalText(v)).join(",")}]`;
  } else {
    const keys = Object.keys(value).sort();
    text = `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalText(value[k] as Json)}`).join(",")}}`;
  }
  textCache.set(value, text);
  return text;
}

export { jsonEqual };

/** The values of `a` (in order) that `b` has too, by canonical text: linear, however long the lists. */
function commonValues(a: Json[], b: Json[]): Json[] {
  const inB = new Set(b.map((v) => canonicalText(v)));
  return a.filter((v) => inB.has(canonicalText(v)));
}

/** Whether a $ref occurs anywhere inside: equal text is not equal meaning when it does. */
const refCache = new WeakMap<object, boolean>();
export function containsRef(value: Json | undefined): boolean {
  if (value === null || typeof value !== "object") return false;
  const cached = refCache.get(value);
  if (cached !== undefined) return cached;
  let found = false;
  if (Array.isArray(value)) found = value.some(containsRef);
  else if (Object.hasOwn(value, "$ref")) found = true;
  else {
    // for...in: no array of values per node (JSON objects have no inherited enumerable keys).
    for (const key in value) {
      if (containsRef(value[key])) {
        found = true;
        break;
      }
    }
  }
  refCache.set(value, found);
  return found;
}

/** Keywords that carry no validation meaning: changes to them are documentation. */
export const ANNOTATION_KEYWORDS = new Set([
  "title",
  "description",
  "examples",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
  "$schema",
  "$id",
  "$anchor",
  "$defs",
  "definitions",
  "contentMediaType",
  "contentEncoding",
  "contentSchema",
]);

function typeOfValue(value: Json): JsonType | "null" {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as JsonType;
}

function isNullBranch(branch: Json): boolean {
  if (!isJsonObject(branch)) return false;
  // The one validation keyword of the branch, if it has exactly one.
  let only: string | undefined;
  for (const k in branch) {
    if (ANNOTATION_KEYWORDS.has(k)) continue;
    if (only !== undefined) return false;
    only = k;
  }
  if (only === "type") return branch.type === "null" || jsonEqual(branch.type, ["null"]);
  if (only === "const") return branch.const === null;
  if (only === "enum") return jsonEqual(branch.enum, [null]);
  return false;
}

/** Accept-nothing schema, the normal form of `false`. */
export const NEVER: JsonObject = { not: {} };

export function asObject(schema: Json | undefined): JsonObject {
  if (schema === false) return NEVER;
  if (!isJsonObject(schema)) return {};
  return schema;
}

/** Accepts no value at all: `false`, or `not` of a schema that accepts everything, whatever sits beside it. */
export function isNever(schema: Json | undefined): boolean {
  if (schema === false) return true;
  if (!isJsonObject(schema)) return false;
  return schema.not !== undefined && acceptsAll(schema.not);
}

/** Accepts every value: `true`, an annotation-only schema, allOf of such, anyOf with one such branch. */
export function acceptsAll(schema: Json | undefined, depth = 0): boolean {
  if (schema === true) return true;
  if (!isJsonObject(schema) || depth > 16) return false;
  return Object.entries(schema).every(([k, v]) => {
    // Extension keywords (x-…) never validate.
    if (ANNOTATION_KEYWORDS.has(k) || k.startsWith("x-")) return true;
    if (k === "allOf") return Array.isArray(v) && v.every((part) => acceptsAll(part, depth + 1));
    if (k === "anyOf") return Array.isArray(v) && v.some((part) => acceptsAll(part, depth + 1));
    return false;
  });
}

type Intersect = (a: Json, b: Json) => Json | undefined;
const larger: Intersect = (a, b) => (typeof a === "number" && typeof b === "number" ? Math.max(a, b) : undefined);
const smaller: Intersect = (a, b) => (typeof a === "number" && typeof b === "number" ? Math.min(a, b) : undefined);

/** For keywords whose intersection is another value of the same keyword: how to intersect (a Map: keywords are server text). */
const INTERSECT = new Map<string, Intersect>([
  ["type", (a, b) => intersectTypes(a, b)],
  [
    "required",
    (a, b) =>
      Array.isArray(a) && Array.isArray(b)
        ? [...new Set([...a, ...b].filter((v): v is string => typeof v === "string"))]
        : undefined,
  ],
  ["enum", (a, b) => (Array.isArray(a) && Array.isArray(b) ? commonValues(a, b) : undefined)],
  ["minimum", larger],
  ["exclusiveMinimum", larger],
  ["exclusiveMaximum", smaller],
  ["maximum", smaller],
  ["minLength", larger],
  ["maxLength", smaller],
  ["minItems", larger],
  ["maxItems", smaller],
  ["minProperties", larger],
  ["maxProperties", smaller],
  ["uniqueItems", (a, b) => a === true || b === true],
]);

/** The values const and enum allow together (their intersection when both are there); undefined when neither is. */
function allowedValues(node: JsonObject): Json[] | undefined {
  const fromEnum = Array.isArray(node.enum) ? node.enum : undefined;
  if (node.const === undefined) return fromEnum;
  return !fromEnum || fromEnum.some((v) => jsonEqual(v, node.const)) ? [node.const as Json] : [];
}

/** Whether a node, on its own keywords (type, nullable, enum, const), lets null through. */
function ownKeywordsAllowNull(node: JsonObject): boolean {
  if (node.type !== undefined) {
    const list = Array.isArray(node.type) ? node.type : [node.type];
    if (!list.includes("null") && node.nullable !== true) return false;
  }
  if (node.const !== undefined) return node.const === null;
  if (Array.isArray(node.enum) && node.nullable !== true) return node.enum.includes(null);
  return true;
}

/** draft-04 boolean exclusiveMinimum/Maximum → the numeric form (false, or true without a bound, means nothing). */
export function numericBounds(node: JsonObject): JsonObject {
  if (typeof node.exclusiveMinimum !== "boolean" && typeof node.exclusiveMaximum !== "boolean") return node;
  const out = { ...node };
  for (const [exclusive, inclusive] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof out[exclusive] !== "boolean") continue;
    if (out[exclusive] === true && typeof out[inclusive] === "number") {
      out[exclusive] = out[inclusive];
      delete out[inclusive];
    } else delete out[exclusive];
  }
  return out;
}

/**
 * Merge allOf parts into their parent where that is exact: keywords only one side has,
 * equal keywords, and keywords with a known intersection (type, enum, required, bounds,
 * properties). Parts with a $ref, nested allOf or a clashing keyword stay in allOf.
 */
function mergeAllOf(node: JsonObject): JsonObject {
  const branches = node.allOf;
  if (!Array.isArray(branches)) return node;
  // Prototype-free: keywords and property names below are the server's text.
  const merged = dict(node);
  delete merged.allOf;
  const rest: Json[] = [];
  let nullOk = ownKeywordsAllowNull(node);
  for (const raw of branches) {
    let branch = numericBounds(asObject(raw));
    // const and enum on both sides: the allowed values are the intersection, whichever
    // keyword spells them (const 0 beside a part with const "a" allows nothing).
    const mine = allowedValues(merged);
    const theirs = allowedValues(branch);
    if (mine && theirs && !(merged.const !== undefined && jsonEqual(merged.const, branch.const))) {
      merged.enum = commonValues(mine, theirs);
      delete merged.const;
      const { const: _c, enum: _e, ...others } = branch;
      branch = others;
    }
    const unionClash =
      ["anyOf", "oneOf"].some((k) => branch[k] !== undefined) &&
      ["anyOf", "oneOf"].some((k) => merged[k] !== undefined);
    if (branch.$ref !== undefined || branch.allOf !== undefined || unionClash) {
      rest.push(raw);
      continue;
    }
    const clashes = Object.keys(branch).some(
      (k) =>
        merged[k] !== undefined &&
        !ANNOTATION_KEYWORDS.has(k) &&
        k !== "properties" &&
        k !== "nullable" &&
        !INTERSECT.has(k) &&
        !jsonEqual(merged[k], branch[k]),
    );
    if (clashes) {
      rest.push(raw);
      continue;
    }
    nullOk = nullOk && ownKeywordsAllowNull(branch);
    for (const [key, value] of Object.entries(branch)) {
      const current = merged[key];
      if (key === "nullable") continue; // decided below: an intersection allows null only if every part does
      if (current === undefined) merged[key] = value;
      else if (key === "properties" && isJsonObject(current) && isJsonObject(value)) {
        const props = dict(current);
        for (const [name, schema] of Object.entries(value)) {
          props[name] =
            props[name] === undefined || jsonEqual(props[name], schema)
              ? schema
              : { allOf: [props[name] as Json, schema] };
        }
        merged.properties = props;
      } else if (!ANNOTATION_KEYWORDS.has(key) && INTERSECT.has(key)) {
        const both = INTERSECT.get(key)?.(current, value);
        if (both !== undefined) merged[key] = both;
      }
      // annotations: the parent's own text wins
    }
  }
  // Keep null in or out of the merged node to match the intersection.
  delete merged.nullable;
  if (merged.type !== undefined) {
    const list = (Array.isArray(merged.type) ? merged.type : [merged.type]).filter((t) => t !== "null");
    merged.type = nullOk ? [...list, "null"] : list;
  } else if (!nullOk) {
    if (Array.isArray(merged.enum)) merged.enum = merged.enum.filter((v) => v !== null);
  }
  if (rest.length) merged.allOf = rest;
  return merged;
}

/** Intersection of two `type` keywords; integer is a subset of number. */
function intersectTypes(a: Json, b: Json): Json {
  const left = (Array.isArray(a) ? a : [a]).filter((t): t is string => typeof t === "string");
  const right = new Set((Array.isArray(b) ? b : [b]).filter((t): t is string => typeof t === "string"));
  const out = new Set<string>();
  for (const t of left) {
    if (right.has(t)) out.add(t);
    else if ((t === "number" && right.has("integer")) || (t === "integer" && right.has("number"))) out.add("integer");
  }
  return [...out];
}

function onlyKeys(node: JsonObject, allowed: string[]): boolean {
  let any = false;
  for (const k in node) {
    if (ANNOTATION_KEYWORDS.has(k)) continue;
    if (!allowed.includes(k)) return false;
    any = true;
  }
  return any;
}

/**
 * Fold anyOf/oneOf null branches into a nullable flag (Optional[X] is X plus null), and a
 * union of bare types or bare values into a type list or an enum; returns the node without them.
 */
export function foldNullBranches(node: JsonObject, depth = 0): { node: JsonObject; nullBranch: boolean } {
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = node[key];
    if (!Array.isArray(branches)) continue;
    // Branches that accept nothing (false) add nothing to a union, nor do repeats in anyOf
    // (in oneOf a repeated branch matters: a value matching both copies is rejected).
    const before = new Set<string>();
    const others = branches.filter((b) => {
      if (isNullBranch(b) || isNever(b)) return false;
      if (key !== "anyOf") return true;
      const text = canonicalText(b);
      if (before.has(text)) return false;
      before.add(text);
      return true;
    });
    const out: JsonObject = { ...node };
    delete out[key];
    // A union with a branch that accepts everything constrains nothing.
    if (branches.some((b) => acceptsAll(b))) return { node: out, nullBranch: false };
    // A null branch lets null through the union, but an enum or type beside the union still
    // applies: the branch is folded away either way, and null passes only if both allow it.
    const hasNullBranch = branches.some(isNullBranch);
    const nullBranch = hasNullBranch && ownKeywordsAllowNull(out);
    if (others.length === 0) {
      // Only null passes, or (every branch false) nothing at all.
      out.type = hasNullBranch && out.type === undefined ? "null" : [];
      return { node: out, nullBranch };
    }
    const objects = others.map(asObject);
    const plain = out.type === undefined && out.enum === undefined && out.const === undefined;
    // Under oneOf a value in two branches is rejected: the branches fold into a list only when no
    // type (integer is a number) or value is in two of them.
    const exclusive = (items: Json[]) =>
      key !== "oneOf" ||
      (new Set(items.map((v) => canonicalText(v))).size === items.length &&
        !(items.includes("integer") && items.includes("number")));
    const typesOf = objects.flatMap((b) => (Array.isArray(b.type) ? b.type : [b.type])) as Json[];
    if (plain && objects.every((b) => onlyKeys(b, ["type"])) && exclusive(typesOf)) {
      // anyOf [{type: string}, {type: number}] is type [string, number]
      out.type = [...new Set(typesOf)] as Json;
      return { node: out, nullBranch };
    }
    const valuesOf = objects.flatMap((b) => (b.const !== undefined ? [b.const] : Array.isArray(b.enum) ? b.enum : []));
    if (plain && objects.every((b) => onlyKeys(b, ["const"]) || onlyKeys(b, ["enum"])) && exclusive(valuesOf)) {
      out.enum = valuesOf;
      return { node: out, nullBranch };
    }
    if (others.length === 1) {
      // A union of one branch is that branch beside the rest: inline it where the merge is
      // exact (as for an allOf part: no clash, or a known intersection such as enum ∧ const).
      const only = others[0] as Json;
      const parts = Array.isArray(out.allOf) ? out.allOf : [];
      const merged = mergeAllOf({ ...out, allOf: [only] });
      if (!Array.isArray(merged.allOf) || !merged.allOf.includes(only)) {
        if (parts.length) merged.allOf = [...parts, ...(Array.isArray(merged.allOf) ? merged.allOf : [])];
        // The inlined branch may hold a union of its own: fold that too.
        const again = depth < 8 ? foldNullBranches(merged, depth + 1) : { node: merged, nullBranch: false };
        return { node: again.node, nullBranch: nullBranch || again.nullBranch };
      }
    }
    if (!hasNullBranch) return { node, nullBranch: false };
    out[key] = others;
    return { node: out, nullBranch };
  }
  return { node, nullBranch: false };
}

export function normalize(schema: Json | undefined): Norm {
  if (schema === false) return { types: new Set(), nullable: false, values: undefined, isConst: false, kw: {} };
  let node = asObject(schema);
  if (Array.isArray(node.anyOf) && Array.isArray(node.oneOf)) {
    // Two unions side by side: keep anyOf here and compare oneOf as an allOf part.
    const { oneOf, ...rest } = node;
    node = { ...rest, allOf: [...(Array.isArray(node.allOf) ? node.allOf : []), { oneOf }] };
  }
  node = mergeAllOf(numericBounds(node));
  const folded = foldNullBranches(node);
  node = folded.node;
  const kw = dict(node);
  for (const k of ["type", "nullable", "enum", "const"]) delete kw[k];

  // types and nullability
  let types: Set<JsonType> | undefined;
  const typeList = (node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type]).filter(
    (t): t is string => typeof t === "string",
  );
  if (node.type !== undefined) {
    types = new Set(typeList.filter((t): t is JsonType => (JSON_TYPES as readonly string[]).includes(t)));
    if (types.has("number")) types.delete("integer");
  }
  const typeAllowsNull = node.type === undefined || typeList.includes("null") || node.nullable === true;
  let nullable = folded.nullBranch || typeAllowsNull;
  if (node.type === undefined && !folded.nullBranch) {
    // No type here: whether null passes is up to the applicators (a $ref'd branch is
    // treated as not nullable; a nullable target shows up when the ref is followed).
    const branchNullable = (branch: Json) =>
      !(isJsonObject(branch) && branch.$ref !== undefined) && normalize(branch).nullable;
    const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
    if (union) nullable = union.some(branchNullable);
    if (Array.isArray(node.allOf)) nullable = nullable && node.allOf.every(branchNullable);
    if (typeof node.$ref === "string") nullable = false;
  }

  // values: enum/const, kept consistent with the types
  let values: Json[] | undefined;
  let isConst = false;
  if (node.const !== undefined) {
    // const beside enum: the intersection
    values = !Array.isArray(node.enum) || node.enum.some((v) => jsonEqual(v, node.const)) ? [node.const] : [];
    isConst = true;
  } else if (Array.isArray(node.enum)) {
    values = node.enum;
  }
  if (values) {
    nullable = folded.nullBranch || node.nullable === true || (typeAllowsNull && values.includes(null));
    const kept = values.filter((v) => {
      if (v === null) return false;
      if (!types) return true;
      const t = typeOfValue(v);
      return types.has(t as JsonType) || (t === "integer" && types.has("number"));
    });
    // The values decide which types can occur: {type: number, const: 0} accepts integers only.
    types = new Set(kept.map((v) => typeOfValue(v) as JsonType));
    if (types.has("number")) types.delete("integer");
    // No non-null value fits: what passes is null (if anything), said by types and nullable alone.
    values = kept.length > 0 ? kept : undefined;
    if (kept.length === 0) {
      types = new Set();
      isConst = false;
    }
  }

  // draft-07 tuple items → prefixItems + items
  if (Array.isArray(kw.items)) {
    kw.prefixItems = kw.items;
    if (kw.additionalItems !== undefined) kw.items = kw.additionalItems;
    else delete kw.items;
    delete kw.additionalItems;
  }
  // draft-07 dependencies (array form) → dependentRequired
  if (isJsonObject(kw.dependencies)) {
    const required = dict(isJsonObject(kw.dependentRequired) ? kw.dependentRequired : undefined);
    const schemas = dict(isJsonObject(kw.dependentSchemas) ? kw.dependentSchemas : undefined);
    for (const [k, v] of Object.entries(kw.dependencies)) {
      if (Array.isArray(v)) required[k] = v;
      else schemas[k] = v;
    }
    delete kw.dependencies;
    if (Object.keys(required).length) kw.dependentRequired = required;
    if (Object.keys(schemas).length) kw.dependentSchemas = schemas;
  }
  return { types, nullable, values, isConst, kw };
}

/** Can a value of this JSON type (ignoring null) be valid under the node? */
export function allowsType(norm: Norm, type: JsonType): boolean {
  if (!norm.types) return true;
  return norm.types.has(type) || (type === "integer" && norm.types.has("number"));
}
