/**
 * Every request the OAuth client makes goes through authFetch: protected-resource and
 * authorization-server metadata, registration, token, revocation. An authorization server is
 * as untrusted as an MCP server, so its answers get the same bounds: the body is read through
 * the MCP transports' meter (src/connect/http-fetch.ts boundedFetch, reused, not copied), and a
 * time limit covers the whole exchange, body included, so that a server sending headers and
 * then a byte a minute cannot hold a sign-in or a capture's token refresh.
 *
 * Plain http is allowed only to this machine (loopback), where test and development servers
 * run; anywhere else it would send codes and tokens in the clear, so oauth4webapi's refusal stands.
 */
import * as oauth from "oauth4webapi";
import { boundedFetch, networkCode, networkReason } from "../connect/http-fetch.ts";
import { AuthLimitError, type Deadline } from "./limits.ts";

/** How long one OAuth request (discovery, registration, token) may take, body included. */
export const AUTH_REQUEST_TIMEOUT_MS = 30_000;
/**
 * The most one OAuth answer may hold. Metadata, registrations and token answers are a few KiB;
 * more than this is a fault (an endless stream, a compression bomb, not an OAuth endpoint at all).
 */
export const AUTH_MAX_RESPONSE_BYTES = 1024 * 1024;

export { AuthLimitError, type Deadline, deadlineIn } from "./limits.ts";

export function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * oauth4webapi's options for a request to `endpoint`: our bounded fetch, and plain http only
 * when the endpoint is on this machine (discovery refused any plain-http endpoint elsewhere).
 */
export function requestOptions(endpoint: URL | string, deadline?: Deadline) {
  const url = new URL(endpoint);
  return {
    [oauth.customFetch]: authFetch(deadline),
    ...(url.protocol === "http:" && isLoopback(url) ? { [oauth.allowInsecureRequests]: true } : {}),
  };
}

/**
 * The status and headers of a request whose body is not wanted (the unauthenticated probe and
 * the scope re-ask, sent to the MCP server itself): the caller cancels the body unread.
 */
export function timedFetch(url: URL | string, init: RequestInit = {}, deadline?: Deadline): Promise<Response> {
  const left = deadline ? deadline.at - Date.now() : AUTH_REQUEST_TIMEOUT_MS;
  const ms = Math.max(1, Math.min(AUTH_REQUEST_TIMEOUT_MS, left));
  return fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(ms) });
}

type Fetch = (url: URL | string, init?: RequestInit) => Promise<Response>;

/**
 * A fetch whose answer is read whole before it is returned, at most AUTH_MAX_RESPONSE_BYTES
 * and within the time limit; breaking either is an AuthLimitError naming the URL and the limit.
 * Reading here, not in the caller, puts every bound in one place: oauth4webapi only parses.
 */
export function authFetch(deadline?: Deadline): Fetch {
  return async (url, init = {}) => {
    const shownUrl = new URL(url).href;
    const left = deadline ? deadline.at - Date.now() : Number.POSITIVE_INFINITY;
    const limitMs = Math.min(AUTH_REQUEST_TIMEOUT_MS, left);
    const limitName =
      left <= AUTH_REQUEST_TIMEOUT_MS && deadline ? deadline.name : `${AUTH_REQUEST_TIMEOUT_MS / 1000} s`;
    if (limitMs <= 0) {
      throw new AuthLimitError(
        `${limitName} ran out before ${shownUrl} could be asked`,
        "Allow more time with a larger --timeout",
      );
    }
    const timer = AbortSignal.timeout(limitMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timer]) : timer;
    let overLimit = false;
    const bounded = boundedFetch({
      maxResponseBytes: AUTH_MAX_RESPONSE_BYTES,
      shownUrl,
      phase: () => "an OAuth request",
      fail: () => {
        overLimit = true;
      },
      // Only SSE streams carry JSON-RPC ids; OAuth answers are plain JSON.
      isPending: () => false,
    });
    try {
      const response = await bounded(url, { ...init, signal });
      const body = await response.arrayBuffer();
      // The body is decoded already: the headers must not say it is still compressed.
      const headers = new Headers(response.headers);
      headers.delete("content-encoding");
      headers.delete("content-length");
      return new Response(body, { status: response.status, statusText: response.statusText, headers });
    } catch (error) {
      if (overLimit) {
        throw new AuthLimitError(
          `${shownUrl} sent an OAuth answer larger than ${AUTH_MAX_RESPONSE_BYTES / (1024 * 1024)} MiB and was still sending`,
          "Real metadata, registration and token answers are a few KiB, so it is not a working OAuth endpoint (or it is faulty); check the URL, or tell the server's operator",
          { cause: error },
        );
      }
      if (timer.aborted) {
        throw new AuthLimitError(
          `${shownUrl} did not finish answering within ${limitName}`,
          limitName === deadline?.name
            ? "Check that the authorization server is up, or allow more time with a larger --timeout"
            : "Check that the authorization server is up (an overloaded one may answer later), and try again",
          { cause: error },
        );
      }
      throw error;
    }
  };
}

/** A failed request as a clause: refused, unresolvable, timed out, else the runtime's reason. */
export function describeNetworkError(error: unknown): string {
  if (error instanceof AuthLimitError) return error.fact;
  const code = networkCode(error);
  if (code === "ECONNREFUSED" || code === "ConnectionRefused") return "connection refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "the host name does not resolve";
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return "no answer in time";
  }
  return networkReason(error).replace(/\.$/, "");
}
