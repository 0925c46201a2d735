/**
 * A connected MCP session for capture, in either protocol era. It speaks JSON-RPC itself over
 * a transport (ours for stdio, the SDK's for HTTP and SSE) instead of through an SDK client:
 * a typed client validates each result against its schema and strips or rejects what an
 * imperfect server sends, while a contract records every result exactly as it came. It opens
 * either way on one connection: the `initialize` handshake (legacy), or the `server/discover`
 * probe and a `_meta` envelope on every request (modern). One deadline covers the whole
 * capture, timeouts name the phase, and what would otherwise hang a capture (an answer to no
 * request, a second answer, a flood of requests) ends it with one clear ServerError.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { type ClientCapability, type Era, isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import { errorMessage, ServerError } from "../errors.ts";
import {
  describeRpcError,
  LEGACY_PROTOCOL_VERSIONS,
  META_KEYS,
  METHOD_NOT_FOUND,
  MODERN_PROTOCOL_VERSIONS,
  type RpcAnswer,
  SPOKEN_VERSIONS,
} from "./era.ts";
import type { LegacyProbe } from "./legacy-probe.ts";

/** One `x-mcp-header` declaration: the header's name and the argument it mirrors (a path of property names). */
export interface ParamHeader {
  header: string;
  property: string[];
}

export interface SessionOptions {
  clientCapabilities: ClientCapability[];
  /** The limit for the whole capture, in milliseconds. */
  timeoutMs: number;
  /** When the capture started (Date.now()); the limit counts from here. Defaults to now. */
  startedAt?: number;
  clientVersion: string;
  onPhase?: (phase: string) => void;
  /** Receives diagnostic notes (the era probe, transport fallback and the like), shown with --verbose. */
  onNote?: (text: string) => void;
  /**
   * Turns a transport's failure during a step after the opening (an HTTP status, a reset
   * connection, a body that is not JSON) into a message that names the step and the fix.
   */
  explainTransportError?: (error: unknown, phase: string) => ServerError | undefined;
}

/** How the session was opened, and the server's answer, verbatim. */
export interface Opening {
  era: Era;
  /** The version spoken: negotiated in initialize, or chosen from supportedVersions. */
  protocolVersion: string;
  /** The initialize result (legacy) or the server/discover result (modern), as sent. */
  result: JsonObject;
}

/** A JSON-RPC error answer, as an Error; `code` is what capture and the era rules read. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    readonly rpcMessage: string,
    readonly data?: Json,
  ) {
    super(`MCP error ${code}: ${rpcMessage}`);
    this.name = "RpcError";
  }
}

/** The JSON-RPC error a failed step got from the server, if that is what failed it. */
export function rpcCause(error: unknown): RpcError | undefined {
  const cause = (error as { cause?: unknown })?.cause;
  return error instanceof RpcError ? error : cause instanceof RpcError ? cause : undefined;
}

/**
 * Requests from the server that we have not finished answering. A server that sends
 * requests without reading the answers would otherwise make each one cost memory forever.
 */
const MAX_SERVER_REQUESTS_IN_FLIGHT = 10_000;

/** The longest delay a JavaScript timer can wait (2^31 - 1 ms, about 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * How long a server gets to acknowledge subscriptions/listen before the capture goes on
 * without it (and so without list_changed in the modern era).
 */
const LISTEN_ACK_MS = 3000;

/** The probe's id is a string, so that it never collides with the numbered requests after it. */
const PROBE_ID = "mcp-contract/server-discover";
const LISTEN_ID = "mcp-contract/subscriptions-listen";

/** The phases in which the session is being opened; their transport failures are explained by the opener. */
const OPENING_PHASES = new Set(["initialize", "server/discover"]);

const LIST_CHANGED: Record<string, "tools" | "resources" | "prompts"> = {
  "notifications/tools/list_changed": "tools",
  "notifications/resources/list_changed": "resources",
  "notifications/prompts/list_changed": "prompts",
};

type Key = number | string;

interface PendingRequest {
  method: string;
  settle: (answer: RpcAnswer) => void;
  /** A subscriptions/listen stream: answered only when it ends, so never "waited for". */
  longLived?: boolean;
}

