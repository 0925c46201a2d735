/**
 * `--record FILE`: every exchange as one JSON line, for the consumer's tests and `check --calls`.
 *
 * A recording must never cost an answer, and must never pass for more than it is:
 * - It never blocks the mock. A FIFO is opened without waiting for a reader (one has
 *   RECORD_WAIT_MS from the first line to come), and a pipe or device is written without
 *   blocking, its lines queued while it is full (at most RECORD_BACKLOG_BYTES of them).
 * - Each line is written whole or not at all. A full disk takes part of a line and then refuses
 *   the rest, so a regular file is cut back to its last whole line. A pipe takes a line of up to
 *   4 KiB (PIPE_BUF) whole or not at all; a longer one gets its rest as soon as the reader takes
 *   more, so it ends cut only if the reader stops in its middle for good (nothing can take back
 *   bytes a pipe has taken).
 * - The first failure ends the recording: a recording with a hole in its middle would pass for a
 *   complete one in `check --calls`. It is said once on stderr, the mock answers on, and the CLI
 *   exits 2 when the mock stops (an output that could not be written, as everywhere else).
 *
 * Paths are treated as for every output file (src/cli/output-file.ts): symlinks are followed
 * (a dangling one creates its target, and its directories), a regular file is written through
 * the link, a FIFO or device in place.
 */
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  type Stats,
  statSync,
  writeSync,
} from "node:fs";
import { dirname, resolve } from "node:path";
import { UsageError } from "../errors.ts";
import { formatMiB } from "../util/text.ts";
import { descriptorOf, followDanglingLinks } from "../util/write-paths.ts";
import type { Exchange } from "./server.ts";

/** How long a pipe's reader may take nothing (or a FIFO have no reader) before the recording fails; output-file.ts waits as long. */
export const RECORD_WAIT_MS = 10_000;
/** Lines waiting for a slow pipe reader, at most. */
export const RECORD_BACKLOG_BYTES = 16 * 1024 * 1024;
const RETRY_MS = 20;

export interface RecorderOptions {
  /** Where the one failure line goes (stderr). */
  say: (text: string) => void;
  /** Serving stdio: a recording that is stdout itself would corrupt the answers. */
  stdoutIsProtocol?: boolean;
  waitMs?: number;
  backlogBytes?: number;
  /** Add to a regular file instead of starting it afresh (`record --append`: one recording across sessions). */
  append?: boolean;
  /** Who records, for the failure line: the mock (default) or the `record` proxy. */
  speaker?: { name: string; who: string; goesOn: string };
}

const MOCK_SPEAKER = { name: "mcp-contract mock", who: "the mock", goesOn: "The mock answers on" };

/** Where lines go: a regular file (appended, and cut back on failure) or a stream (pipe, FIFO, device). */
type Kind = "file" | "stream";

export class Recorder {
  private fd: number | undefined;
  /** Whether we opened fd (a /dev/fd/N path names one of ours, which stays open). */
  private ownFd = true;
  private kind: Kind = "file";
  /** A FIFO still waiting for its reader. */
  private fifoPath: string | undefined;
  /** Bytes of whole lines in a regular file: where a failed write is cut back to. */
  private committed = 0;
  private lines = 0;
  private queue: Buffer[] = [];
  private queuedBytes = 0;
  /** When the stream last took bytes, or when its queue last went from empty to not. */
  private waitingSince = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failure: string | undefined;
  private closing = false;
  private settled: (() => void) | undefined;
  private readonly waitMs: number;
  private readonly backlogBytes: number;

