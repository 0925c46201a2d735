/**
 * Object keywords for the variance engine: properties (a property only one side declares is
 * compared with the schema the other side applies to that name, if any), `required`,
 * openness (`additionalProperties`, `unevaluatedProperties`: open, constrained or closed),
 * `patternProperties`, `propertyNames`, `dependentRequired` and property counts (via
 * bounds.ts). Property names are server text: they are read as own members only. Pure.
 */
import { isJsonObject, type Json, type JsonObject } from "../../contract/model.ts";
import { escapeSegment } from "../../contract/pointer.ts";
import { own, sortedKeysOfBoth } from "../dict.ts";
import { ANNOTATION_KEYWORDS, asObject, isNever, jsonEqual } from "../normalize.ts";
import { testRegex } from "../regex.ts";
import { compareCount } from "./bounds.ts";
import { type Context, compareNode, emit, type SchemaChange } from "./context.ts";

/**
 * The schema an object applies to an undeclared property name, when it is a real constraint.
 * Patterns run on the bounded matcher (../regex.ts): `undecided` names the pattern whose
 * match could not be decided within its budget.
 */
function undeclaredSchema(object: JsonObject, name: string): { schema?: Json; undecided?: string } {
  if (isJsonObject(object.patternProperties)) {
    for (const [pattern, schema] of Object.entries(object.patternProperties)) {
      // An invalid pattern matches nothing here; lint reports it.
      const verdict = testRegex(pattern, name);
      if (verdict === "undecidable") return { undecided: pattern };
      if (verdict === true) return { schema };
    }
  }
  return openness(object.additionalProperties) === "schema" ? { schema: object.additionalProperties } : {};
}

/** A property only one side declares, where the other side's pattern could not be decided for its name. */
function reportUndecided(
  pattern: string,
  name: string,
  property: Partial<SchemaChange>,
  path: string,
  ctx: Context,
): void {
  emit(
    ctx,
    "pattern-properties-changed",
    `${path}/patternProperties/${escapeSegment(pattern)}`,
    `whether property "${name}" matches pattern /${pattern}/ could not be decided`,
    {
      ...property,
      note: "the pattern ran out of its step budget on this name, so which schema applies to the property cannot be decided; review it",
    },
  );
}

/** open: anything goes; closed: nothing; schema: constrained. */
function openness(schema: Json | undefined): "open" | "closed" | "schema" {
  if (schema === undefined || schema === true) return "open";
  if (isNever(schema)) return "closed";
  const node = asObject(schema);
  return Object.keys(node).some((k) => !ANNOTATION_KEYWORDS.has(k)) ? "schema" : "open";
}

/**
 * A propertyNames schema as it applies: object keys are always strings, so `{type: "string"}`
 * (and the string part of a type list) rejects nothing, and no type at all means string too.
 * A schema whose types leave out string is kept: it rejects every key, as written.
 */
function asKeySchema(schema: Json | undefined): Json {
  if (schema === undefined || schema === true) return { type: "string" };
  if (!isJsonObject(schema)) return schema;
  const type = schema.type;
  if (type === undefined || (Array.isArray(type) && type.includes("string"))) return { ...schema, type: "string" };
  return schema;
}

