/**
 * `mcp-contract record -- SERVER CMD…`: a host launches this in place of its stdio server. The
 * server runs as our child in its own process group (src/connect/stdio-transport.ts, which also
 * reaps what it leaves behind); the host's stdin goes to the server's stdin and the server's
 * stdout to ours chunk by chunk, exactly as read, before anything else is done with them (lines
 * that are not JSON-RPC included). Beside the forwarding, each direction is split into lines,
 * parsed and paired (pairing.ts) and the exchanges appended by the mock's Recorder. The server's
 * stderr passes through to ours.
 *
 * Flow control is the peers' own: when the reader on one side stops taking bytes, the writer on
 * the other is paused, so the proxy never holds more than a pipe's worth for either.
 */
import { constants } from "node:os";
import type { Writable } from "node:stream";
import {
  ChildProcessTransport,
  DEFAULT_MAX_LINE_BYTES,
  type ProcessExit,
  spawnFailure,
  TERM_GRACE_MS,
} from "../connect/stdio-transport.ts";
import type { Target } from "../connect/target.ts";
import { ServerError } from "../errors.ts";
import type { Recorder } from "../mock/recorder.ts";
import { LineSplitter } from "../util/lines.ts";
import { Pairing, type Sender } from "./pairing.ts";
import { recordingSink } from "./sink.ts";

export interface StdioProxyOptions {
  target: Extract<Target, { kind: "stdio" }>;
  recorder: Recorder;
  /** Our stdin and stdout (the host's pipes); injectable for tests. */
  input: NodeJS.ReadableStream;
  output: Writable;
  /** Our stderr, for the server's stderr and our notes. */
  errorOutput: (text: string) => void;
  say: (text: string) => void;
  /** Lines longer than this are forwarded but not recorded. */
  maxLineBytes?: number;
}

/** The signals that end the proxy: each is passed on to the server's process group. */
const FORWARDED_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"] as const;

/** Run until the server exits; its exit code (128+n when a signal ended it). */
export async function runStdioProxy(options: StdioProxyOptions): Promise<number> {
  const { target, recorder } = options;
  const pairing = new Pairing();
  const sink = recordingSink(recorder, options.say);
  const record = (message: unknown, sender: Sender, bytes: number) => sink(pairing.see(message, sender, bytes));
  const transport = new ChildProcessTransport(
    target,
    options.errorOutput,
    options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
  );
  const output = options.output;

  // Server → host: forward first, then parse (the transport splits and parses after onData).
  transport.onData = (chunk) => {
    if (!output.write(chunk)) {
      transport.process?.stdout?.pause();
      output.once("drain", () => transport.process?.stdout?.resume());
    }
  };
  transport.onmessage = (message) => record(message, "server", 0);
  // A batch (an array) is not a message to the transport; anything else that is not JSON is only forwarded.
  transport.onNoise = (line) => {
    if (line.trimStart().startsWith("[")) recordLine(line, "server", record);
  };

  const exited = new Promise<ProcessExit>((resolve) => {
    transport.onExit = resolve;
  });
  try {
    await transport.start();
  } catch (error) {
    throw spawnFailure(target, error);
  }
  const child = transport.process;
  const serverInput = child?.stdin;
  if (!child || !serverInput) throw new ServerError("the server was started without a stdin pipe.");
  output.on("error", () => {
    // The host closed its end of our stdout: nothing more reaches it; the server is ended below.
    transport.signalGroup("SIGTERM");
  });

  // Host → server.
  const clientLines = new LineSplitter(
    options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    (line) => recordLine(line, "client", record),
    () => undefined,
  );
  const onInput = (chunk: Buffer) => {
    if (!serverInput.destroyed && !serverInput.write(chunk)) {
      options.input.pause();
      serverInput.once("drain", () => options.input.resume());
    }
    clientLines.push(chunk);
  };
  options.input.on("data", onInput);
  options.input.on("end", () => serverInput.end());
  options.input.on("error", () => serverInput.end());

  // Ctrl-C, kill: passed on to the server's group; a server that will not go is killed after a grace.
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    transport.signalGroup(signal);
    killTimer ??= setTimeout(() => transport.killNow(), TERM_GRACE_MS);
  };
  for (const signal of FORWARDED_SIGNALS) process.on(signal, onSignal);

  const exit = await exited;
  for (const signal of FORWARDED_SIGNALS) process.off(signal, onSignal);
  if (killTimer) clearTimeout(killTimer);
  options.input.off("data", onInput);
  options.input.pause();
  // Whatever the server started and left in its group goes too.
  await transport.close();
  await drained(output);
  if (pairing.dropped > 0) {
    options.say(
      `mcp-contract record: ${pairing.dropped} request${pairing.dropped === 1 ? " was" : "s were"} not recorded: more than ${pairing.waiting} waited for an answer at once, and the oldest were let go (they were forwarded all the same).`,
    );
  }
  if (exit.signal) return 128 + (constants.signals[exit.signal] ?? 15);
  return exit.code ?? 0;
}

/** Parse one line seen on the wire and pair it; a line that is not JSON is only forwarded. */
function recordLine(line: string, sender: Sender, record: (message: unknown, sender: Sender, bytes: number) => void) {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  record(message, sender, line.length);
}

/** Wait (a bounded while) for what the host has not read yet of our stdout. */
function drained(output: Writable): Promise<void> {
  if (output.writableLength === 0 || output.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 10_000);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    output.once("drain", done);
    output.once("error", done);
    output.once("close", done);
  });
}
