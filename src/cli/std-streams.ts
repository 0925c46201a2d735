/**
 * Writing to stdout and stderr without creating Node's stream objects. In a compiled Bun binary
 * the first touch of `process.stdout` or `process.stderr` costs 15–20 ms (it loads the stream
 * machinery), more than the whole of a `--version` or a small `diff`; a `write(2)` on the file
 * descriptor costs nothing. So output goes to the descriptors directly, and the streams are made
 * (and guarded) only where something needs one: a full non-blocking pipe, the progress line.
 */
import { writeSync } from "node:fs";

type Fd = 1 | 2;

/** Set once the reader of stdout went away (`… | head -1`): later output is dropped, as a pipe writer's would be. */
let stdoutClosed = false;
/**
 * The descriptors whose stream exists. From then on every write goes through the stream, so that
 * nothing written directly can overtake what the stream still holds.
 */
const streams = new Set<Fd>();

/** UTF-8 bytes of output: TextEncoder encodes a multi-megabyte report several times faster than Buffer.from. */
const utf8 = new TextEncoder();

export function isStdoutClosed(): boolean {
  return stdoutClosed;
}

/**
 * Whether `fd` is a terminal. Bun answers `tty_wrap.isTTY` natively; `node:tty` (the fallback)
 * costs about 5 ms to load.
 */
export function isTerminal(fd: Fd): boolean {
  try {
    const tty = (process as unknown as { binding(name: string): { isTTY(fd: number): boolean } }).binding("tty_wrap");
    return Boolean(tty.isTTY(fd));
  } catch {
    return (require("node:tty") as typeof import("node:tty")).isatty(fd);
  }
}

/**
 * `process.stdout` or `process.stderr`, with error listeners attached the first time: stream
 * errors arrive as events, and without a listener they would crash the process.
 */
export function stdStream(fd: Fd): NodeJS.WriteStream {
  const stream = fd === 1 ? process.stdout : process.stderr;
  if (!streams.has(fd)) {
    streams.add(fd);
    stream.on("error", (error: NodeJS.ErrnoException) => {
      // Nowhere left to report a stderr error: messages are best effort once stderr is gone.
      if (fd === 1 && error.code === "EPIPE") stdoutClosed = true;
    });
  }
  return stream;
}

/**
 * Write `bytes` to `fd` with blocking-style `write(2)` calls. Returns the bytes not written when
 * the descriptor is a full non-blocking pipe (EAGAIN), for the caller to hand to the stream.
 */
function writeDirect(fd: Fd, bytes: Uint8Array): Uint8Array | undefined {
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset, bytes.length - offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EAGAIN") return bytes.subarray(offset);
      throw error;
    }
  }
  return undefined;
}

/**
 * Write all of `text` to stdout and resolve once it is handed to the kernel. A closed pipe
 * (EPIPE) ends output quietly; any other failure rejects with the system error.
 */
export function writeOut(text: string): Promise<void> {
  if (stdoutClosed || text === "") return Promise.resolve();
  let rest: Uint8Array | undefined = utf8.encode(text);
  try {
    if (!streams.has(1)) rest = writeDirect(1, rest);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPIPE") return Promise.reject(error);
    stdoutClosed = true;
    return Promise.resolve();
  }
  if (!rest) return Promise.resolve();
  const pending = rest;
  return new Promise((resolve, reject) => {
    stdStream(1).write(pending, (error) => {
      if (!error) return resolve();
      if ((error as NodeJS.ErrnoException).code !== "EPIPE") return reject(error);
      stdoutClosed = true;
      resolve();
    });
  });
}

/** Write `text` to stderr, in order with everything else written there. Best effort: errors are dropped. */
export function writeErr(text: string): void {
  if (text === "") return;
  try {
    const bytes = utf8.encode(text);
    const rest = streams.has(2) ? bytes : writeDirect(2, bytes);
    if (rest) stdStream(2).write(rest);
  } catch {
    // stderr is gone (EPIPE, closed): there is nowhere to say so.
  }
}