function stringList(value: Json | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * Properties, and the names whose one edit compareProperties already reported with the
 * `required` change it carries (a property added and required on a closed object): the
 * required comparison skips those.
 */
function compareProperties(a: JsonObject, b: JsonObject, path: string, ctx: Context): Set<string> {
  const pa = isJsonObject(a.properties) ? a.properties : {};
  const pb = isJsonObject(b.properties) ? b.properties : {};
  const closedA = openness(a.additionalProperties) === "closed" && !isJsonObject(a.patternProperties);
  const closedB = openness(b.additionalProperties) === "closed" && !isJsonObject(b.patternProperties);
  const merged = new Set<string>();
  for (const name of sortedKeysOfBoth(pa, pb)) {
    const propPath = `${path}/properties/${escapeSegment(name)}`;
    const inA = Object.hasOwn(pa, name);
    const inB = Object.hasOwn(pb, name);
    if (inA && inB) compareNode(pa[name] as Json, pb[name] as Json, propPath, ctx);
    else if (inA) {
      // Where the new object still constrains the name (patternProperties, a schema for
      // additionalProperties), compare with that schema; otherwise it is open or closed.
      const fallback = undeclaredSchema(b, name);
      if (fallback.undecided !== undefined) reportUndecided(fallback.undecided, name, { before: pa[name] }, path, ctx);
      else if (fallback.schema !== undefined) compareNode(pa[name] as Json, fallback.schema, propPath, ctx);
      else if (closedB && newlyRequired(b, a, name)) {
        closedAndRequired("removed", name, pa[name] as Json, path, ctx);
        merged.add(name);
      } else if (closedB)
        emit(ctx, "closed-object-property-removed", propPath, `property "${name}" removed`, {
          before: pa[name] as Json,
        });
      // A required property removed is one change too, required-removed (compareRequired).
      else if (!newlyRequired(b, a, name))
        emit(ctx, "property-removed", propPath, `property "${name}" removed`, { before: pa[name] as Json });
    } else {
      const fallback = undeclaredSchema(a, name);
      if (fallback.undecided !== undefined) reportUndecided(fallback.undecided, name, { after: pb[name] }, path, ctx);
      else if (fallback.schema !== undefined) compareNode(fallback.schema, pb[name] as Json, propPath, ctx);
      else if (closedA && newlyRequired(a, b, name)) {
        closedAndRequired("added", name, pb[name] as Json, path, ctx);
        merged.add(name);
      } else if (closedA)
        emit(ctx, "closed-object-property-added", propPath, `property "${name}" added`, { after: pb[name] as Json });
      // A new property that is also newly required is one change, required-added (said by
      // compareRequired): property-added would call it optional.
      else if (!newlyRequired(a, b, name))
        emit(ctx, "property-added", propPath, `property "${name}" added`, { after: pb[name] as Json });
    }
  }
  return merged;
}

/**
 * A required property added to (or removed from) an object that allows no other properties:
 * one edit that two rules see. required-added says callers must now send it; closed-object-
 * property-added says consumers of the old closed object reject it. The finding is the
 * required one, with the closed one beside it (SchemaChange.also): the diff layer reports
 * whichever is stronger in its direction, so input and output each get one finding at the
 * strongest verdict.
 */
function closedAndRequired(how: "added" | "removed", name: string, value: Json, path: string, ctx: Context): void {
  const propPath = `${path}/properties/${escapeSegment(name)}`;
  const side = how === "added" ? { after: value } : { before: value };
  // A default says what an absent value means: a server that fills it in accepts calls without it.
  const defaulted = isJsonObject(value) && Object.hasOwn(value, "default");
  if (how === "added") {
    emit(
      ctx,
      defaulted ? "required-added-with-default" : "required-added",
      `${path}/required`,
      `property "${name}" added, and required${defaulted ? ", with a default" : ""}`,
      {
        after: name,
        note: defaulted
          ? "it has a default, so a server that fills in defaults accepts calls that omit it"
          : "the object allows no other properties, so no caller could send it before: every existing call is rejected",
        also: {
          rule: "closed-object-property-added",
          path: propPath,
          message: `property "${name}" added, and required`,
          ...side,
          note: "it is also required, so every value carries it, and the old schema allows no other properties: consumers that validate against it reject every value",
        },
      },
    );
  } else {
    emit(ctx, "required-removed", `${path}/required`, `property "${name}" removed, and no longer required`, {
      before: name,
      note: "consumers that expect it find it missing",
      also: {
        rule: "closed-object-property-removed",
        path: propPath,
        message: `property "${name}" removed, and no longer required`,
        ...side,
        note: defaulted
          ? "it was listed as required with a default (callers could omit it), and the object allows no other properties: calls that still send it are rejected"
          : "it was required, so callers send it, and the object allows no other properties: those calls are rejected",
      },
    });
  }
}

/** Whether `b` requires `name` and `a` did not (swap them for "no longer required"). */
function newlyRequired(a: JsonObject, b: JsonObject, name: string): boolean {
  return stringList(b.required).includes(name) && !stringList(a.required).includes(name);
}

/** The `default` a property's own schema declares, if any (undefined otherwise). */
function defaultOf(schema: JsonObject, name: string): Json | undefined {
  const property = isJsonObject(schema.properties) ? schema.properties[name] : undefined;
  return isJsonObject(property) && Object.hasOwn(property, "default") ? property.default : undefined;
}

function declares(schema: JsonObject, name: string): boolean {
  return isJsonObject(schema.properties) && Object.hasOwn(schema.properties, name);
}

function compareRequired(a: JsonObject, b: JsonObject, path: string, ctx: Context, merged: Set<string>): void {
  // The same list requires the same names: nothing to report (most nodes a comparison visits).
  if (jsonEqual(a.required, b.required)) return;
  const ra = new Set(stringList(a.required));
  const rb = new Set(stringList(b.required));
  for (const name of [...rb].sort()) {
    if (ra.has(name) || merged.has(name)) continue;
    const what = declares(b, name) && !declares(a, name) ? "added, and required" : "is now required";
    const defaulted = defaultOf(b, name);
    if (defaulted !== undefined) {
      emit(ctx, "required-added-with-default", `${path}/required`, `property "${name}" ${what}, with a default`, {
        after: name,
        note: `its default (${JSON.stringify(defaulted)}) says what an absent value means: a server that fills in defaults accepts calls that omit it`,
      });
    } else emit(ctx, "required-added", `${path}/required`, `property "${name}" ${what}`, { after: name });
  }
  for (const name of [...ra].sort()) {
    if (rb.has(name) || merged.has(name)) continue;
    const what = declares(a, name) && !declares(b, name) ? "removed, and no longer required" : "is no longer required";
    emit(ctx, "required-removed", `${path}/required`, `property "${name}" ${what}`, { before: name });
  }
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

function comparePatternProperties(a: JsonObject, b: JsonObject, path: string, ctx: Context): void {
  if (jsonEqual(a.patternProperties, b.patternProperties)) return;
  const ppa = asObject(a.patternProperties);
  const ppb = asObject(b.patternProperties);
  const same =
    Object.keys(ppa).length === Object.keys(ppb).length && Object.keys(ppa).every((k) => Object.hasOwn(ppb, k));
  if (same) {
    for (const k of Object.keys(ppa))
      compareNode(ppa[k] as Json, ppb[k] as Json, `${path}/patternProperties/${escapeSegment(k)}`, ctx);
  } else {
    emit(ctx, "pattern-properties-changed", `${path}/patternProperties`, "patternProperties changed", {
      before: a.patternProperties,
      after: b.patternProperties,
      note: "which property names the patterns match cannot be compared statically",
    });
  }
}

function compareDependentRequired(a: JsonObject, b: JsonObject, path: string, ctx: Context): void {
  const da = asObject(a.dependentRequired);
  const db = asObject(b.dependentRequired);
  for (const key of sortedKeysOfBoth(da, db)) {
    const before = new Set(stringList(own(da, key)));
    const after = new Set(stringList(own(db, key)));
    const depPath = `${path}/dependentRequired/${escapeSegment(key)}`;
    for (const dep of after) {
      if (!before.has(dep))
        emit(ctx, "dependent-required-added", depPath, `"${key}" now requires "${dep}"`, { after: dep });
    }
    for (const dep of before) {
      if (!after.has(dep))
        emit(ctx, "dependent-required-removed", depPath, `"${key}" no longer requires "${dep}"`, { before: dep });
    }
  }
}

export function compareObjects(a: JsonObject, b: JsonObject, path: string, ctx: Context): void {
  const merged = compareProperties(a, b, path, ctx);
  compareRequired(a, b, path, ctx, merged);
  for (const keyword of ["additionalProperties", "unevaluatedProperties"] as const) {
    compareOpenness(a[keyword], b[keyword], `${path}/${keyword}`, keyword, ctx);
  }
  comparePatternProperties(a, b, path, ctx);
  if (a.propertyNames !== undefined || b.propertyNames !== undefined) {
    compareNode(asKeySchema(a.propertyNames), asKeySchema(b.propertyNames), `${path}/propertyNames`, ctx);
  }
  compareDependentRequired(a, b, path, ctx);
  compareCount(a, b, "minProperties", path, ctx);
  compareCount(a, b, "maxProperties", path, ctx);
}
