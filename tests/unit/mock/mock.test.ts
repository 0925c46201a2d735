/** The mock's pure parts: the seeded generator, RFC 6570 matching, argument validation, fixtures. */
import { describe, expect, test } from "bun:test";
import type { Contract, Json } from "../../../src/contract/model.ts";
import { UsageError } from "../../../src/errors.ts";
import { parseFixtures } from "../../../src/mock/fixtures.ts";
import { generate, seedFor } from "../../../src/mock/generate.ts";
import { MockServer, servedVersions } from "../../../src/mock/server.ts";
import { fitsTemplate } from "../../../src/mock/uri-template.ts";
import { describeProblem, validatorOf } from "../../../src/mock/validate.ts";

const SCHEMAS: Json[] = [
  {
    type: "object",
    properties: { id: { type: "string", format: "uuid" }, at: { type: "string", format: "date-time" } },
    required: ["id", "at"],
  },
  {
    type: "object",
    properties: { code: { type: "string", pattern: "^[A-Z]{3}-[0-9]{2}$" } },
    required: ["code"],
    additionalProperties: false,
  },
  { type: "array", items: { type: "integer", minimum: 5, maximum: 6 }, minItems: 2, uniqueItems: true },
  {
    type: "object",
    properties: { n: { type: "number", exclusiveMinimum: 0, multipleOf: 0.5, maximum: 3 } },
    required: ["n"],
  },
  { oneOf: [{ type: "string", enum: ["a", "b"] }, { type: "null" }] },
  {
    $defs: { node: { type: "object", properties: { kids: { type: "array", items: { $ref: "#/$defs/node" } } } } },
    $ref: "#/$defs/node",
  },
  {
    allOf: [
      { type: "object", properties: { a: { const: 1 } }, required: ["a"] },
      { properties: { b: { type: "boolean" } }, required: ["b"] },
    ],
  },
  {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { email: { type: "string", format: "email", minLength: 20 } },
    required: ["email"],
  },
];

describe("generate", () => {
  test.each(SCHEMAS.map((s, i) => [i, s] as const))("schema %d: every seed gives a valid value", (_, schema) => {
    const validate = validatorOf(schema);
    for (let seed = 0; seed < 25; seed++) {
      const value = generate(schema, seed);
      expect(value).toBeDefined();
      expect(validate(value)).toBeUndefined();
    }
  });

  test("deterministic per seed, and seeds vary it", () => {
    const schema = SCHEMAS[0] as Json;
    expect(generate(schema, 7)).toEqual(generate(schema, 7));
    expect(generate(schema, 7)).not.toEqual(generate(schema, 8));
    expect(seedFor(1, "t", { a: 1, b: 2 })).toBe(seedFor(1, "t", { b: 2, a: 1 }));
  });
});

describe("fitsTemplate", () => {
  test.each([
    ["weather://city/{city}/today", "weather://city/Paris/today"],
    ["weather://city/{city}/today", "weather://city/New%20York/today"],
    ["file:///{+path}", "file:///a/b/c.txt"],
    ["db://{table}{?limit}", "db://users?limit=5"],
    ["db://{table}{?limit}", "db://users"],
    ["r://{a}{.ext}", "r://x.json"],
  ])("%s matches %s", (template, uri) => {
    expect(fitsTemplate(template, uri)).toBe(true);
  });
  test.each([
    ["weather://city/{city}/today", "weather://city/Paris/tomorrow"],
    ["weather://city/{city}/today", "weather://city/a/b/today"],
    ["file:///{+path}", "http://x/a"],
    ["db://{table}{?limit}", "db://users#frag"],
  ])("%s does not match %s", (template, uri) => {
    expect(fitsTemplate(template, uri)).toBe(false);
  });
});

describe("validatorOf", () => {
  test("names the path and keyword of the first failure, in the schema's dialect", () => {
    const schema = { type: "object", properties: { days: { type: "integer", maximum: 7 } }, required: ["city"] };
    const problem = validatorOf(schema)({ city: "x", days: 9 });
    expect(problem && describeProblem(problem)).toBe("/days must be <= 7 (maximum)");
    const missing = validatorOf(schema)({});
    expect(missing && describeProblem(missing)).toBe("/city is required (required)");
    // draft-07 tuple items: the array form of items
    const tuple = { $schema: "http://json-schema.org/draft-07/schema#", type: "array", items: [{ type: "string" }] };
    expect(validatorOf(tuple)(["a"])).toBeUndefined();
    expect(validatorOf(tuple)([1])?.path).toBe("/0");
  });
});

describe("validatorOf on hostile or broken schemas", () => {
  test("a catastrophic pattern does not hang; a schema that does not compile checks nothing", () => {
    const started = Date.now();
    const problem = validatorOf({ type: "string", pattern: "^(a+)+$" })(`${"a".repeat(40)}!`);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(problem === undefined || problem.keyword === "pattern").toBe(true);
    expect(validatorOf({ $ref: "#/nowhere" })({ anything: 1 })).toBeUndefined();
  });
});

const CONTRACT: Contract = {
  lockfileVersion: 1,
  server: { name: "s", version: "1" },
  protocolVersion: "2025-06-18",
  capabilities: { tools: {}, resources: {}, prompts: {} },
  capture: { clientCapabilities: [] },
  tools: [
    {
      name: "t",
      inputSchema: { type: "object", properties: { q: { type: "string" } } },
      outputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
    },
  ],
  resources: [{ uri: "r://one", name: "one" }],
  resourceTemplates: [{ uriTemplate: "r://item/{id}", name: "item" }],
  prompts: [{ name: "p", arguments: [{ name: "who", required: true }] }],
};

