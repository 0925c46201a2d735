import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import type { Contract, JsonObject } from "../../../src/contract/model.ts";
import { parseContract } from "../../../src/contract/read.ts";
import { attachWitnesses, MAX_WITNESSES } from "../../../src/diff/witnesses.ts";
import { compareSurfaces } from "../../../src/policy/compare.ts";

const weather = () =>
  parseContract(readFileSync(join(import.meta.dir, "../../../examples/weather.contract.json"), "utf8"), "weather");

function validates(schema: unknown, value: unknown): boolean {
  return new Ajv2020({ strict: false }).compile(schema as object)(value) as boolean;
}

describe("attachWitnesses", () => {
  test("breaking input and output changes get a witness that the schemas confirm", async () => {
    const before = weather();
    const after = structuredClone(before) as Contract;
    // biome-ignore lint/suspicious/noExplicitAny: test edits deep inside the example schemas
    const forecast = after.tools[0] as unknown as { inputSchema: any; outputSchema: any };
    forecast.inputSchema.properties.units.enum = ["metric"];
    forecast.outputSchema.properties.days.items.properties.conditions.enum.push("hail");
    const changes = await attachWitnesses(compareSurfaces(before, after), before, after);
    const input = changes.find((c) => c.rule === "enum-value-removed");
    const output = changes.find((c) => c.rule === "enum-value-added");
    const oldTool = before.tools[0] as JsonObject;
    expect(input?.witness).toMatchObject({ units: "imperial" });
    expect(validates(oldTool.inputSchema, input?.witness)).toBe(true);
    expect(validates(forecast.inputSchema, input?.witness)).toBe(false);
    expect(validates(forecast.outputSchema, output?.witness)).toBe(true);
    expect(validates(oldTool.outputSchema, output?.witness)).toBe(false);
  });

  test("compatible and non-schema changes get none, and a clean diff never loads the witness module", async () => {
    const before = weather();
    const after = structuredClone(before) as Contract;
    (
      after.tools[0] as unknown as { inputSchema: { properties: { units: { enum: string[] } } } }
    ).inputSchema.properties.units.enum.push("kelvin");
    const changes = await attachWitnesses(compareSurfaces(before, after), before, after);
    expect(changes.map((c) => [c.rule, c.witness])).toEqual([["enum-value-added", undefined]]);
  });

  test(`at most ${MAX_WITNESSES} witnesses per report, the first breaking changes in order`, async () => {
    const tool = (i: number, units: string[]) => ({
      name: `t${String(i).padStart(3, "0")}`,
      inputSchema: { type: "object", properties: { units: { type: "string", enum: units } }, required: ["units"] },
    });
    const many = MAX_WITNESSES + 20;
    const before = { ...weather(), tools: Array.from({ length: many }, (_, i) => tool(i, ["a", "b"])) } as Contract;
    const after = { ...weather(), tools: Array.from({ length: many }, (_, i) => tool(i, ["a"])) } as Contract;
    const changes = await attachWitnesses(compareSurfaces(before, after), before, after);
    const witnessed = changes.map((c) => c.witness !== undefined);
    expect(witnessed.filter(Boolean).length).toBe(MAX_WITNESSES);
    expect(witnessed.slice(0, MAX_WITNESSES).every(Boolean)).toBe(true);
    expect(changes[0]?.witness).toEqual({ units: "b" });
  });
});
