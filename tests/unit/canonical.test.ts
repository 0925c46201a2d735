import { describe, expect, test } from "bun:test";
import { canonicalContract, serializeContract, stableStringify } from "../../src/contract/canonical.ts";
import { contract } from "./diff/helpers.ts";

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

describe("stableStringify", () => {
  test("ignores key order", () => {
    expect(stableStringify({ b: 1, a: [{ d: 1, c: 2 }] })).toBe(stableStringify({ a: [{ c: 2, d: 1 }], b: 1 }));
  });
});
