/**
 * The events of a Server-Sent Events stream, as the HTML standard's parser reads them, for the
 * record proxy's side view of a Streamable HTTP answer: chunks in, each event's data out. Pure.
 * Only `data` matters here (an MCP message per event); `event`, `id` and `retry` lines and
 * comments are skipped. What one event may hold is bounded: past it the event is dropped.
 */
export class SseEvents {
  private partial = "";
  private data: string[] = [];
  private dataBytes = 0;
  private skipping = false;
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly onData: (data: string) => void,
    private readonly maxBytes: number,
  ) {}

  push(chunk: Uint8Array): void {
    const text = this.partial + this.decoder.decode(chunk, { stream: true });
    // Lines end in CRLF, LF or CR; a CR at the very end may still get its LF in the next chunk.
    const lines = text.split(/\r\n|\n|\r(?!$)/);
    this.partial = lines.pop() ?? "";
    if (this.partial.length > this.maxBytes) {
      this.partial = "";
      this.skipping = true;
    }
    for (const line of lines) this.line(line.endsWith("\r") ? line.slice(0, -1) : line);
  }

  /** The stream ended: an event not ended by a blank line is not dispatched (as the standard says). */
  end(): void {
    this.partial = "";
    this.data = [];
    this.dataBytes = 0;
  }

  private line(line: string): void {
    if (line === "") {
      if (!this.skipping && this.data.length > 0) this.onData(this.data.join("\n"));
      this.data = [];
      this.dataBytes = 0;
      this.skipping = false;
      return;
    }
    if (this.skipping || line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== "data") return;
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    this.dataBytes += value.length;
    if (this.dataBytes > this.maxBytes) {
      this.skipping = true;
      this.data = [];
      return;
    }
    this.data.push(value);
  }
}
