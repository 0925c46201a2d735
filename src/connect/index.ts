import { errorMessage, ServerError, UsageError } from "../errors.ts";
import { formatMiB } from "../util/text.ts";
import {
  classifyProbe,
  describeRpcError,
  type EraSetting,
  LEGACY_PROTOCOL_VERSIONS,
  legacyOnlyError,
  modernOnlyError,
  noCommonVersionError,
  refusalInBody,
  supportedVersionsOf,
} from "./era.ts";
import { explainHttpFailure } from "./http-errors.ts";
import { boundedFetch, cleanFetchMessage, DEFAULT_MAX_RESPONSE_BYTES, modernFetch, networkCode } from "./http-fetch.ts";
import { LEGACY_PROBE_MS, LegacyProbe } from "./legacy-probe.ts";
import { ExitedBeforeAnswering, negotiate, PROBE_GRACE_MS } from "./negotiate.ts";
import type { Session, SessionOptions } from "./session.ts";
import { ChildProcessTransport, isDirectory, spawnFailure } from "./stdio-transport.ts";
import { describeTarget, type Target } from "./target.ts";
import { waitListening } from "./wait-listening.ts";

type HttpFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface ConnectOptions extends SessionOptions {
  /** The era to speak; default auto (modern first, legacy when the server shows it is legacy). */
  era?: EraSetting;
  /** The largest single message (an HTTP answer, an SSE event, a stdout line), in bytes. Default 64 MiB. */
  maxResponseBytes?: number;
  /** Receives the server's stderr as it arrives (shown with --verbose). */
  onServerStderr?: (text: string) => void;
  /** Receives, as soon as there is something to stop, a function that stops it at once (Ctrl-C). */
  onKillSwitch?: (kill: () => void) => void;
  /** Receives warnings to show whatever the verbosity (an era decided by a silent probe). */
  onWarning?: (text: string) => void;
  /**
   * Wraps the HTTP transports' own fetch, beneath the response meter: each request a transport
   * sends passes through it (a stored DPoP sign-in signs a proof per request, src/auth/dpop.ts).
   */
  wrapFetch?: (base: HttpFetch) => HttpFetch;
}

export interface OpenSession {
  session: Session;
  /** Which transport carried the session: stdio, http or sse. */
  transport: "stdio" | "http" | "sse";
  /** Ends the session at once, for signal handlers. */
  killNow: () => void;
}

/**
 * The session and the SDK's HTTP transports, loaded on first use. A stdio server needs no SDK
 * at all (the session speaks JSON-RPC itself, over our own transport) and is spawned first.
 */
