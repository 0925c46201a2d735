import { describe, expect, test } from "bun:test";
import { serializeContract } from "../../../src/contract/canonical.ts";
import { locateJsonError } from "../../../src/contract/json-position.ts";
import type { Contract } from "../../../src/contract/model.ts";
import { parseContract } from "../../../src/contract/read.ts";
import {
  assertCapturedSurface,
  assertDepth,
  findContractProblem,
  findValueProblem,
  MAX_NESTING_DEPTH,
  toolFieldsPass,
  toolPasses,
} from "../../../src/contract/validate.ts";
import { ServerError, UsageError } from "../../../src/errors.ts";
import { limit } from "../../helpers/clock.ts";

const valid = {
  lockfileVersion: 1,
  server: { name: "s", version: "1" },
  protocolVersion: "2025-11-25",
  capabilities: {},
  capture: { clientCapabilities: [] },
  tools: [{ name: "t", inputSchema: { type: "object" } }],
  resources: [],
  resourceTemplates: [],
  prompts: [],
};

function problem(text: string): string {
  try {
    parseContract(text, "mcp.contract.json");
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a UsageError");
}

const withField = (patch: Record<string, unknown>) => JSON.stringify({ ...valid, ...patch });

describe("parseContract", () => {
  test("round-trips a serialized contract", () => {
    const text = serializeContract(valid as never);
    expect(serializeContract(parseContract(text, "x"))).toBe(text);
  });

  test.each([
    ["", "is empty"],
    ["   \n", "is empty"],
    ['{"lockfileVersion": 1, "tools": [', "mcp.contract.json:1:34: not valid JSON: unexpected end of file"],
    ['{\n  "a": 1,\n  "b": 2,,\n}', "mcp.contract.json:3:10: not valid JSON"],
    ["[]", "at $, expected an object"],
    ['{"tools": []}', 'no "lockfileVersion" field'],
    [withField({ lockfileVersion: "1" }), "at $.lockfileVersion, expected a positive integer"],
    [withField({ lockfileVersion: 2 }), "written by a newer mcp-contract"],
    [withField({ server: "x" }), "at $.server"],
    [withField({ protocolVersion: 5 }), "at $.protocolVersion"],
    [withField({ capabilities: [] }), "at $.capabilities"],
    [withField({ instructions: 3 }), "at $.instructions"],
    [withField({ capture: {} }), "at $.capture.clientCapabilities, expected an array"],
    [withField({ capture: { clientCapabilities: ["telepathy"] } }), "at $.capture.clientCapabilities[0]"],
    [
      withField({ capture: { clientCapabilities: [], era: "auto" } }),
      "at $.capture.era, expected one of modern, legacy",
    ],
    [
      withField({ capture: { clientCapabilities: [], supportedVersions: "2026-07-28" } }),
      "at $.capture.supportedVersions",
    ],
    [withField({ capture: { clientCapabilities: [], supportedVersions: [7] } }), "at $.capture.supportedVersions[0]"],
    [withField({ tools: {} }), "at $.tools, expected an array"],
    [withField({ tools: [{ name: "a" }, { title: "no name" }] }), "at $.tools[1].name, expected a string"],
    [withField({ resources: [{ name: "r" }] }), "at $.resources[0].uri"],
    [withField({ resourceTemplates: [5] }), "at $.resourceTemplates[0], expected an object"],
    [withField({ prompts: undefined }), "at $.prompts"],
  ])("rejects a bad lockfile: %#", (text, expected) => {
    expect(problem(text)).toContain(expected);
  });
});

describe("the era facts of a capture", () => {
  test("a lockfile written before eras were recorded reads, and reads as captured with --era auto", () => {
    const contract = parseContract(JSON.stringify(valid), "old.json");
    expect(contract.capture).toEqual({ clientCapabilities: [] });
    expect(contract.capture.era).toBeUndefined();
  });

  test("a modern capture's facts read back, and serialize in a fixed order", () => {
    const modern = {
      ...valid,
      protocolVersion: "2026-07-28",
      capture: { supportedVersions: ["2026-07-28", "2027-01-01"], era: "modern", clientCapabilities: ["roots"] },
    };
    const text = serializeContract(parseContract(JSON.stringify(modern), "modern.json"));
    expect(text).toContain(
      '"capture": {\n    "clientCapabilities": [\n      "roots"\n    ],\n    "era": "modern",\n    "supportedVersions": [\n      "2026-07-28",\n      "2027-01-01"\n    ]\n  }',
    );
    expect(serializeContract(parseContract(text, "again.json"))).toBe(text);
  });
});

describe("locateJsonError", () => {
  test("points at the first bad character", () => {
    expect(locateJsonError('{"a": tru}')).toMatchObject({ line: 1, column: 7 });
    expect(locateJsonError('{"a": 1}\n{"b": 2}')).toMatchObject({ line: 2, column: 1 });
    expect(locateJsonError('{"a": "unterminated').message).toContain("inside a string");
  });
});

/** JSON text of a value `levels` levels deep, objects and arrays alternating (JSON.stringify would overflow). */
function nestedText(levels: number): string {
  const pairs = Math.floor(levels / 2);
  const core = levels % 2 === 1 ? "{}" : "";
  return `${'{"a":['.repeat(pairs)}${core}${"]}".repeat(pairs)}`;
}

/** withField, with `value` spliced in as JSON text. */
const withText = (patch: Record<string, unknown>, text: string) => withField(patch).replace('"HERE"', text);

/** A lockfile exactly `depth` levels deep: $ (1) → tools (2) → tools[0] (3) → inputSchema (4) → default (5) … */
function lockfileOfDepth(depth: number): string {
  return withText(
    { tools: [{ name: "deep", inputSchema: { type: "object", default: "HERE" } }] },
    nestedText(depth - 4),
  );
}

describe("parseContract: the fields the engine reads", () => {
  const tool = (extra: Record<string, unknown>) => withField({ tools: [{ name: "a" }, { name: "search", ...extra }] });
  test.each([
    [
      tool({ inputSchema: 7 }),
      'at $.tools[1].inputSchema (tool "search"), expected a JSON Schema (an object or a boolean), found a number (7)',
    ],
    [
      tool({ inputSchema: [] }),
      'at $.tools[1].inputSchema (tool "search"), expected a JSON Schema (an object or a boolean), found an array',
    ],
    [tool({ inputSchema: "object" }), 'found a string ("object")'],
    [
      tool({ inputSchema: null }),
      'at $.tools[1].inputSchema (tool "search"), expected a JSON Schema (an object or a boolean), found null',
    ],
    [
      tool({ outputSchema: [{ type: "object" }] }),
      'at $.tools[1].outputSchema (tool "search"), expected a JSON Schema',
    ],
    [
      tool({ annotations: "readOnly" }),
      'at $.tools[1].annotations (tool "search"), expected an object, found a string',
    ],
    [tool({ annotations: [] }), 'at $.tools[1].annotations (tool "search"), expected an object, found an array'],
    [tool({ execution: true }), 'at $.tools[1].execution (tool "search"), expected an object, found a boolean (true)'],
    [tool({ name: 5 }), "at $.tools[1].name, expected a string, found a number (5)"],
    [
      withField({ resources: [{ uri: "a://1", annotations: 1 }] }),
      'at $.resources[0].annotations (resource "a://1"), expected an object',
    ],
    [withField({ resources: [{ uri: ["a://1"] }] }), "at $.resources[0].uri, expected a string, found an array"],
    [
      withField({ resourceTemplates: [{ uriTemplate: "a://{x}", annotations: "x" }] }),
      'at $.resourceTemplates[0].annotations (resource template "a://{x}"), expected an object',
    ],
    [
      withField({ resourceTemplates: [{ name: "t" }] }),
      "at $.resourceTemplates[0].uriTemplate, expected a string, found nothing",
    ],
    [
      withField({ prompts: [{ name: "p", arguments: "city" }] }),
      'at $.prompts[0].arguments (prompt "p"), expected an array of arguments, found a string ("city")',
    ],
    [
      withField({ prompts: [{ name: "p", arguments: { city: {} } }] }),
      'at $.prompts[0].arguments (prompt "p"), expected an array of arguments, found an object',
    ],
    [
      withField({ prompts: [{ name: "p", arguments: [{ name: "a" }, 5] }] }),
      'at $.prompts[0].arguments[1] (prompt "p"), expected an argument object, found a number (5)',
    ],
    [
      withField({ prompts: [{ name: "p", arguments: [{ description: "no name" }] }] }),
      'at $.prompts[0].arguments[0].name (prompt "p"), expected the argument\'s name (a string), found nothing',
    ],
    [
      withField({ prompts: [{ name: "p", arguments: [{ name: null }] }] }),
      'at $.prompts[0].arguments[0].name (prompt "p"), expected the argument\'s name (a string), found null',
    ],
  ])("rejects a wrong-typed field: %#", (text, expected) => {
    const message = problem(text);
    expect(message).toContain(expected);
    expect(message).toStartWith("mcp.contract.json is not a valid mcp-contract lockfile: ");
    expect(message).not.toContain("\n");
  });

  test("accepts every valid shape of those fields, and keeps everything else as it is", () => {
    const contract = {
      ...valid,
      tools: [
        { name: "none" },
        { name: "true", inputSchema: true, outputSchema: false },
        { name: "object", inputSchema: {}, outputSchema: { type: "object" }, annotations: {}, execution: {} },
        // Not read by the engine's judgement beyond plain data: kept verbatim, lint reports them.
        { name: "loose", description: null, title: 5, icons: "x", _meta: [], annotations: { readOnlyHint: "yes" } },
        { name: "bad inside", inputSchema: { type: "object", properties: { a: 7, b: "string" }, required: "a" } },
      ],
      resources: [{ uri: "a://1", mimeType: 7, name: null, annotations: { audience: "user" } }],
      resourceTemplates: [{ uriTemplate: "a://{x}", name: 3 }],
      prompts: [
        { name: "none" },
        { name: "empty", arguments: [] },
        {
          name: "args",
          arguments: [
            { name: "a", required: "yes" },
            { name: "b", extra: [1] },
          ],
        },
      ],
    };
    const text = JSON.stringify(contract);
    expect(parseContract(text, "x")).toEqual(contract as never);
  });

  test("keeps items with the same identity, all of them, in their order", () => {
    const tools = [
      { name: "t", description: "first" },
      { name: "t", description: "second" },
      { name: "t", description: "first" },
    ];
    const prompts = [{ name: "p", arguments: [{ name: "x" }, { name: "x" }] }, { name: "p" }];
    const read = parseContract(withField({ tools, prompts }), "x");
    expect(read.tools).toEqual(tools);
    expect(read.prompts).toEqual(prompts as never);
  });
});

describe("parseContract: depth and numbers", () => {
  test(`accepts a lockfile nested exactly ${MAX_NESTING_DEPTH} levels deep and refuses one level more`, () => {
    const atLimit = lockfileOfDepth(MAX_NESTING_DEPTH);
    expect(() => parseContract(atLimit, "x")).not.toThrow();
    const message = problem(lockfileOfDepth(MAX_NESTING_DEPTH + 1));
    expect(message).toContain("at $.tools[0].inputSchema.default.a[0].a[0].a[0].a[0]…(");
    expect(message).toContain(
      'more levels)…[0].a[0] (tool "deep"), nested deeper than 256 levels of objects and arrays',
    );
    expect(message).not.toContain("\n");
  });

  test.each([10_000, 200_000])("refuses %d levels quickly, without exhausting the stack", (levels) => {
    const started = performance.now();
    const deep = nestedText(levels);
    for (const text of [
      withText({ tools: [{ name: "t", inputSchema: "HERE" }] }, deep),
      withText({ server: "HERE" }, deep),
      withText({ capabilities: { tools: "HERE" } }, deep),
      withText({ capture: { clientCapabilities: ["HERE"] } }, deep),
      withText({ lockfileVersion: "HERE" }, deep),
      withText({ extra: "HERE" }, deep),
    ]) {
      const message = problem(text);
      expect(message.length).toBeLessThan(600);
    }
    // Truncated: not JSON at all, and located without recursion.
    expect(problem("[".repeat(levels))).toContain("unexpected end of file");
    expect(performance.now() - started).toBeLessThan(limit(5_000));
  });

  test("refuses numbers JSON cannot represent instead of changing them", () => {
    const schema = '{"type":"object","properties":{"n":{"type":"number","maximum":1e999}}}';
    const text = withField({ tools: [{ name: "t", inputSchema: "SCHEMA" }] }).replace('"SCHEMA"', schema);
    expect(problem(text)).toContain(
      'at $.tools[0].inputSchema.properties.n.maximum (tool "t"), found a number JSON cannot represent (it reads as Infinity',
    );
    expect(problem(withField({ server: { name: "s", n: "X" } }).replace('"X"', "-1e400"))).toContain(
      "at $.server.n, found a number JSON cannot represent (it reads as -Infinity",
    );
    expect(problem(withField({ lockfileVersion: "X" }).replace('"X"', "1e999"))).toContain(
      "at $.lockfileVersion, expected a positive integer, found a number (Infinity)",
    );
    // Large but finite numbers are numbers like any other.
    const big = withField({ tools: [{ name: "t", inputSchema: "SCHEMA" }] }).replace('"SCHEMA"', '{"maximum":1.7e308}');
    expect(parseContract(big, "x").tools[0]?.inputSchema).toEqual({ maximum: 1.7e308 });
  });
});

describe("the contract boundary for captured surfaces", () => {
  const captured = (patch: Record<string, unknown>) => ({ ...valid, ...patch }) as never;

  test("a surface that passes is returned unchanged", () => {
    const surface = captured({});
    expect(assertCapturedSurface(surface)).toBe(surface);
  });

  test.each([
    [
      { tools: [{ name: "t", inputSchema: JSON.parse(nestedText(10_000)) }] },
      "the server's tools/list result cannot be recorded in a lockfile: at $.tools[0].inputSchema.a[0]",
    ],
    [
      { prompts: [{ name: "p", arguments: "x" }] },
      'the server\'s prompts/list result cannot be recorded in a lockfile: at $.prompts[0].arguments (prompt "p")',
    ],
    [
      { resources: [{ uri: "r://1", size: Number.POSITIVE_INFINITY }] },
      'the server\'s resources/list result cannot be recorded in a lockfile: at $.resources[0].size (resource "r://1"), found a number JSON cannot represent',
    ],
    [
      { capabilities: { x: Number.NaN } },
      "the server's answer to the handshake (serverInfo, capabilities) cannot be recorded in a lockfile: at $.capabilities.x, found a number JSON cannot represent (it reads as NaN",
    ],
  ])("refuses what a lockfile could not hold, as the server's fault (exit 3): %#", (patch, expected) => {
    let thrown: unknown;
    try {
      assertCapturedSurface(captured(patch));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ServerError);
    expect((thrown as ServerError).exitCode).toBe(3);
    expect((thrown as Error).message).toContain(expected);
  });

  test("assertDepth counts the value itself as level 1 and reports the path below `base`", () => {
    const fail = (path: string, what: string) => new Error(`${path}: ${what}`);
    expect(() => assertDepth({ a: [1] }, 2, fail)).not.toThrow();
    expect(() => assertDepth({ a: [[]] }, 2, fail)).toThrow("$.a[0]: nested deeper than 2 levels");
    expect(() => assertDepth({ a: { "b c": {} } }, 2, fail, ["tools", 1])).toThrow('$.tools[1].a["b c"]: nested');
    expect(() => assertDepth([0, Number.NEGATIVE_INFINITY], 5, fail)).toThrow(
      "$[1]: found a number JSON cannot represent",
    );
    expect(() => assertDepth(Number.NaN, 5, fail)).toThrow("$: found a number");
    expect(() => assertDepth("text", 0, fail)).not.toThrow();
  });

  test("finds the first problem in document order, and none in a valid value", () => {
    expect(findValueProblem({ a: { b: [1, 2, { c: null }] }, d: "x" })).toBeUndefined();
    expect(findValueProblem({ a: [Number.NaN], b: Number.POSITIVE_INFINITY })?.path).toBe("$.a[0]");
  });
});

describe("locateJsonError", () => {
  test("locates bad escapes and deep truncation", () => {
    expect(locateJsonError('{"a": "x\\qy"}')).toMatchObject({
      line: 1,
      column: 10,
      message: 'bad escape "\\\\q" inside a string',
    });
    expect(locateJsonError('{"a": "\\u12"}').message).toContain("bad \\u escape");
    expect(locateJsonError(`${"[".repeat(100_000)}1,]`).message).toContain("expected a JSON value");
    expect(locateJsonError(`{"a": [1, {"b": 2}}`)).toMatchObject({
      column: 19,
      message: "unexpected \"}\", expected ',' or ']'",
    });
  });
});

describe("the boundary's shortcuts", () => {
  /** A value nested `levels` deep (1: the value itself is an object). */
  const deep = (levels: number): unknown => (levels <= 1 ? {} : { x: deep(levels - 1) });
  const tools: unknown[] = [
    { name: "t", inputSchema: { type: "object" } },
    { name: "t", inputSchema: true, outputSchema: false, annotations: {}, execution: {} },
    { name: "t", description: 5, other: [1, "x", null] },
    "not a tool",
    [{ name: "t" }],
    { title: "no name" },
    { name: 7 },
    { name: "t", inputSchema: 5 },
    { name: "t", annotations: [] },
    { name: "t", execution: null },
    { name: "t", inputSchema: { maximum: Number.POSITIVE_INFINITY } },
    { name: "t", inputSchema: { enum: [1, [Number.NaN]] } },
    // A tool sits at level 3 and its inputSchema at level 4: the schema may hold 253 levels, not 254.
    { name: "t", inputSchema: deep(MAX_NESTING_DEPTH - 4) },
    { name: "t", inputSchema: deep(MAX_NESTING_DEPTH - 3) },
    { name: "t", inputSchema: deep(MAX_NESTING_DEPTH - 2) },
  ];

  test("toolPasses says yes exactly when the tool adds no problem at $.tools[i]", () => {
    for (const tool of tools) {
      const alone = { ...valid, tools: [tool] } as unknown as Contract;
      expect([tool, toolPasses(tool)]).toEqual([tool, findContractProblem(alone) === undefined]);
    }
    expect(tools.filter((tool) => toolPasses(tool)).length).toBe(5);
  });

  test("toolFieldsPass reads a tool's fields as the full check does, for every kind of value in each", () => {
    const kinds: unknown[] = [undefined, true, false, {}, [], null, 5, "s"];
    const fields = ["inputSchema", "outputSchema", "annotations", "execution"];
    let passing = 0;
    for (const name of ["t", 7, undefined]) {
      for (let code = 0; code < kinds.length ** fields.length; code++) {
        const tool: Record<string, unknown> = { name, title: 5 };
        fields.forEach((field, k) => {
          const value = kinds[Math.floor(code / kinds.length ** k) % kinds.length];
          if (value !== undefined) tool[field] = value;
        });
        const alone = { ...valid, tools: [tool] } as unknown as Contract;
        const passes = toolFieldsPass(tool);
        if (passes) passing++;
        expect([tool, passes]).toEqual([tool, findContractProblem(alone) === undefined]);
      }
    }
    expect(passing).toBe(4 * 4 * 2 * 2);
  });

  test("skipping tools known to pass finds the same first problem as the full check", () => {
    // Every arrangement of three tools from the list, with every choice of which ones pass for sure.
    for (let i = 0; i < tools.length; i++) {
      for (let j = 0; j < tools.length; j++) {
        const list = [tools[0], tools[i], tools[j]];
        const contract = { ...valid, tools: list, prompts: [{ name: 5 }] } as unknown as Contract;
        const noPrompts = { ...valid, tools: list } as unknown as Contract;
        for (const c of [contract, noPrompts]) {
          const full = findContractProblem(c);
          const known = list.map((tool) => toolPasses(tool));
          expect(findContractProblem(c, MAX_NESTING_DEPTH, true, (k) => known[k] === true)).toEqual(full);
          // Every tool passed: the list is skipped (the prompts' problem, if any, is still found).
          if (!known.includes(false)) expect(findContractProblem(c, MAX_NESTING_DEPTH, true, true)).toEqual(full);
        }
      }
    }
  });
});
