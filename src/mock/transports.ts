/**
 * Answering the text of a message the same way on every transport, and the stdio transport
 * (newline-delimited JSON-RPC). Streamable HTTP is in node-http.ts.
 */
import { META_KEYS } from "../connect/era.ts";
import { isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import { LineSplitter } from "../util/lines.ts";
import { DEFAULT_MAX_MESSAGE_BYTES, tooLargeAnswer } from "./limits.ts";
import { type Answer, type Connection, INVALID_REQUEST, type MockServer } from "./server.ts";

const PARSE_ERROR = -32700;
const INTERNAL_ERROR = -32603;

type Outgoing = JsonObject;

/**
 * How deep a message may nest. Everything after parsing (the validator on a recursive schema,
 * the seed's canonical text, the recording's JSON.stringify) recurses through the value, and the
 * runtime's stack ends somewhere past ten thousand levels with a RangeError; no MCP message
 * needs more than a few dozen levels, so a deeper one is refused up front, as a request.
 */
export const MAX_MESSAGE_DEPTH = 1_000;

/**
 * Answer one parsed message (or a batch). `onListen` receives a listen stream's
 * acknowledgment; the request itself stays open. Undefined: nothing to send back.
 * Never throws: each message of a batch is answered on its own, so one bad member (malformed,
 * too deep, or one that trips a bug of ours) costs only its own answer.
 */
export function answerMessage(
  server: MockServer,
  message: unknown,
  connection: Connection,
  onListen: (ack: Outgoing) => void,
): Outgoing | Outgoing[] | undefined {
  if (!Array.isArray(message)) return answerSafely(server, message, connection, onListen);
  if (message.length === 0) return invalid(null, "an empty batch");
  const answers: Outgoing[] = [];
  for (const member of message) {
    // JSON-RPC batches do not nest: an array inside one is an invalid member, not a batch to
    // descend into (a 100,000-deep array used to recurse here until the stack overflowed).
    const answer = Array.isArray(member)
      ? invalid(null, "a batch inside a batch")
      : answerSafely(server, member, connection, onListen);
    if (answer !== undefined) answers.push(answer);
  }
  return answers.length > 0 ? answers : undefined;
}

function answerSafely(
  server: MockServer,
  message: unknown,
  connection: Connection,
  onListen: (ack: Outgoing) => void,
): Outgoing | undefined {
  const id =
    isJsonObject(message) && (typeof message.id === "string" || typeof message.id === "number") ? message.id : null;
  if (deeperThan(message, MAX_MESSAGE_DEPTH)) return invalid(id, `nested deeper than ${MAX_MESSAGE_DEPTH} levels`);
  try {
    return answerOne(server, message, connection, onListen);
  } catch (error) {
    // A bug of ours, or a contract no code path expected: an internal error, and the mock lives
    // on. A notification is never answered, not even with an error (JSON-RPC 2.0, section 4.1).
    const notification = isJsonObject(message) && typeof message.method === "string" && message.id === undefined;
    return notification ? undefined : internalError(id, error);
  }
}

/** What a transport sends back for one body or line: its answer, and whether it was even JSON. */
export interface TextAnswer {
  answer: Outgoing | Outgoing[] | undefined;
  parsed: boolean;
}

/**
 * Answer the text of one stdio line or HTTP body, the same way on every transport: text that
 * is not JSON is a parse error (-32700); anything else goes to answerMessage, which never throws.
 */
export function answerText(
  server: MockServer,
  text: string,
  connection: Connection,
  onListen: (ack: Outgoing) => void,
): TextAnswer {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (error) {
    return { answer: parseError(error), parsed: false };
  }
  return { answer: answerMessage(server, message, connection, onListen), parsed: true };
}

/** The JSON text of an answer; an internal error if it cannot be written (it never should). */
export function serialize(answer: Outgoing | Outgoing[]): string {
  try {
    return JSON.stringify(answer);
  } catch (error) {
    return JSON.stringify(internalError(null, error));
  }
}

function answerOne(
  server: MockServer,
  message: unknown,
  connection: Connection,
  onListen: (ack: Outgoing) => void,
): Outgoing | undefined {
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
  const answer = server.handle(method, params, connection);
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

/** Whether a value nests deeper than `limit` arrays and objects; iterative, so any depth is safe to ask. */
function deeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next;
    if (node === null || typeof node !== "object") continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

function envelope(id: Json, answer: Answer): Outgoing {
  return "result" in answer
    ? { jsonrpc: "2.0", id, result: answer.result }
    : { jsonrpc: "2.0", id, error: answer.error as unknown as JsonObject };
}

function invalid(id: Json, what: string): Outgoing {
  return { jsonrpc: "2.0", id, error: { code: INVALID_REQUEST, message: `Invalid Request: ${what}` } };
}

function internalError(id: Json, error: unknown): Outgoing {
  const message = error instanceof Error ? error.message : String(error);
  return { jsonrpc: "2.0", id, error: { code: INTERNAL_ERROR, message: `Internal error: ${message}` } };
}

function parseError(error: unknown): Outgoing {
  return {
    jsonrpc: "2.0",
    id: null,
    error: { code: PARSE_ERROR, message: `Parse error: ${(error as Error).message}` },
  };
}

/** After stdin ends, how long the mock waits for the client to take more of its answers. */
const STDOUT_WAIT_MS = 10_000;

/**
 * Serve stdio until stdin ends. A line longer than `maxMessageBytes` is answered with an error
 * as soon as it passes the limit, and the next line is read as usual (src/util/lines.ts).
 *
 * Answers the client has not read wait in the runtime's stdout buffer; past its high-water mark
 * stdin is paused and the next lines wait too, until the client reads ('drain'). Without this a
 * client that sent requests and never read the answers grew the mock by 3.4 GB in 12 s.
 */
export function serveStdio(server: MockServer, maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES): Promise<void> {
  const { stdin, stdout } = process;
  const connection: Connection = {};
  let waiting = false;
  /** The reader of stdout went away: answers have nowhere to go, requests are still read (and recorded). */
  let gone = false;
  const write = (message: Outgoing | Outgoing[]) => {
    if (gone || stdout.write(`${serialize(message)}\n`) || waiting) return;
    waiting = true;
    stdin.pause();
  };
  // Each line stands alone: a bad one is answered with an error and the next is read.
  const lines = new LineSplitter(
    maxMessageBytes,
    (line) => {
      const { answer } = answerText(server, line, connection, write);
      if (answer !== undefined) write(answer);
    },
    () => write(tooLargeAnswer(maxMessageBytes)),
    () => waiting,
  );
  return new Promise((resolve) => {
    let ended = false;
    let giveUp: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      clearTimeout(giveUp);
      resolve();
    };
    // Once stdin has ended: done when every line is answered and taken, or when the client
    // has taken nothing for STDOUT_WAIT_MS (a client that closed stdin but never reads).
    const settle = () => {
      if (!ended) return;
      if ((gone || !waiting) && !lines.holding) return done();
      clearTimeout(giveUp);
      giveUp = setTimeout(done, STDOUT_WAIT_MS);
    };
    const carryOn = () => {
      waiting = false;
      lines.resume();
      if (!waiting) stdin.resume();
      settle();
    };
    stdout.on("drain", () => {
      if (waiting) carryOn();
    });
    stdout.on("error", () => {
      gone = true;
      carryOn();
    });
    stdin.on("data", (chunk: Buffer | string) => lines.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)));
    const onEnd = () => {
      if (ended) return;
      ended = true;
      settle();
    };
    stdin.on("end", onEnd);
    stdin.on("close", onEnd);
  });
}
