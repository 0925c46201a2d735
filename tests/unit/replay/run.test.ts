import { describe, expect, test } from "bun:test";
import { classifyFailure } from "../../../src/cli/replay-common.ts";
import { dryRun, planCalls, replayParams, runCalls } from "../../../src/cli/replay-run.ts";
import { RpcError } from "../../../src/connect/session.ts";
import { type Contract, emptyContract, type JsonObject } from "../../../src/contract/model.ts";
import type { ReplayCall } from "../../../src/replay/judge.ts";

const surface: Contract = {
  ...emptyContract(),
  tools: [
    { name: "read", annotations: { readOnlyHint: true } },
    { name: "write", annotations: { destructiveHint: false } },
  ] as Contract["tools"],
};
const call = (name: string, line: number): ReplayCall => ({
  method: "tools/call",
  params: { name, arguments: { line } },
  result: { content: [{ type: "text", text: "ok" }] },
  consumer: "c",
  file: "c.jsonl",
  line,
});
const options = {
  allow: new Set(["write"]),
  allowDestructive: false,
  exact: false,
  callTimeoutMs: 200,
  budgetMs: 10_000,
  concurrency: 4,
  validate: () => true,
  classify: classifyFailure,
};
const ok = { content: [{ type: "text", text: "ok" }] };

describe("runCalls", () => {
  test("read-only calls are pipelined up to --concurrency; a state-changing call runs alone, in recorded order", async () => {
    const events: string[] = [];
    let inFlight = 0;
    let most = 0;
    const send = async (_method: string, params: JsonObject) => {
      const name = `${params.name}:${(params.arguments as JsonObject).line}`;
      inFlight++;
      most = Math.max(most, inFlight);
      events.push(`start ${name}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      events.push(`end ${name}`);
      inFlight--;
      return ok;
    };
    const calls = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => call("read", n));
    calls.splice(5, 0, call("write", 99));
    const planned = planCalls([], calls, surface, options);
    const outcomes = await runCalls(planned, surface, send, options);
    expect(outcomes.map((o) => o.status)).toEqual(Array(9).fill("kept"));
    expect(most).toBe(4);
    // Everything before the write has ended when it starts; nothing after starts before it ends.
    const start = events.indexOf("start write:99");
    const end = events.indexOf("end write:99");
    expect(events.slice(0, start).filter((e) => e.startsWith("end")).length).toBe(5);
    expect(events[start + 1]).toBe("end write:99");
    expect(end).toBe(start + 1);
  });

  test("a call that never answers times out alone; the budget fails what it leaves unsent", async () => {
    const send = (_m: string, params: JsonObject) =>
      (params.arguments as JsonObject).line === 1 ? new Promise<JsonObject>(() => {}) : Promise.resolve(ok);
    const planned = planCalls([], [call("read", 1), call("read", 2)], surface, options);
    const outcomes = await runCalls(planned, surface, send, options);
    expect(outcomes.map((o) => [o.status, o.findings[0]?.kind])).toEqual([
      ["broken", "replay-timeout"],
      ["kept", undefined],
    ]);

    let clock = 0;
    const spent = await runCalls(
      planned,
      surface,
      async () => {
        clock += 60;
        return ok;
      },
      { ...options, budgetMs: 50, concurrency: 1, now: () => clock },
    );
    expect(spent.map((o) => o.findings[0]?.message ?? "kept")).toEqual(["kept", expect.stringContaining("budget")]);
  });

  test("a JSON-RPC error is a refusal; a failed session fails the call, not the run", async () => {
    const planned = planCalls([], [call("read", 1), call("read", 2)], surface, options);
    const outcomes = await runCalls(
      planned,
      surface,
      (_m, params) =>
        Promise.reject(
          (params.arguments as JsonObject).line === 1
            ? new RpcError(-32602, "bad")
            : new Error("the connection to the server closed during tools/call"),
        ),
      options,
    );
    expect(outcomes.map((o) => o.findings[0]?.kind)).toEqual(["replay-call-refused", "replay-server-failed"]);
  });

  test("--setup calls run first, in order, their answers unjudged; skipped and gone calls are never sent", async () => {
    const sent: string[] = [];
    const send = async (_m: string, params: JsonObject) => {
      sent.push(String(params.name));
      return params.name === "read" ? { content: [{ type: "image", data: "", mimeType: "image/png" }] } : ok;
    };
    const setup = [{ ...call("read", 7), consumer: "setup" }];
    const calls = [call("write", 1), call("gone", 2), call("read", 3)];
    const strict = { ...options, allow: new Set<string>() };
    const planned = planCalls(setup, calls, surface, strict);
    const outcomes = await runCalls(planned, surface, send, strict);
    expect(sent).toEqual(["read", "read"]);
    expect(outcomes.map((o) => [o.setup ?? false, o.status])).toEqual([
      [true, "kept"],
      [false, "skipped"],
      [false, "broken"],
      [false, "broken"],
    ]);
    expect(dryRun(planned).map((o) => o.status)).toEqual(["planned", "skipped", "broken", "planned"]);
  });

  test("--dry-run shows what would be sent, with arguments named like credentials masked", () => {
    const secret: ReplayCall = {
      ...call("read", 1),
      params: { name: "read", arguments: { city: "Oslo", api_key: "sk-live-1" } },
    };
    const [planned] = dryRun(planCalls([], [secret], surface, options));
    expect(planned?.reason).toBe('would send tools/call {"name":"read","arguments":{"city":"Oslo","api_key":"***"}}');
  });

  test("the recorded envelope is not re-sent; vendor _meta keys are", () => {
    expect(
      replayParams({
        name: "x",
        _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", progressToken: 1, "com.example/t": 1 },
      }),
    ).toEqual({ name: "x", _meta: { "com.example/t": 1 } });
    expect(replayParams({ name: "x", _meta: { progressToken: 1 } })).toEqual({ name: "x" });
  });
});
