/**
 * The record proxy's pure parts: pairing messages into the exchanges `mock --record` writes
 * (ids in both directions, eras, batches, cancellation, the bound on what waits), the SSE
 * reader of HTTP answers, and the headers forwarded upstream.
 */
import { describe, expect, test } from "bun:test";
import { parseCalls } from "../../../src/policy/calls.ts";
import { forwardedHeaders } from "../../../src/record/http-proxy.ts";
import { classify, credentialArguments, Pairing, requestEra } from "../../../src/record/pairing.ts";
import { SseEvents } from "../../../src/record/sse.ts";

const T = "2026-01-01T00:00:00.000Z";
const pairing = (options = {}) => new Pairing({ now: () => T, ...options });
const modernMeta = { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } };
const call = (id: number | string, name = "get_forecast", extra: object = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: { city: "Paris" }, ...extra },
});
const ok = (id: number | string, result: object = { content: [] }) => ({ jsonrpc: "2.0", id, result });

describe("Pairing", () => {
  test("a client request is recorded with its answer, in mock --record's fields, when the answer comes", () => {
    const p = pairing();
    expect(p.see(call(1), "client")).toEqual([]);
    expect(p.waiting).toBe(1);
    expect(p.see(ok(1, { content: [{ type: "text", text: "sunny" }] }), "server")).toEqual([
      {
        time: T,
        era: "legacy",
        method: "tools/call",
        params: { name: "get_forecast", arguments: { city: "Paris" } },
        result: { content: [{ type: "text", text: "sunny" }] },
      },
    ]);
    expect(p.waiting).toBe(0);
  });

  test("an error answer is recorded as error; answers out of order pair by id", () => {
    const p = pairing();
    p.see(call(1, "a"), "client");
    p.see(call(2, "b"), "client");
    const [second] = p.see({ jsonrpc: "2.0", id: 2, error: { code: -32602, message: "bad" } }, "server");
    expect(second).toMatchObject({
      method: "tools/call",
      params: { name: "b" },
      error: { code: -32602, message: "bad" },
    });
    expect(second).not.toHaveProperty("result");
    const [first] = p.see(ok(1), "server");
    expect(first).toMatchObject({ params: { name: "a" }, result: { content: [] } });
  });

  test('ids 1 and "1" are different requests; an answer from the wrong side pairs nothing', () => {
    const p = pairing();
    p.see(call(1, "number"), "client");
    p.see(call("1", "string"), "client");
    expect(p.see(ok("1"), "client")).toEqual([]); // the client does not answer its own request
    expect(p.see(ok("1"), "server")[0]).toMatchObject({ params: { name: "string" } });
    expect(p.see(ok(1), "server")[0]).toMatchObject({ params: { name: "number" } });
    expect(p.see(ok(1), "server")).toEqual([]); // answered once only
  });

  test("a request the server starts pairs with the client's answer and is marked from: server", () => {
    const p = pairing();
    p.see(call(1, "x", modernMeta), "client");
    p.see({ jsonrpc: "2.0", id: 1, method: "sampling/createMessage", params: { messages: [] } }, "server");
    const [exchange] = p.see(ok(1, { role: "assistant" }), "client");
    expect(exchange).toEqual({
      time: T,
      era: "modern",
      method: "sampling/createMessage",
      params: { messages: [] },
      result: { role: "assistant" },
      from: "server",
    });
    // The client's own request 1 still waits for its answer.
    expect(p.see(ok(1), "server")[0]).toMatchObject({ method: "tools/call" });
  });

  test("notifications are recorded at once, in both directions", () => {
    const p = pairing();
    expect(p.see({ jsonrpc: "2.0", method: "notifications/initialized" }, "client")).toEqual([
      { time: T, era: "legacy", method: "notifications/initialized", notification: true },
    ]);
    expect(p.see({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } }, "server")).toEqual([
      {
        time: T,
        era: "legacy",
        method: "notifications/progress",
        params: { progress: 1 },
        notification: true,
        from: "server",
      },
    ]);
  });

  test("a cancelled request is never recorded, even when an answer comes after all", () => {
    const p = pairing();
    p.see(call(7), "client");
    p.see({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } }, "client");
    expect(p.waiting).toBe(0);
    expect(p.see(ok(7), "server")).toEqual([]);
  });

  test("a batch is paired element by element", () => {
    const p = pairing();
    p.see([call(1, "a"), call(2, "b"), { jsonrpc: "2.0", method: "notifications/x" }], "client");
    const exchanges = p.see([ok(2), ok(1)], "server");
    expect(exchanges.map((e) => (e.params as { name: string }).name)).toEqual(["b", "a"]);
  });

  test("what is not JSON-RPC is ignored", () => {
    const p = pairing();
    for (const junk of [
      null,
      3,
      "text",
      {},
      { id: {}, method: "x" },
      { id: 1 },
      { jsonrpc: "2.0", id: null, result: {} },
    ]) {
      expect(p.see(junk, "client")).toEqual([]);
      expect(p.see(junk, "server")).toEqual([]);
    }
    expect(p.waiting).toBe(0);
  });

  test("what waits unanswered is bounded in number and bytes: the oldest is let go and counted", () => {
    const byCount = pairing({ maxPending: 3 });
    for (let i = 0; i < 5; i++) byCount.see(call(i), "client");
    expect(byCount.waiting).toBe(3);
    expect(byCount.dropped).toBe(2);
    expect(byCount.see(ok(0), "server")).toEqual([]);
    expect(byCount.see(ok(4), "server")).toHaveLength(1);

    const byBytes = pairing({ maxPendingBytes: 1000 });
    for (let i = 0; i < 10; i++) byBytes.see(call(i), "client", 300);
    expect(byBytes.waiting).toBe(3);
    expect(byBytes.dropped).toBe(7);
  });

  test("the recorded lines read back as calls for check --calls", () => {
    const p = pairing();
    const lines = [
      ...p.see({ jsonrpc: "2.0", id: 0, method: "initialize", params: {} }, "client"),
      ...p.see(ok(0, { protocolVersion: "2025-11-25" }), "server"),
      ...p.see(call(1), "client"),
      ...p.see(ok(1, { content: [], structuredContent: { ok: true } }), "server"),
      ...p.see({ jsonrpc: "2.0", id: 5, method: "ping" }, "server"),
      ...p.see(ok(5, {}), "client"),
    ].map((e) => JSON.stringify(e));
    expect(parseCalls(lines.join("\n"), "calls.jsonl")).toEqual([
      {
        method: "tools/call",
        params: { name: "get_forecast", arguments: { city: "Paris" } },
        result: { content: [], structuredContent: { ok: true } },
      },
    ]);
  });
});

