/**
 * On big surfaces the security rules skip the texts no rule can find anything in
 * (src/lint/surface-texts.ts scanSurface, rules-security.ts silentText), text by text inside
 * each unit, shared schema units too. These tests hold a big surface whose schemas all differ,
 * each mixing many silent texts with a poisoned one, to what each tool gets linted alone
 * (a surface too small for the skipping).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Contract, JsonObject, Tool } from "../../../src/contract/model.ts";
import { lintContract } from "../../../src/lint/lint.ts";
import type { Finding } from "../../../src/lint/model.ts";
import { INTENT_GATE_MIN } from "../../../src/lint/rules-security.ts";
import { scanSurface, surfaceTexts, textsAtLeast } from "../../../src/lint/surface-texts.ts";
import { LINT_RULES } from "../../../src/rules/registry.ts";
import { contract } from "../diff/helpers.ts";

const POISONED = join(import.meta.dir, "../../fixtures/poisoned");
const poisonedTexts = readdirSync(POISONED)
  .sort()
  .flatMap((file) =>
    (JSON.parse(readFileSync(join(POISONED, file), "utf8")).cases as { text: string }[]).map((c) => c.text),
  );

/** Rules whose findings on a tool do not depend on the other tools of the surface. */
const SECURITY = new Set(
  LINT_RULES.filter((r) => r.group === "security" && r.id !== "tool-shadowing").map((r) => r.id as string),
);

/** Tool i: a schema of plain property descriptions with poisoned text i among them, unlike any other schema. */
function tool(i: number): Tool {
  const properties: JsonObject = {};
  for (let p = 0; p < 12; p++) properties[`p${p}`] = { type: "string", description: `Plain field ${p} of tool ${i}` };
  const at = `p${i % 12}`;
  properties[at] = { type: "string", description: poisonedTexts[i % poisonedTexts.length]! };
  // Plain ASCII that only encoded-blob reads: a base64 run, unlike any intent.
  const blob = btoa(`payload ${i} for a long hidden message that runs on and on`);
  properties.blob = { type: "string", description: `Field ${i} ${blob}` };
  const output: JsonObject = { type: "object", properties: { ok: { type: "boolean", title: `Done ${i}` } } };
  // Every third tool shares one output schema with loud text, so shared units with findings are covered too.
  if (i % 3 === 0) output.properties = { ok: { type: "string", description: poisonedTexts[0]! } };
  return {
    name: `tool_${i}`,
    description: `Tool number ${i}.`,
    inputSchema: { type: "object", properties },
    outputSchema: output,
  };
}

const security = (found: Finding[]) => found.filter((f) => SECURITY.has(f.rule));

describe("security rules on a big surface of distinct schemas", () => {
  test("find on each tool what they find on it alone", () => {
    const tools = Array.from({ length: 180 }, (_, i) => tool(i));
    const big: Contract = contract({ tools });
    expect(textsAtLeast(big, INTENT_GATE_MIN)).toBe(true);
    const found = security(lintContract(big));
    expect(found.length).toBeGreaterThan(180);
    const alone = tools.flatMap((t) => security(lintContract(contract({ tools: [structuredClone(t)] }))));
    const order = (f: Finding) => `${f.rule}\u0000${f.target.name}\u0000${f.path}\u0000${f.message}`;
    expect(found.map(order).sort()).toEqual(alone.map(order).sort());
  });
});

describe("schema texts", () => {
  test("carry the pointers of where they are, built only when read, shared schemas under each tool's name", () => {
    const input: JsonObject = {
      type: "object",
      title: "Input",
      properties: {
        "a/b": { type: ["string", "null"], description: "Slash ~ name", enum: ["x", 1, "y"] },
        list: { items: [{ const: "c" }, { anyOf: [{ title: "deep" }] }], default: { description: "data" } },
      },
    };
    const tools: Tool[] = ["one", "two"].map((name) => ({ name, inputSchema: structuredClone(input) }));
    const texts = surfaceTexts(contract({ tools })).map((t) => [t.name, t.path, t.role, t.text].join(" | "));
    const schema = (name: string) => [
      `${name} | /inputSchema/title | text | Input`,
      `${name} | /inputSchema/properties/a~1b | name | a/b`,
      `${name} | /inputSchema/properties/a~1b/description | text | Slash ~ name`,
      `${name} | /inputSchema/properties/a~1b/enum/0 | text | x`,
      `${name} | /inputSchema/properties/a~1b/enum/2 | text | y`,
      `${name} | /inputSchema/properties/list | name | list`,
      `${name} | /inputSchema/properties/list/items/0/const | text | c`,
      `${name} | /inputSchema/properties/list/items/1/anyOf/0/title | text | deep`,
    ];
    expect(texts).toEqual(["one | /name | name | one", ...schema("one"), "two | /name | name | two", ...schema("two")]);
  });
});

describe("the count of texts that decides whether the security rules skip silent ones", () => {
  test("counts a shared schema's texts once per tool of its shape, and stops at the bound asked", () => {
    const properties: JsonObject = {};
    for (let p = 0; p < 5; p++) properties[`p${p}`] = { type: "string", description: `Field ${p}` };
    const tools: Tool[] = ["a", "b", "c"].map((name) => ({ name, inputSchema: { type: "object", properties } }));
    // Each tool: its name, then five property names and five descriptions.
    const surface = contract({ tools, instructions: "Be brief." });
    expect(textsAtLeast(surface, 34)).toBe(true);
    expect(textsAtLeast(surface, 35)).toBe(false);
    expect(surfaceTexts(surface)).toHaveLength(34);
  });
});

describe("a text of shared schemas that a rule found clean", () => {
  test("is scanned once, whatever schema holds it; a text with findings is scanned in each", () => {
    // Three schemas that differ, sharing "Common" and the loud "BAD"; "Only k" is each one's own.
    const tools: Tool[] = [0, 1, 2].map((k) => ({
      name: `t${k}`,
      inputSchema: {
        type: "object",
        properties: {
          a: { description: "Common" },
          b: { description: `Only ${k}` },
          c: { description: "BAD" },
        },
      },
    }));
    const scanned: string[] = [];
    const found = scanSurface(contract({ tools }), "text", (t) => {
      scanned.push(t.text);
      return t.text === "BAD" ? [{ target: { kind: "tool", name: "" }, path: t.path, message: "bad" }] : [];
    });
    expect(scanned.filter((t) => t !== "BAD").sort()).toEqual(["Common", "Only 0", "Only 1", "Only 2"]);
    expect(scanned.filter((t) => t === "BAD")).toHaveLength(3);
    expect(found.map((f) => `${f.target.name} ${f.path}`)).toEqual([
      "t0 /inputSchema/properties/c/description",
      "t1 /inputSchema/properties/c/description",
      "t2 /inputSchema/properties/c/description",
    ]);
  });
});
