/**
 * A server started a moment ago in the same CI job (`server & mcp-contract check --url …`) may
 * not be listening yet. Before speaking HTTP, connect to its port until it accepts, with a
 * bounded backoff, for as long as the time limit allows; only a refused connection is waited
 * out (a name that does not resolve, or anything else, is left to the HTTP attempt to explain).
 */
import { connect } from "node:net";
import { ServerError } from "../errors.ts";

/** The first retry waits this long, each next one twice as long, up to MAX_DELAY_MS. */
const FIRST_DELAY_MS = 50;
const MAX_DELAY_MS = 1_000;

/** Whether a TCP connection to host:port is refused (true), accepted (false), or fails otherwise (undefined). */
function refused(host: string, port: number, ms: number): Promise<boolean | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (answer: boolean | undefined) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(ms, () => done(undefined));
    socket.once("connect", () => done(false));
    socket.once("error", (error: NodeJS.ErrnoException) => done(error.code === "ECONNREFUSED" ? true : undefined));
  });
}

/**
 * Waits until `url`'s port accepts a connection, or throws a ServerError saying how long it
 * waited once `deadline` (a Date.now() time) passes. Proxied requests are not waited for: the
 * port the proxy connects to is not ours to probe.
 */
export async function waitListening(url: URL, deadline: number, onNote?: (text: string) => void): Promise<void> {
  if (process.env.HTTPS_PROXY || process.env.HTTP_PROXY || process.env.https_proxy || process.env.http_proxy) return;
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const started = Date.now();
  let delay = FIRST_DELAY_MS;
  let noted = false;
  for (;;) {
    const left = deadline - Date.now();
    const answer = await refused(host, port, Math.max(100, left));
    if (answer !== true) return;
    if (!noted) {
      onNote?.(`${url.host} refused the connection; waiting for the server to start listening (--timeout)`);
      noted = true;
    }
    if (Date.now() >= deadline) {
      const waited = ((Date.now() - started) / 1000).toFixed(1);
      throw new ServerError(
        `cannot connect to ${url.href}: connection refused, for ${waited} s (the --timeout). Is the server running and listening on ${url.host}? If it takes longer to start, raise --timeout.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, Math.max(0, deadline - Date.now()))));
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  }
}
