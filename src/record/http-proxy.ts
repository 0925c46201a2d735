/**
 * `mcp-contract record --url URL --port N`: a Streamable HTTP reverse proxy on 127.0.0.1:N in
 * front of URL. Every request (any method and path: POST messages, GET streams, DELETE, OAuth
 * metadata) is forwarded to URL's origin with its path, query, headers and body, and the answer
 * streamed back as its bytes arrive: status, headers and body unchanged (JSON or SSE, compressed
 * or not). Hop-by-hop headers (RFC 9110 §7.6.1) stay on their hop, and Host names the upstream.
 *
 * Beside the forwarding, JSON-RPC messages are read from request bodies and from answers (a JSON
 * body, or each SSE event's data) and paired into exchanges: a client request with the answer in
 * the same POST's response (a fresh pairing per POST, so that stateless clients reusing ids never
 * mix), and a request the server starts (on an SSE stream) with the answer a later POST of the
 * same session carries. Headers are never recorded: Authorization and cookies reach the
 * upstream, and nothing else.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Readable, Writable } from "node:stream";
import { redactUrls } from "../connect/target.ts";
import { UsageError } from "../errors.ts";
import type { Recorder } from "../mock/recorder.ts";
import { classify, Pairing, type Sender } from "./pairing.ts";
import { recordingSink } from "./sink.ts";
import { SseEvents } from "./sse.ts";

export interface HttpProxyOptions {
  upstream: URL;
  host: string;
  port: number;
  recorder: Recorder;
  say: (text: string) => void;
  /** A body or SSE event larger than this is forwarded but not recorded. */
  maxMessageBytes: number;
  /** Resolves when the proxy should stop (a signal); the exit code to end with. */
  stop: Promise<number>;
}

/** RFC 9110 §7.6.1 and the proxies' usual extras: meaningful for one connection only. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/**
 * Sessions whose server requests are paired with later answers, at most (the least recently
 * used goes first), and what each may hold waiting: servers start few requests (sampling,
 * elicitation), so the whole stays within 256 MiB however many sessions a client opens.
 */
const MAX_SESSIONS = 256;
const SESSION_PENDING = { maxPending: 1000, maxPendingBytes: 1024 * 1024 };

export interface HttpProxy {
  url: string;
  /** Resolves with the exit code once stopped and every connection is closed. */
  done: Promise<number>;
}