  /** Open `path` for recording; a path that cannot be opened is a UsageError (exit 2), before serving. */
  constructor(
    readonly path: string,
    private readonly options: RecorderOptions,
  ) {
    this.waitMs = options.waitMs ?? RECORD_WAIT_MS;
    this.backlogBytes = options.backlogBytes ?? RECORD_BACKLOG_BYTES;
    try {
      this.open();
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`cannot write the recording ${path}: ${why(error)}.`, { cause: error });
    }
  }

  private open(): void {
    const descriptor = descriptorOf(resolve(this.path));
    let stats: Stats | undefined;
    try {
      stats = descriptor === undefined ? statSync(this.path) : fstatSync(descriptor);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    if (stats?.isDirectory()) {
      throw new UsageError(`cannot write the recording ${this.path}: it is a directory; name a file in it.`);
    }
    if (stats && this.options.stdoutIsProtocol && !stats.isCharacterDevice() && sameFile(stats, fstatSync(1))) {
      throw new UsageError(
        `cannot record to ${this.path}: it is ${(this.options.speaker ?? MOCK_SPEAKER).who}'s stdout, where the stdio answers go; name a file or /dev/stderr.`,
      );
    }
    if (descriptor !== undefined) {
      // /dev/stderr, /dev/fd/N: a descriptor we hold (reopening a socket fails), written as a stream.
      this.fd = descriptor;
      this.ownFd = false;
      this.kind = "stream";
    } else if (!stats) {
      // Nothing there yet, or a dangling symlink: create the file it points to, and its directories.
      const target = followDanglingLinks(resolve(this.path), `the recording ${this.path}`);
      mkdirSync(dirname(target), { recursive: true });
      this.fd = openSync(target, "w");
    } else if (stats.isFile()) {
      this.fd = openSync(this.path, this.options.append ? "a" : "w");
      // Appending: a failed write is cut back to what the file held, whole lines included.
      if (this.options.append) this.committed = fstatSync(this.fd).size;
    } else {
      this.kind = "stream";
      if (stats.isFIFO()) this.fifoPath = this.path;
      else this.fd = openSync(this.path, constants.O_WRONLY | constants.O_NONBLOCK);
    }
  }

  /** Record one exchange; never throws and never waits. */
  record(exchange: Exchange): void {
    if (this.failure !== undefined || this.closing) return;
    let line: Buffer;
    try {
      line = Buffer.from(`${JSON.stringify(exchange)}\n`, "utf8");
    } catch (error) {
      this.fail(`an exchange could not be written as JSON: ${why(error)}`);
      return;
    }
    if (this.kind === "file") this.append(line);
    else this.enqueue(line);
  }

  /**
   * Stop recording: wait for a stream's queued lines (bounded by the wait), close the file.
   * True when the recording holds every exchange.
   */
  async close(): Promise<boolean> {
    this.closing = true;
    if (this.queue.length > 0) {
      await new Promise<void>((done) => {
        this.settled = done;
        this.pump();
      });
    }
    this.release();
    return this.failure === undefined;
  }

  private append(line: Buffer): void {
    const fd = this.fd as number;
    let offset = 0;
    try {
      while (offset < line.length) {
        const written = writeSync(fd, line, offset, line.length - offset);
        if (written <= 0) throw Object.assign(new Error("the write made no progress"), { code: "EIO" });
        offset += written;
      }
      this.committed += line.length;
      this.lines++;
    } catch (error) {
      if (offset > 0) {
        try {
          ftruncateSync(fd, this.committed);
        } catch {
          // Cutting a file shorter frees space and does not fail on a full disk; if it ever
          // does, the recording ends on a cut line, which its reader sees has no newline.
        }
      }
      this.fail(why(error));
    }
  }

  private enqueue(line: Buffer): void {
    if (this.queuedBytes + line.length > this.backlogBytes) {
      // Stop taking lines; those already queued are still written while the reader reads.
      this.fail(`its reader is not keeping up (${formatMiB(this.backlogBytes)} of lines are waiting)`);
      return;
    }
    if (this.queue.length === 0) this.waitingSince = Date.now();
    this.queue.push(line);
    this.queuedBytes += line.length;
    this.pump();
  }

  /** Write what the stream takes now; come back in RETRY_MS for the rest. */
  private pump(): void {
    if (this.fd === undefined && this.fifoPath !== undefined && this.queue.length > 0) {
      try {
        this.fd = openSync(this.fifoPath, constants.O_WRONLY | constants.O_NONBLOCK);
      } catch (error) {
        // ENXIO: no reader has the FIFO open yet.
        if ((error as NodeJS.ErrnoException).code !== "ENXIO") this.abandon(why(error));
        else this.retryLater(`it is a FIFO and no process opened it for reading within ${this.waitMs / 1000} s`);
        return;
      }
    }
    while (this.fd !== undefined && this.queue.length > 0) {
      const head = this.queue[0] as Buffer;
      let written: number;
      try {
        written = writeSync(this.fd, head);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") {
          this.retryLater(`its reader stopped reading (it took nothing for ${this.waitMs / 1000} s)`);
        } else {
          this.abandon(why(error));
        }
        return;
      }
      this.waitingSince = Date.now();
      this.queuedBytes -= written;
      if (written < head.length) {
        this.queue[0] = head.subarray(written);
        continue;
      }
      this.queue.shift();
      this.lines++;
    }
    if (this.queue.length === 0) this.settled?.();
  }

  private retryLater(stalled: string): void {
    if (Date.now() - this.waitingSince > this.waitMs) {
      this.abandon(stalled);
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, RETRY_MS);
  }

  /** The stream is of no more use: fail (if not yet), drop what waits, and let close() finish. */
  private abandon(reason: string): void {
    this.fail(reason);
    this.queue = [];
    this.queuedBytes = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.release();
    this.settled?.();
  }

  private fail(reason: string): void {
    if (this.failure !== undefined) return;
    this.failure = reason;
    const held =
      this.lines === 0
        ? "Nothing was recorded."
        : `It holds the first ${this.lines} exchange${this.lines === 1 ? "" : "s"}, each on a whole line; later ones are not recorded.`;
    const speaker = this.options.speaker ?? MOCK_SPEAKER;
    this.options.say(
      `${speaker.name}: recording to ${this.path} failed: ${reason}. ${held} ${speaker.goesOn}, and will exit 2 when it stops.`,
    );
  }

  private release(): void {
    if (this.fd !== undefined && this.ownFd) {
      try {
        closeSync(this.fd);
      } catch {
        // Closing can report a deferred write error; the failure, if any, is already said.
      }
    }
    this.fd = undefined;
    this.fifoPath = undefined;
  }
}

/** A failed call in words: `no space left on device (ENOSPC)`. */
function why(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  const text = String(message ?? error)
    .replace(/^E[A-Z]+: /, "")
    .replace(/, (open|write|ftruncate|mkdir|stat)\b.*$/, "");
  return code && !text.includes(code) ? `${text} (${code})` : text;
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}
