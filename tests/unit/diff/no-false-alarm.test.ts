/**
 * No false alarm (issue #26): one principle per table, each row judged through the whole surface
 * diff in both directions (rule and severity of every change), so that a row fails the moment
 * an edit is counted twice, a union is judged by position, or a keyword that cannot reject
 * anything is reported. Then the report side: every changed field is mapped to its finding,
 * equivalent rewrites need no release, the version part to bump is said one way everywhere,
 * and breaking changes on many items are one line with one witness.
 */
import { describe, expect, test } from "bun:test";
import type { Contract, Json, JsonObject } from "../../../src/contract/model.ts";
import type { Change } from "../../../src/diff/model.ts";
import { attachWitnesses } from "../../../src/diff/witnesses.ts";
import { compareSurfaces } from "../../../src/policy/compare.ts";
import { finishVerdict } from "../../../src/policy/verdict.ts";
import { renderGithub } from "../../../src/report/github.ts";
import { renderJson } from "../../../src/report/json.ts";
import { renderMarkdown } from "../../../src/report/markdown.ts";
import { buildReport, type Side } from "../../../src/report/model.ts";
import { renderText } from "../../../src/report/text.ts";
import type { Severity } from "../../../src/rules/model.ts";
import { contract, tool } from "./helpers.ts";

type Got = [rule: string, severity: Severity];
const got = (changes: readonly Change[]): Got[] => changes.map((c) => [c.rule, c.severity]);
const object = (properties: JsonObject, extra: JsonObject = {}): JsonObject => ({
  type: "object",
  properties,
  ...extra,
});
const input = (schema: JsonObject): Partial<Contract> => ({ tools: [tool("t", { inputSchema: schema })] });
const output = (schema: JsonObject): Partial<Contract> => ({ tools: [tool("t", { outputSchema: schema })] });
/** A schema with one property `p` (input or output). */
const withP = (p: Json, side: typeof input = input, extra: JsonObject = {}) => side(object({ p }, extra));

interface Row {
  title: string;
  old: Partial<Contract>;
  new: Partial<Contract>;
  forward: Got[];
  backward: Got[];
}

function judge(rows: Row[]): void {
  for (const row of rows) {
    test(row.title, () => {
      expect(got(compareSurfaces(contract(row.old), contract(row.new)))).toEqual(row.forward);
      expect(got(compareSurfaces(contract(row.new), contract(row.old)))).toEqual(row.backward);
    });
  }
}

const CLOSED = { additionalProperties: false };
const city = { city: { type: "string" } };
const cityAndDays = { ...city, days: { type: "integer" } };

describe("1. one edit is one finding, at its strongest verdict, in every object shape", () => {
  judge([
    {
      title: "input, closed object: a property added and required is required-added (breaking) only",
      old: input(object(city, CLOSED)),
      new: input(object(cityAndDays, { ...CLOSED, required: ["days"] })),
      forward: [["required-added", "breaking"]],
      // Removed: callers that send it (all of them: it was required) are rejected.
      backward: [["closed-object-property-removed", "breaking"]],
    },
    {
      title: "output, closed object: the same edit is closed-object-property-added (breaking) only",
      old: output(object(city, CLOSED)),
      new: output(object(cityAndDays, { ...CLOSED, required: ["days"] })),
      forward: [["closed-object-property-added", "breaking"]],
      backward: [["required-removed", "breaking"]],
    },
    {
      title: "input, open object: one finding each way, as before",
      old: input(object(city)),
      new: input(object(cityAndDays, { required: ["days"] })),
      forward: [["required-added", "breaking"]],
      backward: [["required-removed", "minor"]],
    },
    {
      title: "an optional property on a closed object keeps its own rule",
      old: input(object(city, CLOSED)),
      new: input(object(cityAndDays, CLOSED)),
      forward: [["closed-object-property-added", "minor"]],
      backward: [["closed-object-property-removed", "breaking"]],
    },
  ]);

  test("the one finding names both lockfile fields it explains, and says what closedness adds", () => {
    const [change] = compareSurfaces(
      contract(input(object(city, CLOSED))),
      contract(input(object(cityAndDays, { ...CLOSED, required: ["days"] }))),
    );
    expect(change?.explains).toEqual(["/inputSchema/properties/days", "/inputSchema/required"]);
    expect(change?.note).toContain("allows no other properties");
  });
});

