/**
 * Getting the authorization response back from the browser: a one-shot HTTP server on
 * 127.0.0.1 (RFC 8252 §7.3; --port fixes its port for `ssh -L`), and, for a browser that
 * cannot reach this machine, the redirected address pasted at a prompt. Whichever comes first wins.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { UsageError } from "../errors.ts";

export const CALLBACK_PATH = "/callback";

export interface Callback {
  redirectUri: string;
  port: number;
  /** Resolves with the full redirected URL once the browser arrives with a code or an error. */
  received: Promise<URL>;
  close(): void;
}

const DONE_PAGE = (ok: boolean) =>
  `<!doctype html><meta charset="utf-8"><title>mcp-contract</title><body style="font-family:sans-serif;margin:3em"><h1>${
    ok ? "Signed in" : "Sign-in failed"
  }</h1><p>${ok ? "You can close this tab and return to the terminal." : "See the terminal for the reason."}</p>`;

/** Listen on 127.0.0.1:port (0: any free port); a taken --port is a usage error naming the fix. */
export async function startCallback(port: number, fixed: boolean): Promise<Callback> {
  let deliver: (url: URL) => void = () => {};
  const received = new Promise<URL>((resolve) => {
    deliver = resolve;
  });
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    if (url.pathname !== CALLBACK_PATH || !(url.searchParams.has("code") || url.searchParams.has("error"))) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not the sign-in callback.\n");
      return;
    }
    res
      .writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
      .end(DONE_PAGE(!url.searchParams.has("error")));
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
 * redirected to a loopback address it could not reach). Lines that are not such an address
 * are answered on stderr and read again; end of input just means nothing will be pasted.
 */
export function readPasted(onInvalid: (line: string) => void): { pasted: Promise<URL>; stop(): void } {
  const lines = createInterface({ input: process.stdin, terminal: false });
  const pasted = new Promise<URL>((resolve) => {
    lines.on("line", (line) => {
      const url = parsePasted(line);
      if (url) resolve(url);
      else if (line.trim()) onInvalid(line);
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

/** Open the URL in the user's browser; false when no opener could be started. */
export function openBrowser(url: string): Promise<boolean> {
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", '""', url.replace(/&/g, "^&")]]
        : ["xdg-open", [url]];
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args as string[], { stdio: "ignore", detached: true });
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
