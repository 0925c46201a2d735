/**
 * A connected MCP session for capture: the SDK Client over a tapped transport, with one
 * deadline for the whole capture, phase-named timeouts, and fatal transport problems
 * (process exit, stdout noise, HTTP failures) turned into one clear ServerError.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  ListRootsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod/v4";
import type { ClientCapability, JsonObject } from "../contract/model.ts";
import { errorMessage, ServerError } from "../errors.ts";

/** Accept any result object verbatim: a contract records exactly what the server sent. */
const RawResult = z.looseObject({});

export interface SessionOptions {
  clientCapabilities: ClientCapability[];
  /** The limit for the whole capture, in milliseconds. */
  timeoutMs: number;
  /** When the capture started (Date.now()); the limit counts from here. Defaults to now. */
  startedAt?: number;
  clientVersion: string;
  onPhase?: (phase: string) => void;
  /**
   * Turns a transport's failure during a step after initialize (an HTTP status, a reset
   * connection, a body that is not JSON) into a message that names the step and the fix.
   */
  explainTransportError?: (error: unknown, phase: string) => ServerError | undefined;
}

/**
 * Requests from the server that we have not finished answering. A server that sends
 * requests without reading the answers would otherwise make each one cost memory forever.
 */
const MAX_SERVER_REQUESTS_IN_FLIGHT = 10_000;

