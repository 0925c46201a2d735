/**
 * Whether no value can match two branches of a union, decided soundly from what the branches
 * say (never guessed): then `oneOf` and `anyOf` over them accept the same values, and a switch
 * between the two keywords changes nothing. Two branches are disjoint when
 * - their JSON types cannot overlap (and null does not pass both);
 * - both list their values (enum/const) and no value is in both lists;
 * - one accepts only objects that carry a property P (required) whose values it lists, and the
 *   other lists values for P none of which is in that list: a discriminator (`kind: "a"`);
 * - one accepts only objects that carry P, and the other forbids P (`properties: {P: false}`, or a
 *   closed object that does not declare P).
 * References are followed first (a `$ref`'d branch is judged by its target). Pure.
 */
import { isJsonObject, type Json, type JsonObject } from "../../contract/model.ts";
import { allowsType, asObject, isNever, jsonEqual, type Norm, normalize } from "../normalize.ts";
import type { Context } from "./context.ts";
import { inline } from "./refs.ts";

/** Past this many branches the pairwise test is not run: such a union is judged as written. */
const MAX_BRANCHES = 64;

interface Branch {
  norm: Norm;
  /** Properties as declared (references not yet followed). */
  props: JsonObject;
  required: Set<string>;
  /** Only objects pass (no other type, no null). */
  objectOnly: boolean;
}

function branchOf(schema: Json, root: Json, ctx: Context): Branch {
  const node = inline(asObject(schema), root, ctx) ?? {};
  const norm = normalize(isNever(schema) ? false : node);
  const props = isJsonObject(norm.kw.properties) ? norm.kw.properties : {};
  const required = new Set(
    Array.isArray(norm.kw.required) ? norm.kw.required.filter((r) => typeof r === "string") : [],
  );
  const objectOnly = !norm.nullable && norm.types !== undefined && [...norm.types].every((t) => t === "object");
  return { norm, props, required: required as Set<string>, objectOnly };
}

/** The values a property's schema lists (enum/const), and whether null passes it. */
function listedValues(schema: Json | undefined, root: Json, ctx: Context): { values?: Json[]; nullable: boolean } {
  if (schema === undefined) return { nullable: true };
  const norm = normalize(isNever(schema) ? false : (inline(asObject(schema), root, ctx) ?? {}));
  return { ...(norm.values !== undefined && { values: norm.values }), nullable: norm.nullable };
}

const overlap = (xs: readonly Json[], ys: readonly Json[]) => xs.some((x) => ys.some((y) => jsonEqual(x, y)));

function typesDisjoint(x: Norm, y: Norm): boolean {
  if (x.nullable && y.nullable) return false;
  if (!x.types || !y.types) return false;
  return ![...x.types].some((t) => allowsType(y, t)) && ![...y.types].some((t) => allowsType(x, t));
}

function valuesDisjoint(x: Norm, y: Norm): boolean {
  if (x.nullable && y.nullable) return false;
  return x.values !== undefined && y.values !== undefined && !overlap(x.values, y.values);
}

/** Whether `y` rejects every object that has property `name`. */
function forbids(y: Branch, name: string): boolean {
  if (Object.hasOwn(y.props, name)) return isNever(y.props[name] as Json);
  return isNever(y.norm.kw.additionalProperties as Json) && y.norm.kw.patternProperties === undefined;
}

/** `x` accepts only objects with a required property that `y` forbids or never gives x's values. */
function discriminated(x: Branch, y: Branch, rootX: Json, rootY: Json, ctx: Context): boolean {
  if (!x.objectOnly) return false;
  for (const name of x.required) {
    if (forbids(y, name)) return true;
    if (!Object.hasOwn(x.props, name) || !Object.hasOwn(y.props, name)) continue;
    const vx = listedValues(x.props[name] as Json, rootX, ctx);
    const vy = listedValues(y.props[name] as Json, rootY, ctx);
    if (vx.nullable && vy.nullable) continue;
    if (vx.values !== undefined && vy.values !== undefined && !overlap(vx.values, vy.values)) return true;
  }
  return false;
}

function disjoint(x: Branch, y: Branch, root: Json, ctx: Context): boolean {
  return (
    typesDisjoint(x.norm, y.norm) ||
    valuesDisjoint(x.norm, y.norm) ||
    discriminated(x, y, root, root, ctx) ||
    discriminated(y, x, root, root, ctx)
  );
}

/** Whether no value can match two of `branches` (all from `root`'s side), by the tests above. */
export function pairwiseDisjoint(branches: readonly Json[], root: Json, ctx: Context): boolean {
  if (branches.length > MAX_BRANCHES) return false;
  const shapes = branches.map((branch) => branchOf(branch, root, ctx));
  for (let i = 0; i < shapes.length; i++) {
    for (let j = i + 1; j < shapes.length; j++) {
      if (!disjoint(shapes[i] as Branch, shapes[j] as Branch, root, ctx)) return false;
    }
  }
  return true;
}
