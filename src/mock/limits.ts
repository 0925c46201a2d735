/**
 * How much a client can make the mock hold, and for how long. The mock runs inside consumers'
 * test suites and CI jobs, often beside a client under test that is itself broken: a runaway
 * client (a line that never ends, a body that never stops, connections that never close) must
 * cost it a refusal, never the machine's memory or a hung job. The README's mock section lists
 * these figures; change them together.
 */
import type { JsonObject } from "../contract/model.ts";
import { formatMiB } from "../util/text.ts";
import { INVALID_REQUEST } from "./server.ts";

const MIB = 1024 * 1024;

/**
 * The largest message (a stdio line, an HTTP body), raised with --max-message-size. 4 MiB is
 * the official SDKs' own limit for a message they receive (MAXIMUM_MESSAGE_SIZE), so a client
 * that works against a real SDK server never meets this one.
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * MIB;

/**
 * Open HTTP connections at once. Each SDK client holds a few (and one per listen stream), so
 * 64 serves a parallel test suite; connections past it are closed at once.
 */
export const MAX_HTTP_CONNECTIONS = 64;

/**
 * How long an HTTP request may take to arrive whole, headers and body, counted from the
 * connection opening or the answer before it (slowloris: a request trickled a byte at a time
 * never ends otherwise). So it is also how long a connection with nothing in flight stays open.
 * A listen stream, whose request is in, is not cut.
 */
export const HTTP_REQUEST_TIMEOUT_MS = 30_000;

/** The bounds one transport applies; tests shrink them to see them act in milliseconds. */
export interface InputLimits {
  maxMessageBytes: number;
  maxConnections: number;
  requestTimeoutMs: number;
}

export const DEFAULT_LIMITS: InputLimits = {
  maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES,
  maxConnections: MAX_HTTP_CONNECTIONS,
  requestTimeoutMs: HTTP_REQUEST_TIMEOUT_MS,
};

/**
 * The answer to a message over the limit. Its id is null: the id may sit anywhere in the
 * message (SDK clients write it last), and the message is refused without being read whole,
 * which is what JSON-RPC 2.0 asks when the id cannot be known.
 */
export function tooLargeAnswer(maxBytes: number): JsonObject {
  return {
    jsonrpc: "2.0",
    id: null,
    error: {
      code: INVALID_REQUEST,
      message: `Invalid Request: the message is larger than the mock's ${formatMiB(maxBytes)} limit (--max-message-size)`,
    },
  };
}