export async function startHttpProxy(options: HttpProxyOptions): Promise<HttpProxy> {
  const { upstream } = options;
  const client = upstream.protocol === "https:" ? await import("node:https") : await import("node:http");
  // Connections to the upstream are kept and reused: a new one per request cost most of the overhead.
  const agent = new client.Agent({ keepAlive: true });
  const sessions = new Map<string, Pairing>();
  let unreachableSaid = false;

  const sessionPairing = (id: string): Pairing => {
    let pairing = sessions.get(id);
    if (pairing) {
      sessions.delete(id); // most recently used last
    } else {
      pairing = new Pairing(SESSION_PENDING);
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
    }
    sessions.set(id, pairing);
    return pairing;
  };
  const sink = recordingSink(options.recorder, options.say);
  const record = (pairing: Pairing, message: unknown, sender: Sender, bytes: number) =>
    sink(pairing.see(message, sender, bytes));

  const forward = (request: IncomingMessage, response: ServerResponse) => {
    const post = new Pairing();
    const sessionId = () => headerOf(request.headers, "mcp-session-id") ?? "";
    /** Client messages: its requests and notifications pair within this POST; its answers to the server's requests in the session. */
    const fromClient = (message: unknown, bytes: number) => {
      for (const m of Array.isArray(message) ? message : [message]) {
        const session = sessionPairing(sessionId());
        if (classify(m).kind === "response") record(session, m, "client", bytes);
        else {
          record(post, m, "client", bytes);
          session.era = post.era;
        }
      }
    };
    /** Server messages: answers pair with this POST's requests; its own requests wait in the session. */
    const fromServer = (message: unknown, bytes: number, session: Pairing) => {
      for (const m of Array.isArray(message) ? message : [message]) {
        if (classify(m).kind === "request") record(session, m, "server", bytes);
        else record(request.method === "POST" ? post : session, m, "server", bytes);
      }
    };

    const target = new URL(request.url ?? "/", upstream.origin);
    const upstreamRequest = client.request({
      protocol: upstream.protocol,
      hostname: upstream.hostname,
      port: upstream.port || undefined,
      method: request.method,
      agent,
      path: `${target.pathname}${target.search || (target.pathname === upstream.pathname ? upstream.search : "")}`,
      headers: forwardedHeaders(request.rawHeaders, upstream.host),
    });

    // Request body: forwarded as it comes, and read whole (up to the bound) for the record.
    const body = new Collector(options.maxMessageBytes);
    pipeWithPressure(request, upstreamRequest, (chunk) => body.push(chunk));
    request.on("end", () => {
      const text = body.text();
      if (text !== undefined) parseInto(text, (message, bytes) => fromClient(message, bytes));
    });
    // The client went away (a closed GET stream, a cancelled POST): so does the upstream request.
    response.on("close", () => {
      if (!response.writableFinished) upstreamRequest.destroy();
    });

    upstreamRequest.on("response", (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardedHeaders(answer.rawHeaders));
      // The session whose server requests this answer may carry (initialize names it in the answer).
      const session = sessionPairing(headerOf(answer.headers, "mcp-session-id") ?? sessionId());
      const sink = sideView(answer, options.maxMessageBytes, (message, bytes) => fromServer(message, bytes, session));
      pipeWithPressure(answer, response, sink);
      answer.on("error", () => response.destroy());
    });
    upstreamRequest.on("error", (error) => {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      const shown = redactUrls(upstream.href);
      if (!unreachableSaid) {
        unreachableSaid = true;
        options.say(
          `mcp-contract record: cannot reach ${shown}: ${(error as Error).message}; answering 502 until it can be reached.`,
        );
      }
      const text = `mcp-contract record: the upstream server ${shown} could not be reached.\n`;
      response
        .writeHead(502, {
          "content-type": "text/plain; charset=utf-8",
          "content-length": String(Buffer.byteLength(text)),
        })
        .end(text);
    });
  };

  const server = createServer(forward);
  // Long-lived GET streams and slow tools: no timeout of ours cuts them.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port, options.host, () => resolve());
    });
  } catch (error) {
    throw new UsageError(
      `cannot listen on ${options.host}:${options.port}: ${(error as Error).message}. Pick another --port (0 picks a free one).`,
    );
  }
  const { port } = server.address() as AddressInfo;
  try {
    assertNotSelf(upstream, options.host, port);
  } catch (error) {
    await new Promise((resolve) => server.close(resolve));
    throw error;
  }
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  // The upstream's query (it may carry a token) is added upstream, never shown: the client gets the path alone.
  const url = `http://${host}:${port}${upstream.pathname}`;
  const done = options.stop.then(
    (code) =>
      new Promise<number>((resolve) => {
        server.close(() => resolve(code));
        server.closeAllConnections();
        agent.destroy();
      }),
  );
  return { url, done };
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1", "0.0.0.0", "[::]"]);

/**
 * Refuses an upstream that is this very listener, which would forward every request to itself.
 * The CLI asks before it opens the recording when --port names the port; the proxy asks again
 * once it listens (a free port picked by 0 cannot be known before).
 */
export function assertNotSelf(upstream: URL, host: string, port: number): void {
  if (!isSelf(upstream, host, port)) return;
  throw new UsageError(
    `--url ${redactUrls(upstream.href)} is the proxy's own address (${host}:${port}): every request would be forwarded to itself. Give the server's URL, and a --port it does not use.`,
  );
}