function importSdk() {
  return Promise.all([
    import("./session.ts"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
  ]).then(([session, sse, http]) => ({
    Session: session.Session,
    SSEClientTransport: sse.SSEClientTransport,
    SseError: sse.SseError,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    StreamableHTTPError: http.StreamableHTTPError,
  }));
}
type Sdk = Awaited<ReturnType<typeof importSdk>>;
let sdk: Sdk | undefined;
async function loadSdk(): Promise<Sdk> {
  sdk ??= await importSdk();
  return sdk;
}

export async function openSession(target: Target, connectOptions: ConnectOptions): Promise<OpenSession> {
  // The time limit covers spawning the server and loading the SDK too.
  const options = { ...connectOptions, startedAt: connectOptions.startedAt ?? Date.now() };
  const era = options.era ?? "auto";
  if (target.kind === "stdio") {
    try {
      return await openStdio(target, options, era);
    } catch (error) {
      if (!(error instanceof ExitedBeforeAnswering)) throw error;
      // A legacy server that exits on any request before initialize (rmcp-based servers do):
      // one more process, spoken to in the legacy era only.
      options.onNote?.(
        "the server exited before it answered server/discover; starting it again for initialize, as a legacy server that ends on requests before initialize needs",
      );
      return openStdio(target, options, "legacy");
    }
  }
  // A server started a moment ago may not listen yet: wait out a refused connection (--timeout).
  await waitListening(target.url, options.startedAt + options.timeoutMs, options.onNote);
  if (target.transport === "sse") {
    if (era === "modern") {
      throw new UsageError(
        "--transport sse is the legacy HTTP+SSE transport, which cannot carry modern MCP (--era modern); use --transport http or auto.",
      );
    }
    return explained(openHttp(target, options, "sse"), target);
  }
  if (era !== "legacy") {
    const modern = await openModernHttp(target, options, era);
    if (modern) return modern;
  }
  try {
    return await openHttp(target, options, "http");
  } catch (error) {
    // A modern-only endpoint refuses initialize with 400 and the versions it speaks.
    const status = httpStatus(error);
    const refusal = status === 400 ? refusalInBody(errorMessage(error)) : undefined;
    const supported = refusal && supportedVersionsOf(refusal);
    if (refusal && supported && !supported.some((v) => LEGACY_PROTOCOL_VERSIONS.includes(v))) {
      throw modernOnlyError(supported, describeRpcError(refusal), era);
    }
    // Spec, backwards compatibility: a 4xx to the initialize POST (other than auth) means
    // the server may speak the older HTTP+SSE transport; try a GET for its event stream.
    if (
      target.transport === "http" ||
      status === undefined ||
      status < 400 ||
      status >= 500 ||
      status === 401 ||
      status === 403
    ) {
      throw explainHttpError(error, target);
    }
    options.onNote?.(`Streamable HTTP POST got HTTP ${status}; trying the legacy HTTP+SSE transport`);
    try {
      return await openHttp(target, options, "sse");
    } catch (sseError) {
      const sseStatus = httpStatus(sseError);
      const isSseError = sdk !== undefined && sseError instanceof sdk.SseError;
      if (sseStatus === 401 || sseStatus === 403 || (sseStatus === undefined && !isSseError)) {
        throw explainHttpError(sseError, target);
      }
      throw new ServerError(
        `${target.url.href} is not an MCP endpoint: a Streamable HTTP POST got HTTP ${status}, and the legacy HTTP+SSE GET failed too (${describeHttpFailure(sseError)}). Check the URL's path; MCP servers commonly serve /mcp (Streamable HTTP) or /sse (legacy).`,
        { cause: sseError },
      );
    }
  }
}

async function explained(open: Promise<OpenSession>, target: Extract<Target, { kind: "http" }>): Promise<OpenSession> {
  try {
    return await open;
  } catch (error) {
    throw explainHttpError(error, target);
  }
}

async function openStdio(
  target: Extract<Target, { kind: "stdio" }>,
  options: ConnectOptions,
  era: EraSetting,
): Promise<OpenSession> {
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const transport = new ChildProcessTransport(target, options.onServerStderr, maxBytes);
  // Failures can arrive before the session exists (the SDK is still loading): keep the first.
  let session: Session | undefined;
  let early: ServerError | undefined;
  const abort = (error: ServerError) => {
    if (session) session.abort(error);
    else early ??= error;
  };
  const phase = () => session?.currentPhase() ?? "initialize";
  const shown = [target.command, ...target.args].join(" ");
  const tail = () => {
    const lines = transport.stderrTail();
    return lines.length
      ? ` Its last stderr lines:\n${lines.map((l) => `  | ${l}`).join("\n")}`
      : " It wrote nothing to stderr.";
  };
  transport.onNoise = (line) => {
    const shownLine = line.length > 120 ? `${line.slice(0, 120)}…` : line;
    abort(
      new ServerError(
        `\`${shown}\` wrote text that is not a JSON-RPC message to stdout: ${JSON.stringify(shownLine)}. An MCP stdio server must write only protocol messages to stdout; send logs and banners to stderr instead.`,
      ),
    );
  };
  transport.onData = () => session?.checkDeadline();
  transport.onOversize = (limit, start) => {
    abort(
      new ServerError(
        `\`${shown}\` wrote a stdout line longer than the ${formatMiB(limit)} limit during ${phase()} (it starts ${JSON.stringify(start.slice(0, 80))}). An MCP message that large is almost certainly a fault; if the server's surface really is that large, raise the limit with --max-response-size MiB.`,
      ),
    );
  };
  transport.onStdinBacklog = (bytes) => {
    abort(
      new ServerError(
        `\`${shown}\` stopped reading its stdin during ${phase()} while it kept sending requests (${formatMiB(bytes)} of answers to it are waiting); an MCP stdio server must read every message it is sent.`,
      ),
    );
  };
  transport.onExit = (exit) => {
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    abort(new ServerError(`the server \`${shown}\` ${how} during ${phase()}.${tail()}`));
  };
  if (target.cwd !== undefined && !isDirectory(target.cwd)) {
    throw new UsageError(`--cwd ${target.cwd} is not an existing directory, so the server cannot be started in it.`);
  }
  try {
    await transport.start();
    options.onKillSwitch?.(() => transport.killNow());
  } catch (error) {
    throw spawnFailure(target, error);
  }
  const { Session } = await import("./session.ts");
  session = new Session(transport, options);
  if (early) session.abort(early);
  try {
    await negotiate(session, era, {
      exited: () => transport.exit !== undefined,
      onNote: options.onNote,
      onWarning: options.onWarning,
    });
  } catch (error) {
    await session.close();
    throw error;
  }
  return { session, transport: "stdio", killNow: () => transport.killNow() };
}

/** A session over HTTP, not yet opened: Streamable HTTP in either era, or legacy SSE. */
async function httpSession(
  target: Extract<Target, { kind: "http" }>,
  options: ConnectOptions,
  kind: "http" | "sse" | "modern",
): Promise<Session> {
  const { Session, SSEClientTransport, StreamableHTTPClientTransport } = await loadSdk();
  const requestInit: RequestInit = { headers: target.headers };
  const shownUrl = describeTarget(target);
  // The session does not exist yet when the transport is built; the fetch asks it late.
  let session: Session | undefined;
  const bounded = boundedFetch(
    {
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      shownUrl,
      phase: () => session?.currentPhase() ?? "initialize",
      fail: (error) => session?.abort(error),
      isPending: (id) => session?.isPending(id) ?? false,
      onData: () => session?.checkDeadline(),
    },
    options.wrapFetch?.(globalThis.fetch),
  );
  const fetch = kind === "modern" ? modernFetch(bounded, () => session?.paramHeaders) : bounded;
  const transport =
    kind === "sse"
      ? new SSEClientTransport(target.url, {
          requestInit,
          fetch,
          eventSourceInit: { fetch: withHeaders(target.headers, fetch) },
        })
      : new StreamableHTTPClientTransport(target.url, { requestInit, fetch });
  const opening = kind === "modern" ? "server/discover" : "initialize";
  session = new Session(transport, {
    ...options,
    explainTransportError: (error, phase) =>
      explainHttpFailure({ error, phase, status: httpStatus(error), shownUrl, hasAuth: hasAuth(target), opening }),
  });
  const opened = session;
  options.onKillSwitch?.(() => void opened.close());
  return opened;
}

/** The legacy era over HTTP: initialize over Streamable HTTP or SSE. */
async function openHttp(
  target: Extract<Target, { kind: "http" }>,
  options: ConnectOptions,
  kind: "http" | "sse",
): Promise<OpenSession> {
  const session = await httpSession(target, options, kind);
  try {
    await negotiate(session, "legacy");
  } catch (error) {
    await session.close();
    throw error;
  }
  return { session, transport: kind, killNow: () => void session.close() };
}

/**
 * The modern era over Streamable HTTP: the server/discover probe. In auto, anything but a
 * modern answer (a 4xx without a modern error in its body, a legacy error, silence past the
 * probe's grace, a failure) leaves the endpoint to the legacy attempt, undefined here: it
 * explains what is wrong with the endpoint as before eras were probed. With --era modern
 * those answers are errors that say what the server speaks.
 */
async function openModernHttp(
  target: Extract<Target, { kind: "http" }>,
  options: ConnectOptions,
  era: "auto" | "modern",
): Promise<OpenSession | undefined> {
  const session = await httpSession(target, options, "modern");
  const opened = { session, transport: "http" as const, killNow: () => void session.close() };
  if (era === "auto") options.onNote?.("--era auto: server/discover first, to learn the server's protocol era");
  const probe = session.probe();
  probe.catch(() => {});
  try {
    if (era === "modern") {
      let answer: Awaited<typeof probe>;
      try {
        answer = await session.within("server/discover", probe);
      } catch (error) {
        throw modernProbeFailure(error, target);
      }
      const verdict = classifyProbe(answer);
      if (verdict.kind === "modern") {
        session.adoptModern(verdict.version, verdict.result);
        return opened;
      }
      if (verdict.kind === "unsupported") throw noCommonVersionError(verdict.supported);
      throw legacyOnlyError(verdict.evidence);
    }
    const grace = Math.max(0, Math.min(PROBE_GRACE_MS, session.remainingMs() / 2));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const silent = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), grace);
    });
    let answer: Awaited<typeof probe> | undefined;
    try {
      answer = await session.within("server/discover", Promise.race([probe, silent]));
    } catch (error) {
      if (session.remainingMs() <= 0) throw error;
      options.onNote?.(`server/discover failed (${describeHttpFailure(error)}); trying legacy initialize`);
      await session.close();
      return undefined;
    } finally {
      clearTimeout(timer);
    }
    if (answer === undefined) {
      options.onNote?.(`no answer to server/discover after ${(grace / 1000).toFixed(1)} s; trying legacy initialize`);
      await session.close();
      return undefined;
    }
    const verdict = classifyProbe(answer);
    if (verdict.kind === "modern") {
      options.onNote?.(`the server answered server/discover: modern MCP ${verdict.version}`);
      session.adoptModern(verdict.version, verdict.result);
      session.legacyProbe = legacyProbeOf(target, options, session);
      return opened;
    }
    if (verdict.kind === "unsupported") throw noCommonVersionError(verdict.supported);
    options.onNote?.(`the server answered server/discover with ${verdict.evidence}: legacy MCP, sending initialize`);
    await session.close();
    return undefined;
  } catch (error) {
    await session.close();
    throw error;
  }
}

