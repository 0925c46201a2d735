// biome-ignore-all lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here, not a promise

import fc from "fast-check";
import { jsonEqual } from "../../../src/contract/json-equal.ts";
import { isJsonObject, type Json, type JsonObject } from "../../../src/contract/model.ts";
import { type DiffRuleId, diffRule } from "../../../src/rules/registry.ts";
/**
 * fast-check arbitraries for JSON Schemas, and helpers to walk, edit and judge them, shared by
 * the property tests of the variance engine.
 */
import { within } from "../../helpers/clock.ts";

const getRule = (id: string) => diffRule(id as DiffRuleId);

import type { Direction } from "../../../src/diff/model.ts";
import { compareSchemas, type SchemaChange } from "../../../src/schema/compare/index.ts";

// ── the generator ──────────────────────────────────────────────────────────────────────

const PROP_NAMES = ["city", "units", "days", "tags"] as const;
const DEF_NAMES = ["A", "B", "C"] as const;
const NON_NULL_TYPES = ["string", "number", "integer", "boolean", "object", "array"] as const;
const ALL_TYPES = [...NON_NULL_TYPES, "null"] as const;
const REF_TARGETS = [
  "#/$defs/A",
  "#/$defs/B",
  "#/$defs/C",
  "#/definitions/A",
  "#/definitions/B",
  "#/$defs/Missing",
  "#",
  "#/properties/city",
  "https://example.com/schema.json",
];
/** Keywords whose values the garbage mode replaces with arbitrary JSON. */
const KEYWORDS = [
  "type",
  "nullable",
  "enum",
  "const",
  "properties",
  "required",
  "additionalProperties",
  "patternProperties",
  "propertyNames",
  "dependentRequired",
  "dependencies",
  "minProperties",
  "maximum",
  "exclusiveMinimum",
  "multipleOf",
  "minLength",
  "pattern",
  "format",
  "items",
  "prefixItems",
  "additionalItems",
  "contains",
  "uniqueItems",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "if",
  "then",
  "$ref",
  "$defs",
  "definitions",
  "default",
  "deprecated",
];

const primitive: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>("metric", "imperial", "kelvin", ""),
  fc.integer({ min: -2, max: 3 }),
  fc.constantFrom<Json>(null, true, 0.5),
);
const smallNat = fc.nat({ max: 5 });
const bound = fc.integer({ min: -5, max: 10 });
const opt = { requiredKeys: [] as [] };

/** Keyword groups that hold no subschemas. */
function leafGroups(): fc.Arbitrary<JsonObject>[] {
  return [
    fc.oneof(
      fc.constantFrom(...ALL_TYPES).map((type): JsonObject => ({ type })),
      fc.subarray([...ALL_TYPES], { minLength: 1, maxLength: 3 }).map((type): JsonObject => ({ type })),
    ),
    // nullability, each encoding
    fc
      .tuple(fc.constantFrom(...NON_NULL_TYPES), fc.constantFrom("array", "anyOf", "oneOf", "nullable"))
      .map(([t, how]): JsonObject => {
        if (how === "array") return { type: [t, "null"] };
        if (how === "nullable") return { type: t, nullable: true };
        return { [how]: [{ type: t }, { type: "null" }] };
      }),
    fc.array(primitive, { minLength: 1, maxLength: 4 }).map((values): JsonObject => ({ enum: values })),
    primitive.map((value): JsonObject => ({ const: value })),
    fc.record(
      {
        minLength: smallNat,
        maxLength: fc.integer({ min: 1, max: 20 }),
        pattern: fc.constantFrom("^[a-z]+$", "^x", "[0-9]"),
        format: fc.constantFrom("email", "date", "date-time", "uri"),
      },
      opt,
    ),
    fc.record(
      {
        minimum: bound,
        maximum: bound,
        exclusiveMinimum: fc.oneof(fc.boolean(), bound),
        exclusiveMaximum: fc.oneof(fc.boolean(), bound),
        multipleOf: fc.constantFrom(0.5, 1, 2, 3, 10),
      },
      opt,
    ),
    fc.constantFrom(...REF_TARGETS).map((target): JsonObject => ({ $ref: target })),
    fc.record(
      {
        title: fc.constantFrom("City", "Units"),
        description: fc.constantFrom("The city", "Unit system"),
        default: primitive,
        deprecated: fc.boolean(),
        readOnly: fc.boolean(),
        writeOnly: fc.boolean(),
        examples: fc.array(primitive, { maxLength: 2 }),
        "x-order": smallNat,
      },
      opt,
    ),
  ];
}