/** The longest delay a JavaScript timer can wait (2^31 - 1 ms, about 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

const LIST_CHANGED: Record<string, "tools" | "resources" | "prompts"> = {
  "notifications/tools/list_changed": "tools",
  "notifications/resources/list_changed": "resources",
  "notifications/prompts/list_changed": "prompts",
};

export class Session {
  readonly client: Client;
  initializeResult: JsonObject | undefined;
  /** Lists the server announced as changed (list_changed); capture clears and re-checks it. */
  readonly changedLists = new Set<"tools" | "resources" | "prompts">();
  private readonly deadline: number;
  private fail!: (error: ServerError) => void;
  /** Rejects when the transport reports something that ends the session. */
  private readonly failure: Promise<never>;
  /** The error that ended the session, once one has. */
  private failed: ServerError | undefined;
  private initializeId: unknown;
  private phase = "initialize";
  /** Our requests still waiting for an answer, and those answered, by id (as the SDK keys them). */
  private readonly pending = new Map<number, string>();
  private readonly answered = new Map<number, string>();
  /** What the server sent besides answers, for the message when it never answers. */
  private notifications = 0;
  private readonly notificationMethods = new Set<string>();
  private readonly serverRequests = new Map<string, number>();
  private serverRequestsInFlight = 0;

  constructor(
    readonly transport: Transport,
    private readonly options: SessionOptions,
  ) {
    this.deadline = (options.startedAt ?? Date.now()) + options.timeoutMs;
    this.failure = new Promise<never>((_, reject) => {
      this.fail = reject;
    });
    this.failure.catch(() => {}); // observed through run(); never an unhandled rejection
    const capabilities: Record<string, object> = {};
    for (const cap of options.clientCapabilities) capabilities[cap] = {};
    this.client = new Client({ name: "mcp-contract", version: options.clientVersion }, { capabilities });
    this.answerServerRequests(options.clientCapabilities);
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
   * Once the last answer is in: let what arrived with it be read (a second answer to the
   * same request, say), then throw the error that ended the session, if one did.
   */
  async assertHealthy(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    if (this.failed) throw this.failed;
  }

  /** True while our request with this JSON-RPC id waits for its answer. */
  isPending(id: unknown): boolean {
    return this.pending.has(Number(id));
  }

  currentPhase(): string {
    return this.phase;
  }

  /** Connect and initialize, keeping the raw initialize result. */
  async initialize(): Promise<JsonObject> {
    const tapped = this.tap(this.transport);
    await this.run("initialize", (timeout) => this.client.connect(tapped, { timeout }));
    if (!this.initializeResult) throw new ServerError("the server completed initialize without a result object.");
    return this.initializeResult;
  }

  /** Send one request and return its raw result object. */
  request(method: string, params: JsonObject | undefined, phase = method): Promise<JsonObject> {
    return this.run(phase, (timeout) =>
      this.client.request({ method, params } as never, RawResult, { timeout }),
    ) as Promise<JsonObject>;
  }

  /**
   * End the session if the deadline has passed. Transports call this as data arrives: a
   * server that floods us keeps the event loop so busy that a timer can fire many seconds late.
   */
  checkDeadline(): void {
    if (!this.failed && Date.now() >= this.deadline) this.abort(this.timeoutError(this.phase));
  }

  private timeoutError(phase: string): ServerError {
    const seconds = Number((this.options.timeoutMs / 1000).toFixed(1));
    const state =
      phase === "initialize"
        ? "the server never completed start-up (it may be slow, or waiting for input, a network resource or credentials)"
        : "the server is running but did not respond in time";
    return new ServerError(
      `no answer to ${phase} after ${seconds} s: ${state}.${this.meanwhile()} If it is just slow, raise the limit with --timeout SECONDS; run with --verbose to see its stderr.`,
    );
  }

  private async run<T>(phase: string, operation: (timeoutMs: number) => Promise<T>): Promise<T> {
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
      // The SDK's own timeout is set past ours so that ours, which names the phase, wins.
      return await Promise.race([operation(Math.min(remaining + 5000, MAX_TIMER_MS)), this.failure, timeout]);
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
        ` Meanwhile it sent requests of its own (${asked}); mcp-contract answers roots with an empty list and declines sampling and elicitation (or reports them unsupported unless --client-capabilities declares them), so a server that waits for a model or a user before it answers cannot be captured.`,
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

  /** Errors from the SDK become ServerErrors that say what the server did. */
  private explain(error: unknown, phase: string): Error {
    if (error instanceof ServerError || !(error instanceof Error)) return error as Error;
    if (error instanceof McpError) {
      return new ServerError(`the server answered ${phase} with an error: ${error.message}`, { cause: error });
    }
    if (phase !== "initialize" || isParseError(error)) {
      const explained = this.options.explainTransportError?.(error, phase);
      if (explained) return explained;
    }
    const message = errorMessage(error);
    if (/protocol version is not supported/i.test(message)) {
      return new ServerError(
        `${message}. mcp-contract speaks MCP protocol versions 2024-11-05 through 2025-11-25; the server must negotiate one of them.`,
        { cause: error },
      );
    }
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

  /**
   * Watch traffic: keep the raw initialize result, notice list_changed notifications, and
   * end the session at once on what would otherwise only hang it: an answer to a request
   * never sent (or sent and answered already), a message that is no JSON-RPC message at all,
   * or an event the transport could not parse.
   */
  private tap(inner: Transport): Transport {
    const onIncoming = (message: JSONRPCMessage): boolean => {
      const m = message as { id?: unknown; method?: unknown; result?: unknown; error?: unknown };
      if (typeof m.method === "string") {
        if (m.id === undefined) {
          this.notifications++;
          if (this.notificationMethods.size < 10) this.notificationMethods.add(m.method);
          const list = LIST_CHANGED[m.method];
          if (list) this.changedLists.add(list);
        } else {
          this.serverRequests.set(m.method, (this.serverRequests.get(m.method) ?? 0) + 1);
          if (++this.serverRequestsInFlight > MAX_SERVER_REQUESTS_IN_FLIGHT) {
            this.abort(
              new ServerError(
                `during ${this.phase} the server sent over ${MAX_SERVER_REQUESTS_IN_FLIGHT.toLocaleString("en-US")} requests of its own (${[...this.serverRequests.keys()].slice(0, 5).join(", ")}) without taking our answers to them; it is flooding the client or not reading what it is sent.`,
              ),
            );
            return false;
          }
        }
        return true;
      }
      if (!("result" in m) && !("error" in m)) {
        this.abort(
          new ServerError(
            `the server sent a message during ${this.phase} that is neither a request, a notification nor a response: ${clip(JSON.stringify(message))}. Every JSON-RPC message needs a "method", or an "id" with a "result" or an "error".`,
          ),
        );
        return false;
      }
      const key = m.id === null || m.id === undefined ? Number.NaN : Number(m.id);
      const method = this.pending.get(key);
      if (method !== undefined) {
        this.pending.delete(key);
        this.answered.set(key, method);
        if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) {
          // The SDK would drop it as an "unknown message type" and wait for another.
          this.abort(
            new ServerError(
              `the server's answer to ${method} is not a valid JSON-RPC response: ${clip(JSON.stringify(message))}. A response holds exactly "jsonrpc": "2.0", the request's "id", and either a "result" object or an "error" with a numeric "code" and a "message".`,
            ),
          );
          return false;
        }
        if (m.id === this.initializeId && m.result && typeof m.result === "object") {
          this.initializeResult = m.result as JsonObject;
        }
        return true;
      }
      const again = this.answered.get(key);
      if (again !== undefined) {
        this.abort(
          new ServerError(
            `the server answered ${again} (id ${JSON.stringify(m.id)}) a second time; a JSON-RPC server must answer each request exactly once, so which answer holds its surface is unclear. Fix the server's request handling.`,
          ),
        );
        return false;
      }
      const waiting = [...this.pending].map(([id, name]) => `${name}, id ${id}`).join("; ");
      const error = m.error as { code?: unknown; message?: unknown } | undefined;
      const said = error ? ` with the error ${clip(JSON.stringify(error.message ?? error), 200)}` : "";
      this.abort(
        new ServerError(
          m.id === null || m.id === undefined
            ? `during ${this.phase} the server sent an error that answers no request${said}: it could not read a message of ours, or it breaks JSON-RPC. Run with --verbose to see its stderr.`
            : `the server sent an answer with id ${clip(JSON.stringify(m.id), 80)}${said}, but no request of ours has that id${waiting ? ` (waiting for ${waiting})` : ""}. A JSON-RPC server must answer each request with the request's own id; fix the server's id handling.`,
        ),
      );
      return false;
    };
    const outer: Transport = {
      start: () => inner.start(),
      send: (message, options) => {
        const m = message as { id?: unknown; method?: string };
        if (typeof m.method === "string" && m.id !== undefined) {
          if (m.method === "initialize") this.initializeId = m.id;
          this.pending.set(Number(m.id), m.method);
        } else if (m.method === undefined && m.id !== undefined) {
          // Our answer to one of the server's requests: in flight until it is written.
          return inner.send(message, options).finally(() => {
            this.serverRequestsInFlight--;
          });
        }
        return inner.send(message, options);
      },
      close: () => inner.close(),
      setProtocolVersion: (version) => inner.setProtocolVersion?.(version),
    };
    Object.defineProperty(outer, "sessionId", { get: () => inner.sessionId });
    inner.onmessage = (message, extra) => {
      if (onIncoming(message)) outer.onmessage?.(message, extra);
    };
    inner.onclose = () => outer.onclose?.();
    inner.onerror = (error) => {
      // A message the transport could not parse (an SSE event that is not JSON-RPC) would
      // otherwise be dropped, and its request left to time out.
      if (error instanceof ServerError) this.abort(error);
      else if (isParseError(error)) this.abort(this.explain(error, this.phase) as ServerError);
      outer.onerror?.(error);
    };
    return outer;
  }

  /** Requests a server may send us: answer what we declared, politely decline the rest. */
  private answerServerRequests(capabilities: ClientCapability[]): void {
    if (capabilities.includes("roots")) {
      this.client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [] }));
    }
    if (capabilities.includes("sampling")) {
      this.client.setRequestHandler(CreateMessageRequestSchema, () => {
        throw new McpError(-32601, "mcp-contract captures a surface and does not sample a model");
      });
    }
    if (capabilities.includes("elicitation")) {
      this.client.setRequestHandler(ElicitRequestSchema, () => ({ action: "decline" }) as never);
    }
  }

  async close(): Promise<void> {
    try {
      await this.client.close();
    } catch {
      // Closing is best effort; the transport's own close() reaps the process.
    }
    await this.transport.close().catch(() => {});
  }
}

/** JSON that does not parse, or parses into something that is not a JSON-RPC message. */
function isParseError(error: unknown): boolean {
  return error instanceof Error && (error.name === "SyntaxError" || error.name === "ZodError");
}

function clip(text: string | undefined, max = 200): string {
  const value = text ?? "";
  return value.length > max ? `${value.slice(0, max)}…` : value;
}
