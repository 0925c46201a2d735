/**
 * The mock's Streamable HTTP transport on node:http, for the programmatic API under Node
 * (the CLI's binary serves with Bun.serve, in transports.ts). Same endpoint, same answers:
 * POST /mcp, one JSON answer per request, 202 for notifications, an SSE stream for
 * subscriptions/listen.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { MockServer } from "./server.ts";
import { answerText, serialize } from "./transports.ts";

export interface NodeHttpServing {
  url: string;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

async function respond(server: MockServer, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = new URL(request.url ?? "/", "http://mock").pathname;
  if (path !== "/mcp") {
    response.writeHead(404, { "content-type": "text/plain" }).end("Not Found: the MCP endpoint is /mcp\n");
    return;
  }
  if (request.method !== "POST") {
    response.writeHead(405, { allow: "POST" }).end();
    return;
  }
  let ack: object | undefined;
  const { answer, parsed } = answerText(server, await readBody(request), {}, (a) => {
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
  response.writeHead(parsed ? 200 : 400, { "content-type": "application/json" }).end(serialize(answer));
}

/** Serve on host:port (0: a free port) until close(). */
export function serveNodeHttp(server: MockServer, host: string, port: number): Promise<NodeHttpServing> {
  const http = createServer((request, response) => {
    respond(server, request, response).catch((error: Error) => {
      // Only reading the body can fail here (answerText never throws): still a JSON-RPC answer.
      const body = { jsonrpc: "2.0", id: null, error: { code: -32603, message: `Internal error: ${error.message}` } };
      if (!response.headersSent) response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    });
  });
  return new Promise((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, host, () => {
      const address = http.address();
      const bound = typeof address === "object" && address ? address.port : port;
      resolve({
        url: `http://${host.includes(":") ? `[${host}]` : host}:${bound}/mcp`,
        close: () =>
          new Promise<void>((done) => {
            http.closeAllConnections();
            http.close(() => done());
          }),
      });
    });
  });
}
