/**
 * MCP stdio transport over a child process we own, instead of the SDK's, because a
 * contract tool needs what the SDK hides: the exit code, the last stderr lines, stdout text
 * that is not JSON-RPC, and shutdown of the whole process tree (npx spawns grandchildren).
 */
import type { ChildProcess } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import spawn from "cross-spawn";

const STDERR_TAIL_LINES = 20;
/** A single stdout line larger than this is not a sane MCP message. */
const MAX_LINE_BYTES = 256 * 1024 * 1024;
/** How long the server gets to exit on its own after stdin closes, then after SIGTERM. */
const GRACE_MS = 1500;

export interface StdioTarget {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Set when the process has exited and its pipes are closed. */
  exit: ProcessExit | undefined;
  /** Text on stdout that was not a JSON-RPC message (a protocol violation). */
  onNoise?: (line: string) => void;
  onExit?: (exit: ProcessExit) => void;

  private child: ChildProcess | undefined;
  private stdoutBuffer = "";
  private stderrLines: string[] = [];
  private stderrPartial = "";
  private closing: Promise<void> | undefined;
  private exited: Promise<void> | undefined;

  constructor(
    private readonly target: StdioTarget,
    private readonly onStderr?: (text: string) => void,
  ) {}

  /** The last lines the server wrote to stderr, for error messages. */
  stderrTail(): string[] {
    const lines = [...this.stderrLines];
    if (this.stderrPartial.trim()) lines.push(this.stderrPartial);
    return lines.slice(-STDERR_TAIL_LINES);
  }

  private started: Promise<void> | undefined;

  /** Spawns the server once; the SDK's Client calls start() again on connect, which is a no-op. */
  start(): Promise<void> {
    this.started ??= this.spawn();
    return this.started;
  }

  private spawn(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.target.command, this.target.args, {
        cwd: this.target.cwd,
        env: this.target.env,
        stdio: ["pipe", "pipe", "pipe"],
        // Its own process group, so close() can end grandchildren too (POSIX).
        detached: process.platform !== "win32",
        windowsHide: true,
      });
      this.child = child;
      this.exited = new Promise((done) => {
        child.on("close", (code, signal) => {
          this.exit = { code, signal };
          this.onExit?.(this.exit);
          this.onclose?.();
          done();
        });
      });
      child.on("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on("spawn", () => resolve());
      child.stdin?.on("error", () => {
        // EPIPE after the server died; the exit handler reports it.
      });
      child.stdout?.setEncoding("utf8");
      child.stdout?.on("data", (chunk: string) => this.readStdout(chunk));
      child.stderr?.setEncoding("utf8");
      child.stderr?.on("data", (chunk: string) => this.readStderr(chunk));
    });
  }

  private readStdout(chunk: string): void {
    this.stdoutBuffer += chunk;
    if (this.stdoutBuffer.length > MAX_LINE_BYTES) {
      this.onNoise?.(`${this.stdoutBuffer.slice(0, 200)}… (over ${MAX_LINE_BYTES} bytes without a newline)`);
      this.stdoutBuffer = "";
      return;
    }
    let newline = this.stdoutBuffer.indexOf("\n");
    while (newline !== -1) {
      const line = this.stdoutBuffer.slice(0, newline).replace(/\r$/, "");
      this.stdoutBuffer = this.stdoutBuffer.slice(newline + 1);
      if (line.trim()) this.readLine(line);
      newline = this.stdoutBuffer.indexOf("\n");
    }
  }

  private readLine(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.onNoise?.(line);
      return;
    }
    if (typeof message !== "object" || message === null || (message as { jsonrpc?: unknown }).jsonrpc !== "2.0") {
      this.onNoise?.(line);
      return;
    }
    this.onmessage?.(message as JSONRPCMessage);
  }

  private readStderr(chunk: string): void {
    this.onStderr?.(chunk);
    const parts = (this.stderrPartial + chunk).split("\n");
    this.stderrPartial = parts.pop() ?? "";
    for (const line of parts) if (line.trim()) this.stderrLines.push(line.replace(/\r$/, ""));
    if (this.stderrLines.length > STDERR_TAIL_LINES * 4) {
      this.stderrLines = this.stderrLines.slice(-STDERR_TAIL_LINES);
    }
    if (this.stderrPartial.length > 64 * 1024) this.stderrPartial = this.stderrPartial.slice(-4096);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || this.exit) return;
    await new Promise<void>((resolve) => {
      stdin.write(`${JSON.stringify(message)}\n`, () => resolve());
    });
  }

  /**
   * The spec's shutdown: close stdin, wait, SIGTERM, wait, SIGKILL. The whole process
   * group is signalled so that nothing the server started outlives us.
   */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const child = this.child;
    if (!child || !this.exited) return;
    child.stdin?.end();
    const waitExit = (ms: number) =>
      Promise.race([this.exited, new Promise<"timeout">((r) => setTimeout(r, ms, "timeout").unref?.())]);
    if (!this.exit && (await waitExit(GRACE_MS)) === "timeout") {
      this.signal("SIGTERM");
      if ((await waitExit(GRACE_MS)) === "timeout") {
        this.signal("SIGKILL");
        await waitExit(GRACE_MS);
      }
    }
    // Reap anything the server left behind in its process group.
    this.signal("SIGTERM");
  }

  /** Synchronous last resort for process exit paths (Ctrl-C): signal the tree now. */
  killNow(): void {
    this.signal("SIGKILL");
  }

  private signal(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      if (process.platform === "win32") this.child?.kill(signal);
      else process.kill(-pid, signal);
    } catch {
      // Already gone.
    }
  }
}
