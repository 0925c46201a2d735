import { describe, expect, test } from "bun:test";
import { serializeContract } from "../../src/contract/canonical.ts";
import { locateJsonError } from "../../src/contract/json-position.ts";
import { parseContract } from "../../src/contract/read.ts";
import { UsageError } from "../../src/errors.ts";

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
    [withField({ tools: {} }), "at $.tools, expected an array"],
    [withField({ tools: [{ name: "a" }, { title: "no name" }] }), "at $.tools[1].name, expected a string"],
    [withField({ resources: [{ name: "r" }] }), "at $.resources[0].uri"],
    [withField({ resourceTemplates: [5] }), "at $.resourceTemplates[0], expected an object"],
    [withField({ prompts: undefined }), "at $.prompts"],
  ])("rejects a bad lockfile: %#", (text, expected) => {
    expect(problem(text)).toContain(expected);
  });
});

describe("locateJsonError", () => {
  test("points at the first bad character", () => {
    expect(locateJsonError('{"a": tru}')).toMatchObject({ line: 1, column: 7 });
    expect(locateJsonError('{"a": 1}\n{"b": 2}')).toMatchObject({ line: 2, column: 1 });
    expect(locateJsonError('{"a": "unterminated').message).toContain("inside a string");
  });
});
