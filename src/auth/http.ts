/**
 * The options every oauth4webapi request gets: a time limit, and plain http allowed only to
 * this machine (loopback), where test and development servers run. Anywhere else OAuth over
 * http would send codes and tokens in the clear, so oauth4webapi's refusal stands.
 */
import * as oauth from "oauth4webapi";
import { networkCode, networkReason } from "../connect/http-fetch.ts";

/** How long one OAuth request (discovery, registration, token) may take. */
export const AUTH_REQUEST_TIMEOUT_MS = 30_000;

export function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function requestOptions(url: URL, timeoutMs = AUTH_REQUEST_TIMEOUT_MS) {
  return {
    signal: () => AbortSignal.timeout(timeoutMs),
    ...(url.protocol === "http:" && isLoopback(url) ? { [oauth.allowInsecureRequests]: true } : {}),
  };
}

/** A fetch with the same time limit, for the requests oauth4webapi does not make (the 401 probe, CIMD). */
export async function timedFetch(url: URL | string, init: RequestInit = {}, timeoutMs = AUTH_REQUEST_TIMEOUT_MS) {
  return fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
}

/** A failed request as a clause: refused, unresolvable, timed out, else the runtime's reason. */
export function describeNetworkError(error: unknown): string {
  const code = networkCode(error);
  if (code === "ECONNREFUSED" || code === "ConnectionRefused") return "connection refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "the host name does not resolve";
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return "no answer in time";
  }
  return networkReason(error).replace(/\.$/, "");
}
