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
}

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
  private initializeId: unknown;
  private phase = "initialize";

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
    this.fail(error);
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

  private async run<T>(phase: string, operation: (timeoutMs: number) => Promise<T>): Promise<T> {
    this.phase = phase;
    this.options.onPhase?.(phase);
    const remaining = this.deadline - Date.now();
    const seconds = Number((this.options.timeoutMs / 1000).toFixed(1));
    const state =
      phase === "initialize"
        ? "the server never completed start-up (it may be slow, or waiting for input, a network resource or credentials)"
        : "the server is running but did not respond in time";
    const timeoutError = () =>
      new ServerError(
        `no answer to ${phase} after ${seconds} s: ${state}. If it is just slow, raise the limit with --timeout SECONDS; run with --verbose to see its stderr.`,
      );
    if (remaining <= 0) throw timeoutError();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timeoutError()), remaining);
    });
    try {
      // The SDK's own timeout is set past ours so that ours, which names the phase, wins.
      return await Promise.race([operation(remaining + 5000), this.failure, timeout]);
    } catch (error) {
      throw this.explain(error, phase);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Errors from the SDK become ServerErrors that say what the server did. */
  private explain(error: unknown, phase: string): Error {
    if (error instanceof ServerError || !(error instanceof Error)) return error as Error;
    if (error instanceof McpError) {
      return new ServerError(`the server answered ${phase} with an error: ${error.message}`, { cause: error });
    }
    const message = errorMessage(error);
    if (/protocol version is not supported/i.test(message)) {
      return new ServerError(
        `${message}. mcp-contract speaks MCP protocol versions 2024-11-05 through 2025-11-25; the server must negotiate one of them.`,
        { cause: error },
      );
    }
    if (error.name === "ZodError" || /invalid_type|Invalid input/.test(message)) {
      return new ServerError(`the server's answer to ${phase} is not valid MCP: ${message.slice(0, 500)}`, {
        cause: error,
      });
    }
    return error;
  }

  /** Watch traffic: keep the raw initialize result, notice list_changed notifications. */
  private tap(inner: Transport): Transport {
    const onIncoming = (message: JSONRPCMessage) => {
      const m = message as { id?: unknown; method?: string; result?: unknown };
      if (m.id !== undefined && m.id === this.initializeId && m.result && typeof m.result === "object") {
        this.initializeResult = m.result as JsonObject;
      }
      const list = m.method ? LIST_CHANGED[m.method] : undefined;
      if (list) this.changedLists.add(list);
    };
    const outer: Transport = {
      start: () => inner.start(),
      send: (message, options) => {
        const m = message as { id?: unknown; method?: string };
        if (m.method === "initialize") this.initializeId = m.id;
        return inner.send(message, options);
      },
      close: () => inner.close(),
      setProtocolVersion: (version) => inner.setProtocolVersion?.(version),
    };
    Object.defineProperty(outer, "sessionId", { get: () => inner.sessionId });
    inner.onmessage = (message, extra) => {
      onIncoming(message);
      outer.onmessage?.(message, extra);
    };
    inner.onclose = () => outer.onclose?.();
    inner.onerror = (error) => outer.onerror?.(error);
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
