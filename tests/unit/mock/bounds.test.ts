/**
 * The mock's input bounds, in process with the limits shrunk so that they act in milliseconds:
 * stdin's line splitter (a line past the limit is refused once and dropped, whatever its size),
 * and the HTTP transport against raw sockets on 127.0.0.1 (413, connection cap, deadlines for
 * silent, trickling and idle connections, a listen stream left open).
 * tests/e2e/mock.test.ts sends the same to the real binary with the real limits.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import type { Contract } from "../../../src/contract/model.ts";
import { DEFAULT_LIMITS, type InputLimits, tooLargeAnswer } from "../../../src/mock/limits.ts";
import { type NodeHttpServing, serveNodeHttp } from "../../../src/mock/node-http.ts";
import { MockServer } from "../../../src/mock/server.ts";
import { LineSplitter } from "../../../src/util/lines.ts";
import { mockContract } from "./contract.ts";

const contract: Contract = mockContract({
  // Captured with --era legacy: the mock serves both eras, so subscriptions/listen too.
  capture: { clientCapabilities: [], era: "legacy" },
  tools: [{ name: "echo", inputSchema: { type: "object" } }],
});

describe("LineSplitter", () => {
  const split = (max: number) => {
    const lines: string[] = [];
    let refused = 0;
    const splitter = new LineSplitter(
      max,
      (line) => lines.push(line),
      () => refused++,
    );
    return { splitter, lines, refused: () => refused };
  };

  test("lines split across chunks and CRLF endings come out whole; blank lines are skipped", () => {
    const { splitter, lines } = split(100);
    for (const chunk of ["ab", "c\r\n\n  \nd", "é\nf"]) splitter.push(Buffer.from(chunk));
    expect(lines).toEqual(["abc", "dé"]);
  });

  test("a line at the limit is kept; one byte more is refused", () => {
    const { splitter, lines, refused } = split(4);
    splitter.push(Buffer.from("abcd\nabcde\nok\n"));
    expect(lines).toEqual(["abcd", "ok"]);
    expect(refused()).toBe(1);
  });

  test("a line that never ends is refused once, as it passes the limit, and the rest dropped until its newline", () => {
    const { splitter, lines, refused } = split(1024);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    splitter.push(chunk);
    expect(refused()).toBe(1);
    for (let i = 0; i < 1000; i++) splitter.push(chunk);
    expect(refused()).toBe(1);
    splitter.push(Buffer.from('aaa\n{"next":1}\n'));
    expect(lines).toEqual(['{"next":1}']);
  });

  test("a multi-byte character split between chunks is decoded whole", () => {
    const { splitter, lines } = split(100);
    const bytes = Buffer.from("€\n");
    splitter.push(bytes.subarray(0, 1));
    splitter.push(bytes.subarray(1));
    expect(lines).toEqual(["€"]);
  });
});

test("the too-large answer names the limit and has a null id", () => {
  expect(tooLargeAnswer(4 * 1024 * 1024)).toMatchObject({
    id: null,
    error: { code: -32600, message: expect.stringContaining("4 MiB limit (--max-message-size)") },
  });
});

/** A raw connection: what it received, and when it closed (ms after connecting). */
interface Raw {
  socket: Socket;
  text(): string;
  closedAfter: Promise<number>;
}

function raw(url: string): Promise<Raw> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const opened = performance.now();
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
    });
    socket.on("error", () => {});
    socket.once("error", reject);
    const closedAfter = new Promise<number>((done) => socket.once("close", () => done(performance.now() - opened)));
    socket.once("connect", () => resolve({ socket, text: () => text, closedAfter }));
  });
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, Bun.sleep(ms).then(() => undefined)]) as Promise<T | undefined>;

const ping = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });
const post = (body: string, extra = `Content-Length: ${body.length}\r\n`) =>
  `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extra}\r\n${body}`;

