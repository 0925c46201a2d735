/**
 * The mock's Streamable HTTP transport: POST /mcp, one JSON answer per request, 202 for
 * notifications, an SSE stream for subscriptions/listen. Stateless: every POST stands alone.
 *
 * One implementation for the CLI's binary (Bun runs node:http) and the programmatic API under
 * Node. node:http rather than Bun.serve: connections can be accepted by a socket server of ours
 * and handed to it (http-guard.ts), which is how the connection cap and the deadlines in
 * limits.ts are kept; Bun.serve has no connection cap, and kept a request whose body was
 * trickled a byte at a time open for good.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { guardConnections } from "./http-guard.ts";
import { DEFAULT_LIMITS, type InputLimits, tooLargeAnswer } from "./limits.ts";
import type { Connection, MockServer } from "./server.ts";
import { answerText, serialize } from "./transports.ts";

export interface NodeHttpServing {
  url: string;
  close(): Promise<void>;
}

const JSON_TYPE = { "content-type": "application/json" };

/** A JSON answer with its length, so no runtime falls back on chunked encoding for it. */
function sendJson(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...JSON_TYPE, "content-length": String(Buffer.byteLength(text)), ...headers }).end(text);
}

/** What reading a body came to: its text, too many bytes (refused unread), or a client that went. */
type Body = { text: string } | { tooLarge: true } | { gone: true };

/**
 * Read a body of at most `maxBytes`. A declared Content-Length over it is refused before a byte
 * is read; a chunked body is refused as it passes it, and what was read is let go. The rest of a
 * refused body flows on unread, to nowhere, so that the connection can carry the next request
 * once it ends (http-guard.ts cuts one whose body never ends). Never rejects: a request cut by
 * its client or by a deadline is `gone`.
 */
function readBody(request: IncomingMessage, maxBytes: number): Promise<Body> {
  if (Number(request.headers["content-length"]) > maxBytes) {
    request.resume();
    return Promise.resolve({ tooLarge: true });
  }
  return new Promise((resolve) => {
    let chunks: Buffer[] = [];
    let size = 0;
    const settle = (body: Body) => {
      request.off("data", onData);
      chunks = [];
      resolve(body);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) settle({ tooLarge: true });
      else chunks.push(chunk);
    };
    request.on("data", onData);
    request.on("end", () => settle({ text: Buffer.concat(chunks).toString("utf8") }));
    request.on("error", () => settle({ gone: true }));
    request.on("close", () => settle({ gone: true }));
  });
}

async function respond(
  server: MockServer,
  request: IncomingMessage,
  response: ServerResponse,
  maxBytes: number,
): Promise<void> {
  const path = new URL(request.url ?? "/", "http://mock").pathname;
  if (path !== "/mcp") {
    response.writeHead(404, { "content-type": "text/plain" }).end("Not Found: the MCP endpoint is /mcp\n");
    return;
  }
  if (request.method !== "POST") {
    response.writeHead(405, { allow: "POST" }).end();
    return;
  }
  const body = await readBody(request, maxBytes);
  if ("gone" in body) return;
  if ("tooLarge" in body) {
    // Answered at once, while the client may still be sending: it can stop.
    sendJson(response, 413, serialize(tooLargeAnswer(maxBytes)));
    return;
  }
  let ack: object | undefined;
  const connection: Connection = {};
  const { answer, parsed } = answerText(server, body.text, connection, (a) => {
    ack = a;
  });
  if (ack !== undefined) {
    // subscriptions/listen: the acknowledgment, then open until the client goes.
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    response.write(`event: message\ndata: ${JSON.stringify(ack)}\n\n`);
    return;
  }
  if (answer === undefined) {
    response.writeHead(202).end();
    return;
  }
  // A modern-only endpoint refuses a legacy request with 400, the refusal in the body (v2 SDK).
  sendJson(response, parsed && !connection.refusedLegacy ? 200 : 400, serialize(answer));
}

/** Serve on host:port (0: a free port) until close(). Rejects when the port cannot be bound. */
export function serveNodeHttp(
  server: MockServer,
  host: string,
  port: number,
  limits: InputLimits = DEFAULT_LIMITS,
): Promise<NodeHttpServing> {
  const http = createServer(
    // Every deadline is kept by http-guard.ts, the same way on Bun and Node.
    { requestTimeout: 0, headersTimeout: 0 },
    (request, response) => {
      respond(server, request, response, limits.maxMessageBytes).catch((error: Error) => {
        // answerText never throws; this is a bug of ours, still answered as JSON-RPC.
        const body = { jsonrpc: "2.0", id: null, error: { code: -32603, message: `Internal error: ${error.message}` } };
        if (response.destroyed) return;
        if (response.headersSent) response.end();
        else sendJson(response, 500, JSON.stringify(body));
      });
    },
  );
  // Not a timer of ours here (http-guard.ts closes idle connections): what the Keep-Alive
  // header advertises, so that clients stop reusing a connection before the guard closes it.
  http.keepAliveTimeout = limits.requestTimeoutMs;
  http.timeout = 0;
  const { listener, closeAll } = guardConnections(http, limits);
  return new Promise((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(port, host, () => {
      const address = listener.address();
      const bound = typeof address === "object" && address ? address.port : port;
      resolve({
        url: `http://${host.includes(":") ? `[${host}]` : host}:${bound}/mcp`,
        close: () =>
          new Promise<void>((done) => {
            listener.close(() => done());
            closeAll();
          }),
      });
    });
  });
}
