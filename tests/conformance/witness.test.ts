/**
 * Witnesses checked by an independent validator: every witness findWitness returns is validated
 * against both schemas by fresh ajv instances (the external validator is why this file is in the
 * conformance tier: compiling a schema per case costs about 0.2 s).
 */
import { describe, expect, test } from "bun:test";
import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { Json, JsonObject } from "../../src/contract/model.ts";
import { findWitness, minimalInstance } from "../../src/schema/witness.ts";
import { limit } from "../helpers/clock.ts";

// ── an independent checker: fresh ajv instances, dialect chosen by the test's own schema ──

const DRAFT07 = "http://json-schema.org/draft-07/schema#";
const DRAFT2020 = "https://json-schema.org/draft/2020-12/schema";

function freshValidate(schema: Json, value: Json): boolean {
  const options = { strict: false, validateFormats: true, logger: false } as const;
  const is07 = typeof schema === "object" && schema !== null && !Array.isArray(schema) && schema.$schema === DRAFT07;
  const ajv = is07 ? new Ajv(options) : new Ajv2020(options);
  addFormats(ajv);
  const copy = typeof schema === "object" && schema !== null && !Array.isArray(schema) ? { ...schema } : schema;
  if (typeof copy === "object" && copy !== null && !Array.isArray(copy)) delete copy.$schema;
  return ajv.validate(copy as object, value) === true;
}

type Direction = "input" | "output";
interface Change {
  rule: string;
  path: string;
  before?: Json;
  after?: Json;
}

/** Asserts a witness exists and re-checks it independently: accepting side accepts, the other rejects. */
function expectWitness(oldSchema: Json, newSchema: Json, change: Change, direction: Direction = "input"): Json {
  const witness = findWitness(oldSchema, newSchema, change, direction);
  expect(witness).toBeDefined();
  const [accepting, rejecting] = direction === "input" ? [oldSchema, newSchema] : [newSchema, oldSchema];
  expect(freshValidate(accepting, witness as Json)).toBe(true);
  expect(freshValidate(rejecting, witness as Json)).toBe(false);
  return witness as Json;
}

const clone = <T>(value: T): T => structuredClone(value);
// biome-ignore lint/suspicious/noExplicitAny: tests edit deep schema fixtures freely
function edit(schema: JsonObject, change: (s: any) => void): JsonObject {
  const copy = clone(schema);
  change(copy);
  return copy;
}
const obj = (value: Json | undefined): JsonObject => value as JsonObject;

// ── realistic tool schemas ───────────────────────────────────────────────────────────────

/** A get_forecast inputSchema: $ref to $defs, nested objects, nullable, arrays, patterns. */
const forecast: JsonObject = {
  $schema: DRAFT2020,
  type: "object",
  properties: {
    location: { $ref: "#/$defs/Location" },
    units: { type: "string", enum: ["metric", "imperial"], default: "metric" },
    days: { type: "integer", minimum: 1, maximum: 14, description: "Number of days" },
    id: { type: ["string", "integer"] },
    include: { type: "array", items: { type: "string", enum: ["hourly", "alerts", "daily"] }, maxItems: 3 },
    note: { type: ["string", "null"], maxLength: 200 },
    options: {
      type: "object",
      properties: {
        lang: { type: "string", pattern: "^[a-z]{2}$" },
        detail: { type: "string" },
        contact: { type: "string" },
        since: { type: "string", format: "date" },
      },
      required: ["lang"],
    },
  },
  required: ["location"],
  $defs: {
    Location: {
      type: "object",
      properties: {
        city: { type: "string", minLength: 1 },
        lat: { type: "number", minimum: -90, maximum: 90 },
        lon: { type: "number", minimum: -180, maximum: 180 },
      },
      required: ["city"],
    },
  },
};

/** A draft-07 create_issue inputSchema with definitions and a tuple. */
const issue: JsonObject = {
  $schema: DRAFT07,
  type: "object",
  properties: {
    title: { type: "string", minLength: 1, maxLength: 256 },
    labels: { type: "array", items: { type: "string" } },
    priority: { $ref: "#/definitions/Priority" },
    assignee: { $ref: "#/definitions/User" },
    range: { type: "array", items: [{ type: "string" }, { type: "integer", minimum: 0 }] },
    estimate: { type: "integer", multipleOf: 5, maximum: 100 },
  },
  required: ["title"],
  additionalProperties: false,
  definitions: {
    Priority: { type: "string", enum: ["low", "medium", "high"] },
    User: {
      type: "object",
      properties: { login: { type: "string", pattern: "^[a-zA-Z0-9-]+$" }, email: { type: "string" } },
      required: ["login"],
    },
  },
};

