import { describe, expect, test } from "bun:test";
import { type Contract, emptyContract, type Json, type JsonObject } from "../../../src/contract/model.ts";
import type { RecordedCall } from "../../../src/policy/calls.ts";
import { judgeAnswer, type LiveAnswer, safetyOf } from "../../../src/replay/judge.ts";
import { shapeDrift, shapeOf } from "../../../src/replay/shape.ts";
import { validatorFor } from "../../../src/schema/witness/validators.ts";

const validate = (schema: Json, value: Json) => validatorFor(schema)?.(value);

function surface(tools: JsonObject[], prompts: JsonObject[] = []): Contract {
  return { ...emptyContract(), tools: tools as Contract["tools"], prompts: prompts as Contract["prompts"] };
}

const forecastSchema = {
  type: "object",
  properties: { city: { type: "string" }, highC: { type: "number" } },
  required: ["city", "highC"],
};
const weather = surface(
  [
    {
      name: "forecast",
      inputSchema: { type: "object" },
      outputSchema: forecastSchema,
      annotations: { readOnlyHint: true },
    },
    { name: "set_alert", inputSchema: { type: "object" }, annotations: { destructiveHint: false } },
    { name: "delete_city", inputSchema: { type: "object" }, annotations: { destructiveHint: true } },
    { name: "plain", inputSchema: { type: "object" } },
  ],
  [{ name: "packing_list" }],
);

const call = (structuredContent: Json, extra: JsonObject = {}): RecordedCall => ({
  method: "tools/call",
  params: { name: "forecast", arguments: { city: "Oslo" } },
  result: { content: [{ type: "text", text: "x" }], structuredContent, ...extra },
});
const live = (structuredContent: Json, extra: JsonObject = {}): LiveAnswer => ({
  result: { content: [{ type: "text", text: "y" }], structuredContent, ...extra },
});
const judge = (recorded: RecordedCall, answer: LiveAnswer, exact = false, on = weather) =>
  judgeAnswer(recorded, answer, on, { exact, validate });

describe("judgeAnswer", () => {
  test("the same shape with other values is kept; new fields are fine", () => {
    expect(judge(call({ city: "Oslo", highC: 3 }), live({ city: "Bergen", highC: 9, wind: 4 }))).toEqual([]);
  });

  test("an integer recorded where a fraction now comes back (and back) fits: both are numbers", () => {
    expect(judge(call({ city: "Oslo", highC: 3 }), live({ city: "Oslo", highC: 3.5 }))).toEqual([]);
    expect(judge(call({ city: "Oslo", highC: 3.5 }), live({ city: "Oslo", highC: 3 }))).toEqual([]);
  });

  test("a field whose type changed names the path, the old and the new type", () => {
    const loose = surface([{ name: "forecast", annotations: { readOnlyHint: true } }]);
    const findings = judge(call({ city: "Oslo", highC: 3 }), live({ city: "Oslo", highC: "3" }), false, loose);
    expect(findings).toEqual([
      expect.objectContaining({
        kind: "replay-type-changed",
        path: "/structuredContent/highC",
        before: "number",
        after: "string",
      }),
    ]);
  });

  test("a removed field is missing (and invalid against the outputSchema that still requires it)", () => {
    const findings = judge(call({ city: "Oslo", highC: 3 }), live({ city: "Oslo" }));
    expect(findings.map((f) => [f.kind, f.path])).toEqual([
      ["replay-invalid-output", "/structuredContent"],
      ["replay-field-missing", "/structuredContent/highC"],
    ]);
  });

  test("array items are compared as a set: fewer items is a value, a field gone from every item is not", () => {
    const recorded = call({
      city: "Oslo",
      highC: 1,
      days: [
        { d: "a", t: 1 },
        { d: "b", t: 2 },
      ],
    });
    expect(judge(recorded, live({ city: "Oslo", highC: 1, days: [{ d: "c", t: 5 }] }))).toEqual([]);
    expect(judge(recorded, live({ city: "Oslo", highC: 1, days: [] }))).toEqual([]);
    const gone = judge(recorded, live({ city: "Oslo", highC: 1, days: [{ d: "c" }] }));
    expect(gone.map((f) => f.path)).toEqual(["/structuredContent/days/*/t"]);
  });

  test("below a missing object only the object is reported", () => {
    const loose = surface([{ name: "forecast", annotations: { readOnlyHint: true } }]);
    const findings = judge(call({ wind: { speed: 3, dir: "N" } }), live({}), false, loose);
    expect(findings.map((f) => f.path)).toEqual(["/structuredContent/wind"]);
  });

  test("content blocks are compared by index and type", () => {
    const recorded: RecordedCall = {
      method: "tools/call",
      params: { name: "plain" },
      result: {
        content: [
          { type: "text", text: "a" },
          { type: "image", data: "AA", mimeType: "image/png" },
        ],
      },
    };
    const findings = judge(recorded, { result: { content: [{ type: "text", text: "b" }] } });
    expect(findings.map((f) => [f.kind, f.path])).toEqual([["replay-field-missing", "/content/1"]]);
    const swapped = judge(recorded, {
      result: {
        content: [
          { type: "image", data: "AA", mimeType: "image/png" },
          { type: "text", text: "b" },
        ],
      },
    });
    expect(swapped[0]).toEqual(
      expect.objectContaining({ kind: "replay-type-changed", path: "/content/0/type", before: "text", after: "image" }),
    );
  });

  test("a success now refused, or now an error result, is a failure", () => {
    expect(judge(call({ city: "Oslo", highC: 1 }), { error: { code: -32602, message: "bad city" } })).toEqual([
      expect.objectContaining({ kind: "replay-call-refused", after: "error -32602" }),
    ]);
    const failed = judge(call({ city: "Oslo", highC: 1 }), {
      result: { content: [{ type: "text", text: "boom" }], isError: true },
    });
    expect(failed).toEqual([expect.objectContaining({ kind: "replay-call-failed" })]);
    expect(failed[0]?.message).toContain("boom");
  });

  test("a call that failed when recorded is not judged on its answer", () => {
    const recorded: RecordedCall = { ...call(null), result: undefined, error: { code: -1, message: "x" } };
    expect(judge(recorded, { error: { code: -1, message: "x" } })).toEqual([]);
  });

  test("a timeout or a failed connection is a finding of its own", () => {
    const out = judge(call({ city: "Oslo", highC: 1 }), { failed: "timeout", message: "no answer within 1 s" });
    expect(out).toEqual([{ kind: "replay-timeout", message: "no answer within 1 s" }]);
  });

  test("--exact: values must match too, and a retyped field is not reported twice", () => {
    const recorded = call({ city: "Oslo", highC: 3, days: [{ t: 1 }] });
    expect(judge(recorded, live({ city: "Oslo", highC: 3, days: [{ t: 1 }] }, {}), true)).toEqual([
      // The content block's text differs ("x" recorded, "y" live).
      expect.objectContaining({ kind: "replay-value-changed", path: "/content/0/text", before: '"x"', after: '"y"' }),
    ]);
    const loose = surface([{ name: "forecast", annotations: { readOnlyHint: true } }]);
    const exact = judgeAnswer(
      { ...recorded, result: { structuredContent: { city: "Oslo", days: [{ t: 1 }] } } },
      { result: { structuredContent: { city: "Bergen", days: [{ t: "1" }] } } },
      loose,
      { exact: true, validate },
    );
    expect(exact.map((f) => [f.kind, f.path])).toEqual([
      ["replay-type-changed", "/structuredContent/days/*/t"],
      ["replay-value-changed", "/structuredContent/city"],
    ]);
  });
});

