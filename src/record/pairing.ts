/**
 * `mcp-contract record`: the JSON-RPC messages seen passing through the proxy, paired into the
 * exchanges `mock --record` writes (src/mock/recorder.ts): a request with its answer, matched by
 * id in either direction, and a notification on its own. Pure: messages in, exchanges out; the
 * proxies (stdio-proxy.ts, http-proxy.ts) forward the bytes and only show this what they parsed.
 *
 * - A request waits for its answer with the same id coming the other way; it is recorded once
 *   answered, with the time it was sent. One never answered (cancelled, or still open when the
 *   session ends) is not recorded: an exchange without an answer would pass for a success.
 * - What waits is bounded (count and bytes): past the bound the oldest request is let go and
 *   counted, so a client that never reads its answers cannot grow the proxy without end.
 * - Era: `modern` when the request carries the 2026-07-28 envelope (a protocol version in its
 *   `_meta`), as the mock decides; `initialize` is always legacy. A message the server starts
 *   (a sampling or elicitation request, a notification) takes the era of the client's latest
 *   request, since only client requests carry the envelope.
 * - A message the server starts is marked `from: "server"`, the one field `mock --record` never
 *   writes (the mock starts nothing): without it a server's `notifications/progress` or `ping`
 *   would read as the consumer's. Readers of calls (`check --calls`, replay) skip it anyway:
 *   they read client requests only.
 */