const kindA = object({ kind: { const: "a" }, x: { type: "string" } }, { required: ["kind"] });
const kindB = object({ kind: { const: "b" }, y: { type: "number" } }, { required: ["kind"] });
const overlapping = [object({ x: { type: "string" } }), object({ y: { type: "number" } })];
const withId = object({ id: { type: "string" } }, { required: ["id"] });
const noId = object({ name: { type: "string" } }, { ...CLOSED, required: ["name"] });
const defs = (p: Json) => ({ ...object({ p }), $defs: { U: { oneOf: [kindA, kindB] } } });

describe("2. unions are compared as sets of values, not by position or keyword", () => {
  judge([
    {
      title: "oneOf → anyOf over branches told apart by a const discriminator: an equivalent rewrite",
      old: withP({ oneOf: [kindA, kindB] }),
      new: withP({ anyOf: [kindA, kindB] }),
      forward: [["equivalent-rewrite", "patch"]],
      backward: [["equivalent-rewrite", "patch"]],
    },
    {
      title: "the same on output",
      old: withP({ oneOf: [kindA, kindB] }, output),
      new: withP({ anyOf: [kindA, kindB] }, output),
      forward: [["equivalent-rewrite", "patch"]],
      backward: [["equivalent-rewrite", "patch"]],
    },
    {
      title: "branches told apart by a required key the other (closed) branch forbids",
      old: withP({ oneOf: [withId, noId] }),
      new: withP({ anyOf: [withId, noId] }),
      forward: [["equivalent-rewrite", "patch"]],
      backward: [["equivalent-rewrite", "patch"]],
    },
    {
      title: "branches told apart by enum values",
      old: withP({ oneOf: [{ enum: ["a", "b"] }, { enum: ["c"] }] }),
      new: withP({ anyOf: [{ enum: ["a", "b"] }, { enum: ["c"] }] }),
      forward: [["equivalent-rewrite", "patch"]],
      backward: [["equivalent-rewrite", "patch"]],
    },
    {
      title: "branches that can overlap still make the keyword switch a change to review",
      old: withP({ oneOf: overlapping }),
      new: withP({ anyOf: overlapping }),
      forward: [["composition-changed", "breaking"]],
      backward: [["composition-changed", "breaking"]],
    },
    {
      title: "a $ref'd oneOf that becomes one branch of a new anyOf is a widening (input)",
      old: { tools: [tool("t", { inputSchema: defs({ $ref: "#/$defs/U" }) })] },
      new: { tools: [tool("t", { inputSchema: defs({ anyOf: [{ $ref: "#/$defs/U" }, { type: "string" }] }) })] },
      forward: [
        ["equivalent-rewrite", "patch"],
        ["any-of-branch-added", "minor"],
      ],
      backward: [
        ["equivalent-rewrite", "patch"],
        ["any-of-branch-removed", "breaking"],
      ],
    },
    {
      title: "the same written inline, on output: consumers may now receive a string",
      old: withP({ oneOf: [kindA, kindB] }, output),
      new: withP({ anyOf: [{ oneOf: [kindA, kindB] }, { type: "string" }] }, output),
      forward: [
        ["equivalent-rewrite", "patch"],
        ["any-of-branch-added", "breaking"],
      ],
      backward: [
        ["equivalent-rewrite", "patch"],
        ["any-of-branch-removed", "minor"],
      ],
    },
  ]);
});

const SAFE = Number.MAX_SAFE_INTEGER;