const LEGACY_PROBE_NOTES = {
  accepted:
    'a legacy initialize on a connection of its own was accepted: the server serves both eras, recorded as capture.legacy "accepted"',
  refused:
    'a legacy initialize on a connection of its own was refused as a modern-only server does: recorded as capture.legacy "refused"',
  unknown:
    "a legacy initialize on a connection of its own got no clear answer: whether the server serves the legacy era is unknown, nothing recorded",
} as const;

/**
 * In auto, once the server answered as a modern one: whether it accepts a legacy client too,
 * asked by a legacy initialize on a session of its own (same URL, headers and credentials),
 * with no spinner phase or kill switch of its own, bounded by LEGACY_PROBE_MS and by what is
 * left of --timeout. --era modern skips it: that flag speaks the modern era only.
 */
function legacyProbeOf(target: Extract<Target, { kind: "http" }>, options: ConnectOptions, main: Session): LegacyProbe {
  return new LegacyProbe(
    () => {
      const { onPhase: _phase, onKillSwitch: _kill, onWarning: _warning, ...quiet } = options;
      const timeoutMs = Math.max(1, Math.min(LEGACY_PROBE_MS, main.remainingMs()));
      return httpSession(target, { ...quiet, onNote: undefined, startedAt: Date.now(), timeoutMs }, "http");
    },
    (verdict) => options.onNote?.(LEGACY_PROBE_NOTES[verdict]),
  );
}

