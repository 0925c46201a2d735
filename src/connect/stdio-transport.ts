/**
 * MCP stdio transport over a child process we own, instead of the SDK's, because a
 * contract tool needs what the SDK hides: the exit code, the last stderr lines, stdout text
 * that is not JSON-RPC, and shutdown of the whole process tree (npx spawns grandchildren).
 */
import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import spawn from "cross-spawn";
import { errorMessage, ServerError, UsageError } from "../errors.ts";
import { LineSplitter } from "../util/lines.ts";

const STDERR_TAIL_LINES = 20;
/** The default limit for one stdout line (one message): 64 MiB, raised with --max-response-size. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
/**
 * The MCP lifecycle's stdio shutdown: close the server's stdin, wait "a reasonable time" for it
 * to exit, SIGTERM, wait again, SIGKILL. By then its lists are in and nothing it does matters
 * to the capture, so the first wait is short: a server that exits on EOF does so within it
 * (tens of ms), and one that a timer keeps alive (server-everything: 350 ms) gets SIGTERM
 * instead of costing every capture that long. SIGTERM gets the longer wait, for cleanup.
 */
export const EXIT_GRACE_MS = 100;
/** How long the server (and then what it left in its process group) gets after SIGTERM. */
export const TERM_GRACE_MS = 1500;
/**
 * After the server process exits, how long its pipes get to deliver its last words before
 * the exit is reported. A child it started may hold them open for much longer.
 */