/** A get_weather outputSchema (covariant). */
const weather: JsonObject = {
  type: "object",
  properties: {
    temperature: { type: "integer" },
    conditions: { type: "string", enum: ["sunny", "rain"] },
    humidity: { type: "number", minimum: 0, maximum: 100 },
    station: { type: "string" },
    version: { const: "v1" },
  },
  required: ["temperature", "conditions", "station"],
};

// ── rules, in the direction where they break ────────────────────────────────────────────

describe("findWitness: object rules", () => {
  test("required-added at the root", () => {
    const next = edit(forecast, (s) => s.required.push("days"));
    const w = obj(expectWitness(forecast, next, { rule: "required-added", path: "/required", after: "days" }));
    expect(w).not.toHaveProperty("days");
    expect(w).toHaveProperty("location");
  });

  test("required-added inside a $ref'd definition (path through $ref)", () => {
    const next = edit(forecast, (s) => s.$defs.Location.required.push("lat"));
    const w = expectWitness(forecast, next, {
      rule: "required-added",
      path: "/properties/location/$ref/required",
      after: "lat",
    });
    expect(obj(obj(w).location)).not.toHaveProperty("lat");
  });

  test("required-added reported on the definition itself (/$defs/...) is traced to a use", () => {
    const next = edit(forecast, (s) => s.$defs.Location.required.push("lon"));
    expectWitness(forecast, next, { rule: "required-added", path: "/$defs/Location/required", after: "lon" });
  });

  test("required-added in a nested object that the change's path names by property", () => {
    const next = edit(forecast, (s) => s.properties.options.required.push("detail"));
    const w = expectWitness(forecast, next, { rule: "required-added", path: "/properties/options/properties/detail" });
    expect(obj(obj(w).options).lang).toMatch(/^[a-z]{2}$/);
  });

  test("required-removed on output: the new side omits a property the old one promised", () => {
    const next = edit(weather, (s) => {
      s.required = ["temperature", "conditions"];
    });
    const w = expectWitness(
      weather,
      next,
      { rule: "required-removed", path: "/required", before: "station" },
      "output",
    );
    expect(w).not.toHaveProperty("station");
  });

  test("additional-properties-restricted: absent → false", () => {
    const next = edit(forecast, (s) => {
      s.additionalProperties = false;
    });
    const w = expectWitness(forecast, next, {
      rule: "additional-properties-restricted",
      path: "/additionalProperties",
    });
    expect(Object.keys(obj(w))).toContain("extra");
  });

  test("additional-properties-restricted: {} → a schema (extra value of another type)", () => {
    const old = edit(forecast, (s) => {
      s.properties.options.additionalProperties = {};
    });
    const next = edit(forecast, (s) => {
      s.properties.options.additionalProperties = { type: "string" };
    });
    expectWitness(old, next, {
      rule: "additional-properties-restricted",
      path: "/properties/options/additionalProperties",
    });
  });

  test("closed-object-property-removed (draft-07): the removed property is sent", () => {
    const next = edit(issue, (s) => {
      delete s.properties.estimate;
    });
    const w = expectWitness(issue, next, {
      rule: "closed-object-property-removed",
      path: "/properties/estimate",
      before: obj(issue.properties).estimate as Json,
    });
    expect(obj(w).estimate).toBe(0);
  });

  test("property-removed on output: the name may now carry any value", () => {
    const next = edit(weather, (s) => {
      delete s.properties.humidity;
    });
    const w = expectWitness(weather, next, { rule: "property-removed", path: "/properties/humidity" }, "output");
    expect(obj(w)).toHaveProperty("humidity");
  });

  test("min-properties-raised, max-properties-lowered, dependent-required-added", () => {
    const open: JsonObject = {
      type: "object",
      properties: { card: { type: "string" }, cvv: { type: "string" }, name: { type: "string" } },
    };
    expectWitness(open, { ...open, minProperties: 1 }, { rule: "min-properties-raised", path: "/minProperties" });
    expectWitness(
      { ...open, maxProperties: 3 },
      { ...open, maxProperties: 1 },
      {
        rule: "max-properties-lowered",
        path: "/maxProperties",
      },
    );
    const w = expectWitness(
      open,
      { ...open, dependentRequired: { card: ["cvv"] } },
      {
        rule: "dependent-required-added",
        path: "/dependentRequired/card",
        after: "cvv",
      },
    );
    expect(obj(w)).toHaveProperty("card");
    expect(obj(w)).not.toHaveProperty("cvv");
  });
});

