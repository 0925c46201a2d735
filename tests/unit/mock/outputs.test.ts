/**
 * Generated results satisfy the tool's outputSchema (the official SDK clients validate
 * structuredContent), including what the generator does not read itself (lookaheads in
 * patterns, `not`); a tool no value can be found for is reported once and answered with a tool
 * error naming the cause, never with a value its schema refuses.
 */
import { describe, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020";
import type { Contract, Json, JsonObject } from "../../../src/contract/model.ts";
import { parseFixtures } from "../../../src/mock/fixtures.ts";
import { MockServer } from "../../../src/mock/server.ts";
import { mockContract } from "./contract.ts";

const OUTPUTS: Record<string, JsonObject> = {
  lookaheads: {
    type: "object",
    properties: {
      password: { type: "string", pattern: "^(?=.*\\d)(?=.*[a-z])(?=.*[A-Z])[A-Za-z0-9]{8,12}$" },
      slug: { type: "string", pattern: "^(?!draft-)[a-z]+(-[a-z]+)*$" },
    },
    required: ["password", "slug"],
  },
  excluded: {
    type: "object",
    properties: {
      status: { type: "string", enum: ["ok", "failed", "pending"], not: { enum: ["ok", "failed"] } },
      word: { type: "string", not: { pattern: "^[a-h]" } },
    },
    required: ["status", "word"],
  },
  crossed: {
    type: "object",
    properties: { code: { type: "string", minLength: 5, maxLength: 2 } },
    required: ["code"],
  },
  never: { type: "object", properties: { n: { type: "integer", not: { type: "integer" } } }, required: ["n"] },
  rootCrossed: { type: "string", minLength: 5, maxLength: 2 } as JsonObject,
};

const contract: Contract = mockContract({
  tools: Object.entries(OUTPUTS).map(([name, outputSchema]) => ({
    name,
    inputSchema: { type: "object", properties: { q: { type: "string" } } },
    outputSchema,
  })),
});

/** An independent judge: ajv on the host's RegExp (these patterns are harmless). */
const ajv = new Ajv2020({ strict: false });
const call = (server: MockServer, name: string, q: string) =>
  server.handle("tools/call", { name, arguments: { q } }, {}) as { result: JsonObject };

describe("generated results satisfy the outputSchema", () => {
  const server = new MockServer(contract, { seed: 1, pageSize: 10 });
  test.each(["lookaheads", "excluded"])("%s: every call's structuredContent is valid", (name) => {
    const validate = ajv.compile(OUTPUTS[name] as JsonObject);
    for (let i = 0; i < 30; i++) {
      const { result } = call(server, name, `call ${i}`);
      expect(result.isError).toBeUndefined();
      expect({ value: result.structuredContent, valid: validate(result.structuredContent) }).toEqual({
        value: result.structuredContent as Json,
        valid: true,
      });
    }
  });
  test("whatever the seed", () => {
    for (let seed = 0; seed < 20; seed++) {
      const seeded = new MockServer(contract, { seed, pageSize: 10 });
      for (const name of ["lookaheads", "excluded"]) {
        const validate = ajv.compile(OUTPUTS[name] as JsonObject);
        expect(validate(call(seeded, name, "x").result.structuredContent)).toBe(true);
      }
    }
  });
});

describe("a tool the mock cannot answer", () => {
  test("each is reported once, with its cause", async () => {
    const server = new MockServer(contract, { seed: 1, pageSize: 10 });
    call(server, "crossed", "before the check");
    const reports: Array<[string, string]> = [];
    await server.checkOutputs((name, why) => reports.push([name, why]));
    expect(reports.map(([name]) => name)).toEqual(["crossed", "never", "rootCrossed"]);
    const why = Object.fromEntries(reports);
    expect(why.crossed).toBe(
      "its outputSchema is unsatisfiable: minLength 5 > maxLength 2 at outputSchema/properties/code",
    );
    expect(why.rootCrossed).toBe("its outputSchema is unsatisfiable: minLength 5 > maxLength 2 at outputSchema");
    expect(why.never).toContain("/n must NOT be valid (not)");
    for (const line of Object.values(why)) expect(line).not.toContain("\n");
  });

  test.each([
    ["crossed", "minLength 5 > maxLength 2"],
    ["rootCrossed", "minLength 5 > maxLength 2"],
    ["never", "(not)"],
  ])("%s: calls get a tool error naming the cause, never a value", (name, cause) => {
    const server = new MockServer(contract, { seed: 1, pageSize: 10 });
    for (const q of ["a", "b", "c"]) {
      const { result } = call(server, name, q);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      const text = (result.content as Array<{ text: string }>)[0]?.text ?? "";
      expect(text).toContain(`cannot answer ${name}`);
      expect(text).toContain(cause);
    }
  });

  test("a catch-all fixture answers instead, and nothing is reported", async () => {
    const fixtures = parseFixtures(
      JSON.stringify({ tools: { crossed: { result: { content: [{ type: "text", text: "down" }], isError: true } } } }),
      "f.json",
      contract,
    );
    const server = new MockServer(contract, { seed: 1, pageSize: 10, fixtures });
    const reports: string[] = [];
    await server.checkOutputs((name) => reports.push(name));
    expect(reports).toEqual(["never", "rootCrossed"]);
    expect((call(server, "crossed", "a").result.content as Array<{ text: string }>)[0]?.text).toBe("down");
  });
});