describe("parseFixtures", () => {
  const parse = (value: unknown) => parseFixtures(JSON.stringify(value), "f.json", CONTRACT);
  test("matches on arguments, in order", () => {
    const fixtures = parse({
      tools: { t: [{ arguments: { q: "a" }, structuredContent: { n: 1 } }, { structuredContent: { n: 2 } }] },
    });
    expect(fixtures.toolResult("t", { q: "a", extra: 1 })?.structuredContent).toEqual({ n: 1 });
    expect(fixtures.toolResult("t", { q: "b" })?.structuredContent).toEqual({ n: 2 });
  });
  test.each([
    [{ tools: { t: { structuredContent: { n: "x" } } } }, "violates the tool's outputSchema"],
    [{ tools: { t: { text: "no structured" } } }, "needs structuredContent"],
    [{ tools: { u: { text: "x" } } }, 'no tool "u"'],
    [{ resources: { "r://two": { text: "x" } } }, "no template matches"],
    [{ prompts: { q: { text: "x" } } }, 'no prompt "q"'],
    [{ toolz: {} }, 'unknown key "toolz"'],
  ])("refuses %j", (value, message) => {
    expect(() => parse(value)).toThrow(UsageError);
    expect(() => parse(value)).toThrow(message);
  });
  test("a templated resource URI is accepted", () => {
    expect(parse({ resources: { "r://item/7": { text: "seven" } } }).resourceResult("r://item/7")?.contents).toEqual([
      { uri: "r://item/7", text: "seven" },
    ]);
  });
});

describe("MockServer", () => {
  const server = new MockServer(CONTRACT, { seed: 1, pageSize: 1 });
  test("legacy initialize negotiates at most the contract's version", () => {
    const answer = (version: string) => server.handle("initialize", { protocolVersion: version }, {});
    expect(answer("2025-11-25")).toMatchObject({ result: { protocolVersion: "2025-06-18" } });
    expect(answer("2025-03-26")).toMatchObject({ result: { protocolVersion: "2025-03-26" } });
  });
  test("a modern request with a version the server does not speak is refused with the list", () => {
    // Captured with --era legacy: the server was never asked server/discover, so both eras are served.
    const both = new MockServer(
      { ...CONTRACT, capture: { ...CONTRACT.capture, era: "legacy" } },
      { seed: 1, pageSize: 1 },
    );
    const meta = { "io.modelcontextprotocol/protocolVersion": "2099-01-01" };
    expect(both.handle("tools/list", { _meta: meta }, {})).toMatchObject({
      error: { code: -32022, data: { supported: ["2026-07-28"] } },
    });
  });
  test("a contract captured from a legacy-only server (auto, answered in the legacy era) is served legacy-only", () => {
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
    expect(server.handle("server/discover", { _meta: meta }, {})).toMatchObject({ error: { code: -32601 } });
    expect(servedVersions(CONTRACT).modern).toEqual([]);
  });
  test("lists are paginated; bad cursors are invalid params", () => {
    expect(server.handle("resources/list", {}, {})).toMatchObject({ result: { resources: [{ uri: "r://one" }] } });
    expect(server.handle("tools/list", { cursor: "bogus" }, {})).toMatchObject({ error: { code: -32602 } });
  });
  test("an unknown resource is -32002 in the legacy era; methods without a capability are -32601", () => {
    expect(server.handle("resources/read", { uri: "r://nope" }, {})).toMatchObject({ error: { code: -32002 } });
    expect(server.handle("completion/complete", {}, {})).toMatchObject({ error: { code: -32601 } });
  });
});

describe("servedVersions: the mock speaks the eras the capture shows (issue #29)", () => {
  const base = { ...CONTRACT, capture: { clientCapabilities: [] } };
  test("legacy, captured in auto: legacy only, up to the negotiated version", () => {
    const served = servedVersions({ ...base, protocolVersion: "2025-06-18" });
    expect(served.modern).toEqual([]);
    expect(served.legacy).toContain("2025-06-18");
    expect(served.legacy).not.toContain("2025-11-25");
  });
  test("legacy, captured with --era legacy: both eras (the server was never asked)", () => {
    const served = servedVersions({
      ...base,
      protocolVersion: "2025-11-25",
      capture: { clientCapabilities: [], era: "legacy" },
    });
    expect(served.modern).toEqual(["2026-07-28"]);
    expect(served.legacy).toContain("2025-11-25");
  });
  test("modern: the listed versions, and the legacy era too (server/discover does not say it is refused)", () => {
    const modern = {
      ...base,
      protocolVersion: "2026-07-28",
      capture: { clientCapabilities: [], supportedVersions: ["2026-07-28"] },
    };
    expect(servedVersions(modern).modern).toEqual(["2026-07-28"]);
    expect(servedVersions(modern).legacy).toContain("2025-11-25");
    const listed = { ...modern, capture: { clientCapabilities: [], supportedVersions: ["2026-07-28", "2025-06-18"] } };
    expect(servedVersions(listed).legacy).toEqual(["2025-06-18"]);
  });
});