const EXIT_SETTLE_MS = 250;
/** Answers to the server that it does not read pile up in memory; past this, it is not reading. */
const MAX_STDIN_BACKLOG_BYTES = 16 * 1024 * 1024;

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
  /** A stdout line grew past the limit before its newline (reported once). */
  onOversize?: (limitBytes: number, start: string) => void;
  /** The server stopped reading its stdin while we had answers for it. */
  onStdinBacklog?: (bytes: number) => void;
  onExit?: (exit: ProcessExit) => void;
  /** Called for every chunk read from stdout, before it is parsed (the record proxy forwards it as is). */
  onData?: (chunk: Buffer) => void;

  private child: ChildProcess | undefined;
  /** Stdout split into lines in linear time; a line over the limit is skipped. */
  private readonly stdoutLines: LineSplitter;
  private oversized = false;
  private stderrLines: string[] = [];
  private stderrPartial = "";
  private closing: Promise<void> | undefined;
  private exited: Promise<void> | undefined;
  private readonly maxLineBytes: number;

  constructor(
    private readonly target: StdioTarget,
    private readonly onStderr?: (text: string) => void,
    maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  ) {
    this.maxLineBytes = maxLineBytes;
    this.stdoutLines = new LineSplitter(
      maxLineBytes,
      (line) => this.readLine(line),
      (start) => {
        // Reported once: a server that writes one huge line usually writes more.
        if (!this.oversized) this.onOversize?.(this.maxLineBytes, start);
        this.oversized = true;
      },
    );
  }

  /** The last lines the server wrote to stderr, for error messages. */
  stderrTail(): string[] {
    const lines = [...this.stderrLines];
    if (this.stderrPartial.trim()) lines.push(clipLine(this.stderrPartial));
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
      const pipesClosed = new Promise<void>((done) => child.on("close", () => done()));
      this.exited = new Promise((done) => {
        // The process itself, not its pipes: a child it started may keep stdout open long
        // after it crashed. Its last stderr lines get a moment to arrive, then it is reported.
        child.on("exit", (code, signal) => {
          const settle = new Promise<void>((r) => setTimeout(r, EXIT_SETTLE_MS).unref?.());
          void Promise.race([pipesClosed, settle]).then(() => {
            this.exit = { code, signal };
            this.onExit?.(this.exit);
            this.onclose?.();
            done();
          });
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
      child.stdout?.on("data", (chunk: Buffer) => this.readStdout(chunk));
      child.stderr?.setEncoding("utf8");
      child.stderr?.on("data", (chunk: string) => this.readStderr(chunk));
    });
  }

  private readStdout(chunk: Buffer): void {
    this.onData?.(chunk);
    this.stdoutLines.push(chunk);
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
    for (const line of parts) {
      if (line.trim()) this.stderrLines.push(clipLine(line.replace(/\r$/, "")));
    }
    if (this.stderrLines.length > STDERR_TAIL_LINES * 4) {
      this.stderrLines = this.stderrLines.slice(-STDERR_TAIL_LINES);
    }
    if (this.stderrPartial.length > 64 * 1024) this.stderrPartial = this.stderrPartial.slice(-4096);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || this.exit) return;
    if (stdin.writableLength > MAX_STDIN_BACKLOG_BYTES) {
      this.onStdinBacklog?.(stdin.writableLength);
      return;
    }
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
    // Nothing it writes matters any more; a flood must not keep us from shutting it down.
    child.stdout?.removeAllListeners("data");
    child.stdout?.destroy();
    child.stdin?.end();
    const waitExit = (ms: number) =>
      Promise.race([this.exited, new Promise<"timeout">((r) => setTimeout(r, ms, "timeout").unref?.())]);
    if (!this.exit && (await waitExit(EXIT_GRACE_MS)) === "timeout") {
      this.signal("SIGTERM");
      if ((await waitExit(TERM_GRACE_MS)) === "timeout") {
        this.signal("SIGKILL");
        await waitExit(TERM_GRACE_MS);
        return;
      }
    }
    // Reap anything the server left behind in its process group: politely, then for sure.
    if (!this.groupAlive()) return;
    this.signal("SIGTERM");
    const deadline = Date.now() + TERM_GRACE_MS;
    while (this.groupAlive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    if (this.groupAlive()) this.signal("SIGKILL");
  }

  /** Whether any process is left in the server's process group (POSIX), zombies aside. */
  private groupAlive(): boolean {
    const pid = this.child?.pid;
    if (pid === undefined || process.platform === "win32") return false;
    try {
      // No member at all, not even a zombie: nothing to look for (the common case: a server
      // that started nothing, reaped by us). Reading every process's stat cost milliseconds.
      process.kill(-pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
    }
    // An orphan's zombie counts as a member until init reaps it, and in a container init
    // may never do: on Linux, look for a live member instead.
    return liveGroupMember(pid) ?? true;
  }

  /** The running server, for a proxy that writes its stdin and paces its stdout itself. */
  get process(): ChildProcess | undefined {
    return this.child;
  }

  /** Pass a signal on to the server's whole process group (a proxy forwarding Ctrl-C). */
  signalGroup(signal: NodeJS.Signals): void {
    this.signal(signal);
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

/** A stderr line as it is quoted in a message: a server may write megabytes without a newline. */
function clipLine(line: string): string {
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}

/** Linux: whether a process that is not a zombie has this process group id (undefined: cannot tell). */
function liveGroupMember(pgid: number): boolean | undefined {
  if (process.platform !== "linux") return undefined;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z" && state !== "X") return true;
  }
  return false;
}

/**
 * Why a server could not be started, said as the fix: the command is not found, not executable,
 * or a directory. Errors of ours pass through; anything else is named with the command line.
 */
export function spawnFailure(target: { command: string; args: readonly string[] }, error: unknown): Error {
  if (error instanceof UsageError || error instanceof ServerError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EACCES" && isDirectory(target.command)) {
    return new ServerError(
      `cannot start the server: ${target.command} is a directory, not a program. Give the command that starts the server after \`--\`, e.g. \`-- node ${target.command}/index.js\`.`,
    );
  }
  if (code === "ENOENT") {
    return new ServerError(
      `cannot start the server: command not found: ${target.command}. Check the spelling and that it is installed and on PATH (or give its full path) after \`--\`.`,
    );
  }
  if (code === "EACCES") {
    return new ServerError(
      `cannot start the server: permission denied running ${target.command}. Make it executable (chmod +x) or run it through its interpreter, e.g. \`-- node ${target.command}\`.`,
    );
  }
  const shown = [target.command, ...target.args].join(" ");
  return new ServerError(`cannot start the server \`${shown}\`: ${errorMessage(error)}`, { cause: error });
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
