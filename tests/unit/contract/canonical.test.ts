import { describe, expect, test } from "bun:test";
import {
  canonicalContract,
  INDENTED_LEVELS,
  serializeContract,
  stableStringify,
} from "../../../src/contract/canonical.ts";
import type { Json } from "../../../src/contract/model.ts";
import { MAX_NESTING_DEPTH } from "../../../src/contract/validate.ts";
import { contract } from "../diff/helpers.ts";

describe("serializeContract", () => {
  test("is byte-identical whatever the key and item order", () => {
    const a = contract({
      tools: [
        {
          name: "b",
          inputSchema: {
            type: "object",
            properties: { y: { type: "string" }, x: { type: "number" } },
            required: ["y", "x"],
          },
        },
        { name: "a", description: "first", inputSchema: { type: "object" } },
      ],
      resources: [
        { uri: "z://2", name: "two" },
        { uri: "a://1", name: "one" },
      ],
    });
    const b = contract({
      resources: [
        { name: "one", uri: "a://1" },
        { name: "two", uri: "z://2" },
      ],
      tools: [
        { inputSchema: { type: "object" }, description: "first", name: "a" },
        {
          inputSchema: {
            required: ["x", "y"],
            properties: { x: { type: "number" }, y: { type: "string" } },
            type: "object",
          },
          name: "b",
        },
      ],
    });
    expect(serializeContract(a)).toBe(serializeContract(b));
  });

  test("puts the top-level fields and item identity first, 2-space JSON, trailing newline", () => {
    const text = serializeContract(
      contract({
        instructions: "hi",
        tools: [{ title: "T", annotations: {}, name: "t", description: "d", inputSchema: {} }],
      }),
    );
    expect(Object.keys(JSON.parse(text))).toEqual([
      "lockfileVersion",
      "server",
      "protocolVersion",
      "capabilities",
      "instructions",
      "capture",
      "tools",
      "resources",
      "resourceTemplates",
      "prompts",
    ]);
    expect(Object.keys(JSON.parse(text).tools[0])).toEqual([
      "name",
      "title",
      "description",
      "annotations",
      "inputSchema",
    ]);
    expect(text.endsWith("}\n")).toBe(true);
    expect(text).toContain('\n  "lockfileVersion": 1,\n');
  });

  test("sorts `required` inside schemas but keeps data arrays (enum, default, prompt arguments) in order", () => {
    const out = canonicalContract(
      contract({
        tools: [
          {
            name: "t",
            inputSchema: {
              type: "object",
              required: ["b", "a"],
              properties: { u: { enum: ["z", "a"], default: { required: ["q", "p"] } } },
            },
          },
        ],
        prompts: [{ name: "p", arguments: [{ name: "z" }, { name: "a" }] }],
      }),
    );
    const schema = out.tools[0]?.inputSchema as {
      required: string[];
      properties: { u: { enum: string[]; default: { required: string[] } } };
    };
    expect(schema.required).toEqual(["a", "b"]);
    expect(schema.properties.u.enum).toEqual(["z", "a"]);
    expect(schema.properties.u.default.required).toEqual(["q", "p"]);
    expect((out.prompts[0]!.arguments as { name: string }[]).map((a) => a.name)).toEqual(["z", "a"]);
  });

  test("keeps duplicate items, ordered deterministically", () => {
    const one = contract({
      tools: [
        { name: "t", description: "2" },
        { name: "t", description: "1" },
      ],
    });
    const two = contract({
      tools: [
        { name: "t", description: "1" },
        { name: "t", description: "2" },
      ],
    });
    expect(serializeContract(one)).toBe(serializeContract(two));
    expect(canonicalContract(one).tools.map((t) => t.description)).toEqual(["1", "2"]);
  });

  test("sorts the declared client capabilities", () => {
    const text = serializeContract(contract({ capture: { clientCapabilities: ["sampling", "roots"] } }));
    expect(JSON.parse(text).capture.clientCapabilities).toEqual(["roots", "sampling"]);
  });

  test("a property named __proto__ stays plain data", () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}');
    const text = serializeContract(contract({ tools: [{ name: "t", inputSchema: schema }] }));
    expect(JSON.parse(text).tools[0].inputSchema.properties).toHaveProperty("__proto__");
    expect(text).toContain('"__proto__"');
  });
});