/** What the generator may produce besides well-formed schemas without unions. */
export interface GenOptions {
  /** Non-schema values where schemas belong, and keywords with arbitrary JSON values. */
  garbage?: boolean;
  /** anyOf/oneOf with several branches (the nullability encodings are always generated). */
  unions?: boolean;
}

/** Keyword groups with subschemas of the next depth. */
function nestedGroups(sub: fc.Arbitrary<Json>, options: GenOptions): fc.Arbitrary<JsonObject>[] {
  const propName = fc.constantFrom(...PROP_NAMES);
  const groups: fc.Arbitrary<JsonObject>[] = [
    fc.record(
      {
        type: fc.constant("object"),
        properties: fc.dictionary(propName, sub, { maxKeys: 3 }),
        required: fc.subarray([...PROP_NAMES], { maxLength: 2 }),
        additionalProperties: fc.oneof(fc.constant<Json>(true), fc.constant<Json>(false), fc.constant<Json>({}), sub),
      },
      { requiredKeys: ["properties"] },
    ),
    fc.record(
      {
        patternProperties: fc.dictionary(fc.constantFrom("^x-", "^y-"), sub, { maxKeys: 2 }),
        propertyNames: fc.record({ maxLength: fc.integer({ min: 1, max: 9 }), pattern: fc.constant("^[a-z]+$") }, opt),
        dependentRequired: fc.dictionary(propName, fc.subarray([...PROP_NAMES], { maxLength: 2 }), { maxKeys: 2 }),
        dependencies: fc.dictionary(propName, fc.oneof(fc.subarray<Json>([...PROP_NAMES], { maxLength: 2 }), sub), {
          maxKeys: 2,
        }),
        minProperties: smallNat,
        maxProperties: fc.integer({ min: 1, max: 6 }),
      },
      opt,
    ),
    fc.record(
      {
        type: fc.constant("array"),
        items: fc.oneof(sub, fc.array(sub, { maxLength: 3 })),
        prefixItems: fc.array(sub, { maxLength: 3 }),
        additionalItems: fc.oneof(fc.boolean(), sub),
        minItems: smallNat,
        maxItems: fc.integer({ min: 1, max: 9 }),
        uniqueItems: fc.boolean(),
        contains: sub,
      },
      opt,
    ),
    fc.array(sub, { minLength: 1, maxLength: 2 }).map((parts): JsonObject => ({ allOf: parts })),
    sub.map((schema): JsonObject => ({ not: schema })),
    fc.record({ if: sub, then: sub, else: sub }, { requiredKeys: ["if"] }),
  ];
  if (options.unions !== false) {
    groups.push(
      fc
        .tuple(
          fc.constantFrom("anyOf", "oneOf"),
          fc.array(
            fc.oneof({ weight: 4, arbitrary: sub }, { weight: 1, arbitrary: fc.constant<Json>({ type: "null" }) }),
            {
              minLength: 1,
              maxLength: 3,
            },
          ),
        )
        .map(([key, branches]): JsonObject => ({ [key]: branches })),
    );
  }
  return groups;
}

const garbageValue: fc.Arbitrary<Json> = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 5 }),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.constant(null),
);
const garbageKeyword: fc.Arbitrary<JsonObject> = fc
  .tuple(fc.constantFrom(...KEYWORDS), fc.jsonValue({ maxDepth: 2 }))
  .map(([key, value]): JsonObject => ({ [key]: value as Json }));

