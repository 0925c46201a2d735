/**
 * outputSchemas with a root of any type (MCP 2026-07-28: structuredContent may be any JSON
 * value): the witness of a breaking output change is a whole structuredContent value of the
 * root's type, checked against both schemas, not a value wrapped in an object.
 */
import { describe, expect, test } from "bun:test";
import type { Json } from "../../../src/contract/model.ts";
import { attachWitnesses } from "../../../src/diff/witnesses.ts";
import { compareSurfaces } from "../../../src/policy/compare.ts";
import { contract, tool } from "./helpers.ts";

async function breaking(before: Json, after: Json) {
  const oldC = contract({ protocolVersion: "2026-07-28", tools: [tool("t", { outputSchema: before })] });
  const newC = contract({ protocolVersion: "2026-07-28", tools: [tool("t", { outputSchema: after })] });
  const changes = await attachWitnesses(compareSurfaces(oldC, newC), oldC, newC);
  return changes.filter((c) => c.severity === "breaking").map((c) => ({ rule: c.rule, witness: c.witness }));
}

describe("witnesses for outputSchema roots of any type", () => {
  test("an array root: the witness is an array", async () => {
    expect(
      await breaking(
        { type: "array", items: { type: "string" } },
        { type: "array", items: { type: ["string", "null"] } },
      ),
    ).toEqual([{ rule: "null-added", witness: [null] }]);
  });

  test("a string root: the witness is the new string", async () => {
    expect(await breaking({ type: "string", enum: ["a"] }, { type: "string", enum: ["a", "b"] })).toEqual([
      { rule: "enum-value-added", witness: "b" },
    ]);
  });

  test("an integer root that became a number: the witness is a non-integer number", async () => {
    const [change] = await breaking({ type: "integer" }, { type: "number" });
    expect(change?.rule).toBe("type-widened");
    expect(typeof change?.witness).toBe("number");
    expect(Number.isInteger(change?.witness)).toBe(false);
  });

  test("an object root that became an array: the witness is an array", async () => {
    const [change] = await breaking({ type: "object" }, { type: "array" });
    expect(change).toEqual({ rule: "type-widened", witness: [] });
  });
});