export class Session {
  /** How the session was opened; set once initialize or the probe succeeded. */
  opening: Opening | undefined;
  /** Lists the server announced as changed (list_changed); capture clears and re-checks it. */
  readonly changedLists = new Set<"tools" | "resources" | "prompts">();
  /**
   * The `x-mcp-header` declarations of the tools this session calls, by tool name (replay fills
   * it from the captured surface): over modern Streamable HTTP, a tools/call mirrors those
   * arguments into `Mcp-Param-{header}` headers, which servers on the v2 SDK require.
   */
  readonly paramHeaders = new Map<string, ParamHeader[]>();
  /**
   * After a modern opening over HTTP in --era auto: whether the server also accepts a legacy
   * initialize, asked on a connection of its own (legacy-probe.ts). Absent where it cannot be told.
   */
  legacyProbe?: LegacyProbe;
  private deadline: number;
  private fail!: (error: ServerError) => void;
  /** Rejects when the transport reports something that ends the session. */
  private readonly failure: Promise<never>;
  /** The error that ended the session, once one has. */
  private failed: ServerError | undefined;
  private closing = false;
  private started: Promise<void> | undefined;
  private phase = "initialize";
  private nextId = 0;
  /** Our requests still waiting for an answer, and those answered, by id. */
  private readonly pending = new Map<Key, PendingRequest>();
  private readonly answered = new Map<Key, string>();
  /** What the server sent besides answers, for the message when it never answers. */
  private notifications = 0;
  private readonly notificationMethods = new Set<string>();
  private readonly serverRequests = new Map<string, number>();
  private serverRequestsInFlight = 0;
  private onAcknowledged: ((subscriptionId: string) => void) | undefined;

  constructor(
    readonly transport: Transport,
    private readonly options: SessionOptions,
  ) {
    this.deadline = (options.startedAt ?? Date.now()) + options.timeoutMs;
    this.failure = new Promise<never>((_, reject) => {
      this.fail = reject;
    });
    this.failure.catch(() => {}); // observed through run(); never an unhandled rejection
    transport.onmessage = (message) => this.receive(message);
    transport.onclose = () => {
      if (!this.closing) {
        this.abort(new ServerError(`the connection to the server closed during ${this.phase}, before it answered.`));
      }
    };
    transport.onerror = (error) => {
      // A message the transport could not parse (an SSE event that is not JSON-RPC) would
      // otherwise be dropped, and its request left to time out.
      if (error instanceof ServerError) this.abort(error);
      else if (isParseError(error)) this.abort(this.explain(error, this.phase) as ServerError);
    };
  }

  get era(): Era | undefined {
    return this.opening?.era;
  }

  /** End the session with this error; pending and future operations reject with it. */
  abort(error: ServerError): void {
    if (this.failed) return;
    this.failed = error;
    this.fail(error);
    // Stop reading at once: a server flooding us would otherwise keep the event loop too
    // busy to even deliver this failure.
    void this.transport.close().catch(() => {});
  }

  /**
   * Give the session `ms` more from now: work after the capture (replay) has a budget of its own,
   * so that --timeout still bounds the capture alone.
   */
  extendDeadline(ms: number): void {
    this.deadline = Math.max(this.deadline, Date.now() + ms);
  }

  /** Whether the server has answered any request of ours yet. */
  hasAnswered(): boolean {
    return this.answered.size > 0;
  }

  /**
   * Once the last answer is in: let what arrived with it be read (a second answer to the
   * same request, say), then throw the error that ended the session, if one did.
   */
  async assertHealthy(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    if (this.failed) throw this.failed;
  }

  /** True while our request with this JSON-RPC id waits for its answer (a listen stream never does). */
  isPending(id: unknown): boolean {
    const key = keyOf(id);
    const pending = key === undefined ? undefined : this.pending.get(key);
    return pending !== undefined && !pending.longLived;
  }

  currentPhase(): string {
    return this.phase;
  }

  /**
   * The legacy handshake: initialize, then notifications/initialized (not for a probe that only
   * asks whether initialize is accepted, legacy-probe.ts: the notification would cost the server
   * another request).
   */
  initialize(announce = true): Promise<Opening> {
    return this.run("initialize", async () => {
      await this.start();
      const answer = await this.call("initialize", {
        protocolVersion: LEGACY_PROTOCOL_VERSIONS[0] as string,
        capabilities: this.capabilities(),
        clientInfo: this.clientInfo(),
      });
      if ("error" in answer) throw new RpcError(answer.error.code, answer.error.message, answer.error.data);
      const result = answer.result;
      const problem = initializeProblem(result);
      if (problem) throw new ServerError(`the server's answer to initialize is not valid MCP: ${problem}.`);
      const version = result.protocolVersion as string;
      if (MODERN_PROTOCOL_VERSIONS.includes(version)) {
        throw new ServerError(
          `the server answered initialize with protocol version ${version}, a modern version that has no initialize handshake. Capture it with --era modern.`,
        );
      }
      if (!LEGACY_PROTOCOL_VERSIONS.includes(version)) {
        throw new ServerError(
          `the server's protocol version is not supported: it negotiated ${JSON.stringify(version)} in initialize. mcp-contract speaks MCP ${SPOKEN_VERSIONS}; the server must negotiate one of them.`,
        );
      }
      this.transport.setProtocolVersion?.(version);
      this.opening = { era: "legacy", protocolVersion: version, result };
      if (announce) await this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      return this.opening;
    });
  }

