/**
 * Merging and flattening schemas: $ref targets and allOf members are merged into one node
 * and anyOf/oneOf become a list of alternatives, so generators read keywords off one object.
 * Heuristic (exact only for the common keywords): the validator has the last word. Side holds
 * one root's memoized flattening and the generator's budget for a call.
 */
import { isJsonObject, type Json, type JsonObject } from "../../contract/model.ts";
import { dict } from "../dict.ts";
import { type BoundedRegExp, compileRegex, testRegex } from "../regex.ts";
import {
  deepEqual,
  GEN_BUDGET,
  MAX_DEPTH,
  PATTERNS,
  refOf,
  resolveRef,
  strings,
  valueKey,
  valueSet,
  without,
} from "./json.ts";

export const TYPE_NAMES = ["null", "boolean", "object", "array", "number", "integer", "string"] as const;
export type TypeName = (typeof TYPE_NAMES)[number];

export function typeList(value: Json | undefined): TypeName[] | undefined {
  if (value === undefined) return undefined;
  const list = Array.isArray(value) ? value : [value];
  return list.filter((t): t is TypeName => typeof t === "string" && (TYPE_NAMES as readonly string[]).includes(t));
}

function intersectTypes(a: Json, b: Json): Json {
  const left = typeList(a) ?? [];
  const right = new Set(typeList(b) ?? []);
  const out = new Set<string>();
  for (const t of left) {
    if (right.has(t)) out.add(t);
    else if ((t === "number" && right.has("integer")) || (t === "integer" && right.has("number"))) out.add("integer");
  }
  return [...out];
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Intersection of two schemas, approximately (exact for the common keywords). */
export function merge(a: Json | undefined, b: Json | undefined): Json {
  if (a === false || b === false) return false;
  const A = isJsonObject(a) ? a : {};
  const B = isJsonObject(b) ? b : {};
  if (Object.keys(B).length === 0) return A;
  if (Object.keys(A).length === 0) return B;
  // Prototype-free: keywords and property names are the server's text (`__proto__` included).
  const r = dict(A);
  for (const [k, v] of Object.entries(B)) {
    const cur = r[k];
    if (cur === undefined) {
      r[k] = v;
      continue;
    }
    if (deepEqual(cur, v)) continue;
    switch (k) {
      case "type":
        r.type = intersectTypes(cur, v);
        break;
      case "properties":
      case "patternProperties":
      case "dependentSchemas":
        if (isJsonObject(cur) && isJsonObject(v)) {
          const map = dict(cur);
          for (const [name, s] of Object.entries(v)) {
            const existing = map[name];
            map[name] = existing === undefined ? s : { allOf: [existing, s] };
          }
          r[k] = map;
        }
        break;
      case "required":
        r.required = [...new Set([...strings(cur), ...strings(v)])];
        break;
      case "minimum":
      case "minLength":
      case "minItems":
      case "minProperties":
      case "minContains":
        if (typeof cur === "number" && typeof v === "number") r[k] = Math.max(cur, v);
        break;
      case "exclusiveMinimum":
        if (typeof cur === "number" && typeof v === "number") r[k] = Math.max(cur, v);
        else if (v === true || cur === true) r[k] = true;
        break;
      case "maximum":
      case "maxLength":
      case "maxItems":
      case "maxProperties":
      case "maxContains":
        if (typeof cur === "number" && typeof v === "number") r[k] = Math.min(cur, v);
        break;
      case "exclusiveMaximum":
        if (typeof cur === "number" && typeof v === "number") r[k] = Math.min(cur, v);
        else if (v === true || cur === true) r[k] = true;
        break;
      case "multipleOf":
        if (typeof cur === "number" && typeof v === "number" && Number.isInteger(cur) && Number.isInteger(v)) {
          r.multipleOf = (cur * v) / gcd(cur, v);
        }
        break;
      case "enum":
        if (Array.isArray(cur) && Array.isArray(v)) {
          const other = valueSet(v);
          r.enum = cur.filter((x) => other.has(valueKey(x)));
        }
        break;
      case "const":
        return false;
      case "uniqueItems":
        r.uniqueItems = cur === true || v === true;
        break;
      case "pattern":
        r[PATTERNS] = [...strings(r[PATTERNS]), ...(typeof v === "string" ? [v] : [])];
        break;
      case PATTERNS:
        r[PATTERNS] = [...strings(cur), ...strings(v)];
        break;
      case "anyOf":
      case "oneOf":
        if (Array.isArray(cur) && Array.isArray(v)) {
          r[k] = cur.flatMap((x) => v.map((y) => ({ allOf: [x, y] }) as Json)).slice(0, 16);
        }
        break;
      case "allOf":
        if (Array.isArray(cur) && Array.isArray(v)) r.allOf = [...cur, ...v];
        break;
      case "not":
        r.not = { anyOf: [cur, v] };
        break;
      case "items":
      case "prefixItems":
        if (Array.isArray(cur) && Array.isArray(v)) {
          r[k] = Array.from({ length: Math.max(cur.length, v.length) }, (_, i) =>
            cur[i] === undefined ? (v[i] as Json) : v[i] === undefined ? cur[i] : merge(cur[i], v[i]),
          );
        } else if (!Array.isArray(cur) && !Array.isArray(v)) r[k] = merge(cur, v);
        break;
      case "additionalProperties":
      case "additionalItems":
      case "contains":
      case "propertyNames":
      case "unevaluatedProperties":
      case "unevaluatedItems":
        r[k] = merge(cur, v);
        break;
      case "$ref":
      case "$dynamicRef":
      case "$recursiveRef":
        r.allOf = [...(Array.isArray(r.allOf) ? r.allOf : []), { [k]: v }];
        break;
      default:
        break; // keep the first (annotations, format, if/then/else, …)
    }
  }
  return r;
}

/**
 * Per-call context for one root schema: its root, memoized flattening and the generator's
 * budget.
 */
export class Side {
  readonly flat = new Map<object, Json>();
  budget = GEN_BUDGET;
  constructor(readonly root: Json) {}

  resolve(ref: string): Json | undefined {
    return resolveRef(this.root, ref);
  }

  /** The node with $ref targets and allOf members merged in (not anyOf/oneOf). */
  effective(node: Json | undefined, depth = 0, stack: readonly string[] = []): Json {
    if (node === undefined) return true;
    if (typeof node === "boolean") return node;
    if (!isJsonObject(node)) return true;
    if (depth === 0) {
      const memo = this.flat.get(node);
      if (memo !== undefined) return memo;
    }
    let s: Json = node;
    if (depth <= MAX_DEPTH) {
      const ref = refOf(node);
      if (ref !== undefined) {
        const rest = without(node, "$ref", "$dynamicRef", "$recursiveRef");
        const target = stack.includes(ref) ? undefined : this.resolve(ref);
        s = target === undefined ? rest : merge(this.effective(target, depth + 1, [...stack, ref]), rest);
      }
      if (isJsonObject(s) && Array.isArray(s.allOf)) {
        let acc: Json = without(s, "allOf");
        for (const member of s.allOf) acc = merge(acc, this.effective(member, depth + 1, stack));
        s = acc;
        if (isJsonObject(s) && (refOf(s) !== undefined || Array.isArray(s.allOf)))
          s = this.effective(s, depth + 1, stack);
      }
    }
    if (depth === 0) this.flat.set(node, s);
    return s;
  }

  /** The alternatives a node offers: its anyOf/oneOf branches merged with the rest, flattened. */
  alternatives(node: Json | undefined, depth = 0): JsonObject[] {
    const e = this.effective(node);
    if (e === false) return [];
    if (e === true) return [{}];
    if (!isJsonObject(e)) return [{}];
    for (const key of ["anyOf", "oneOf"]) {
      const branches = e[key];
      if (!Array.isArray(branches) || depth > 4) continue;
      const base = without(e, key);
      return branches.flatMap((b) => this.alternatives(merge(base, b), depth + 1)).slice(0, 24);
    }
    return [e];
  }

  /** The object-shaped alternative of a node (preferring one that declares `prop`). */
  objectNode(node: Json | undefined, prop?: string): JsonObject {
    const alts = this.alternatives(node);
    const declares = (a: JsonObject) =>
      prop !== undefined && isJsonObject(a.properties) && Object.hasOwn(a.properties, prop);
    const objectish = (a: JsonObject) => {
      const types = typeList(a.type);
      return types ? types.includes("object") : a.properties !== undefined || a.required !== undefined;
    };
    return alts.find(declares) ?? alts.find(objectish) ?? alts[0] ?? {};
  }

  /** The array-shaped alternative of a node. */
  arrayNode(node: Json | undefined): JsonObject {
    const alts = this.alternatives(node);
    const arrayish = (a: JsonObject) => {
      const types = typeList(a.type);
      return types ? types.includes("array") : a.items !== undefined || a.prefixItems !== undefined;
    };
    return alts.find(arrayish) ?? alts[0] ?? {};
  }
}

/** The schema a property of an (effective) object node must satisfy. */
export function propertySchema(node: JsonObject, name: string): Json {
  if (isJsonObject(node.properties) && Object.hasOwn(node.properties, name)) return node.properties[name] as Json;
  if (isJsonObject(node.patternProperties)) {
    for (const [pattern, schema] of Object.entries(node.patternProperties)) if (matches(pattern, name)) return schema;
  }
  if (node.additionalProperties !== undefined) return node.additionalProperties;
  return true;
}

export function declaresOrAllows(node: JsonObject, name: string): boolean {
  if (isJsonObject(node.properties) && Object.hasOwn(node.properties, name)) return true;
  if (isJsonObject(node.patternProperties) && Object.keys(node.patternProperties).some((p) => matches(p, name))) {
    return true;
  }
  return node.additionalProperties !== false;
}

/** A server's pattern compiled for bounded matching (../regex.ts), or undefined when it is invalid. */
export function regex(pattern: string): BoundedRegExp | undefined {
  return compileRegex(pattern);
}

/** Whether `s` matches the pattern; an invalid pattern, or one undecidable within its budget, matches nothing here. */
export function matches(pattern: string, s: string): boolean {
  return testRegex(pattern, s) === true;
}