/** A node: up to three keyword groups merged. */
function node(groups: fc.Arbitrary<JsonObject>[]): fc.Arbitrary<JsonObject> {
  return fc.array(fc.oneof(...groups), { maxLength: 3 }).map((parts) => Object.assign({}, ...parts) as JsonObject);
}

const schemaCache = new Map<string, fc.Arbitrary<Json>>();
/** A schema whose subschemas nest at most `depth` more levels. */
export function schemaAt(depth: number, options: GenOptions = {}): fc.Arbitrary<Json> {
  const garbage = options.garbage === true;
  const key = `${depth}:${garbage}:${options.unions !== false}`;
  const cached = schemaCache.get(key);
  if (cached) return cached;
  const groups = [...leafGroups()];
  if (depth > 0) groups.push(...nestedGroups(schemaAt(depth - 1, options), options));
  if (garbage) groups.push(garbageKeyword);
  const choices: fc.WeightedArbitrary<Json>[] = [
    { weight: 8, arbitrary: node(groups) },
    { weight: 1, arbitrary: fc.boolean() },
  ];
  if (garbage) choices.push({ weight: 1, arbitrary: garbageValue });
  const arb = fc.oneof(...choices);
  schemaCache.set(key, arb);
  return arb;
}

/** A whole tool inputSchema: a depth-4 body plus $defs (or definitions) that refs reach, cycles included. */
export function rootSchema(options: GenOptions = {}): fc.Arbitrary<Json> {
  const body = node([
    ...leafGroups(),
    ...nestedGroups(schemaAt(3, options), options),
    ...(options.garbage ? [garbageKeyword] : []),
  ]);
  return fc
    .record({
      body,
      defsKey: fc.constantFrom("$defs", "definitions"),
      defs: fc.dictionary(fc.constantFrom(...DEF_NAMES), schemaAt(2, options), { maxKeys: 3 }),
    })
    .map(({ body, defsKey, defs }): Json => (Object.keys(defs).length ? { ...body, [defsKey]: defs } : body));
}

// ── walking schema positions ───────────────────────────────────────────────────────────

/** Keywords whose value is one schema, a list of schemas, or a map of schemas. */
const ONE = ["additionalProperties", "propertyNames", "additionalItems", "contains", "not", "if", "then", "else"];
const LIST = ["prefixItems", "anyOf", "oneOf", "allOf"];
const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

export interface Slot {
  /** Read the schema in this slot. */
  get(): Json;
  /** Replace the schema in this slot. */
  set(value: Json): void;
}

/** Every schema position in a schema, root first (depth-first), not descending into nodes that hold a `skip` keyword. */
export function slots(root: { value: Json }, skip: ReadonlySet<string> = new Set()): Slot[] {
  const out: Slot[] = [];
  const visit = (slot: Slot) => {
    out.push(slot);
    const value = slot.get();
    if (!isJsonObject(value) || Object.keys(value).some((k) => skip.has(k))) return;
    const at = (container: JsonObject | Json[], key: string | number): Slot => ({
      get: () => (container as Record<string | number, Json>)[key] as Json,
      set: (v) => {
        (container as Record<string | number, Json>)[key] = v;
      },
    });
    for (const key of ONE) if (value[key] !== undefined) visit(at(value, key));
    for (const key of LIST) {
      const list = value[key];
      if (Array.isArray(list)) for (let i = 0; i < list.length; i++) visit(at(list, i));
    }
    const items = value.items;
    if (Array.isArray(items)) for (let i = 0; i < items.length; i++) visit(at(items, i));
    else if (items !== undefined) visit(at(value, "items"));
    for (const key of [...MAP, "dependencies"]) {
      const map = value[key];
      if (!isJsonObject(map)) continue;
      for (const name of Object.keys(map)) {
        if (key === "dependencies" && Array.isArray(map[name])) continue;
        visit(at(map, name));
      }
    }
  };
  visit({ get: () => root.value, set: (v) => (root.value = v) });
  return out;
}