  /**
   * Send the server/discover probe with the modern envelope and return its answer, whatever it
   * is: the caller tells the era from it (era.ts). Rejects only when the transport fails.
   * Not bounded by the deadline by itself; wait for it with `within`.
   */
  async probe(): Promise<RpcAnswer> {
    await this.start();
    return this.call("server/discover", this.withEnvelope(undefined, MODERN_PROTOCOL_VERSIONS[0] as string), PROBE_ID);
  }

  /** Open the session in the modern era on the probe's result. */
  adoptModern(version: string, result: JsonObject): Opening {
    this.transport.setProtocolVersion?.(version);
    this.opening = { era: "modern", protocolVersion: version, result };
    return this.opening;
  }

  /** Wait for `promise` within the deadline, as phase `phase` (the name timeouts give). */
  within<T>(phase: string, promise: Promise<T>): Promise<T> {
    return this.run(phase, () => promise);
  }

  /** Send one request and return its raw result object. */
  request(method: string, params: JsonObject | undefined, phase = method): Promise<JsonObject> {
    return this.run(phase, async () => {
      const answer = await this.call(method, this.withEnvelope(params));
      if ("error" in answer) throw new RpcError(answer.error.code, answer.error.message, answer.error.data);
      const result = answer.result;
      if (this.era === "modern" && result.resultType !== undefined && result.resultType !== "complete") {
        throw new ServerError(
          result.resultType === "input_required"
            ? `the server answered ${phase} with input_required: it asks the client for input (an elicitation, a sample) before it lists its surface, which a capture cannot give. A list should not depend on user input.`
            : `the server answered ${phase} with resultType ${JSON.stringify(result.resultType)}, which MCP ${this.opening?.protocolVersion} does not define; only "complete" results can be recorded.`,
        );
      }
      return result;
    });
  }