describe("findWitness: types, null, enum, const", () => {
  test("type-narrowed: [string, integer] → string gives an integer", () => {
    const next = edit(forecast, (s) => {
      s.properties.id.type = "string";
    });
    const w = expectWitness(forecast, next, {
      rule: "type-narrowed",
      path: "/properties/id/type",
      before: ["integer", "string"],
      after: ["string"],
    });
    expect(typeof obj(w).id).toBe("number");
  });

  test("type-narrowed: number → integer gives a fraction inside the bounds", () => {
    const next = edit(forecast, (s) => {
      s.$defs.Location.properties.lat.type = "integer";
    });
    const w = expectWitness(forecast, next, {
      rule: "type-narrowed",
      path: "/properties/location/$ref/properties/lat/type",
    });
    const lat = obj(obj(w).location).lat as number;
    expect(Number.isInteger(lat)).toBe(false);
  });

  test("type-widened on output: integer → number", () => {
    const next = edit(weather, (s) => {
      s.properties.temperature.type = "number";
    });
    const w = expectWitness(weather, next, { rule: "type-widened", path: "/properties/temperature/type" }, "output");
    expect(Number.isInteger(obj(w).temperature)).toBe(false);
  });

  test("null-removed: type array, anyOf null branch, nullable: true", () => {
    const typeArray = edit(forecast, (s) => {
      s.properties.note.type = "string";
    });
    expect(
      obj(expectWitness(forecast, typeArray, { rule: "null-removed", path: "/properties/note", before: null })).note,
    ).toBe(null);

    const anyOfOld: JsonObject = {
      type: "object",
      properties: { cursor: { anyOf: [{ type: "string" }, { type: "null" }] } },
      required: ["cursor"],
    };
    const anyOfNew = edit(anyOfOld, (s) => {
      s.properties.cursor = { type: "string" };
    });
    expect(obj(expectWitness(anyOfOld, anyOfNew, { rule: "null-removed", path: "/properties/cursor" })).cursor).toBe(
      null,
    );

    const nullableOld: JsonObject = {
      $schema: DRAFT07,
      type: "object",
      properties: { limit: { type: "integer", nullable: true } },
    };
    const nullableNew = edit(nullableOld, (s) => {
      delete s.properties.limit.nullable;
    });
    expectWitness(nullableOld, nullableNew, { rule: "null-removed", path: "/properties/limit" });
  });

  test("null-added on output", () => {
    const next = edit(weather, (s) => {
      s.properties.station = { type: ["string", "null"] };
    });
    expect(
      obj(expectWitness(weather, next, { rule: "null-added", path: "/properties/station", after: null }, "output"))
        .station,
    ).toBe(null);
  });

  test("enum-value-removed: the removed value", () => {
    const next = edit(forecast, (s) => {
      s.properties.units.enum = ["metric"];
    });
    const w = expectWitness(forecast, next, {
      rule: "enum-value-removed",
      path: "/properties/units/enum",
      before: "imperial",
    });
    expect(obj(w).units).toBe("imperial");
  });

  test("several values removed at one path: each change's witness is its own value", () => {
    const old: JsonObject = {
      type: "object",
      properties: { kind: { type: "string", enum: ["issue", "span", "breadcrumbs", "snapshotImage"] } },
      required: ["kind"],
    };
    const next = edit(old, (s) => {
      s.properties.kind.enum = ["issue"];
    });
    for (const value of ["breadcrumbs", "snapshotImage", "span"]) {
      const w = expectWitness(old, next, { rule: "enum-value-removed", path: "/properties/kind/enum", before: value });
      expect(obj(w).kind).toBe(value);
    }
  });

  test("enum-value-removed without before/after: found by set difference, inside array items", () => {
    const next = edit(forecast, (s) => {
      s.properties.include.items.enum = ["hourly", "daily"];
    });
    const w = expectWitness(forecast, next, { rule: "enum-value-removed", path: "/properties/include/items/enum" });
    expect(obj(w).include).toEqual(["alerts"]);
  });

  test("enum-value-removed in a draft-07 definition", () => {
    const next = edit(issue, (s) => {
      s.definitions.Priority.enum = ["low", "medium"];
    });
    const w = expectWitness(issue, next, {
      rule: "enum-value-removed",
      path: "/properties/priority/$ref/enum",
      before: "high",
    });
    expect(obj(w).priority).toBe("high");
  });

  test("enum-value-added on output", () => {
    const next = edit(weather, (s) => {
      s.properties.conditions.enum = ["sunny", "rain", "snow"];
    });
    const w = expectWitness(
      weather,
      next,
      { rule: "enum-value-added", path: "/properties/conditions/enum", after: "snow" },
      "output",
    );
    expect(obj(w).conditions).toBe("snow");
  });

  test("enum-added: a value outside the new list (nested object with a pattern-constrained sibling)", () => {
    const next = edit(forecast, (s) => {
      s.properties.options.properties.detail = { type: "string", enum: ["low", "high"] };
    });
    const w = expectWitness(forecast, next, {
      rule: "enum-added",
      path: "/properties/options/properties/detail/enum",
      after: ["low", "high"],
    });
    expect(["low", "high"]).not.toContain(obj(obj(w).options).detail);
  });

  test("const-added, const-changed (input: the old const; output: the new const)", () => {
    const next = edit(weather, (s) => {
      s.properties.station = { const: "KSFO" };
    });
    expectWitness(weather, next, { rule: "const-added", path: "/properties/station/const", after: "KSFO" });

    const v2 = edit(weather, (s) => {
      s.properties.version = { const: "v2" };
    });
    const change = { rule: "const-changed", path: "/properties/version/const", before: "v1", after: "v2" };
    expect(obj(expectWitness(weather, v2, change, "input")).version).toBe("v1");
    expect(obj(expectWitness(weather, v2, change, "output")).version).toBe("v2");
  });
});

