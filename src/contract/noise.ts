/**
 * Protocol metadata that belongs to one message, not to the surface. MCP reserves these
 * `_meta` keys for a single exchange: the request's protocol version, client identity and
 * capabilities, log level and progress token, the subscription a notification belongs to,
 * the server identity stamped on each result, the task a 2025-11-25 message relates to, and
 * OpenTelemetry trace context. A server (or a gateway in front of it) that copies them into
 * an item's `_meta` has not changed the item, and their values change from one capture to
 * the next. They are removed by exact key only: vendor keys (`com.example/…`) and the keys of
 * extensions under the same reserved prefix (`io.modelcontextprotocol/ui`, …/tasks) are
 * surface and stay. Pure.
 */
import { isJsonObject, type JsonObject } from "./model.ts";

export const PER_MESSAGE_META_KEYS: ReadonlySet<string> = new Set([
  "progressToken",
  "io.modelcontextprotocol/protocolVersion",
  "io.modelcontextprotocol/clientInfo",
  "io.modelcontextprotocol/clientCapabilities",
  "io.modelcontextprotocol/logLevel",
  "io.modelcontextprotocol/subscriptionId",
  "io.modelcontextprotocol/serverInfo",
  "io.modelcontextprotocol/related-task",
  "traceparent",
  "tracestate",
  "baggage",
]);

/**
 * The item without per-message keys in its `_meta`; a `_meta` left empty by that is dropped
 * too (one that arrived empty is kept, as sent). Returns the item itself when there is
 * nothing to remove.
 */
export function withoutMessageMeta<T extends JsonObject>(item: T): T {
  const meta = item._meta;
  if (!isJsonObject(meta)) return item;
  const keys = Object.keys(meta);
  if (!keys.some((key) => PER_MESSAGE_META_KEYS.has(key))) return item;
  const kept = Object.fromEntries(keys.filter((key) => !PER_MESSAGE_META_KEYS.has(key)).map((key) => [key, meta[key]]));
  const copy: JsonObject = { ...item };
  if (Object.keys(kept).length > 0) copy._meta = kept as JsonObject;
  else delete copy._meta;
  return copy as T;
}