describe("3. keywords that cannot reject anything are no change", () => {
  judge([
    {
      title: "propertyNames {type: string}: object keys are always strings",
      old: withP({ type: "object" }),
      new: withP({ type: "object", propertyNames: { type: "string" } }),
      forward: [["equivalent-rewrite", "patch"]],
      backward: [["equivalent-rewrite", "patch"]],
    },
    {
      title: "a propertyNames that does restrict keys is still judged",
      old: withP({ type: "object" }),
      new: withP({ type: "object", propertyNames: { type: "string", maxLength: 3 } }),
      forward: [["max-length-lowered", "breaking"]],
      backward: [["max-length-raised", "minor"]],
    },
    {
      title: "number → integer with zod's ±(2^53−1) bounds: the type change carries the verdict",
      old: withP({ type: "number" }),
      new: withP({ type: "integer", minimum: -SAFE, maximum: SAFE }),
      forward: [["type-narrowed", "breaking"]],
      backward: [["type-widened", "minor"]],
    },
    {
      title: "the bounds on an integer that stays integer: patch, as before",
      old: withP({ type: "integer" }),
      new: withP({ type: "integer", minimum: -SAFE, maximum: SAFE }),
      forward: [
        ["safe-integer-bound-changed", "patch"],
        ["safe-integer-bound-changed", "patch"],
      ],
      backward: [
        ["safe-integer-bound-changed", "patch"],
        ["safe-integer-bound-changed", "patch"],
      ],
    },
    {
      title: "minLength 1 where the old format already refused the empty string (uri): no narrowing",
      old: withP({ type: "string", format: "uri" }),
      new: withP({ type: "string", minLength: 1 }),
      forward: [
        ["equivalent-rewrite", "patch"],
        ["format-removed", "minor"],
      ],
      backward: [
        ["format-added", "breaking"],
        ["min-length-lowered", "minor"],
      ],
    },
    {
      title: "minLength 1 where the old pattern cannot match the empty string: no narrowing",
      old: withP({ type: "string", pattern: "^[^@]+@[^@]+$" }),
      new: withP({ type: "string", minLength: 1 }),
      forward: [
        ["equivalent-rewrite", "patch"],
        ["pattern-removed", "minor"],
      ],
      backward: [
        ["min-length-lowered", "minor"],
        ["pattern-added", "breaking"],
      ],
    },
    {
      title: "minLength 1 on a free string is still a narrowing",
      old: withP({ type: "string" }),
      new: withP({ type: "string", minLength: 1 }),
      forward: [["min-length-raised", "breaking"]],
      backward: [["min-length-lowered", "minor"]],
    },
    {
      title: "an anyOf alternative that repeats a kept one adds nothing; a new kind of value does",
      old: withP({ type: "string" }),
      new: withP({ anyOf: [{ type: "string" }, { type: "string", minLength: 2 }, { type: "object" }] }),
      forward: [
        ["equivalent-rewrite", "patch"],
        ["any-of-branch-added", "minor"],
      ],
      backward: [
        ["equivalent-rewrite", "patch"],
        ["any-of-branch-removed", "breaking"],
      ],
    },
    {
      title: "a property with a default that becomes required: minor (servers fill the default in)",
      old: withP({ type: "string", enum: ["css", "device"], default: "css" }),
      new: withP({ type: "string", enum: ["css", "device"], default: "css" }, input, { required: ["p"] }),
      forward: [["required-added-with-default", "minor"]],
      backward: [["required-removed", "minor"]],
    },
    {
      title: "a real bound beside number → integer is still its own change",
      old: withP({ type: "number" }),
      new: withP({ type: "integer", minimum: 0 }),
      forward: [
        ["minimum-raised", "breaking"],
        ["type-narrowed", "breaking"],
      ],
      backward: [
        ["minimum-lowered", "minor"],
        ["type-widened", "minor"],
      ],
    },
  ]);
});

describe("4. a finding that explains several fields names them all", () => {
  test("readOnlyHint true → false with destructiveHint false → true: one finding, both fields", () => {
    const before = contract({ tools: [tool("t", { annotations: { readOnlyHint: true, destructiveHint: false } })] });
    const after = contract({ tools: [tool("t", { annotations: { readOnlyHint: false, destructiveHint: true } })] });
    const changes = compareSurfaces(before, after);
    expect(got(changes)).toEqual([["tool-no-longer-read-only", "breaking"]]);
    expect(changes[0]?.message).toContain("readOnlyHint true → false; destructiveHint false → true");
    expect(changes[0]?.explains).toEqual(["/annotations/destructiveHint", "/annotations/readOnlyHint"]);
  });

  test("an equivalent rewrite lists each line it accounts for", () => {
    const before = contract(withP({ type: ["string", "null"] }));
    const after = contract(withP({ anyOf: [{ type: "string" }, { type: "null" }] }));
    const [change] = compareSurfaces(before, after);
    expect(change?.explains).toEqual(["/inputSchema/properties/p/anyOf", "/inputSchema/properties/p/type"]);
  });
});

