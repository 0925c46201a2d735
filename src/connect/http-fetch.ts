/**
 * The fetch the HTTP transports use: every response body is read through a meter, so that
 * no answer (however it is sent: one big body, an endless chunked stream, a compression
 * bomb, an SSE event that never ends) can hold more than the response limit in memory.
 * It also notices an SSE answer stream that ends before it carried the answer, which the
 * SDK would otherwise leave to time out.
 */
import { ServerError } from "../errors.ts";
import { formatMiB } from "../util/text.ts";
import type { ParamHeader } from "./session.ts";

/** The default limit for one HTTP answer or SSE event: 64 MiB, raised with --max-response-size. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** An error status's body is only quoted in the message; this much of it is kept. */
const ERROR_BODY_BYTES = 4096;
/** After an SSE answer stream ends, how long its last events get to reach the session. */
const STREAM_END_SETTLE_MS = 250;

export interface FetchHooks {
  maxResponseBytes: number;
  /** The URL as it may be shown (no credentials). */
  shownUrl: string;
  /** The capture step under way, for messages. */
  phase(): string;
  /** Ends the session with this error. */
  fail(error: ServerError): void;
  /** Whether our request with this JSON-RPC id still waits for its answer. */
  isPending(id: unknown): boolean;
  /** Called for every chunk of every body, before it is passed on. */
  onData?: () => void;
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export function boundedFetch(hooks: FetchHooks, base: Fetch = fetch): Fetch {
  return async (url, init) => {
    const response = await base(url, init);
    if (response.status < 200 || response.status > 599) {
      await response.body?.cancel().catch(() => {});
      throw new ServerError(
        `${hooks.shownUrl} answered ${hooks.phase()} with HTTP status ${response.status}, which is not a valid HTTP status; it is not a working MCP endpoint.`,
      );
    }
    if (!response.body || [204, 205, 304].includes(response.status)) return response;
    const headers = response.headers;
    const type = (headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    let body: ReadableStream<Uint8Array>;
    if (!response.ok) body = truncated(response.body, ERROR_BODY_BYTES);
    else if (type === "text/event-stream") body = meteredEvents(response.body, hooks, requestIds(init));
    else body = metered(response.body, hooks, headers.get("content-encoding"));
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}

/**
 * The modern era over Streamable HTTP (MCP 2026-07-28, transports/streamable-http: "Request
 * Metadata" and "Backward Compatibility"), around a fetch that carries JSON-RPC POSTs:
 *
 * - a request whose `_meta` names a protocol version gets the `MCP-Protocol-Version` and
 *   `Mcp-Method` headers mirrored from its body, and `Mcp-Name` for the requests that name
 *   something (tools/call and prompts/get: params.name; resources/read: params.uri; replay
 *   sends them), and for a tools/call the `Mcp-Param-{header}` headers of the arguments the
 *   tool's `x-mcp-header` declarations name (`paramHeaders`, the session's); each value
 *   Base64-wrapped (`=?base64?…?=`) when it is no plain header text;
 * - a 4xx other than 401 and 403 whose body is the JSON-RPC error answering that request
 *   (UnsupportedProtocolVersionError with 400, "Method not found" with 404, …) is handed to
 *   the transport as the in-band answer it is, so that the session reads its code and data.
 *
 * Other requests and responses pass untouched.
 */
export function modernFetch(
  base: Fetch,
  paramHeaders?: () => ReadonlyMap<string, readonly ParamHeader[]> | undefined,
): Fetch {
  return async (url, init) => {
    const request = modernRequest(init);
    if (!request) return base(url, init);
    const headers = new Headers(init?.headers);
    headers.set("mcp-protocol-version", request.version);
    headers.set("mcp-method", request.method);
    if (request.name !== undefined) headers.set("mcp-name", headerText(request.name));
    if (request.method === "tools/call" && request.name !== undefined) {
      for (const { header, property } of paramHeaders?.()?.get(request.name) ?? []) {
        const value = headerValue(valueAt(request.arguments, property));
        // An absent or null argument sends no header (the server then expects none).
        if (value !== undefined) headers.set(`mcp-param-${header}`, headerText(value));
      }
    }
    const response = await base(url, { ...init, headers });
    const status = response.status;
    if (status < 400 || status >= 500 || status === 401 || status === 403) return response;
    const text = await response.text().catch(() => "");
    if (answersRequest(text, request.id)) {
      return new Response(text, { status: 200, headers: { "content-type": "application/json" } });
    }
    return new Response(text, { status, statusText: response.statusText, headers: response.headers });
  };
}

/** The argument at a path of property names. */
function valueAt(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** An argument as an Mcp-Param header carries it: strings as they are, booleans and safe numbers in decimal. */
function headerValue(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (
    typeof value === "number" &&
    Number.isFinite(value) &&
    (!Number.isInteger(value) || Number.isSafeInteger(value))
  ) {
    return String(value);
  }
  return undefined;
}

/** The params field Mcp-Name mirrors, by method. */
const NAMED_BY: Record<string, string> = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };

/** A header value as sent: as is when it is visible ASCII without edge spaces, else in the Base64 sentinel. */
function headerText(value: string): string {
  if (/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !value.startsWith("=?base64?")) return value;
  return `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/** The one modern request a POST carries (its id, method, protocol version and the name it names), or undefined. */
function modernRequest(
  init: RequestInit | undefined,
): { id: unknown; method: string; version: string; name?: string; arguments?: unknown } | undefined {
  if (init?.method !== "POST" || typeof init.body !== "string") return undefined;
  try {
    const message = JSON.parse(init.body) as { id?: unknown; method?: unknown; params?: Record<string, unknown> };
    const meta = message?.params?._meta as Record<string, unknown> | undefined;
    const version = meta?.["io.modelcontextprotocol/protocolVersion"];
    if (typeof message.method !== "string" || typeof version !== "string") return undefined;
    const field = Object.hasOwn(NAMED_BY, message.method) ? NAMED_BY[message.method] : undefined;
    const name = field === undefined ? undefined : message.params?.[field];
    return {
      id: message.id,
      method: message.method,
      version,
      ...(typeof name === "string" && { name }),
      arguments: message.params?.arguments,
    };
  } catch {
    return undefined;
  }
}

/** Whether `text` is a JSON-RPC error response to the request with this id. */
function answersRequest(text: string, id: unknown): boolean {
  if (id === undefined) return false;
  try {
    const body = JSON.parse(text) as { jsonrpc?: unknown; id?: unknown; error?: { code?: unknown } };
    return body?.jsonrpc === "2.0" && body.id === id && typeof body.error?.code === "number";
  } catch {
    return false;
  }
}

const RAISE =
  "An MCP answer that large is almost certainly a fault (a stream that never ends, a compression bomb); if the server's surface really is that large, raise the limit with --max-response-size MiB.";

/** The ids of the JSON-RPC requests (not notifications or responses) a POST carries. */
function requestIds(init: RequestInit | undefined): unknown[] {
  if (init?.method !== "POST" || typeof init.body !== "string") return [];
  try {
    const parsed = JSON.parse(init.body) as unknown;
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    return messages
      .filter((m) => m && typeof m === "object" && typeof m.method === "string" && m.id !== undefined)
      .map((m) => m.id);
  } catch {
    return [];
  }
}

/**
 * Pass chunks through one at a time, as the consumer pulls them (so a fast server waits
 * for us), letting `inspect` stop the stream: it returns how many bytes of the chunk to pass
 * and whether to end there, or an error.
 */
function passThrough(
  source: ReadableStream<Uint8Array>,
  inspect: (chunk: Uint8Array) => { keep: number; end?: boolean } | Error,
  onEnd?: (error?: unknown) => void,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let finished = false;
  const finish = (error?: unknown) => {
    if (finished) return;
    finished = true;
    onEnd?.(error);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let next: Awaited<ReturnType<typeof reader.read>>;
        try {
          next = await reader.read();
        } catch (error) {
          controller.error(error);
          finish(error);
          return;
        }
        if (next.done) {
          controller.close();
          finish();
          return;
        }
        const verdict = inspect(next.value);
        if (verdict instanceof Error) {
          reader.cancel(verdict).catch(() => {});
          controller.error(verdict);
          finish(verdict);
          return;
        }
        if (verdict.keep > 0) controller.enqueue(next.value.subarray(0, verdict.keep));
        if (verdict.end) {
          reader.cancel().catch(() => {});
          controller.close();
          finish();
        }
      },
      cancel(reason) {
        finish(reason);
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** An error status: keep the start of the body for the message, drop the rest unread. */
function truncated(source: ReadableStream<Uint8Array>, max: number): ReadableStream<Uint8Array> {
  let seen = 0;
  return passThrough(source, (chunk) => {
    const keep = Math.min(chunk.length, max - seen);
    seen += keep;
    return { keep, end: seen >= max };
  });
}

/** A whole answer (JSON): at most the limit, counted after decompression. */
function metered(
  source: ReadableStream<Uint8Array>,
  hooks: FetchHooks,
  encoding: string | null,
): ReadableStream<Uint8Array> {
  let seen = 0;
  return passThrough(source, (chunk) => {
    hooks.onData?.();
    seen += chunk.length;
    if (seen <= hooks.maxResponseBytes) return { keep: chunk.length };
    const decoded = encoding && encoding !== "identity" ? ` once decompressed (it was sent ${encoding}-encoded)` : "";
    const error = new ServerError(
      `${hooks.shownUrl} sent an answer to ${hooks.phase()} larger than the ${formatMiB(hooks.maxResponseBytes)} response limit${decoded}, and it was still sending. ${RAISE}`,
    );
    hooks.fail(error);
    return error;
  });
}

const LF = 10;
const CR = 13;

function view(chunk: Uint8Array): Buffer {
  return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** Whether an `id:` field starts a line in `chunk` (`carry`: the end of the previous chunk). */
function hasIdField(chunk: Uint8Array, carry: Buffer): boolean {
  const bytes = view(chunk);
  if (bytes.indexOf("\nid:") !== -1 || bytes.indexOf("\rid:") !== -1) return true;
  const seam = Buffer.concat([carry, bytes.subarray(0, 3)]);
  return seam.indexOf("\nid:") !== -1 || seam.indexOf("\rid:") !== -1;
}

/** The index just past the last blank line (an SSE event boundary) in `chunk`, or -1. */
function lastEventEnd(chunk: Uint8Array, previous: number | undefined): number {
  const bytes = view(chunk);
  let end = -1;
  for (const pair of ["\n\n", "\r\r", "\n\r"]) {
    const at = bytes.lastIndexOf(pair);
    if (at !== -1) end = Math.max(end, at + 2);
  }
  // A boundary split across two chunks: a line end, then another (not the LF of one CRLF).
  const first = chunk[0];
  if (end === -1 && previous !== undefined && (first === LF || first === CR)) {
    if ((previous === LF || previous === CR) && !(previous === CR && first === LF)) end = 1;
  }
  return end;
}

/**
 * An SSE stream: each event at most the limit (the stream itself may run for the whole
 * capture). When an answer stream ends or breaks before the answer came, and it offered no
 * event id to resume from, the session ends with a message instead of waiting in vain.
 */
function meteredEvents(
  source: ReadableStream<Uint8Array>,
  hooks: FetchHooks,
  ids: unknown[],
): ReadableStream<Uint8Array> {
  let event = 0;
  let previous: number | undefined;
  let resumable = false;
  /** The last bytes of the previous chunk, to find a field split across two chunks. */
  let carry = Buffer.from("\n");
  const onEnd = (error?: unknown) => {
    if (ids.length === 0 || resumable || error instanceof ServerError) return;
    const phase = hooks.phase();
    setTimeout(() => {
      if (!ids.some((id) => hooks.isPending(id))) return;
      hooks.fail(
        error === undefined
          ? new ServerError(
              `${hooks.shownUrl} ended its event stream for ${phase} without sending the answer, and gave no event id to resume from. The server must send the JSON-RPC response on the stream before closing it; check its logs.`,
            )
          : new ServerError(
              `the connection to ${hooks.shownUrl} broke while the server was streaming its answer to ${phase}, before the answer arrived (${networkReason(error)}): the server may have crashed or a proxy dropped the connection. Check the server's logs.`,
              { cause: error },
            ),
      );
    }, STREAM_END_SETTLE_MS).unref?.();
  };
  return passThrough(
    source,
    (chunk) => {
      hooks.onData?.();
      // A priming event (an `id:` field) means the SDK may reconnect and resume the stream.
      if (!resumable) resumable = hasIdField(chunk, carry);
      carry = Buffer.concat([carry, view(chunk.subarray(-3))]).subarray(-3);
      const end = lastEventEnd(chunk, previous);
      event = end === -1 ? event + chunk.length : chunk.length - end;
      previous = chunk[chunk.length - 1];
      if (event <= hooks.maxResponseBytes) return { keep: chunk.length };
      const error = new ServerError(
        `an event on ${hooks.shownUrl}'s event stream during ${hooks.phase()} grew past the ${formatMiB(hooks.maxResponseBytes)} response limit without ending. ${RAISE}`,
      );
      hooks.fail(error);
      return error;
    },
    onEnd,
  );
}

/** Bun's and Node's fetch errors, without their advice to pass `verbose: true` to fetch(). */
export function networkReason(error: unknown): string {
  const code = networkCode(error);
  const text = cleanFetchMessage(error instanceof Error ? error.message : String(error));
  if (code && !text.includes(code)) return `${code}: ${text}`;
  return text;
}

export function cleanFetchMessage(text: string): string {
  return text
    .replace(/\s*For more information,? pass `verbose: true` in the second argument to fetch\(\)\.?/i, "")
    .replace(/^SSE stream disconnected: /, "")
    .replace(/^(TypeError|Error): /, "")
    .trim()
    .replace(/\.$/, "");
}

export function networkCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}