/** A contract `depth` levels deep: $ (1) → tools (2) → tools[0] (3) → inputSchema (4) → items (5) … */
function contractOfDepth(depth: number, leaf: Json = { type: "string", enum: [1, 2, 3] }) {
  let schema: Json = leaf;
  for (let level = 5; level < depth; level++) schema = { type: "array", items: schema };
  return contract({ tools: [{ name: "t", inputSchema: schema }] });
}

const indentOf = (line: string) => line.length - line.trimStart().length;

describe("serializeContract: deep values", () => {
  test(`up to ${INDENTED_LEVELS} levels, the bytes are exactly JSON.stringify's 2-space form`, () => {
    for (const depth of [6, 20, INDENTED_LEVELS - 1, INDENTED_LEVELS]) {
      const value = contractOfDepth(depth);
      expect(serializeContract(value)).toBe(`${JSON.stringify(canonicalContract(value), null, 2)}\n`);
    }
  });

  test(`deeper levels go on one line, so the size stays proportional to the content`, () => {
    const value = contractOfDepth(MAX_NESTING_DEPTH);
    const text = serializeContract(value);
    const compact = JSON.stringify(canonicalContract(value));
    expect(JSON.parse(text)).toEqual(JSON.parse(compact));
    // Indenting every level made this 31 times its compact size; now it is about 3 times.
    expect(text.length / compact.length).toBeLessThan(4);
    const lines = text.split("\n");
    expect(Math.max(...lines.map(indentOf))).toBe(2 * INDENTED_LEVELS);
    // The rest of the chain is one line, at the deepest indentation.
    const rest = lines.filter((line) => line.length > 1_000);
    expect(rest).toHaveLength(1);
    expect(rest[0]).toStartWith(`${" ".repeat(2 * INDENTED_LEVELS)}"items": {"items":{"items":`);
    // Above the cut, the lines are those JSON.stringify writes.
    const native = JSON.stringify(canonicalContract(value), null, 2).split("\n");
    expect(lines.slice(0, INDENTED_LEVELS + 1)).toEqual(native.slice(0, INDENTED_LEVELS + 1));
  });

  test("the one-line part is canonical too: sorted keys, sorted required, data kept", () => {
    let schema = JSON.parse(
      '{"type":"object","required":["b","a"],"properties":{"b":{"enum":["z","a"]},"a":{},"__proto__":{"type":"string"}}}',
    ) as Json;
    for (let i = 0; i < INDENTED_LEVELS; i++) schema = { items: schema };
    const text = serializeContract(contract({ tools: [{ name: "t", inputSchema: schema }] }));
    expect(text).toContain(
      '{"properties":{"__proto__":{"type":"string"},"a":{},"b":{"enum":["z","a"]}},"required":["a","b"],"type":"object"}',
    );
    expect(serializeContract(JSON.parse(text))).toBe(text);
  });

  test("is byte-stable however deep", () => {
    const one = contractOfDepth(200, { type: "object", properties: { y: {}, x: {} }, required: ["y", "x"] });
    const two = contractOfDepth(200, { required: ["x", "y"], properties: { x: {}, y: {} }, type: "object" });
    expect(serializeContract(one)).toBe(serializeContract(two));
  });
});

describe("stableStringify", () => {
  test("ignores key order", () => {
    expect(stableStringify({ b: 1, a: [{ d: 1, c: 2 }] })).toBe(stableStringify({ a: [{ c: 2, d: 1 }], b: 1 }));
  });
});