  /**
   * Modern era: open a subscriptions/listen stream for list_changed notifications, as the
   * 2026 era delivers them only to listeners, and wait for its acknowledgment. A server that
   * refuses it, or does not acknowledge it in time, is captured without (noted with --verbose).
   */
  async listen(filter: JsonObject): Promise<boolean> {
    const acknowledged = new Promise<boolean>((resolve) => {
      this.onAcknowledged = (id) => {
        if (id === LISTEN_ID) resolve(true);
      };
    });
    const answered = this.call("subscriptions/listen", this.withEnvelope({ notifications: filter }), LISTEN_ID, true)
      .then((answer) => {
        const said = "error" in answer ? ` (${describeRpcError(answer.error)})` : "";
        this.options.onNote?.(
          `the server ended subscriptions/listen at once${said}; list changes during the capture go unnoticed`,
        );
        return false;
      })
      .catch(() => false);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => {
        this.options.onNote?.(
          `no acknowledgment of subscriptions/listen after ${LISTEN_ACK_MS / 1000} s; capturing without it`,
        );
        resolve(false);
      }, LISTEN_ACK_MS);
    });
    try {
      return await this.run("subscriptions/listen", () => Promise.race([acknowledged, answered, late]));
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * End the session if the deadline has passed. Transports call this as data arrives: a
   * server that floods us keeps the event loop so busy that a timer can fire many seconds late.
   */
  checkDeadline(): void {
    if (!this.failed && Date.now() >= this.deadline) this.abort(this.timeoutError(this.phase));
  }

  /** Milliseconds left before the deadline. */
  remainingMs(): number {
    return this.deadline - Date.now();
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.legacyProbe?.stop();
    await this.transport.close().catch(() => {});
  }

  // ------------------------------------------------------------------ sending

  private start(): Promise<void> {
    this.started ??= this.transport.start();
    return this.started;
  }

  private send(message: object): Promise<void> {
    return this.transport.send(message as JSONRPCMessage);
  }

  /** Send a request; resolves with its answer. Rejects when it cannot be sent. */
  private call(method: string, params: JsonObject | undefined, id: Key = this.nextId++, longLived = false) {
    return new Promise<RpcAnswer>((resolve, reject) => {
      const key = keyOf(id) as Key;
      this.pending.set(key, { method, settle: resolve, longLived });
      const message = params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
      this.send(message).catch((error: unknown) => {
        this.pending.delete(key);
        reject(error);
      });
    });
  }

  /** Modern era (or the probe): the request's params with the per-request `_meta` envelope. */
  private withEnvelope(params: JsonObject | undefined, version = this.modernVersion()): JsonObject | undefined {
    if (version === undefined) return params;
    const meta = isJsonObject(params?._meta) ? params._meta : {};
    return {
      ...params,
      _meta: {
        ...meta,
        [META_KEYS.protocolVersion]: version,
        [META_KEYS.clientInfo]: this.clientInfo(),
        [META_KEYS.clientCapabilities]: this.capabilities(),
      },
    };
  }

  private modernVersion(): string | undefined {
    return this.opening?.era === "modern" ? this.opening.protocolVersion : undefined;
  }

  private capabilities(): JsonObject {
    const capabilities: JsonObject = {};
    for (const cap of this.options.clientCapabilities) capabilities[cap] = {};
    return capabilities;
  }

  private clientInfo(): JsonObject {
    return { name: "mcp-contract", version: this.options.clientVersion };
  }

  private timeoutError(phase: string): ServerError {
    const seconds = Number((this.options.timeoutMs / 1000).toFixed(1));
    const state = OPENING_PHASES.has(phase)
      ? "the server never completed start-up (it may be slow, or waiting for input, a network resource or credentials)"
      : "the server is running but did not respond in time";
    // --era modern: a legacy server may ignore a request before initialize.
    const era =
      phase === "server/discover"
        ? " A legacy server may leave a request before initialize unanswered; if this is one, capture it with --era legacy or --era auto."
        : "";
    return new ServerError(
      `no answer to ${phase} after ${seconds} s: ${state}.${this.meanwhile()}${era} If it is just slow, raise the limit with --timeout SECONDS; run with --verbose to see its stderr.`,
    );
  }

  private async run<T>(phase: string, operation: () => Promise<T>): Promise<T> {
    this.phase = phase;
    this.options.onPhase?.(phase);
    const remaining = this.deadline - Date.now();
    const timeoutError = () => this.timeoutError(phase);
    if (this.failed) throw this.failed;
    if (remaining <= 0) throw timeoutError();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timeoutError()), Math.min(remaining, MAX_TIMER_MS));
    });
    try {
      return await Promise.race([operation(), this.failure, timeout]);
    } catch (error) {
      throw this.explain(error, phase);
    } finally {
      clearTimeout(timer);
    }
  }

  /** What the server sent while we waited in vain: its own requests, a flood of notifications. */
  private meanwhile(): string {
    const parts: string[] = [];
    if (this.serverRequests.size > 0) {
      const asked = [...this.serverRequests].map(([method, n]) => (n > 1 ? `${method} ×${n}` : method)).join(", ");
      parts.push(
        this.era === "modern"
          ? ` Meanwhile it sent requests of its own (${asked}), which the 2026 protocol no longer has (a modern server asks for input in its results), so they went unanswered.`
          : ` Meanwhile it sent requests of its own (${asked}); mcp-contract answers roots with an empty list and declines sampling and elicitation (or reports them unsupported unless --client-capabilities declares them), so a server that waits for a model or a user before it answers cannot be captured.`,
      );
    }
    if (this.notifications > 0) {
      const methods = [...this.notificationMethods].slice(0, 3).join(", ");
      parts.push(
        ` Meanwhile it sent ${this.notifications.toLocaleString("en-US")} notification${this.notifications === 1 ? "" : "s"} (${methods}), but no answer.`,
      );
    }
    return parts.join("");
  }

  /** Errors become ServerErrors that say what the server did. */
  private explain(error: unknown, phase: string): Error {
    if (error instanceof ServerError || !(error instanceof Error)) return error as Error;
    if (error instanceof RpcError) {
      return new ServerError(`the server answered ${phase} with an error: ${error.message}`, { cause: error });
    }
    if (!OPENING_PHASES.has(phase) || isParseError(error)) {
      const explained = this.options.explainTransportError?.(error, phase);
      if (explained) return explained;
    }
    const message = errorMessage(error);
    if (error.name === "ZodError" || /invalid_type|Invalid input/.test(message)) {
      return new ServerError(
        `the server's answer to ${phase} is not valid MCP: ${message.replace(/\s+/g, " ").slice(0, 500)}`,
        { cause: error },
      );
    }
    if (error.name === "SyntaxError") {
      return new ServerError(
        `the server's answer to ${phase} is not valid JSON (${message}): it was cut off or is not JSON at all.`,
        { cause: error },
      );
    }
    return error;
  }

  // ------------------------------------------------------------------ receiving

  /**
   * Every message from the server. Answers settle our requests; the server's requests are
   * answered (legacy) or counted and dropped (modern); notifications are counted and
   * list_changed noted. What would otherwise only hang the session ends it at once: an
   * answer to a request never sent (or sent and answered already), a message that is no
   * JSON-RPC message at all, a flood of requests whose answers the server does not take.
   */
  private receive(message: JSONRPCMessage): void {
    if (this.failed) return;
    const m = message as { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };
    if (typeof m.method === "string") {
      if (m.id === undefined) this.notified(m.method, m.params);
      else this.asked(m.method, m.id);
      return;
    }
    if (!("result" in m) && !("error" in m)) {
      this.abort(
        new ServerError(
          `the server sent a message during ${this.phase} that is neither a request, a notification nor a response: ${clip(JSON.stringify(message))}. Every JSON-RPC message needs a "method", or an "id" with a "result" or an "error".`,
        ),
      );
      return;
    }
    // A legacy server may refuse the probe with an error it cannot tie to a request (id null):
    // while the probe is all we wait for, that error is its answer.
    const probeOnly = m.id === null && "error" in m && this.pending.has(PROBE_ID) && this.waitingFor() === 1;
    const key = probeOnly ? PROBE_ID : keyOf(m.id);
    const pending = key === undefined ? undefined : this.pending.get(key);
    if (key !== undefined && pending !== undefined) {
      this.pending.delete(key);
      this.answered.set(key, pending.method);
      const response = (probeOnly ? { ...m, id: PROBE_ID } : m) as Record<string, unknown>;
      if (!isResultResponse(response) && !isErrorResponse(response)) {
        this.abort(
          new ServerError(
            `the server's answer to ${pending.method} is not a valid JSON-RPC response: ${clip(JSON.stringify(message))}. A response holds exactly "jsonrpc": "2.0", the request's "id", and either a "result" object or an "error" with a numeric "code" and a "message".`,
          ),
        );
        return;
      }
      const error = response.error as { code: number; message: string; data?: Json } | undefined;
      pending.settle(
        error
          ? { error: { code: error.code, message: error.message, data: error.data } }
          : { result: m.result as JsonObject },
      );
      return;
    }
    const again = key === undefined ? undefined : this.answered.get(key);
    if (again !== undefined) {
      this.abort(
        new ServerError(
          `the server answered ${again} (id ${JSON.stringify(m.id)}) a second time; a JSON-RPC server must answer each request exactly once, so which answer holds its surface is unclear. Fix the server's request handling.`,
        ),
      );
      return;
    }
    const waiting = [...this.pending]
      .filter(([, p]) => !p.longLived)
      .map(([id, p]) => `${p.method}, id ${id}`)
      .join("; ");
    const error = m.error as { code?: unknown; message?: unknown } | undefined;
    const said = error ? ` with the error ${clip(JSON.stringify(error.message ?? error), 200)}` : "";
    this.abort(
      new ServerError(
        m.id === null || m.id === undefined
          ? `during ${this.phase} the server sent an error that answers no request${said}: it could not read a message of ours, or it breaks JSON-RPC. Run with --verbose to see its stderr.`
          : `the server sent an answer with id ${clip(JSON.stringify(m.id), 80)}${said}, but no request of ours has that id${waiting ? ` (waiting for ${waiting})` : ""}. A JSON-RPC server must answer each request with the request's own id; fix the server's id handling.`,
      ),
    );
  }

  /** How many of our requests wait for an answer (a listen stream aside). */
  private waitingFor(): number {
    let count = 0;
    for (const request of this.pending.values()) if (!request.longLived) count++;
    return count;
  }

  private notified(method: string, params: unknown): void {
    this.notifications++;
    if (this.notificationMethods.size < 10) this.notificationMethods.add(method);
    const list = LIST_CHANGED[method];
    if (list) this.changedLists.add(list);
    if (method === "notifications/subscriptions/acknowledged" && this.onAcknowledged) {
      const meta = isJsonObject(params) && isJsonObject(params._meta) ? params._meta : {};
      this.onAcknowledged(String(meta[META_KEYS.subscriptionId]));
    }
  }

  /** A request from the server: answered as declared (legacy); the modern era has none. */
  private asked(method: string, id: unknown): void {
    this.serverRequests.set(method, (this.serverRequests.get(method) ?? 0) + 1);
    if (this.era === "modern") return; // never answered: 2026 servers ask for input in their results
    if (++this.serverRequestsInFlight > MAX_SERVER_REQUESTS_IN_FLIGHT) {
      this.abort(
        new ServerError(
          `during ${this.phase} the server sent over ${MAX_SERVER_REQUESTS_IN_FLIGHT.toLocaleString("en-US")} requests of its own (${[...this.serverRequests.keys()].slice(0, 5).join(", ")}) without taking our answers to them; it is flooding the client or not reading what it is sent.`,
        ),
      );
      return;
    }
    // In flight until the answer is written: a server that does not read makes them pile up.
    void this.send({ jsonrpc: "2.0", id, ...this.answerTo(method) })
      .catch(() => {})
      .finally(() => {
        this.serverRequestsInFlight--;
      });
  }

  /** Requests a server may send us: answer what we declared, politely decline the rest. */
  private answerTo(method: string): { result: JsonObject } | { error: { code: number; message: string } } {
    const declared = (cap: ClientCapability) => this.options.clientCapabilities.includes(cap);
    if (method === "ping") return { result: {} };
    if (method === "roots/list" && declared("roots")) return { result: { roots: [] } };
    if (method === "sampling/createMessage" && declared("sampling")) {
      return {
        error: { code: METHOD_NOT_FOUND, message: "mcp-contract captures a surface and does not sample a model" },
      };
    }
    if (method === "elicitation/create" && declared("elicitation")) return { result: { action: "decline" } };
    return { error: { code: METHOD_NOT_FOUND, message: "Method not found" } };
  }
}