import { META_KEYS } from "../connect/era.ts";
import { isSecretParameter } from "../connect/target.ts";
import { type Era, isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import type { Exchange, RpcErrorBody } from "../mock/server.ts";

/** Who sent a message: the client (the host that launched the proxy) or the server behind it. */
export type Sender = "client" | "server";

export type Message =
  | { kind: "request"; id: string | number; method: string; params?: Json }
  | { kind: "notification"; method: string; params?: Json }
  | { kind: "response"; id: string | number; result?: Json; error?: RpcErrorBody }
  | { kind: "other" };

/** Unanswered requests held at most, in number and in bytes of their messages. */
export const MAX_PENDING = 10_000;
export const MAX_PENDING_BYTES = 64 * 1024 * 1024;

/** What a JSON-RPC message is; anything that is not one (or an id that cannot match) is `other`. */
export function classify(message: unknown): Message {
  if (!isJsonObject(message)) return { kind: "other" };
  const { id, method } = message;
  const validId = typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  if (typeof method === "string") {
    const params = message.params;
    if (id === undefined)
      return params === undefined ? { kind: "notification", method } : { kind: "notification", method, params };
    if (!validId) return { kind: "other" };
    return params === undefined ? { kind: "request", id, method } : { kind: "request", id, method, params };
  }
  if (!validId) return { kind: "other" };
  if ("result" in message) return { kind: "response", id, result: message.result as Json };
  if (isJsonObject(message.error)) return { kind: "response", id, error: message.error as unknown as RpcErrorBody };
  return { kind: "other" };
}

/** The era a request is in: the 2026-07-28 envelope, or legacy (src/mock/server.ts decides alike). */
export function requestEra(method: string, params: Json | undefined): Era {
  if (method === "initialize") return "legacy";
  const meta = isJsonObject(params) && isJsonObject(params._meta) ? params._meta : undefined;
  return meta && typeof meta[META_KEYS.protocolVersion] === "string" ? "modern" : "legacy";
}

interface Pending {
  time: string;
  era: Era;
  method: string;
  params?: Json;
  bytes: number;
}

export interface PairingOptions {
  /** The time now, as an ISO string (a fixed clock in tests). */
  now?: () => string;
  maxPending?: number;
  maxPendingBytes?: number;
}

export class Pairing {
  /** Requests waiting for their answer, by sender and id, oldest first (Map keeps insertion order). */
  private readonly pending = new Map<string, Pending>();
  private pendingBytes = 0;
  /** Requests let go unanswered because too many waited. */
  dropped = 0;
  /**
   * The era of the client's latest request, for the messages the server starts (set from
   * outside when the client's requests are paired elsewhere: an HTTP session's GET stream).
   */
  era: Era = "legacy";
  private readonly now: () => string;
  private readonly maxPending: number;
  private readonly maxPendingBytes: number;

  constructor(options: PairingOptions = {}) {
    this.now = options.now ?? (() => new Date().toISOString());
    this.maxPending = options.maxPending ?? MAX_PENDING;
    this.maxPendingBytes = options.maxPendingBytes ?? MAX_PENDING_BYTES;
  }

  /** Requests still waiting for an answer. */
  get waiting(): number {
    return this.pending.size;
  }

  /**
   * One parsed message (or a JSON-RPC batch) from `sender`; `bytes` is its size on the wire,
   * for the bound. Returns the exchanges it completes, in order.
   */
  see(message: unknown, sender: Sender, bytes = 0): Exchange[] {
    if (Array.isArray(message)) {
      const share = message.length > 0 ? Math.ceil(bytes / message.length) : 0;
      return message.flatMap((m) => this.see(m, sender, share));
    }
    const m = classify(message);
    switch (m.kind) {
      case "request": {
        const era = sender === "client" ? requestEra(m.method, m.params) : this.era;
        if (sender === "client") this.era = era;
        this.hold(keyOf(sender, m.id), { time: this.now(), era, method: m.method, params: m.params, bytes });
        return [];
      }
      case "notification": {
        const era = sender === "client" ? requestEra(m.method, m.params) : this.era;
        if (m.method === "notifications/cancelled" && isJsonObject(m.params)) this.cancel(sender, m.params);
        const exchange: Exchange = { time: this.now(), era, method: m.method };
        if (m.params !== undefined) exchange.params = m.params;
        exchange.notification = true;
        if (sender === "server") exchange.from = "server";
        return [exchange];
      }
      case "response": {
        // An answer comes from the other side of the request it answers.
        const requester: Sender = sender === "client" ? "server" : "client";
        const key = keyOf(requester, m.id);
        const request = this.pending.get(key);
        if (!request) return [];
        this.release(key, request);
        const exchange: Exchange = { time: request.time, era: request.era, method: request.method };
        if (request.params !== undefined) exchange.params = request.params;
        if (m.error !== undefined) exchange.error = m.error;
        else exchange.result = m.result ?? null;
        if (requester === "server") exchange.from = "server";
        return [exchange];
      }
      default:
        return [];
    }
  }

  private hold(key: string, request: Pending): void {
    const earlier = this.pending.get(key);
    // A reused id replaces the request still waiting under it (the client broke the rule, not us).
    if (earlier) this.release(key, earlier);
    this.pending.set(key, request);
    this.pendingBytes += request.bytes;
    while (this.pending.size > this.maxPending || (this.pendingBytes > this.maxPendingBytes && this.pending.size > 1)) {
      const [oldestKey, oldest] = this.pending.entries().next().value as [string, Pending];
      this.release(oldestKey, oldest);
      this.dropped++;
    }
  }

  private release(key: string, request: Pending): void {
    this.pending.delete(key);
    this.pendingBytes -= request.bytes;
  }

  /** notifications/cancelled: the request it names gets no answer; stop waiting for one. */
  private cancel(sender: Sender, params: JsonObject): void {
    const id = params.requestId;
    if (typeof id !== "string" && typeof id !== "number") return;
    const key = keyOf(sender, id);
    const request = this.pending.get(key);
    if (request) this.release(key, request);
  }
}

/** Ids `1` and `"1"` are different ids in JSON-RPC. */
function keyOf(sender: Sender, id: string | number): string {
  return `${sender === "client" ? "c" : "s"}${typeof id === "number" ? "n" : "s"}${id}`;
}

/**
 * The arguments of a recorded call whose names look like credentials (`api_key`, `token`).
 * They are recorded as sent, as `mock --record` does: the arguments are the consumer's contract
 * and replay re-sends them; the proxy says so once instead (see sink.ts).
 */
export function credentialArguments(exchange: Exchange): string[] {
  if (exchange.from === "server" || (exchange.method !== "tools/call" && exchange.method !== "prompts/get")) return [];
  const args = isJsonObject(exchange.params) ? exchange.params.arguments : undefined;
  return isJsonObject(args) ? Object.keys(args).filter((name) => isSecretParameter(name)) : [];
}
