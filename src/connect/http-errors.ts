/**
 * An HTTP failure after the opening (`initialize`, or `server/discover` in the modern era)
 * succeeded (a status, an HTML page, a reset connection, a body that is not JSON) as one
 * paragraph: the step, what the server did, and the fix. The failures of the opening itself
 * are explained in index.ts, where they decide the era and whether the legacy SSE transport
 * is tried.
 */
import { STATUS_CODES } from "node:http";
import { errorMessage, ServerError } from "../errors.ts";
import { cleanFetchMessage, networkCode } from "./http-fetch.ts";

export interface HttpFailure {
  error: unknown;
  /** The HTTP status of the failed request, when there was one. */
  status: number | undefined;
  /** The capture step, e.g. tools/list. */
  phase: string;
  shownUrl: string;
  /** Whether we sent credentials (a bearer token, an API key header). */
  hasAuth: boolean;
  /** The request that opened the session: initialize (default), or server/discover. */
  opening?: string;
}

export function explainHttpFailure(failure: HttpFailure): ServerError {
  const { error, phase, shownUrl: url, hasAuth } = failure;
  const opening = failure.opening ?? "initialize";
  const text = errorMessage(error);
  const status = failure.status ?? legacyStatus(text);
  const cause = { cause: error };
  if (status !== undefined) {
    const said = quotedBody(text);
    const answered = `${url} answered HTTP ${status}${reason(status)} to ${phase} (after ${opening} had succeeded)${said}`;
    if (status === 401) {
      // `status` lets the capture name the OAuth authorization server (src/auth/cached.ts).
      const unauthorized = new ServerError(
        hasAuth
          ? `${answered}: it rejected the credentials for this request. Check that the token passed with --bearer (or MCP_CONTRACT_BEARER) or --header is valid, not expired, and allowed to call ${phase}.`
          : `${answered}: it wants credentials for this request. Pass a token with --bearer TOKEN (or the MCP_CONTRACT_BEARER environment variable), or another header with --header "Name: value".`,
        cause,
      );
      return Object.assign(unauthorized, { status: 401 });
    }
    if (status === 403) {
      const forbidden = new ServerError(
        `${answered}: the credentials do not allow ${phase}. Use a token with the scopes or permissions to list the server's surface.`,
        cause,
      );
      return Object.assign(forbidden, { status: 403 });
    }
    if (status === 404) {
      return new ServerError(
        `${answered}: the server no longer knows the session it created (Mcp-Session-Id). It may have restarted or expired the session at once, or run as several instances behind a load balancer that do not share sessions; make sessions last, route them to one instance, or run the server stateless.`,
        cause,
      );
    }
    if (status === 429) {
      return new ServerError(
        `${answered}: it is rate limiting us. Wait and capture again, or raise the server's rate limit for CI.`,
        cause,
      );
    }
    if (status === 502 || status === 503 || status === 504) {
      return new ServerError(
        `${answered}: the server, or a proxy or gateway in front of it, is unavailable or timing out. Check that it is up and healthy, then capture again.`,
        cause,
      );
    }
    if (status >= 500) {
      return new ServerError(
        `${answered}: the server failed while handling the request. Check the server's logs; the fault is on its side.`,
        cause,
      );
    }
    if (status >= 300 && status < 400) {
      return new ServerError(
        `${answered}: a redirect in the middle of a session is not followed. Give the final URL with --url.`,
        cause,
      );
    }
    return new ServerError(
      `${answered}: it refused the request. If it needs particular headers, pass them with --header "Name: value"; otherwise check the server's logs.`,
      cause,
    );
  }
  const type = /Unexpected content type: (.*)$/i.exec(text)?.[1];
  if (type !== undefined) {
    const html = /html/i.test(type);
    return new ServerError(
      `${url} answered ${phase} with ${type === "null" ? "no content type" : type}, not JSON or an event stream${html ? " (a web page: a login or proxy error page?)" : ""}, after ${opening} had succeeded: that is not an MCP response. Check that nothing between mcp-contract and the server (a proxy, a gateway, single sign-on) intercepts requests after the first.`,
      cause,
    );
  }
  if (error instanceof Error && error.name === "SyntaxError") {
    return new ServerError(
      `${url} sent an answer to ${phase} that is not valid JSON (${cleanFetchMessage(text)}): the body was cut off or is not JSON at all. Check the server's logs; it or a proxy may have ended the response early.`,
      cause,
    );
  }
  if (error instanceof Error && error.name === "ZodError") {
    return new ServerError(
      `${url} answered ${phase} with JSON that is not a JSON-RPC 2.0 message (one with "jsonrpc": "2.0" and the request's "id", and a "result" or an "error"): it is not speaking MCP there.`,
      cause,
    );
  }
  const code = networkCode(error);
  if (code === "ECONNRESET" || /closed unexpectedly|socket hang up|connection reset/i.test(text)) {
    return new ServerError(
      `the connection to ${url} was closed during ${phase}, before the server answered (ECONNRESET): the server may have crashed or dropped the connection, or a proxy did. Check the server's logs.`,
      cause,
    );
  }
  if (code === "ECONNREFUSED" || code === "ConnectionRefused") {
    return new ServerError(
      `${url} stopped accepting connections during ${phase} (connection refused), after ${opening} had succeeded: the server may have crashed or restarted. Check that it is running, then capture again.`,
      cause,
    );
  }
  const detail = cleanFetchMessage(text);
  return new ServerError(
    `talking to ${url} failed during ${phase}, after ${opening} had succeeded: ${code && !detail.includes(code) ? `${code}: ` : ""}${clip(detail, 300)}.`.replace(
      /\.\.$/,
      ".",
    ),
    cause,
  );
}

function reason(status: number): string {
  const name = STATUS_CODES[status];
  return name ? ` ${name}` : "";
}

/** The legacy SSE transport's POST error carries its status only in the text. */
function legacyStatus(text: string): number | undefined {
  const match = /^Error POSTing to endpoint \(HTTP (\d{3})\)/.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** The start of the error body the SDK put in its message, as a short quote (or nothing). */
function quotedBody(text: string): string {
  const match = /Error POSTing to endpoint(?: \(HTTP \d{3}\))?: ([\s\S]*)$/.exec(text);
  let body = (match?.[1] ?? "").trim();
  if (!body || body === "null") return "";
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1]?.trim();
  if (/^<(!doctype|html|head|body)/i.test(body)) {
    return title ? `, with a web page titled ${JSON.stringify(clip(title, 80))}` : ", with a web page";
  }
  body = body.replace(/\s+/g, " ");
  return `, saying ${JSON.stringify(clip(body, 160))}`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