/** --era modern over HTTP: why the probe failed, the era named where the status says it. */
function modernProbeFailure(error: unknown, target: Extract<Target, { kind: "http" }>): unknown {
  const status = httpStatus(error);
  if (status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 404) {
    return legacyOnlyError(
      `HTTP ${status} and no MCP error in its body, as a legacy server answers a request outside a session`,
    );
  }
  return explainHttpError(error, target, "server/discover request");
}

function hasAuth(target: Extract<Target, { kind: "http" }>): boolean {
  return Object.keys(target.headers).some((h) => /^(authorization|x-api-key|api-key|cookie)$/i.test(h));
}

/** EventSource's GET carries no requestInit headers; add them (auth) through its fetch. */
function withHeaders(
  headers: Record<string, string>,
  base: (url: string | URL, init?: RequestInit) => Promise<Response>,
) {
  return (url: string | URL, init?: RequestInit) => {
    const merged = new Headers(init?.headers);
    for (const [k, v] of Object.entries(headers)) merged.set(k, v);
    return base(url, { ...init, headers: merged });
  };
}

function httpStatus(error: unknown): number | undefined {
  const code = (error as { code?: unknown })?.code;
  if (
    sdk &&
    (error instanceof sdk.StreamableHTTPError || error instanceof sdk.SseError) &&
    typeof code === "number" &&
    code > 0
  ) {
    return code;
  }
  const status = (error as { status?: unknown })?.status;
  return typeof status === "number" ? status : undefined;
}