describe("findWitness: numbers", () => {
  test("minimum-raised and maximum-lowered", () => {
    const raised = edit(forecast, (s) => {
      s.properties.days.minimum = 3;
    });
    const w = expectWitness(forecast, raised, {
      rule: "minimum-raised",
      path: "/properties/days/minimum",
      before: 1,
      after: 3,
    });
    expect(obj(w).days).toBeLessThan(3);
    const lowered = edit(forecast, (s) => {
      s.properties.days.maximum = 7;
    });
    const w2 = expectWitness(forecast, lowered, {
      rule: "maximum-lowered",
      path: "/properties/days/maximum",
      before: 14,
      after: 7,
    });
    expect(obj(w2).days).toBeGreaterThan(7);
  });

  test("minimum became exclusive", () => {
    const next = edit(forecast, (s) => {
      delete s.$defs.Location.properties.lat.minimum;
      s.$defs.Location.properties.lat.exclusiveMinimum = -90;
    });
    const w = expectWitness(forecast, next, {
      rule: "minimum-raised",
      path: "/properties/location/$ref/properties/lat/exclusiveMinimum",
    });
    expect(obj(obj(w).location).lat).toBe(-90);
  });

  test("exclusive maximum on an integer with multipleOf (draft-07)", () => {
    const next = edit(issue, (s) => {
      delete s.properties.estimate.maximum;
      s.properties.estimate.exclusiveMaximum = 100;
    });
    const w = expectWitness(issue, next, {
      rule: "maximum-lowered",
      path: "/properties/estimate/exclusiveMaximum",
    });
    expect(obj(w).estimate).toBe(100);
  });

  test("maximum-lowered respects integer type and multipleOf", () => {
    const old: JsonObject = {
      type: "object",
      properties: { step: { type: "integer", multipleOf: 7, minimum: 0, maximum: 100 } },
      required: ["step"],
    };
    const next = edit(old, (s) => {
      s.properties.step.maximum = 50;
    });
    const w = expectWitness(old, next, { rule: "maximum-lowered", path: "/properties/step/maximum" });
    expect((obj(w).step as number) % 7).toBe(0);
    expect(obj(w).step).toBeGreaterThan(50);
  });

  test("multiple-of-narrowed", () => {
    const next = edit(issue, (s) => {
      s.properties.estimate.multipleOf = 10;
    });
    expectWitness(issue, next, { rule: "multiple-of-narrowed", path: "/properties/estimate/multipleOf" });
  });
});