// ── verdicts ───────────────────────────────────────────────────────────────────────────

export type Verdict = "breaking" | "minor" | "patch" | "none";
const RANK: Record<Verdict, number> = { none: 0, patch: 1, minor: 2, breaking: 3 };

/** Severity overrides: [rule id, direction] → severity used instead of the catalog's. */
export type Overrides = ReadonlyMap<string, Verdict>;

export function verdict(changes: SchemaChange[], direction: Direction, overrides: Overrides = new Map()): Verdict {
  let worst: Verdict = "none";
  for (const change of changes) {
    const severity = overrides.get(`${change.rule}:${direction}`) ?? getRule(change.rule)[direction];
    if (RANK[severity] > RANK[worst]) worst = severity;
  }
  return worst;
}

export const show = (changes: SchemaChange[]) => changes.map((c) => `${c.rule}@${c.path}`);

/**
 * compareSchemas with a bound on its time: the engine bounds its own work in steps (MAX_STEPS),
 * so a call past this generous bound (tests/helpers/clock.ts) is a blow-up, not a slow machine.
 */
export function timedCompare(a: Json, b: Json): SchemaChange[] {
  return within(5_000, "compareSchemas", () => compareSchemas(a, b));
}

// ── mutations (for pairs that differ a little) ─────────────────────────────────────────

export type Mutation = [slot: number, op: number, param: number];

function addOrRemoveBranch(n: JsonObject, p: number): void {
  const key = Array.isArray(n.oneOf) ? "oneOf" : "anyOf";
  const branches = Array.isArray(n[key]) ? (n[key] as Json[]) : [];
  if (branches.length > 1 && p % 2 === 0) n[key] = branches.slice(1);
  else n[key] = [...branches, { type: NON_NULL_TYPES[p % NON_NULL_TYPES.length] as string }];
}

/** Small edits of one schema node; `param` picks the detail. */
const MUTATIONS: ((node: JsonObject, param: number) => void)[] = [
  (n, p) => {
    n.type = ALL_TYPES[p % ALL_TYPES.length] as string;
  },
  (n, p) => {
    const types = Array.isArray(n.type) ? n.type : typeof n.type === "string" ? [n.type] : [];
    n.type = [...new Set([...types, ALL_TYPES[p % ALL_TYPES.length] as string])];
  },
  (n) => {
    if (Array.isArray(n.type) && n.type.length > 1) n.type = n.type.slice(1);
    else delete n.type;
  },
  (n, p) => {
    n.enum = [...(Array.isArray(n.enum) ? n.enum : []), ["metric", "imperial", "si", 1, null][p % 5] as Json];
  },
  (n) => {
    if (Array.isArray(n.enum) && n.enum.length > 1) n.enum = n.enum.slice(1);
    else delete n.enum;
  },
  (n, p) => {
    const name = PROP_NAMES[p % PROP_NAMES.length] as string;
    const required = Array.isArray(n.required) ? n.required : [];
    n.required = required.includes(name) ? required.filter((r) => r !== name) : [...required, name];
  },
  (n, p) => {
    n.additionalProperties = ([true, false, {}, { type: "string" }] as Json[])[p % 4] as Json;
  },
  (n, p) => {
    const properties = isJsonObject(n.properties) ? n.properties : {};
    const name = PROP_NAMES[p % PROP_NAMES.length] as string;
    if (properties[name] !== undefined) delete properties[name];
    else properties[name] = { type: "string" };
    n.properties = properties;
  },
  (n, p) => {
    const key = ["minLength", "maxLength", "minimum", "maximum", "multipleOf", "minItems", "maxProperties"][
      p % 7
    ] as string;
    if (n[key] !== undefined) delete n[key];
    else n[key] = (p % 4) + 1;
  },
  addOrRemoveBranch,
  (n, p) => {
    if (p % 2) n.nullable = true;
    else n.description = `changed ${p}`;
  },
  (n, p) => {
    n.format = ["email", "uri", "date"][p % 3] as string;
  },
];

