/** check --calls, the pure part: which changes a consumer's recorded calls depend on. */
import { describe, expect, test } from "bun:test";
import type { Contract } from "../../../src/contract/model.ts";
import { UsageError } from "../../../src/errors.ts";
import { applyCalls, parseCalls } from "../../../src/policy/calls.ts";
import type { ReportChange } from "../../../src/report/model.ts";

const after = {
  tools: [
    {
      name: "get_forecast",
      inputSchema: { type: "object", properties: { units: { enum: ["metric"] } }, required: [] },
    },
  ],
  prompts: [{ name: "greet", arguments: [{ name: "who", required: true }] }],
  resources: [],
  resourceTemplates: [{ uriTemplate: "r://item/{id}" }],
} as unknown as Contract;

const change = (kind: string, name: string, extra: Partial<ReportChange> = {}): ReportChange =>
  ({
    rule: "x",
    severity: "breaking",
    target: { kind, name },
    path: "",
    message: "m",
    fingerprint: "f",
    ...extra,
  }) as ReportChange;

const consumer = (calls: unknown[]) => ({
  calls: parseCalls(JSON.stringify(calls), "c.json"),
  description: "--calls c.json",
});

describe("applyCalls", () => {
  test("tool input: still-valid recorded arguments exempt the change; an argument no longer accepted keeps it", async () => {
    const narrowed = change("tool", "get_forecast", { direction: "input", path: "/inputSchema/properties/units/enum" });
    const metric = consumer([
      { method: "tools/call", params: { name: "get_forecast", arguments: { units: "metric" } } },
    ]);
    const [kept] = await applyCalls([narrowed], metric, after);
    expect(kept?.exempt?.reason).toBe(
      "the recorded call to get_forecast still validates against the new inputSchema (--calls c.json)",
    );
    const imperial = consumer([
      { method: "tools/call", params: { name: "get_forecast", arguments: { units: "imperial" } } },
    ]);
    expect((await applyCalls([narrowed], imperial, after))[0]?.exempt).toBeUndefined();
  });

  test("a change nothing calls is out of scope; server changes and output changes of called tools count", async () => {
    const calls = consumer([{ method: "tools/call", params: { name: "get_forecast" } }]);
    const [other, server, output] = await applyCalls(
      [change("tool", "other"), change("server", ""), change("tool", "get_forecast", { direction: "output" })],
      calls,
      after,
    );
    expect(other?.exempt?.reason).toBe("no recorded call reaches this tool (--calls c.json)");
    expect(server?.exempt).toBeUndefined();
    expect(output?.exempt).toBeUndefined();
  });

  test("prompts: a recorded call missing a newly required argument keeps the change; templates match by URI", async () => {
    const args = change("prompt", "greet", { path: "/arguments/0/required" });
    const missing = consumer([{ method: "prompts/get", params: { name: "greet", arguments: {} } }]);
    expect((await applyCalls([args], missing, after))[0]?.exempt).toBeUndefined();
    const sent = consumer([{ method: "prompts/get", params: { name: "greet", arguments: { who: "me" } } }]);
    expect((await applyCalls([args], sent, after))[0]?.exempt).toBeDefined();
    const read = consumer([{ method: "resources/read", params: { uri: "r://item/7" } }]);
    expect((await applyCalls([change("resourceTemplate", "r://item/{id}")], read, after))[0]?.exempt).toBeUndefined();
  });
});

describe("applyCalls: result fields the consumer received", () => {
  const recorded = consumer([
    {
      method: "tools/call",
      params: { name: "get_forecast" },
      result: { content: [], structuredContent: { city: "Paris", days: [{ date: "d", highC: 1 }] } },
    },
  ]);
  const output = (path: string, extra: Partial<ReportChange> = {}) =>
    change("tool", "get_forecast", { direction: "output", path, ...extra });

  test("a change to a field received counts; one to a field never received is out of scope", async () => {
    const [city, lowC, highC] = await applyCalls(
      [
        output("/outputSchema/properties/city/type"),
        output("/outputSchema/properties/days/items/properties/lowC"),
        output("/outputSchema/properties/days/items/properties/highC/type"),
      ],
      recorded,
      after,
    );
    expect(city?.exempt).toBeUndefined();
    expect(lowC?.exempt?.reason).toContain("no recorded result of get_forecast held /days/*/lowC");
    expect(highC?.exempt).toBeUndefined();
  });

  test("required no longer promising a field: judged by the fields dropped", async () => {
    const dropped = (names: string[]) =>
      output("/outputSchema/properties/days/items/required", { before: ["date", ...names], after: ["date"] });
    expect((await applyCalls([dropped(["lowC"])], recorded, after))[0]?.exempt).toBeDefined();
    expect((await applyCalls([dropped(["highC"])], recorded, after))[0]?.exempt).toBeUndefined();
  });

  test("without recorded results (a plain list of calls), or for the whole schema, output changes count", async () => {
    const plain = consumer([{ method: "tools/call", params: { name: "get_forecast" } }]);
    expect((await applyCalls([output("/outputSchema/properties/zzz")], plain, after))[0]?.exempt).toBeUndefined();
    expect((await applyCalls([output("/outputSchema")], recorded, after))[0]?.exempt).toBeUndefined();
    expect((await applyCalls([output("/outputSchema/anyOf/0/type")], recorded, after))[0]?.exempt).toBeUndefined();
  });
});

describe("parseCalls", () => {
  test("reads --record JSON lines, leaving out notifications, refused calls and list requests", () => {
    const lines = [
      { method: "initialize", params: {}, result: {} },
      { method: "notifications/initialized", notification: true },
      { method: "tools/list", params: {}, result: { tools: [] } },
      { method: "tools/call", params: { name: "a" }, result: { content: [] } },
      { method: "tools/call", params: { name: "b" }, error: { code: -32602, message: "no" } },
    ];
    const calls = parseCalls(lines.map((l) => JSON.stringify(l)).join("\n"), "r.jsonl");
    expect(calls).toEqual([{ method: "tools/call", params: { name: "a" }, result: { content: [] } }]);
  });
  test("refuses what is not JSON, or entries without a method", () => {
    expect(() => parseCalls("{oops\n", "r.jsonl")).toThrow(UsageError);
    expect(() => parseCalls('[{"params":{}}]', "r.json")).toThrow('string "method"');
  });
});