describe("safetyOf", () => {
  const none = { allow: new Set<string>(), allowDestructive: false };
  const tool = (name: string) => ({ method: "tools/call", params: { name } });

  test("read-only tools, resources and prompts are sent, side by side", () => {
    expect(safetyOf(tool("forecast"), weather, none)).toEqual({ decision: "send", pipelined: true });
    expect(safetyOf({ method: "resources/read", params: { uri: "x://y" } }, weather, none).decision).toBe("send");
    expect(safetyOf({ method: "prompts/get", params: { name: "packing_list" } }, weather, none).decision).toBe("send");
  });

  test("a tool that is not read-only is skipped unless --allow names it", () => {
    const skipped = safetyOf(tool("set_alert"), weather, none);
    expect(skipped).toEqual({ decision: "skip", reason: expect.stringContaining("--allow set_alert") });
    expect(safetyOf(tool("set_alert"), weather, { ...none, allow: new Set(["set_alert"]) })).toEqual({
      decision: "send",
      pipelined: false,
    });
  });

  test("destructive tools (destructiveHint true, or absent on a tool that is not read-only) also need --allow-destructive", () => {
    for (const name of ["delete_city", "plain"]) {
      const allowed = { allow: new Set([name]), allowDestructive: false };
      expect(safetyOf(tool(name), weather, allowed)).toEqual({
        decision: "skip",
        reason: expect.stringContaining("--allow-destructive"),
      });
      expect(safetyOf(tool(name), weather, { ...allowed, allowDestructive: true }).decision).toBe("send");
      // --allow-destructive alone does not name a tool.
      expect(safetyOf(tool(name), weather, { ...none, allowDestructive: true }).decision).toBe("skip");
    }
  });

  test("a tool or prompt no longer on the surface is a finding, not a crash", () => {
    const gone = safetyOf(tool("radar"), weather, none);
    expect(gone).toEqual({ decision: "gone", finding: expect.objectContaining({ kind: "replay-target-gone" }) });
    expect(safetyOf({ method: "prompts/get", params: { name: "old" } }, weather, none).decision).toBe("gone");
  });
});

describe("shape", () => {
  test("noise keys are no shape, nulls are a type of their own", () => {
    expect([...shapeOf({ _meta: { a: 1 }, ttlMs: 5, x: null }).keys()]).toEqual(["/x"]);
    expect(shapeDrift(shapeOf({ x: null }), shapeOf({ x: "s" }))).toEqual([
      { path: "/x", before: ["null"], after: ["string"] },
    ]);
  });
});