function describeHttpFailure(error: unknown): string {
  const status = httpStatus(error);
  return status
    ? `HTTP ${status}`
    : cleanFetchMessage(errorMessage(error).replace(/^(SSE|Streamable HTTP) error: /, ""));
}

function explainHttpError(
  error: unknown,
  target: Extract<Target, { kind: "http" }>,
  request = target.transport === "sse" ? "SSE stream request" : "initialize request",
): unknown {
  if (error instanceof ServerError || error instanceof UsageError) return error;
  const url = target.url.href;
  const status = httpStatus(error);
  if (status === 401) {
    // `status` lets the capture name the OAuth authorization server (src/auth/cached.ts).
    const unauthorized = new ServerError(
      hasAuth(target)
        ? `${url} answered HTTP 401 Unauthorized: it rejected the credentials given. Check that the token passed with --bearer (or MCP_CONTRACT_BEARER) or --header is valid and not expired.`
        : `${url} answered HTTP 401 Unauthorized: the server needs credentials. Pass a token with --bearer TOKEN (or the MCP_CONTRACT_BEARER environment variable), or another header with --header "Name: value".`,
      { cause: error },
    );
    return Object.assign(unauthorized, { status: 401 });
  }
  if (status === 403) {
    const forbidden = new ServerError(
      hasAuth(target)
        ? `${url} answered HTTP 403 Forbidden: the credentials were accepted but do not allow this. Use a token with the needed scopes or permissions.`
        : `${url} answered HTTP 403 Forbidden. If the server needs credentials, pass them with --bearer TOKEN or --header "Name: value".`,
      { cause: error },
    );
    return Object.assign(forbidden, { status: 403 });
  }
  // A path like /sse is the legacy HTTP+SSE transport's endpoint: Streamable HTTP posts there and gets 404 or 405.
  const legacy = /\/sse\/?$/i.test(target.url.pathname)
    ? " The path looks like the legacy HTTP+SSE endpoint: capture it with --transport sse (or --transport auto, which falls back to it), or use the server's Streamable HTTP path, commonly /mcp."
    : "";
  if (status === 404) {
    const hint = legacy || " Check the URL; MCP servers commonly serve /mcp.";
    return new ServerError(`${url} answered HTTP 404 Not Found: no MCP endpoint at that path.${hint}`, {
      cause: error,
    });
  }
  if (status === 405 && legacy) {
    return new ServerError(`${url} answered HTTP 405 Method Not Allowed to the MCP ${request}.${legacy}`, {
      cause: error,
    });
  }
  if (status !== undefined) {
    return new ServerError(`${url} answered HTTP ${status} to the MCP ${request}: ${shortMessage(error)}`, {
      cause: error,
    });
  }
  const text = cleanFetchMessage(errorMessage(error));
  const code = networkCode(error);
  if (code === "ECONNREFUSED" || code === "ConnectionRefused") {
    return new ServerError(
      `cannot connect to ${url}: connection refused. Is the server running and listening on ${target.url.host}?`,
      { cause: error },
    );
  }
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return new ServerError(
      `cannot connect to ${url}: the host name ${target.url.hostname} does not resolve. Check the URL.`,
      { cause: error },
    );
  }
  if (/Unexpected content type/i.test(text)) {
    const type = /Unexpected content type: (.*)$/i.exec(text)?.[1] ?? "an unexpected content type";
    return new ServerError(
      `${url} answered with ${type}, not an MCP response: it is not an MCP endpoint. Check the URL's path; MCP servers commonly serve /mcp.`,
      { cause: error },
    );
  }
  if (code) return new ServerError(`cannot connect to ${url}: ${code} (${text}).`, { cause: error });
  return new ServerError(`talking to ${url} failed: ${text}`, { cause: error });
}

function shortMessage(error: unknown): string {
  const text = cleanFetchMessage(errorMessage(error).replace(/^(SSE|Streamable HTTP) error: /, ""));
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
