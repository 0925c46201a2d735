/**
 * Getting the authorization response back from the browser: a one-shot HTTP server on
 * 127.0.0.1 (RFC 8252 §7.3; --port fixes its port for `ssh -L`), and, for a browser that
 * cannot reach this machine, the redirected address pasted at a prompt. Whichever comes first wins.
 *
 * The callback port is open to every program on this machine and to every web page the browser
 * shows (a page can make the browser request any 127.0.0.1 address). So the callback takes
 * exactly one answer, the one carrying this sign-in's `state`: anything else that reaches it
 * first (another request, a stale or forged state, a redirect without a code) gets an error page
 * and the sign-in goes on waiting. Otherwise any local page could end the sign-in, or slip in a
 * code of its own.
 */
import { spawn } from "node:child_process";
import { timingSafeEqual } from "node:crypto";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { win32 } from "node:path";
import { createInterface } from "node:readline";
import { UsageError } from "../errors.ts";

export const CALLBACK_PATH = "/callback";

export interface Callback {
  redirectUri: string;
  port: number;
  /** Resolves with the redirected URL once the browser brings this sign-in's state with a code or an error. */
  received: Promise<URL>;
  close(): void;
}

function page(res: ServerResponse, status: number, title: string, text: string): void {
  res
    .writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
    .end(
      `<!doctype html><meta charset="utf-8"><title>mcp-contract</title><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p>`,
    );
}

/** Whether `url` carries this sign-in's state (compared in constant time: it is the anti-forgery secret). */
function hasState(url: URL, state: string): boolean {
  const got = Buffer.from(url.searchParams.get("state") ?? "");
  const want = Buffer.from(state);
  return got.length === want.length && timingSafeEqual(got, want);
}

/** Why a redirect is not this sign-in's answer, or undefined when it is. Shared by the callback and the paste prompt. */
export function answerProblem(url: URL, state: string): string | undefined {
  if (!url.searchParams.has("state")) return "it carries no state, so it is not the answer to this sign-in";
  if (!hasState(url, state)) return "its state is not this sign-in's (a stale tab, or another sign-in)";
  if (!url.searchParams.has("code") && !url.searchParams.has("error")) return "it carries neither a code nor an error";
  return undefined;
}

/**
 * Listen on 127.0.0.1:port (0: any free port); a taken --port is a usage error naming the fix.
 * `onIgnored` hears why each request to the callback path was turned away, for the terminal.
 */
export async function startCallback(
  port: number,
  fixed: boolean,
  state: string,
  onIgnored: (reason: string) => void = () => {},
): Promise<Callback> {
  let deliver: (url: URL) => void = () => {};
  const received = new Promise<URL>((resolve) => {
    deliver = resolve;
  });
  let answered = false;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    if (url.pathname !== CALLBACK_PATH || req.method !== "GET") {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not the sign-in callback.\n");
      return;
    }
    if (answered) {
      page(res, 409, "Already answered", "This sign-in has its answer already. You can close this tab.");
      return;
    }
    const problem = answerProblem(url, state);
    if (problem) {
      onIgnored(problem);
      page(
        res,
        400,
        "Not this sign-in",
        `mcp-contract ignored this address: ${problem}. The sign-in in the terminal is still waiting; finish it in the tab it opened.`,
      );
      return;
    }
    answered = true;
    const ok = !url.searchParams.has("error");
    page(
      res,
      200,
      ok ? "Signed in" : "Sign-in failed",
      ok ? "You can close this tab and return to the terminal." : "See the terminal for the reason.",
    );
    deliver(url);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  }).catch((error: NodeJS.ErrnoException) => {
    if (fixed && error.code === "EADDRINUSE") {
      throw new UsageError(
        `--port ${port}: something on this machine already listens on 127.0.0.1:${port}. Choose another port (and forward that one with ssh -L), or leave out --port.`,
      );
    }
    throw error;
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    redirectUri: `http://127.0.0.1:${actual}${CALLBACK_PATH}`,
    port: actual,
    received,
    close: () => {
      server.closeAllConnections?.();
      server.close();
    },
  };
}

/**
 * The redirected URL typed or pasted on stdin (the browser's address bar after the server
 * redirected to a loopback address it could not reach). Lines that are not this sign-in's
 * answer are answered on stderr with the reason and read again; end of input just means
 * nothing will be pasted.
 */
export function readPasted(
  state: string,
  onInvalid: (line: string, reason?: string) => void,
): { pasted: Promise<URL>; stop(): void } {
  const lines = createInterface({ input: process.stdin, terminal: false });
  const pasted = new Promise<URL>((resolve) => {
    lines.on("line", (line) => {
      const url = parsePasted(line);
      const problem = url && answerProblem(url, state);
      if (url && !problem) resolve(url);
      else if (line.trim()) onInvalid(line, problem);
    });
  });
  return {
    pasted,
    stop: () => {
      lines.close();
      process.stdin.pause();
      process.stdin.unref?.();
    },
  };
}

/** A pasted redirect: a whole URL, or just its query (`code=…&state=…`). */
export function parsePasted(line: string): URL | undefined {
  const text = line.trim();
  if (!text) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    const query = text.replace(/^\?/, "");
    if (/(^|&)(code|error)=/.test(query)) url = new URL(`http://127.0.0.1${CALLBACK_PATH}?${query}`);
  }
  if (!url || !(url.searchParams.has("code") || url.searchParams.has("error"))) return undefined;
  return url;
}

/**
 * The program that opens `url` in the user's browser, and its arguments: never a shell. On
 * Windows `cmd /c start URL` would hand the address to cmd.exe, whose parser gives `&`, `|`,
 * `^` and `%VAR%` meanings of their own (the authorization URL comes from the server's
 * metadata); rundll32's URL handler, by its full path, gets the address as one argument.
 */
export function browserCommand(
  url: string,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): { command: string; args: string[] } {
  if (platform === "darwin") return { command: "open", args: [url] };
  if (platform === "win32") {
    const root = env.SystemRoot || env.windir || "C:\\Windows";
    return { command: win32.join(root, "System32", "rundll32.exe"), args: ["url.dll,FileProtocolHandler", url] };
  }
  return { command: "xdg-open", args: [url] };
}

/** Open the URL in the user's browser; false when no opener could be started. */
export function openBrowser(url: string): Promise<boolean> {
  const { command, args } = browserCommand(url);
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args, { stdio: "ignore", detached: true, shell: false, windowsHide: true });
      child.once("error", () => resolve(false));
      child.once("spawn", () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