/** Whether the upstream is this very listener: the same port on a loopback name or our address. */
function isSelf(upstream: URL, host: string, port: number): boolean {
  const upstreamPort = Number(upstream.port || (upstream.protocol === "https:" ? 443 : 80));
  if (upstreamPort !== port) return false;
  const name = upstream.hostname.toLowerCase();
  return LOOPBACK.has(name) || name === host.toLowerCase() || `[${host.toLowerCase()}]` === name;
}

/** Headers as received, less the hop-by-hop ones (and those Connection names); Host rewritten when given. */
export function forwardedHeaders(raw: readonly string[], host?: string): Record<string, string | string[]> {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if ((raw[i] as string).toLowerCase() === "connection") {
      for (const token of (raw[i + 1] as string).split(",")) named.add(token.trim().toLowerCase());
    }
  }
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named.has(lower) || (host !== undefined && lower === "host")) continue;
    const value = raw[i + 1] as string;
    const earlier = out[name];
    out[name] = earlier === undefined ? value : Array.isArray(earlier) ? [...earlier, value] : [earlier, value];
  }
  if (host !== undefined) out.host = host;
  return out;
}

function headerOf(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Copy `from` to `to` chunk by chunk, pausing `from` while `to` is full; `tee` sees each chunk after it is written. */
function pipeWithPressure(from: Readable, to: Writable, tee: (chunk: Buffer) => void): void {
  from.on("data", (chunk: Buffer) => {
    if (!to.write(chunk)) {
      from.pause();
      to.once("drain", () => from.resume());
    }
    tee(chunk);
  });
  from.on("end", () => to.end());
}

/** The JSON-RPC messages of an answer: a JSON body whole, or each SSE event; compressed bodies decoded on the side. */
function sideView(answer: IncomingMessage, maxBytes: number, onMessage: (message: unknown, bytes: number) => void) {
  const type = (headerOf(answer.headers, "content-type") ?? "").toLowerCase();
  const encoding = (headerOf(answer.headers, "content-encoding") ?? "identity").toLowerCase().trim();
  let feed: (chunk: Buffer) => void;
  let finish: () => void;
  if (type.startsWith("text/event-stream")) {
    const events = new SseEvents((data) => parseInto(data, onMessage), maxBytes);
    feed = (chunk) => events.push(chunk);
    finish = () => events.end();
  } else if (type.includes("json")) {
    const body = new Collector(maxBytes);
    feed = (chunk) => body.push(chunk);
    finish = () => {
      const text = body.text();
      if (text !== undefined) parseInto(text, onMessage);
    };
  } else {
    return () => undefined;
  }
  if (encoding !== "identity" && encoding !== "") {
    const decoder = decoderFor(encoding);
    if (!decoder) return () => undefined;
    decoder.on("data", (chunk: Buffer) => feed(chunk));
    decoder.on("end", finish);
    decoder.on("error", () => undefined);
    answer.on("end", () => decoder.end());
    return (chunk: Buffer) => decoder.write(chunk);
  }
  answer.on("end", finish);
  return feed;
}

function decoderFor(encoding: string) {
  const zlib = require("node:zlib") as typeof import("node:zlib");
  if (encoding === "gzip" || encoding === "x-gzip") return zlib.createGunzip();
  if (encoding === "deflate") return zlib.createInflate();
  if (encoding === "br") return zlib.createBrotliDecompress();
  return undefined;
}

function parseInto(text: string, onMessage: (message: unknown, bytes: number) => void): void {
  if (text.trim() === "") return;
  try {
    onMessage(JSON.parse(text), text.length);
  } catch {
    // Not JSON: forwarded, not recorded.
  }
}

/** A body read whole up to a bound; past it, nothing is kept. */
class Collector {
  private chunks: Buffer[] = [];
  private size = 0;
  private over = false;
  constructor(private readonly maxBytes: number) {}
  push(chunk: Buffer): void {
    if (this.over) return;
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      this.over = true;
      this.chunks = [];
    } else this.chunks.push(chunk);
  }
  text(): string | undefined {
    return this.over ? undefined : Buffer.concat(this.chunks).toString("utf8");
  }
}