describe("findWitness: strings", () => {
  test("min-length-raised and max-length-lowered", () => {
    const next = edit(forecast, (s) => {
      s.$defs.Location.properties.city.minLength = 3;
    });
    const w = expectWitness(forecast, next, {
      rule: "min-length-raised",
      path: "/properties/location/$ref/properties/city/minLength",
    });
    expect((obj(obj(w).location).city as string).length).toBeLessThan(3);
    const shorter = edit(forecast, (s) => {
      s.properties.note.maxLength = 50;
    });
    const w2 = expectWitness(forecast, shorter, { rule: "max-length-lowered", path: "/properties/note/maxLength" });
    expect((obj(w2).note as string).length).toBeGreaterThan(50);
  });

  test("min-length-raised respects a pattern", () => {
    const old: JsonObject = {
      type: "object",
      properties: { code: { type: "string", pattern: "^[A-Z]{2}[0-9]+$", minLength: 3 } },
      required: ["code"],
    };
    const next = edit(old, (s) => {
      s.properties.code.minLength = 6;
    });
    const w = expectWitness(old, next, { rule: "min-length-raised", path: "/properties/code/minLength" });
    expect(obj(w).code).toMatch(/^[A-Z]{2}[0-9]+$/);
  });

  test("pattern-added", () => {
    const next = edit(forecast, (s) => {
      s.$defs.Location.properties.city.pattern = "^[A-Z][a-z]+$";
    });
    expectWitness(forecast, next, {
      rule: "pattern-added",
      path: "/properties/location/$ref/properties/city/pattern",
      after: "^[A-Z][a-z]+$",
    });
  });

  test("pattern-changed: narrowing found on input; a compatible widening has no input witness", () => {
    const next = edit(forecast, (s) => {
      s.properties.options.properties.lang.pattern = "^[a-z]{2}-[A-Z]{2}$";
    });
    const change = { rule: "pattern-changed", path: "/properties/options/properties/lang/pattern" };
    const w = expectWitness(forecast, next, change);
    expect(obj(obj(w).options).lang).toMatch(/^[a-z]{2}$/);
    expectWitness(forecast, next, change, "output");

    const wider = edit(forecast, (s) => {
      s.properties.options.properties.lang.pattern = "^[a-z]{2,3}$";
    });
    expect(findWitness(forecast, wider, change, "input")).toBeUndefined();
    expectWitness(forecast, wider, change, "output");
  });

  test("format-added and format-changed", () => {
    const next = edit(forecast, (s) => {
      s.properties.options.properties.contact.format = "email";
    });
    const w = expectWitness(forecast, next, {
      rule: "format-added",
      path: "/properties/options/properties/contact/format",
      after: "email",
    });
    expect(obj(obj(w).options).contact).toBe("not-a-email");
    const changed = edit(forecast, (s) => {
      s.properties.options.properties.since.format = "date-time";
    });
    const w2 = expectWitness(forecast, changed, {
      rule: "format-changed",
      path: "/properties/options/properties/since/format",
    });
    expect(obj(obj(w2).options).since).toBe("2025-01-01");
  });
});

