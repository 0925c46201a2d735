/**
 * Verdict precision (issue #12): the nine principles, each pinned by a table through the
 * whole surface diff (rules, severities by direction, notes), in both directions, plus
 * property tests: an equivalent rewrite of a tool's schemas finds nothing breaking (every
 * change patch), and for each schema row the input verdict of old→new equals the output
 * verdict of new→old. The engine tables (tests/unit/schema/rules.test.ts, "precision") and
 * the surface tables (tests/unit/diff/rules.test.ts) pin the same rules rule by rule.
 */
import { describe, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020";
import fc from "fast-check";
import type { Contract, Json, JsonObject } from "../../../src/contract/model.ts";
import type { Change } from "../../../src/diff/model.ts";
import { attachWitnesses } from "../../../src/diff/witnesses.ts";
import { compareSurfaces } from "../../../src/policy/compare.ts";
import { SEVERITIES, type Severity } from "../../../src/rules/model.ts";
import { REWRITES, rewrite, rootSchema } from "../schema/arbitraries.ts";
import { contract, tool } from "./helpers.ts";

const SAFE = Number.MAX_SAFE_INTEGER;
const withInput = (p: Json, extra: JsonObject = {}): Partial<Contract> => ({
  tools: [tool("t", { inputSchema: { type: "object", properties: { p }, ...extra } })],
});
const annotated = (annotations: JsonObject): Partial<Contract> => ({ tools: [tool("t", { annotations })] });

type Got = [rule: string, severity: Severity];
const got = (changes: readonly Change[]): Got[] => changes.map((c) => [c.rule, c.severity]);

interface Row {
  principle: number;
  title: string;
  old: Partial<Contract>;
  new: Partial<Contract>;
  forward: Got[];
  backward: Got[];
  /** A substring of the note of the first forward change. */
  note?: string;
}

const ROWS: Row[] = [
  {
    principle: 1,
    title:
      "a const added to a oneOf branch beside a catch-all branch rejects nothing the union accepted; the reverse edit makes a value match two branches",
    old: withInput({ oneOf: [{ type: "string", enum: ["fast", "slow"] }, { type: "string" }] }),
    new: withInput({ oneOf: [{ type: "string", const: "fast" }, { type: "string" }] }),
    forward: [["oneof-overlap-removed", "minor"]],
    backward: [["oneof-overlap-added", "breaking"]],
    note: 'The branch value "slow" no longer allowed',
  },
  {
    principle: 1,
    title: "a branch narrowed where no other branch takes its values stays breaking",
    old: withInput({ oneOf: [{ type: "string", enum: ["fast", "slow"] }, { type: "integer" }] }),
    new: withInput({ oneOf: [{ type: "string", const: "fast" }, { type: "integer" }] }),
    forward: [["enum-value-removed", "breaking"]],
    backward: [["enum-value-added", "minor"]],
  },
  {
    principle: 2,
    title: "const added to a property with no type: one finding, the implied type and null in its note",
    old: withInput({ description: "mode" }),
    new: withInput({ description: "mode", const: "v2" }),
    forward: [["const-added", "breaking"]],
    backward: [["const-removed", "minor"]],
    note: "Implied by the same edit: no longer allows number, boolean, object, array; no longer allows null.",
  },
  {
    principle: 2,
    title: "an enum on a nullable string: one finding",
    old: withInput({ type: ["string", "null"] }),
    new: withInput({ type: "string", enum: ["a"] }),
    forward: [["enum-added", "breaking"]],
    backward: [["enum-removed", "minor"]],
    note: "no longer allows null",
  },
  {
    principle: 3,
    title: "zod 3 → 4: .int() now writes ±(2^53−1)",
    old: withInput({ type: "integer" }),
    new: withInput({ type: "integer", minimum: -SAFE, maximum: SAFE }),
    forward: [
      ["safe-integer-bound-changed", "patch"],
      ["safe-integer-bound-changed", "patch"],
    ],
    backward: [
      ["safe-integer-bound-changed", "patch"],
      ["safe-integer-bound-changed", "patch"],
    ],
    note: "RFC 8259 §6, I-JSON RFC 7493",
  },
  {
    principle: 3,
    title: "a real integer bound stays breaking",
    old: withInput({ type: "integer" }),
    new: withInput({ type: "integer", maximum: 1000 }),
    forward: [["maximum-lowered", "breaking"]],
    backward: [["maximum-raised", "minor"]],
  },
  {
    principle: 4,
    title: "listChanged going false makes no request invalid: minor",
    old: { capabilities: { tools: { listChanged: true } } },
    new: { capabilities: { tools: { listChanged: false } } },
    forward: [["capability-notifications-removed", "minor"]],
    backward: [["capability-added", "minor"]],
    note: "notifications/tools/list_changed",
  },
  {
    principle: 4,
    title: "client capabilities sent by a confused server: patch, with a note",
    old: { capabilities: { tools: {}, elicitation: {} } },
    new: { capabilities: { tools: {} } },
    forward: [["non-server-capability-changed", "patch"]],
    backward: [["non-server-capability-changed", "patch"]],
    note: '"elicitation" is a client capability',
  },
  {
    principle: 4,
    title: "removing a real capability stays breaking",
    old: { capabilities: { tools: {}, completions: {} } },
    new: { capabilities: { tools: {} } },
    forward: [["capability-removed", "breaking"]],
    backward: [["capability-added", "minor"]],
  },
  {
    principle: 5,
    title: "protocol downgrade breaking (naming what the older revision lacks), upgrade minor",
    old: { protocolVersion: "2025-11-25" },
    new: { protocolVersion: "2025-06-18" },
    forward: [["protocol-version-downgraded", "breaking"]],
    backward: [["protocol-version-changed", "minor"]],
    note: "2025-11-25: tasks, icons",
  },
  {
    principle: 6,
    title: "a $schema change alone is patch",
    old: withInput({ type: "string" }, { $schema: "http://json-schema.org/draft-07/schema#" }),
    new: withInput({ type: "string" }, { $schema: "https://json-schema.org/draft/2020-12/schema" }),
    forward: [["schema-dialect-changed", "patch"]],
    backward: [["schema-dialect-changed", "patch"]],
  },
  {
    principle: 6,
    title: "a dialect change that changes meaning is reported as that meaning change",
    old: withInput(
      { type: "array", prefixItems: [{ type: "string" }] },
      { $schema: "https://json-schema.org/draft/2020-12/schema" },
    ),
    new: withInput(
      { type: "array", prefixItems: [{ type: "string" }], items: false },
      { $schema: "https://json-schema.org/draft/2020-12/schema" },
    ),
    forward: [["type-narrowed", "breaking"]],
    backward: [["type-widened", "minor"]],
  },
  {
    principle: 8,
    title: "execution.taskSupport absent ↔ forbidden: one equivalent rewrite",
    old: { tools: [tool("t")] },
    new: { tools: [tool("t", { execution: { taskSupport: "forbidden" } })] },
    forward: [["equivalent-rewrite", "patch"]],
    backward: [["equivalent-rewrite", "patch"]],
    note: 'an absent taskSupport means "forbidden"',
  },
  {
    principle: 8,
    title: "an unreferenced $defs entry and an empty required: one entry for the tool",
    old: withInput({ type: "string" }, { required: [] }),
    new: withInput({ type: "string" }, { $defs: { Spare: { type: "integer" } } }),
    forward: [["equivalent-rewrite", "patch"]],
    backward: [["equivalent-rewrite", "patch"]],
    note: 'definition "Spare" is referenced by nothing; inputSchema.required: an empty required list requires nothing',
  },
  {
    principle: 8,
    title: "nullability spelled another way: explained, not skipped",
    old: withInput({ type: ["string", "null"] }),
    new: withInput({ anyOf: [{ type: "string" }, { type: "null" }] }),
    forward: [["equivalent-rewrite", "patch"]],
    backward: [["equivalent-rewrite", "patch"]],
    note: "both schemas accept the same values",
  },
  {
    principle: 8,
    title: "a prompt argument's required: false spelled out, and a capability flag set to false: explained",
    old: { prompts: [{ name: "p", arguments: [{ name: "city" }] }], capabilities: { tools: {} } },
    new: {
      prompts: [{ name: "p", arguments: [{ name: "city", required: false }] }],
      capabilities: { tools: { listChanged: false } },
    },
    forward: [
      ["equivalent-rewrite", "patch"],
      ["equivalent-rewrite", "patch"],
    ],
    backward: [
      ["equivalent-rewrite", "patch"],
      ["equivalent-rewrite", "patch"],
    ],
    note: "an argument is optional unless required is true",
  },
  {
    principle: 8,
    title: "a change inside a referenced definition is explained by its finding: no rewrite entry beside it",
    old: withInput({ $ref: "#/$defs/Code" }, { $defs: { Code: { type: "string" } } }),
    new: withInput({ $ref: "#/$defs/Code" }, { $defs: { Code: { type: "string", maxLength: 3 } } }),
    forward: [["max-length-lowered", "breaking"]],
    backward: [["max-length-raised", "minor"]],
  },
  {
    principle: 9,
    title: "a read-only tool gaining destructiveHint: false is patch",
    old: annotated({ readOnlyHint: true }),
    new: annotated({ readOnlyHint: true, destructiveHint: false }),
    forward: [["equivalent-rewrite", "patch"]],
    backward: [["equivalent-rewrite", "patch"]],
    note: "destructiveHint means something only when readOnlyHint is false",
  },
  {
    principle: 9,
    title: "a writing tool gaining destructiveHint: false is a real promise",
    old: annotated({ readOnlyHint: false }),
    new: annotated({ readOnlyHint: false, destructiveHint: false }),
    forward: [["tool-no-longer-destructive", "minor"]],
    backward: [["tool-now-destructive", "breaking"]],
  },
];

describe("verdict precision: each principle in both directions", () => {
  for (const row of ROWS) {
    test(`${row.principle}. ${row.title}`, () => {
      const forward = compareSurfaces(contract(row.old), contract(row.new));
      expect(got(forward)).toEqual(row.forward);
      expect(got(compareSurfaces(contract(row.new), contract(row.old)))).toEqual(row.backward);
      if (row.note) expect(forward[0]?.note).toContain(row.note);
    });
  }
});

// ── 7: witnesses belong to their change ──────────────────────────────────────────────

function validates(schema: Json, value: Json | undefined): boolean {
  return new Ajv2020({ strict: false }).compile(schema as object)(value) as boolean;
}

describe("7. a witness is rejected because of the change it is attached to", () => {
  const oldSchema: JsonObject = {
    type: "object",
    properties: { code: { type: "string", maxLength: 10 }, n: { type: "integer" } },
    required: ["code"],
  };
  const newSchema: JsonObject = {
    type: "object",
    properties: { code: { type: "string", maxLength: 5, pattern: "^x" }, n: { type: "integer", minimum: 0 } },
    required: ["code"],
  };
  /** The old schema with only the change at `keyword` of property `name` applied. */
  const onlyThat = (name: string, keyword: string): Json => {
    const copy = structuredClone(oldSchema) as { properties: Record<string, JsonObject> };
    const target = (newSchema.properties as Record<string, JsonObject>)[name] as JsonObject;
    (copy.properties[name] as JsonObject)[keyword] = target[keyword] as Json;
    return copy as Json;
  };

  test.each([
    ["max-length-lowered", "code", "maxLength"],
    ["pattern-added", "code", "pattern"],
    ["minimum-raised", "n", "minimum"],
  ])("%s: old accepts it, the old schema with only that edit rejects it", async (rule, name, keyword) => {
    const before = contract({ tools: [tool("t", { inputSchema: oldSchema })] });
    const after = contract({ tools: [tool("t", { inputSchema: newSchema })] });
    const changes = await attachWitnesses(compareSurfaces(before, after), before, after);
    const change = changes.find((c) => c.rule === rule);
    expect(change?.witness).toBeDefined();
    expect(validates(oldSchema, change?.witness)).toBe(true);
    expect(validates(newSchema, change?.witness)).toBe(false);
    expect(validates(onlyThat(name, keyword), change?.witness)).toBe(false);
  });
});

describe("1. a oneOf overlap's witness is a value that matches two branches on the rejecting side", () => {
  const one: JsonObject = {
    type: "object",
    properties: { p: { oneOf: [{ type: "string", const: "fast" }, { type: "string" }] } },
  };
  const two: JsonObject = {
    type: "object",
    properties: { p: { oneOf: [{ type: "string", enum: ["fast", "slow"] }, { type: "string" }] } },
  };
  test.each([
    ["inputSchema", one, two, "oneof-overlap-added"],
    ["outputSchema", two, one, "oneof-overlap-removed"],
  ] as const)("%s: %#", async (field, oldSchema, newSchema, rule) => {
    const before = contract({ tools: [tool("t", { [field]: oldSchema })] });
    const after = contract({ tools: [tool("t", { [field]: newSchema })] });
    const changes = await attachWitnesses(compareSurfaces(before, after), before, after);
    expect(changes.map((c) => [c.rule, c.severity, c.witness])).toEqual([[rule, "breaking", { p: "slow" }]]);
    const [accepts, rejects] = field === "inputSchema" ? [oldSchema, newSchema] : [newSchema, oldSchema];
    expect([validates(accepts, { p: "slow" }), validates(rejects, { p: "slow" })]).toEqual([true, false]);
  });
});

// ── properties ────────────────────────────────────────────────────────────────────────

const rank = (s: Severity | "none") => (s === "none" ? SEVERITIES.length : SEVERITIES.indexOf(s));
const worst = (changes: readonly Change[]): Severity | "none" =>
  changes.reduce<Severity | "none">((w, c) => (rank(c.severity) < rank(w) ? c.severity : w), "none");

describe("properties", () => {
  const asTool = (schema: Json, field: "inputSchema" | "outputSchema") =>
    contract({ tools: [tool("t", field === "inputSchema" ? { inputSchema: schema } : { outputSchema: schema })] });

  test("a tool's schema against an equivalent rewrite: nothing above patch, in input and output", () => {
    fc.assert(
      fc.property(rootSchema({}), fc.nat(), (a, seed) => {
        const b = rewrite(a, seed, new Set(REWRITES), new Set());
        for (const field of ["inputSchema", "outputSchema"] as const) {
          const changes = compareSurfaces(asTool(a, field), asTool(b, field));
          // The engine's known spelling gaps (see schema/properties.test.ts) aside, a rewrite
          // is explained as one patch entry, never as a break.
          expect(changes.filter((c) => c.severity === "breaking").map((c) => c.rule)).toEqual([]);
        }
      }),
      { seed: 42, numRuns: 150 },
    );
  });

  test("for every schema row, the input verdict of old→new equals the output verdict of new→old", () => {
    for (const row of ROWS) {
      const schemaOf = (c: Partial<Contract>) => c.tools?.[0]?.inputSchema;
      const [a, b] = [schemaOf(row.old), schemaOf(row.new)];
      if (a === undefined || b === undefined) continue;
      // Schema findings only: equivalent-rewrite has no direction (and is patch either way).
      const judged = (x: Contract, y: Contract) => worst(compareSurfaces(x, y).filter((c) => c.direction));
      const input = judged(asTool(a, "inputSchema"), asTool(b, "inputSchema"));
      const output = judged(asTool(b, "outputSchema"), asTool(a, "outputSchema"));
      expect([row.title, input]).toEqual([row.title, output]);
    }
  });
});