describe("credentialArguments", () => {
  test("names a call's arguments that look like credentials; the values stay as sent", () => {
    const p = pairing();
    p.see(call(1, "search", { arguments: { query: "x", api_key: "k", accessToken: "t", monkey: 1 } }), "client");
    const [exchange] = p.see(ok(1), "server");
    expect(credentialArguments(exchange as never)).toEqual(["api_key", "accessToken"]);
    expect(exchange?.params).toMatchObject({ arguments: { api_key: "k" } });
    expect((exchange?.params as { arguments: object } | undefined)?.arguments).toMatchObject({
      api_key: "k",
      accessToken: "t",
    });
    p.see({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { arguments: { token: "x" } } }, "client");
    expect(credentialArguments(p.see(ok(2), "server")[0] as never)).toEqual([]);
  });
});

describe("eras", () => {
  test("the 2026-07-28 envelope is modern; initialize and plain requests are legacy", () => {
    expect(requestEra("tools/list", modernMeta)).toBe("modern");
    expect(requestEra("initialize", modernMeta)).toBe("legacy");
    expect(requestEra("tools/list", {})).toBe("legacy");
    expect(requestEra("tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": 3 } })).toBe("legacy");
    expect(requestEra("tools/list", undefined)).toBe("legacy");
  });

  test("a message the server starts takes the era of the client's latest request", () => {
    const p = pairing();
    p.see(call(1, "x", modernMeta), "client");
    expect(p.see({ jsonrpc: "2.0", method: "notifications/message" }, "server")[0]?.era).toBe("modern");
    p.see(call(2), "client");
    expect(p.see({ jsonrpc: "2.0", method: "notifications/message" }, "server")[0]?.era).toBe("legacy");
  });

  test("classify tells requests, notifications and answers apart", () => {
    expect(classify(call(1)).kind).toBe("request");
    expect(classify({ jsonrpc: "2.0", method: "n" }).kind).toBe("notification");
    expect(classify(ok(1)).kind).toBe("response");
    expect(classify({ jsonrpc: "2.0", id: 1, error: { code: 1, message: "m" } }).kind).toBe("response");
    expect(classify({ jsonrpc: "2.0", id: Number.NaN, method: "x" }).kind).toBe("other");
  });
});

describe("SseEvents", () => {
  const events = (max = 1000) => {
    const seen: string[] = [];
    return { seen, sse: new SseEvents((data) => seen.push(data), max) };
  };
  const bytes = (text: string) => new TextEncoder().encode(text);

  test("each event's data, across chunk boundaries and line endings; other fields and comments skipped", () => {
    const { seen, sse } = events();
    for (const chunk of [
      ": hello\r\n",
      "event: message\r\nid: 1\r",
      '\ndata: {"a"',
      ":1}\r\n\r\n",
      "data: x\ndata:y\n\n",
      "data: z",
    ]) {
      sse.push(bytes(chunk));
    }
    sse.end();
    expect(seen).toEqual(['{"a":1}', "x\ny"]);
  });

  test("a multibyte character split between chunks is decoded whole", () => {
    const { seen, sse } = events();
    const all = bytes('data: "é"\n\n');
    sse.push(all.subarray(0, 8));
    sse.push(all.subarray(8));
    expect(seen).toEqual(['"é"']);
  });

  test("an event over the bound is dropped, and the next one read", () => {
    const { seen, sse } = events(10);
    sse.push(bytes(`data: ${"x".repeat(50)}\n\ndata: ok\n\n`));
    expect(seen).toEqual(["ok"]);
  });
});

describe("forwardedHeaders", () => {
  test("hop-by-hop headers and those Connection names stay; Host names the upstream; repeats kept", () => {
    const raw = [
      "Host",
      "127.0.0.1:8931",
      "Connection",
      "keep-alive, X-Hop",
      "Keep-Alive",
      "timeout=5",
      "Transfer-Encoding",
      "chunked",
      "X-Hop",
      "1",
      "Authorization",
      "Bearer t0ken",
      "Accept",
      "application/json, text/event-stream",
      "Set-Cookie",
      "a=1",
      "Set-Cookie",
      "b=2",
    ];
    expect(forwardedHeaders(raw, "upstream.example:443")).toEqual({
      Authorization: "Bearer t0ken",
      Accept: "application/json, text/event-stream",
      "Set-Cookie": ["a=1", "b=2"],
      host: "upstream.example:443",
    });
    expect(forwardedHeaders(["Content-Type", "text/event-stream", "Connection", "close"])).toEqual({
      "Content-Type": "text/event-stream",
    });
  });
});