describe("findWitness: arrays and unions", () => {
  test("max-items-lowered and min-items-raised", () => {
    const fewer = edit(forecast, (s) => {
      s.properties.include.maxItems = 2;
    });
    const w = expectWitness(forecast, fewer, { rule: "max-items-lowered", path: "/properties/include/maxItems" });
    expect((obj(w).include as Json[]).length).toBe(3);
    const more = edit(forecast, (s) => {
      s.properties.include.minItems = 1;
    });
    expect(
      obj(expectWitness(forecast, more, { rule: "min-items-raised", path: "/properties/include/minItems" })).include,
    ).toEqual([]);
  });

  test("unique-items-added: two equal items", () => {
    const next = edit(issue, (s) => {
      s.properties.labels.uniqueItems = true;
    });
    const w = expectWitness(issue, next, { rule: "unique-items-added", path: "/properties/labels/uniqueItems" });
    const labels = obj(w).labels as Json[];
    expect(labels.length).toBe(2);
    expect(labels[0]).toEqual(labels[1] as Json);
  });

  test("contains-added: an array without a matching item", () => {
    const next = edit(issue, (s) => {
      s.properties.labels.contains = { const: "triage" };
    });
    expectWitness(issue, next, { rule: "contains-added", path: "/properties/labels/contains" });
  });

  test("draft-07 tuple position: minimum raised on items/1", () => {
    const next = edit(issue, (s) => {
      s.properties.range.items[1].minimum = 10;
    });
    const w = expectWitness(issue, next, { rule: "minimum-raised", path: "/properties/range/items/1/minimum" });
    const range = obj(w).range as Json[];
    expect(typeof range[0]).toBe("string");
    expect(range[1]).toBeLessThan(10);
  });

  test("2020-12 prefixItems position", () => {
    const old: JsonObject = {
      type: "object",
      properties: { point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], minItems: 2 } },
      required: ["point"],
    };
    const next = edit(old, (s) => {
      s.properties.point.prefixItems[1] = { type: "integer" };
    });
    const w = expectWitness(old, next, { rule: "type-narrowed", path: "/properties/point/prefixItems/1/type" });
    expect((obj(w).point as Json[]).length).toBe(2);
  });

  test("any-of-branch-removed: a minimal instance of the removed branch", () => {
    const old: JsonObject = {
      type: "object",
      properties: {
        value: {
          anyOf: [{ type: "string", minLength: 1 }, { type: "integer", minimum: 10 }, { $ref: "#/$defs/Range" }],
        },
      },
      required: ["value"],
      $defs: {
        Range: {
          type: "object",
          properties: { from: { type: "integer" }, to: { type: "integer" } },
          required: ["from", "to"],
        },
      },
    };
    const next = edit(old, (s) => {
      s.properties.value.anyOf.splice(1, 1);
    });
    const w = expectWitness(old, next, {
      rule: "any-of-branch-removed",
      path: "/properties/value/anyOf/1",
      before: { type: "integer", minimum: 10 },
    });
    expect(obj(w).value).toBe(10);
    const noRange = edit(old, (s) => {
      s.properties.value.anyOf.pop();
    });
    const w2 = expectWitness(old, noRange, { rule: "any-of-branch-removed", path: "/properties/value/anyOf/2" });
    expect(obj(w2).value).toEqual({ from: 0, to: 0 });
  });

  test("any-of-branch-added on output", () => {
    const old: JsonObject = { type: "object", properties: { result: { type: "string" } }, required: ["result"] };
    const next = edit(old, (s) => {
      s.properties.result = { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] };
    });
    const w = expectWitness(
      old,
      next,
      { rule: "any-of-branch-added", path: "/properties/result/anyOf/1", after: { type: "array" } },
      "output",
    );
    expect(Array.isArray(obj(w).result)).toBe(true);
  });
});

