/**
 * Malformed and deeply nested JSON-RPC gets a JSON-RPC error answer, in process: through
 * answerMessage (what the stdio transport calls) and through the node:http transport (the CLI's
 * --http and the programmatic API). One bad message never costs the answers to the others.
 * tests/e2e/mock.test.ts sends the same to a real `mcp-contract mock` over stdio and HTTP.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Contract } from "../../../src/contract/model.ts";
import { type NodeHttpServing, serveNodeHttp } from "../../../src/mock/node-http.ts";
import { MockServer } from "../../../src/mock/server.ts";
import { answerMessage } from "../../../src/mock/transports.ts";
import { mockContract } from "./contract.ts";

const contract: Contract = mockContract({ tools: [{ name: "echo", inputSchema: { type: "object" } }] });

const deepArray = (depth: number): unknown => JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`);
const deepObject = (depth: number): unknown => JSON.parse(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`);
const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });

/** A server whose recording fails on one notification: a fault inside a batch member. */
function serverFailingOn(method: string): MockServer {
  return new MockServer(contract, {
    seed: 1,
    pageSize: 10,
    onExchange: (exchange) => {
      if (exchange.method === method) throw new Error("the recording failed");
    },
  });
}

const noListen = () => {};

describe("answerMessage", () => {
  const server = new MockServer(contract, { seed: 1, pageSize: 10 });

  test("a 100,000-deep array is an invalid request, not a stack overflow", () => {
    expect(answerMessage(server, deepArray(100_000), {}, noListen)).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: a batch inside a batch" } },
    ]);
  });

  test("a request with 100,000-deep params is refused with its id", () => {
    const message = {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "echo", arguments: deepObject(100_000) },
    };
    expect(answerMessage(server, message, {}, noListen)).toMatchObject({ id: 7, error: { code: -32600 } });
  });

  test("a batch with bad members answers every good one", () => {
    const answers = answerMessage(server, [ping(1), 5, deepArray(50_000), { jsonrpc: "1.0" }, ping(2)], {}, noListen);
    expect(answers).toMatchObject([
      { id: 1, result: {} },
      { id: null, error: { code: -32600 } },
      { id: null, error: { code: -32600 } },
      { id: null, error: { code: -32600 } },
      { id: 2, result: {} },
    ]);
  });

  test("a member that fails inside the mock costs only its own answer", () => {
    const failing = serverFailingOn("notifications/boom");
    const notification = { jsonrpc: "2.0", method: "notifications/boom" };
    expect(answerMessage(failing, [ping(1), notification, ping(2)], {}, noListen)).toMatchObject([
      { id: 1, result: {} },
      { id: 2, result: {} },
    ]);
  });
});

describe("the node:http transport", () => {
  let serving: NodeHttpServing;
  beforeAll(async () => {
    serving = await serveNodeHttp(new MockServer(contract, { seed: 1, pageSize: 10 }), "127.0.0.1", 0);
  });
  afterAll(async () => {
    await serving?.close();
  });
  const post = async (body: string) => {
    const response = await fetch(serving.url, {
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
    });
    return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
  };

  test("a 100,000-deep array gets a JSON-RPC answer", async () => {
    const answer = await post(`${"[".repeat(100_000)}${"]".repeat(100_000)}`);
    expect(answer.type).toBe("application/json");
    expect(JSON.parse(answer.body)).toMatchObject([{ id: null, error: { code: -32600 } }]);
  });

  test("invalid JSON is a parse error", async () => {
    const answer = await post("{bad");
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ id: null, error: { code: -32700 } });
  });

  test("a batch with one bad member answers the others", async () => {
    const answer = await post(JSON.stringify([ping(1), [ping(9)], ping(2)]));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject([{ id: 1 }, { id: null, error: { code: -32600 } }, { id: 2 }]);
  });
});