/** The key an id is filed under: numbers (also when a server echoes them as digit strings) or strings. */
function keyOf(id: unknown): Key | undefined {
  if (typeof id === "number") return id;
  if (typeof id !== "string") return undefined;
  return /^-?\d+$/.test(id) ? Number(id) : id;
}

const isRequestId = (id: unknown) => typeof id === "string" || (typeof id === "number" && Number.isInteger(id));

/** Exactly `jsonrpc`, `id` and a `result` object. */
function isResultResponse(m: Record<string, unknown>): boolean {
  return (
    Object.keys(m).every((k) => k === "jsonrpc" || k === "id" || k === "result") &&
    m.jsonrpc === "2.0" &&
    isRequestId(m.id) &&
    isJsonObject(m.result)
  );
}

/** Exactly `jsonrpc`, an `id` (or none) and an `error` with an integer `code` and a `message`. */
function isErrorResponse(m: Record<string, unknown>): boolean {
  const error = m.error;
  return (
    Object.keys(m).every((k) => k === "jsonrpc" || k === "id" || k === "error") &&
    m.jsonrpc === "2.0" &&
    (m.id === undefined || isRequestId(m.id)) &&
    isJsonObject(error) &&
    Number.isInteger(error.code) &&
    typeof error.message === "string"
  );
}

/** What makes an initialize result unusable, as the SDK's schema checks it; undefined when it is fine. */
function initializeProblem(result: JsonObject): string | undefined {
  if (typeof result.protocolVersion !== "string") return "it has no protocolVersion string";
  if (!isJsonObject(result.capabilities)) return "its capabilities are not an object";
  const info = result.serverInfo;
  if (!isJsonObject(info)) return "its serverInfo is not an object";
  if (typeof info.name !== "string" || typeof info.version !== "string") {
    return "its serverInfo lacks a string name and version";
  }
  if (result.instructions !== undefined && typeof result.instructions !== "string") {
    return "its instructions are not a string";
  }
  return undefined;
}

/** JSON that does not parse, or parses into something that is not a JSON-RPC message. */
function isParseError(error: unknown): boolean {
  return error instanceof Error && (error.name === "SyntaxError" || error.name === "ZodError");
}

function clip(text: string | undefined, max = 200): string {
  const value = text ?? "";
  return value.length > max ? `${value.slice(0, max)}…` : value;
}