const side = (version: string): Side => ({
  source: `${version}.json`,
  server: { name: "w", version },
  protocolVersion: "2025-11-25",
});

function report(before: Partial<Contract>, after: Partial<Contract>, from: string, to: string) {
  const changes = compareSurfaces(contract(before), contract(after));
  return buildReport("diff", side(from), side(to), changes, "breaking", []);
}

describe("5. equivalent rewrites cost no release", () => {
  const before = withP({ type: ["string", "null"] });
  const after = withP({ anyOf: [{ type: "string" }, { type: "null" }] });

  test("no version bump, and --enforce-semver passes on an unchanged version", () => {
    const out = finishVerdict(report(before, after, "1.2.0", "1.2.0"), { enforceSemver: true });
    expect(out.report.changeLevel).toBe("none");
    expect(out.report.requiredBump).toBe("none");
    expect(out.exitCode).toBe(0);
  });

  test("folded to one summary line in text and Markdown; JSON keeps each", () => {
    const many = (schema: Json) => ({
      tools: ["a", "b", "c"].map((name) => tool(name, { inputSchema: object({ p: schema }) })),
    });
    const r = finishVerdict(
      report(
        many({ type: ["string", "null"] }),
        many({ anyOf: [{ type: "string" }, { type: "null" }] }),
        "1.0.0",
        "1.0.0",
      ),
      {},
    ).report;
    const text = renderText(r, { color: false });
    expect(text.match(/equivalent-rewrite/g)).toHaveLength(1);
    expect(text).toContain("3 tools (a, b, c): 6 lockfile lines rewritten with no effect");
    expect(text).not.toContain("note:");
    expect(renderMarkdown(r).match(/`equivalent-rewrite`/g)).toHaveLength(1);
    expect(JSON.parse(renderJson(r)).changes).toHaveLength(3);
  });
});

describe("6. one verdict vocabulary", () => {
  test("below 1.0.0 a breaking change is a MINOR bump in text, JSON, Markdown and GitHub alike", () => {
    const r = finishVerdict(report({ tools: [tool("gone")] }, {}, "0.3.1", "0.3.2"), {}).report;
    const json = JSON.parse(renderJson(r));
    expect([json.changeLevel, json.requiredBump, json.nextVersion]).toEqual(["major", "minor", "0.4.0"]);
    for (const rendered of [renderText(r, { color: false }), renderMarkdown(r), renderGithub(r)]) {
      expect(rendered).toMatch(/MINOR version bump \(to 0\.4\.0/);
      expect(rendered).not.toContain("MAJOR");
    }
  });

  test("from 1.0.0 on, level and bump are the same word", () => {
    const r = finishVerdict(report({ tools: [tool("gone")] }, {}, "1.3.1", "1.3.2"), {}).report;
    expect([r.changeLevel, r.requiredBump, r.nextVersion]).toEqual(["major", "major", "2.0.0"]);
  });
});

describe("7. breaking changes are grouped too", () => {
  const many = (values: Json[]) => ({
    tools: ["a", "b", "c", "d", "e"].map((name) =>
      tool(name, { inputSchema: object({ units: { type: "string", enum: values } }) }),
    ),
  });

  test("the same breaking change on five tools: one line, one example witness, one annotation", async () => {
    const before = contract(many(["metric", "imperial"]));
    const after = contract(many(["metric"]));
    const changes = await attachWitnesses(compareSurfaces(before, after), before, after);
    expect(changes.filter((c) => c.witness !== undefined)).toHaveLength(5);
    const r = finishVerdict(buildReport("diff", side("1.0.0"), side("2.0.0"), changes, "breaking", []), {}).report;
    const text = renderText(r, { color: false });
    expect(text).toContain('5 tools (a, b, c, d, e): value "imperial" no longer allowed');
    expect(text.match(/witness:/g)).toHaveLength(1);
    expect(text).toContain('e.g. on "a"');
    const github = renderGithub(r);
    expect(github.match(/^::error/gm)).toHaveLength(1);
    expect(renderMarkdown(r).match(/arguments the old schema accepted/g)).toHaveLength(1);
    // JSON lists every change with its own witness.
    expect(JSON.parse(renderJson(r)).changes.filter((c: { witness?: Json }) => c.witness)).toHaveLength(5);
  });
});