describe("the HTTP transport's bounds (limits shrunk)", () => {
  let serving: NodeHttpServing | undefined;
  const open: Socket[] = [];
  const start = async (limits: Partial<InputLimits>) => {
    serving = await serveNodeHttp(new MockServer(contract, { seed: 1, pageSize: 10 }), "127.0.0.1", 0, {
      ...DEFAULT_LIMITS,
      ...limits,
    });
    return serving.url;
  };
  const client = async (url: string) => {
    const c = await raw(url);
    open.push(c.socket);
    return c;
  };
  afterEach(async () => {
    for (const socket of open.splice(0)) socket.destroy();
    await serving?.close();
    serving = undefined;
  });

  test("a body over the limit is 413, declared or chunked; the connection then serves the next request", async () => {
    const url = await start({ maxMessageBytes: 1024 });
    const declared = await client(url);
    declared.socket.write(post("", "Content-Length: 5000\r\n"));
    await Bun.sleep(100);
    expect(declared.text()).toMatch(/^HTTP\/1\.1 413 /);
    expect(declared.text()).toContain("0.001 MiB limit");
    declared.socket.write(`${"x".repeat(5000)}${post(ping(1))}`);
    await Bun.sleep(100);
    expect(declared.text()).toContain('"id":1');

    const chunked = await client(url);
    chunked.socket.write(post("", "Transfer-Encoding: chunked\r\n"));
    for (let i = 0; i < 4; i++) chunked.socket.write(`400\r\n${"a".repeat(1024)}\r\n`);
    await Bun.sleep(100);
    expect(chunked.text()).toMatch(/^HTTP\/1\.1 413 /);
    chunked.socket.write(`0\r\n\r\n${post(ping(2))}`);
    await Bun.sleep(100);
    expect(chunked.text()).toContain('"id":2');
  });

  test("connections past the cap are closed at once; a slot frees when one goes", async () => {
    const url = await start({ maxConnections: 3 });
    const clients = await Promise.all(Array.from({ length: 6 }, () => client(url)));
    const closed = await Promise.all(clients.map((c) => within(c.closedAfter, 300)));
    expect(closed.filter((ms) => ms === undefined)).toHaveLength(3);
    for (const c of clients) c.socket.destroy();
    await Bun.sleep(50);
    const again = await client(url);
    again.socket.write(post(ping(3)));
    await Bun.sleep(100);
    expect(again.text()).toContain('"id":3');
  });

  test("the default deadline is 30 s, and `mock --request-timeout`'s default is the same", async () => {
    expect(DEFAULT_LIMITS.requestTimeoutMs).toBe(30_000);
    const { mockCommand } = await import("../../../src/cli/mock.ts");
    const option = mockCommand().options.find((o) => o.long === "--request-timeout");
    expect((option?.defaultValue as number) * 1000).toBe(DEFAULT_LIMITS.requestTimeoutMs);
  });

  test("silent, trickling and idle connections are closed at their deadline; a listen stream is not", async () => {
    const url = await start({ requestTimeoutMs: 300 });
    const silent = await client(url);
    const headers = await client(url);
    headers.socket.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ");
    const body = await client(url);
    body.socket.write(post("", "Content-Length: 1000\r\n"));
    const idle = await client(url);
    idle.socket.write(post(ping(4)));
    const listen = await client(url);
    listen.socket.write(
      post(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 5,
          method: "subscriptions/listen",
          params: { notifications: {}, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
        }),
      ),
    );
    const trickle = setInterval(() => {
      for (const slow of [headers, body]) if (!slow.socket.destroyed) slow.socket.write("a");
    }, 50);
    try {
      const closed = await Promise.all([silent, headers, body, idle].map((c) => within(c.closedAfter, 2_000)));
      for (const ms of closed) {
        expect(ms).toBeDefined();
        expect(ms as number).toBeGreaterThan(250);
      }
      expect(silent.text()).toMatch(/^HTTP\/1\.1 408 /);
      expect(body.text()).toMatch(/^HTTP\/1\.1 408 /);
      expect(idle.text()).toContain('"id":4');
      // The listen stream outlives every deadline.
      expect(await within(listen.closedAfter, 200)).toBeUndefined();
      expect(listen.text()).toContain("notifications/subscriptions/acknowledged");
    } finally {
      clearInterval(trickle);
    }
  });
});