/**
 * A deep copy that shares nothing: fast-check reuses constant objects, and structuredClone
 * keeps that sharing, so an in-place edit would show up at every place the object occurs.
 */
export function copy(value: Json): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}

/** Apply the edits in order; with `unions: false`, no edit creates an anyOf/oneOf branch. */
export function mutate(schema: Json, mutations: Mutation[], options: GenOptions = {}): Json {
  const root = { value: copy(schema) };
  const ops = options.unions === false ? MUTATIONS.filter((m) => m !== addOrRemoveBranch) : MUTATIONS;
  for (const [slotIndex, op, param] of mutations) {
    const all = slots(root);
    const slot = all[slotIndex % all.length] as Slot;
    const current = slot.get();
    const which = op % (ops.length + 1);
    if (which === ops.length) {
      // flip a boolean schema, or replace the node by one
      slot.set(typeof current === "boolean" ? !current : param % 2 === 0);
      continue;
    }
    const target: JsonObject = isJsonObject(current) ? current : {};
    (ops[which] as (node: JsonObject, param: number) => void)(target, param);
    if (target !== current) slot.set(target);
  }
  return root.value;
}

export const mutation: fc.Arbitrary<Mutation> = fc.tuple(fc.nat(), fc.nat(), fc.nat());

/** Two schemas: the second a few small edits away from the first, or (sometimes) unrelated. */
export function schemaPair(options: GenOptions = {}): fc.Arbitrary<[Json, Json]> {
  return fc.oneof(
    {
      weight: 5,
      arbitrary: fc
        .tuple(rootSchema(options), fc.array(mutation, { minLength: 1, maxLength: 3 }))
        .map(([a, edits]): [Json, Json] => [a, mutate(a, edits, options)]),
    },
    { weight: 1, arbitrary: fc.tuple(rootSchema(options), rootSchema(options)) },
  );
}

// ── widenings of an input ──────────────────────────────────────────────────────────────

export type Widening = "type" | "enum" | "anyOf";
export type Placement = "property" | "items" | "nested" | "definition";

/** Replace `$ref: "#"` (a reference to the root) so that the root never recurs inside `not`. */
function withoutRootRefs(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutRootRefs);
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) out[k] = k === "$ref" && v === "#" ? "#/$defs/A" : withoutRootRefs(v);
  return out;
}

/** Put `target` at a positive position of a tool inputSchema built around `context`. */
function place(context: Json, target: Json, where: Placement): Json {
  const base = isJsonObject(context) ? (withoutRootRefs(context) as JsonObject) : {};
  const properties = isJsonObject(base.properties) ? { ...base.properties } : {};
  const root: JsonObject = { ...base, type: "object", properties };
  if (where === "property") properties.target = target;
  else if (where === "items") properties.target = { type: "array", items: target };
  else if (where === "nested")
    properties.target = { type: "object", properties: { inner: target }, required: ["inner"] };
  else {
    const defs = isJsonObject(base.$defs) ? { ...base.$defs } : {};
    defs.Target = target;
    root.$defs = defs;
    properties.target = { $ref: "#/$defs/Target" };
  }
  return root;
}

/** A copy without any $ref (each `$ref` keyword dropped). */
function withoutRefs(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutRefs);
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) if (k !== "$ref") out[k] = withoutRefs(v);
  return out;
}

export interface WideningOptions extends GenOptions {
  kinds?: Widening[];
  /**
   * Plain placements only: no const or allOf on the widened node; for a new anyOf branch, a
   * node with nothing but anyOf, branches without $ref, and the new branch appended last. These
   * were the engine's union and allOf bugs, all fixed (the property without this option is in
   * tests/conformance/engine-properties.test.ts); the plain property stays as the simpler one to
   * read when the general one fails.
   */
  avoidKnownBugs?: boolean;
}

