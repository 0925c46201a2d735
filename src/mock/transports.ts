/** The mock's transports: newline-delimited JSON-RPC on stdio, and Streamable HTTP at /mcp. */
import { META_KEYS } from "../connect/era.ts";
import { isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import { type Answer, type Connection, INVALID_REQUEST, type MockServer } from "./server.ts";

const PARSE_ERROR = -32700;
const INTERNAL_ERROR = -32603;

type Outgoing = JsonObject;

/**
 * Answer one parsed message (or a batch). `onListen` receives a listen stream's
 * acknowledgment; the request itself stays open. Undefined: nothing to send back.
 */
export function answerMessage(
  server: MockServer,
  message: unknown,
  connection: Connection,
  onListen: (ack: Outgoing) => void,
): Outgoing | Outgoing[] | undefined {
  if (Array.isArray(message)) {
    if (message.length === 0) return invalid(null, "an empty batch");
    const answers = message
      .map((m) => answerMessage(server, m, connection, onListen))
      .filter((a): a is Outgoing => a !== undefined && !Array.isArray(a));
    return answers.length > 0 ? answers : undefined;
  }
  if (!isJsonObject(message) || message.jsonrpc !== "2.0") return invalid(null, "not a JSON-RPC 2.0 message");
  const { id, method, params } = message;
  if (typeof method !== "string") {
    // A response from the client (we send no requests): nothing to answer.
    return "result" in message || "error" in message ? undefined : invalid(id ?? null, "no method");
  }
  if (id === undefined) {
    server.notified(method, params);
    return undefined;
  }
  if (typeof id !== "string" && typeof id !== "number") return invalid(null, "an id that is not a string or number");
  let answer: ReturnType<MockServer["handle"]>;
  try {
    answer = server.handle(method, params, connection);
  } catch (error) {
    // A bug of ours, or a contract no code path expected: an internal error, and the mock lives on.
    answer = { error: { code: INTERNAL_ERROR, message: `Internal error: ${(error as Error).message}` } };
  }
  if ("listen" in answer) {
    onListen({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: answer.listen, _meta: { [META_KEYS.subscriptionId]: id } },
    });
    return undefined;
  }
  return envelope(id, answer);
}

function envelope(id: Json, answer: Answer): Outgoing {
  return "result" in answer
    ? { jsonrpc: "2.0", id, result: answer.result }
    : { jsonrpc: "2.0", id, error: answer.error as unknown as JsonObject };
}

function invalid(id: Json, what: string): Outgoing {
  return { jsonrpc: "2.0", id, error: { code: INVALID_REQUEST, message: `Invalid Request: ${what}` } };
}

function parseError(error: unknown): Outgoing {
  return {
    jsonrpc: "2.0",
    id: null,
    error: { code: PARSE_ERROR, message: `Parse error: ${(error as Error).message}` },
  };
}

/** Serve stdio until stdin ends. */
export function serveStdio(server: MockServer): Promise<void> {
  const connection: Connection = {};
  const write = (message: Outgoing | Outgoing[]) => {
    process.stdout.write(`${JSON.stringify(message)}\n`);
  };
  return new Promise((resolve) => {
    let buffer = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (chunk: string) => {
      buffer += chunk;
      for (let at = buffer.indexOf("\n"); at !== -1; at = buffer.indexOf("\n")) {
        const line = buffer.slice(0, at).replace(/\r$/, "");
        buffer = buffer.slice(at + 1);
        if (line.trim() === "") continue;
        let message: unknown;
        try {
          message = JSON.parse(line);
        } catch (error) {
          write(parseError(error));
          continue;
        }
        const answer = answerMessage(server, message, connection, write);
        if (answer !== undefined) write(answer);
      }
    });
    process.stdin.on("end", () => resolve());
    process.stdin.on("close", () => resolve());
  });
}

export interface HttpServing {
  url: string;
  closed: Promise<void>;
  stop(): void;
}

const JSON_HEADERS = { "content-type": "application/json" };

/** Serve Streamable HTTP at /mcp on host:port (stateless: every POST stands alone). */
export function serveHttp(server: MockServer, host: string, port: number): HttpServing {
  let finish: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const http = Bun.serve({
    hostname: host,
    port,
    idleTimeout: 0,
    fetch: async (request) => {
      const url = new URL(request.url);
      if (url.pathname !== "/mcp") return new Response("Not Found: the MCP endpoint is /mcp\n", { status: 404 });
      if (request.method !== "POST") {
        return new Response(null, { status: 405, headers: { allow: "POST" } });
      }
      let message: unknown;
      try {
        message = JSON.parse(await request.text());
      } catch (error) {
        return new Response(JSON.stringify(parseError(error)), { status: 400, headers: JSON_HEADERS });
      }
      let ack: Outgoing | undefined;
      const answer = answerMessage(server, message, {}, (a) => {
        ack = a;
      });
      if (ack !== undefined) return listenStream(ack, request.signal);
      if (answer === undefined) return new Response(null, { status: 202 });
      return new Response(JSON.stringify(answer), { status: 200, headers: JSON_HEADERS });
    },
  });
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${http.port}/mcp`,
    closed,
    stop: () => {
      void http.stop(true);
      finish();
    },
  };
}

/** A subscriptions/listen stream: the acknowledgment, then open until the client goes. */
function listenStream(ack: Outgoing, signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  const stream = new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(ack)}\n\n`));
      signal.addEventListener("abort", () => {
        try {
          controller.close();
        } catch {
          // already closed
        }
      });
    },
  });
  return new Response(stream, {
    status: 200,
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" },
  });
}
