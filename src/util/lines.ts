/**
 * Splitting a stream into lines (one stdio JSON-RPC message each) with a bound on what is held:
 * the mock's stdin (src/mock/transports.ts) and a server's stdout during a capture
 * (src/connect/stdio-transport.ts) are read alike. Pure: chunks in, lines out.
 *
 * A line is refused as soon as its unparsed bytes pass the limit, not when its newline finally
 * comes: a peer that writes a gigabyte without a newline (or never ends its line) costs one
 * refusal and at most the limit in memory, and the rest of that line is dropped as it
 * arrives. Only the new chunk is searched for a newline, so a long line costs linear time (the
 * string buffer this replaces searched from its start on every chunk: 52 s for 256 MiB).
 *
 * While `mustWait()` says so (the answers are not being read), lines stay unsplit in the chunks
 * they came in until resume(): one 64 KiB chunk of small requests can ask for gigabytes of
 * answers, so the caller pauses stdin and this stops between lines, not between chunks.
 */
/** How much of a refused line onTooLong is given. */
const START_BYTES = 120;

export class LineSplitter {
  /** The current line's bytes so far; a chunk's tail is kept as a view, not copied. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Past the limit: the rest of the line is dropped until its newline. */
  private skipping = false;
  /** Chunks (the first maybe partly split) waiting for resume(). */
  private held: Buffer[] = [];

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    /** A line passed the limit (once per line); `start` is its first bytes, for a message. */
    private readonly onTooLong: (start: string) => void,
    private readonly mustWait: () => boolean = () => false,
  ) {}

  /** Whether chunks are held, waiting for resume(). */
  get holding(): boolean {
    return this.held.length > 0;
  }

  push(chunk: Buffer): void {
    this.held.push(chunk);
    this.resume();
  }

  /** Split what is held, until it is all split or mustWait() says to stop. */
  resume(): void {
    while (this.held.length > 0) {
      const chunk = this.held[0] as Buffer;
      const stoppedAt = this.split(chunk);
      if (stoppedAt === undefined) this.held.shift();
      else {
        this.held[0] = chunk.subarray(stoppedAt);
        return;
      }
    }
  }

  /** Split one chunk; the offset it stopped at when told to wait, else undefined. */
  private split(chunk: Buffer): number | undefined {
    let start = 0;
    while (start < chunk.length) {
      if (this.mustWait()) return start;
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      this.take(chunk.subarray(start, end));
      if (newline === -1) return undefined;
      if (!this.skipping) this.emit();
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = false;
      start = newline + 1;
    }
    return undefined;
  }

  private take(piece: Buffer): void {
    if (this.skipping || piece.length === 0) return;
    if (this.pendingBytes + piece.length > this.maxBytes) {
      const start = Buffer.concat([...this.pending, piece].slice(0, 2))
        .subarray(0, START_BYTES)
        .toString("utf8");
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = true;
      this.onTooLong(start);
      return;
    }
    this.pending.push(piece);
    this.pendingBytes += piece.length;
  }

  private emit(): void {
    const bytes = this.pending.length === 1 ? (this.pending[0] as Buffer) : Buffer.concat(this.pending);
    // CRLF from Windows clients: the CR belongs to the line ending, not the message.
    const line = bytes.toString("utf8").replace(/\r$/, "");
    if (line.trim() !== "") this.onLine(line);
  }
}