/** An input schema and the same schema with one type, enum value or anyOf branch added somewhere. */
export function wideningPair(options: WideningOptions = {}): fc.Arbitrary<{
  old: Json;
  new: Json;
  kind: Widening;
  where: Placement;
}> {
  return fc
    .record({
      context: rootSchema(options),
      node: schemaAt(2, options),
      branch: schemaAt(1, options),
      kind: fc.constantFrom<Widening>(...(options.kinds ?? ["type", "enum", "anyOf"])),
      where: fc.constantFrom<Placement>("property", "items", "nested", "definition"),
      value: primitive,
      pick: fc.nat(),
    })
    .map(({ context, node, branch: generated, kind, where, value, pick }) => {
      let branch = generated;
      const safe = options.avoidKnownBugs === true;
      let before: JsonObject = isJsonObject(node) ? (withoutRootRefs(node) as JsonObject) : {};
      if (safe) {
        delete before.const;
        delete before.allOf;
        if (kind === "anyOf") {
          // a plain union keeps a non-null branch (a union of only null was once read as "any value")
          const branches = (Array.isArray(before.anyOf) ? before.anyOf : []).map(withoutRefs);
          const nullOnly = (b: Json) => isJsonObject(b) && (b.type === "null" || jsonEqual(b.type, ["null"]));
          before = { anyOf: branches.some((b) => !nullOnly(b)) ? branches : [...branches, { type: "string" }] };
          branch = withoutRefs(branch);
        }
      }
      const after = copy(before) as JsonObject;
      if (kind === "type") {
        const types = Array.isArray(before.type)
          ? before.type.filter((t): t is string => typeof t === "string")
          : typeof before.type === "string"
            ? [before.type]
            : [ALL_TYPES[pick % ALL_TYPES.length] as string];
        before.type = types.length === 1 ? (types[0] as string) : types;
        const missing = ALL_TYPES.filter((t) => !types.includes(t));
        after.type = missing.length ? [...types, missing[pick % missing.length] as string] : before.type;
      } else if (kind === "enum") {
        const values = Array.isArray(before.enum) ? before.enum : [ALL_TYPES[pick % ALL_TYPES.length] as string];
        before.enum = values;
        after.enum = values.some((v) => JSON.stringify(v) === JSON.stringify(value)) ? values : [...values, value];
        // a const beside the enum would still pin the value
        delete before.const;
        delete after.const;
      } else {
        const branches = Array.isArray(before.anyOf) ? before.anyOf : [withoutRootRefs(branch)];
        before.anyOf = branches;
        const at = safe ? branches.length : pick % (branches.length + 1);
        after.anyOf = [...branches.slice(0, at), withoutRootRefs(branch), ...branches.slice(at)];
      }
      return { old: place(context, before, where), new: place(context, after, where), kind, where };
    });
}

// ── rewrites that keep the meaning ─────────────────────────────────────────────────────