describe("findWitness: depth, attribution, no witness, invalid schemas", () => {
  test("a 20-level-deep nested object", () => {
    const build = (leaf: JsonObject): JsonObject => {
      let node: JsonObject = leaf;
      for (let i = 19; i >= 0; i--) {
        node = {
          type: "object",
          properties: { [`level${i}`]: node, [`note${i}`]: { type: "string" } },
          required: [`level${i}`],
        };
      }
      return node;
    };
    const old = build({ type: "string", enum: ["a", "b"] });
    const next = build({ type: "string", enum: ["a"] });
    const path = `${Array.from({ length: 20 }, (_, i) => `/properties/level${i}`).join("")}/enum`;
    const w = expectWitness(old, next, { rule: "enum-value-removed", path, before: "b" });
    let node: Json = w;
    for (let i = 0; i < 20; i++) node = obj(node)[`level${i}`] as Json;
    expect(node).toBe("b");
  });

  test("the witness breaks through the change at hand, not through another change in the same schema", () => {
    // new also requires "days": the enum witness still carries days so that only the enum breaks
    const next = edit(forecast, (s) => {
      s.required.push("days");
      s.properties.units.enum = ["metric"];
    });
    const w = obj(
      expectWitness(forecast, next, { rule: "enum-value-removed", path: "/properties/units/enum", before: "imperial" }),
    );
    expect(w).toHaveProperty("days");
    expect(freshValidate(next, { ...w, units: "metric" })).toBe(true);
  });

  test("recursive schemas ($ref: #) terminate", () => {
    const tree: JsonObject = {
      type: "object",
      properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#" } } },
      required: ["name", "children"],
    };
    const next = edit(tree, (s) => {
      s.properties.name.minLength = 2;
    });
    expectWitness(tree, next, { rule: "min-length-raised", path: "/properties/name/minLength" });
  });

  test("draft-04 boolean exclusive bounds are read as draft-04 meant them", () => {
    const draft04 = "http://json-schema.org/draft-04/schema#";
    const old: JsonObject = {
      $schema: draft04,
      type: "object",
      properties: { ratio: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 1 } },
      required: ["ratio"],
    };
    const next = edit(old, (s) => {
      s.properties.ratio.minimum = 0.5;
    });
    const w = findWitness(old, next, { rule: "minimum-raised", path: "/properties/ratio/minimum" }, "input");
    const ratio = obj(w).ratio as number;
    expect(ratio).toBeGreaterThan(0);
    expect(ratio).toBeLessThanOrEqual(0.5);
  });

  test("old and new schemas with the same $id (and nested ids) do not collide", () => {
    const old: JsonObject = {
      $id: "https://example.com/tools/search.json",
      type: "object",
      properties: {
        query: { type: "string" },
        filter: { $id: "filter.json", type: "object", properties: { kind: { enum: ["a", "b"] } } },
      },
      required: ["query"],
    };
    const next = edit(old, (s) => {
      s.properties.filter.properties.kind.enum = ["a"];
    });
    for (let i = 0; i < 2; i++) {
      const w = expectWitness(old, next, {
        rule: "enum-value-removed",
        path: "/properties/filter/properties/kind/enum",
      });
      expect(obj(obj(w).filter).kind).toBe("b");
    }
    const other = edit(next, (s) => {
      s.required.push("filter");
    });
    expectWitness(next, other, { rule: "required-added", path: "/required", after: "filter" });
  });

  test("no witness when there is no break", () => {
    expect(
      findWitness(forecast, clone(forecast), { rule: "enum-value-removed", path: "/properties/units/enum" }, "input"),
    ).toBeUndefined();
    // widenings do not break input
    const wider = edit(forecast, (s) => {
      s.properties.units.enum.push("kelvin");
      s.properties.days.maximum = 30;
    });
    expect(
      findWitness(forecast, wider, { rule: "enum-value-added", path: "/properties/units/enum" }, "input"),
    ).toBeUndefined();
    expect(
      findWitness(forecast, wider, { rule: "maximum-raised", path: "/properties/days/maximum" }, "input"),
    ).toBeUndefined();
    // narrowings do not break output
    const narrower = edit(weather, (s) => {
      s.properties.conditions.enum = ["sunny"];
    });
    expect(
      findWitness(weather, narrower, { rule: "enum-value-removed", path: "/properties/conditions/enum" }, "output"),
    ).toBeUndefined();
    // documentation-only rules never have one
    const described = edit(forecast, (s) => {
      s.properties.days.description = "How many days";
    });
    expect(
      findWitness(forecast, described, { rule: "description-changed", path: "/properties/days/description" }, "input"),
    ).toBeUndefined();
  });

  test("invalid or uncompilable schemas give undefined without throwing", () => {
    const change = { rule: "type-narrowed", path: "/properties/a/type" };
    const good: JsonObject = { type: "object", properties: { a: { type: ["string", "integer"] } } };
    const cases: Json[] = [
      { type: "object", properties: { a: { type: "strnig" } } },
      { type: "object", properties: { a: { $ref: "#/$defs/Missing" } } },
      { type: "object", properties: { a: { type: "string", pattern: "([" } } },
      { type: "object", properties: { a: { $ref: "https://example.com/remote.json" } } },
      { type: "object", minLength: "three" },
      42,
      "not a schema",
      [],
      null,
    ];
    for (const bad of cases) {
      expect(() => findWitness(good, bad, change, "input")).not.toThrow();
      expect(findWitness(good, bad, change, "input")).toBeUndefined();
      expect(findWitness(bad, good, change, "output")).toBeUndefined();
    }
    expect(findWitness(good, good, { rule: "type-narrowed", path: "not a pointer" }, "input")).toBeUndefined();
  });
});

describe("minimalInstance", () => {
  test("builds valid minimal values", () => {
    const cases: Json[] = [
      forecast,
      issue,
      weather,
      { type: "string", format: "email" },
      { type: "string", format: "date-time" },
      { type: "string", format: "uuid" },
      { type: "string", pattern: "^v[0-9]+\\.[0-9]+$" },
      { type: "string", minLength: 5, maxLength: 5 },
      { type: "integer", exclusiveMinimum: 0, multipleOf: 3 },
      { type: "number", minimum: 2.5, maximum: 2.75 },
      { type: "array", minItems: 3, uniqueItems: true, items: { type: "integer", minimum: 1 } },
      { type: "object", minProperties: 2, properties: { a: { type: "boolean" } } },
      { allOf: [{ type: "object", required: ["a"] }, { properties: { a: { type: "string", minLength: 2 } } }] },
      { oneOf: [{ type: "null" }, { type: "string" }] },
      { anyOf: [{ type: "string", minLength: 3 }, { type: "integer" }] },
      { type: "object", properties: { node: { $ref: "#" } } },
    ];
    for (const schema of cases) {
      const value = minimalInstance(schema);
      expect(value).toBeDefined();
      expect(freshValidate(schema, value as Json)).toBe(true);
    }
    expect(
      minimalInstance({ type: "object", properties: { self: { $ref: "#" } }, required: ["self"] }),
    ).toBeUndefined();
    expect(minimalInstance(false)).toBeUndefined();
  });
});

// ── bounded on huge schemas ─────────────────────────────────────────────────────────────

describe("findWitness: bounded on huge schemas", () => {
  test("an enum of 100,000 values that loses one: the witness is that value, in linear time", () => {
    const values = Array.from({ length: 100_000 }, (_, i) => `v${i}`);
    const old: JsonObject = { type: "object", properties: { e: { type: "string", enum: values } }, required: ["e"] };
    const next = edit(old, (s) => {
      s.properties.e.enum = values.filter((v) => v !== "v500");
    });
    const started = performance.now();
    // Checked by hand: the value is in the old enum and not in the new one.
    expect(
      findWitness(old, next, { rule: "enum-value-removed", path: "/properties/e/enum", before: "v500" }, "input"),
    ).toEqual({ e: "v500" });
    // On output the added value is the witness.
    expect(
      findWitness(next, old, { rule: "enum-value-added", path: "/properties/e/enum", after: "v500" }, "output"),
    ).toEqual({ e: "v500" });
    // The quadratic search took minutes here; now about a second each.
    expect(performance.now() - started).toBeLessThan(limit(30_000));
  }, 60_000);

  test("an array of 10,000 unique items is built without comparing every pair", () => {
    const old: JsonObject = {
      type: "object",
      properties: { list: { type: "array", items: { type: "integer" }, minItems: 10_000, uniqueItems: true } },
      required: ["list"],
    };
    const next = edit(old, (s) => {
      s.properties.list.maxItems = 10_000;
    });
    const started = performance.now();
    const w = findWitness(old, next, { rule: "max-items-lowered", path: "/properties/list/maxItems" }, "input");
    if (w !== undefined) {
      const list = obj(w).list as Json[];
      expect(list.length).toBeGreaterThan(10_000);
      expect(new Set(list).size).toBe(list.length);
    }
    expect(performance.now() - started).toBeLessThan(limit(20_000));
  });

  test("a schema too large to compile quickly is not witnessed at all", () => {
    const branches = Array.from({ length: 3_000 }, (_, i) => ({
      type: "object",
      properties: { kind: { const: `k${i}` }, n: { type: "integer", maximum: i } },
    }));
    const old: JsonObject = { anyOf: branches };
    const next: JsonObject = { anyOf: branches.map((b, i) => (i === 7 ? { ...b, required: ["kind"] } : b)) };
    const started = performance.now();
    expect(findWitness(old, next, { rule: "required-added", path: "/anyOf/7/required" }, "input")).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(limit(1_000));
  });
});