/** A small deterministic PRNG (mulberry32), so that rewrites depend only on the seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(list: T[], next: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

export type Rewrite =
  | "order"
  | "nullability"
  | "tuple"
  | "dependencies"
  | "exclusive"
  | "boolean"
  | "const"
  | "type-array"
  | "definitions";
export const REWRITES: Rewrite[] = [
  "order",
  "nullability",
  "tuple",
  "dependencies",
  "exclusive",
  "boolean",
  "const",
  "type-array",
  "definitions",
];

/** One node rewritten in a way that accepts exactly the same values. */
function rewriteNode(n: JsonObject, which: ReadonlySet<Rewrite>, next: () => number): void {
  const coin = () => next() < 0.5;
  if (which.has("order")) {
    for (const key of ["enum", "required", "anyOf", "oneOf"]) {
      const list = n[key];
      if (Array.isArray(list) && coin()) n[key] = shuffle(list, next);
    }
  }
  if (which.has("nullability") && n.enum === undefined && n.const === undefined && coin()) {
    if (typeof n.type === "string" && n.type !== "null" && n.nullable === true) {
      n.type = [n.type, "null"];
      delete n.nullable;
    } else if (Array.isArray(n.type) && n.type.length === 2 && n.type.includes("null") && n.nullable === undefined) {
      const other = n.type.find((t) => t !== "null");
      if (typeof other === "string" && other !== "null") {
        n.type = other;
        n.nullable = true;
      }
    }
  }
  if (which.has("tuple") && Array.isArray(n.items) && n.prefixItems === undefined && coin()) {
    n.prefixItems = n.items;
    if (n.additionalItems !== undefined) n.items = n.additionalItems;
    else delete n.items;
    delete n.additionalItems;
  }
  if (which.has("dependencies") && isJsonObject(n.dependencies) && coin()) {
    const required: JsonObject = {};
    const schemas: JsonObject = {};
    for (const [k, v] of Object.entries(n.dependencies)) (Array.isArray(v) ? required : schemas)[k] = v;
    const clash =
      (Object.keys(required).length > 0 && n.dependentRequired !== undefined) ||
      (Object.keys(schemas).length > 0 && n.dependentSchemas !== undefined);
    if (!clash) {
      delete n.dependencies;
      if (Object.keys(required).length) n.dependentRequired = required;
      if (Object.keys(schemas).length) n.dependentSchemas = schemas;
    }
  }
  if (which.has("exclusive") && coin()) {
    for (const [exclusive, inclusive] of [
      ["exclusiveMinimum", "minimum"],
      ["exclusiveMaximum", "maximum"],
    ] as const) {
      if (n[exclusive] === true && typeof n[inclusive] === "number") {
        n[exclusive] = n[inclusive];
        delete n[inclusive];
      } else if (typeof n[exclusive] === "boolean") delete n[exclusive];
    }
  }
  if (which.has("const") && n.const !== undefined && n.enum === undefined && coin()) {
    n.enum = [n.const];
    delete n.const;
  }
  if (which.has("type-array") && typeof n.type === "string" && coin()) n.type = [n.type];
}

/**
 * The schema with meaning-preserving rewrites applied at random nodes: reordered enum,
 * required and union branches; nullable: true ↔ a type array with "null"; draft-07 tuples →
 * prefixItems; dependencies → dependentRequired/dependentSchemas; draft-04 boolean exclusive
 * bounds → numeric; true ↔ {}; const → one-value enum; "type": "x" → ["x"]; definitions → $defs.
 */
export function rewrite(
  schema: Json,
  seed: number,
  which: ReadonlySet<Rewrite> = new Set(REWRITES),
  skip: ReadonlySet<string> = new Set(),
): Json {
  const next = random(seed);
  const root = { value: copy(schema) };
  if (which.has("definitions") && isJsonObject(root.value)) {
    const value = root.value;
    const defs = value.definitions;
    if (isJsonObject(defs) && value.$defs === undefined && !JSON.stringify(value).includes('"#/$defs/')) {
      // rename the container and every reference that reaches into it (references to missing
      // definitions stay as they are: they cannot be followed on either side)
      const retarget = (v: Json): Json => {
        if (Array.isArray(v)) return v.map(retarget);
        if (!isJsonObject(v)) return v;
        const out: JsonObject = {};
        for (const [k, x] of Object.entries(v)) {
          const name =
            k === "$ref" && typeof x === "string" && x.startsWith("#/definitions/") ? x.slice(14) : undefined;
          out[k === "definitions" && v === value ? "$defs" : k] =
            name !== undefined && !name.includes("/") && Object.hasOwn(defs, name) ? `#/$defs/${name}` : retarget(x);
        }
        return out;
      };
      root.value = retarget(value);
    }
  }
  for (const slot of slots(root, skip)) {
    const value = slot.get();
    // a node that holds a skipped keyword is left exactly as it is
    if (isJsonObject(value) && Object.keys(value).some((k) => skip.has(k))) continue;
    if (which.has("boolean") && value === true && next() < 0.5) slot.set({});
    else if (which.has("boolean") && isJsonObject(value) && Object.keys(value).length === 0 && next() < 0.5)
      slot.set(true);
    else if (isJsonObject(value)) rewriteNode(value, which, next);
  }
  return root.value;
}
