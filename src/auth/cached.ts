/**
 * What captures (snapshot, check, lint) take from the sign-in store: the token for a --url
 * given no credentials, refreshed when expired, and, when such a server answers 401, what
 * discovery finds, so that the error names the authorization server and the command to run.
 * Loaded for HTTP targets only; the OAuth client itself (oauth4webapi) loads only to refresh or explain.
 */
import type { Target } from "../connect/target.ts";
import { errorMessage, ServerError, UsageError } from "../errors.ts";
import { type DpopKey, dpopFetch, storedDpopKey } from "./dpop.ts";
import { AuthLimitError, type Deadline, deadlineIn } from "./limits.ts";
import { type Credential, findCredential, readCredential, withLock } from "./store.ts";

export interface CachedAuthorization {
  token: string;
  scopes: string[];
  issuer: string;
  /** The key a DPoP-bound token is bound to (RFC 9449): each request carries a proof signed with it. */
  dpop?: DpopKey;
  /** Every secret the stored sign-in holds (the tokens, a refreshed refresh token, the client secret): masked wherever printed. */
  secrets: string[];
}

/**
 * The capture's --timeout, in ms: a refresh (waiting for another process's, discovery, the token
 * request) must fit in it, like the capture itself. The auth command's own requests keep 30 s each.
 */
function refreshDeadline(timeoutMs: number | undefined): Deadline | undefined {
  if (timeoutMs === undefined) return undefined;
  return deadlineIn(timeoutMs, `the --timeout of ${Number((timeoutMs / 1000).toFixed(3))} s`);
}

/** The stored token for this server, refreshed if it has expired; undefined when there is no sign-in. */
export async function cachedAuthorization(url: URL, timeoutMs?: number): Promise<CachedAuthorization | undefined> {
  const found = findCredential(url);
  if (!found) return undefined;
  let credential = found.credential;
  if (isExpired(credential)) {
    const stale = credential.accessToken;
    try {
      // Refreshed by whoever held the lock before us: use theirs while it is still valid at all.
      credential = await renewUnderLock(
        found,
        (current) =>
          (current.accessToken !== stale && (current.expiresAt ?? Number.POSITIVE_INFINITY) > Date.now()) ||
          !isExpired(current),
        refreshDeadline(timeoutMs),
      );
    } catch (error) {
      throw refreshFailed(url, credential, error);
    }
  }
  return authorizationOf(credential);
}

/**
 * Why a refresh failed, with the fix that fits: a store or disk problem stays a usage error (exit
 * 2); a slow or flooding authorization server says so and to retry; a refused grant, sign in again.
 */
function refreshFailed(url: URL, credential: Credential, error: unknown): Error {
  const reason = errorMessage(error).replace(/\.$/, "");
  if (error instanceof UsageError) {
    return new UsageError(`the stored sign-in for ${url.href} had expired; ${reason}.`, { cause: error });
  }
  if (error instanceof AuthLimitError) {
    return new ServerError(
      `the stored sign-in for ${url.href} has expired and could not be refreshed at ${credential.issuer}: ${error.fact}. ${error.advice}; the stored sign-in was not changed.`,
      { cause: error },
    );
  }
  return new ServerError(
    `the stored sign-in for ${url.href} has expired and could not be refreshed: ${reason}. Sign in again with \`mcp-contract auth --url ${url.href}\`.`,
    { cause: error },
  );
}

/**
 * After the server answered 401 to the stored token `used` though it had not expired (revoked,
 * or the server restarted and forgot it): a new token, when the sign-in can get one without a
 * person (a refresh token, or client credentials), or another process already got one; else
 * undefined, and the 401 is explained as before. Asked once per capture.
 */
export async function renewRejected(
  url: URL,
  used: CachedAuthorization,
  timeoutMs?: number,
): Promise<CachedAuthorization | undefined> {
  const found = findCredential(url);
  if (!found) return undefined;
  const { refreshToken, grant } = found.credential;
  if (!refreshToken && grant !== "client_credentials") return undefined;
  try {
    const credential = await renewUnderLock(
      found,
      (current) => current.accessToken !== used.token && !isExpired(current),
      refreshDeadline(timeoutMs),
    );
    return credential.accessToken === used.token ? undefined : authorizationOf(credential);
  } catch (error) {
    // A full disk or an unsafe store, a slow or flooding server: said as such.
    if (error instanceof UsageError || error instanceof AuthLimitError)
      throw refreshFailed(url, found.credential, error);
    // A refused refresh leaves the 401's own explanation: sign in again.
    return undefined;
  }
}

/**
 * The credential re-read under the sign-in's lock, kept when `usable` says so (another process
 * renewed it meanwhile), else refreshed and stored. One refresh at a time per sign-in: refresh
 * tokens rotate, so a second, parallel refresh (check --all, captures in parallel CI jobs on
 * one machine) would spend a used one.
 */
function renewUnderLock(
  found: { path: string; credential: Credential },
  usable: (current: Credential) => boolean,
  deadline: Deadline | undefined,
): Promise<Credential> {
  return withLock(
    found.path,
    async () => {
      const current = readCredential(found.path) ?? found.credential;
      if (usable(current)) return current;
      const { refreshCredential } = await import("./signin.ts");
      return refreshCredential(current, deadline);
    },
    deadline,
  );
}

function authorizationOf(credential: Credential): CachedAuthorization {
  const dpop = storedDpopKey(credential);
  return {
    token: credential.accessToken,
    scopes: credential.scopes,
    issuer: credential.issuer,
    ...(dpop ? { dpop } : {}),
    secrets: [credential.accessToken, credential.refreshToken, credential.clientSecret, dpop?.jwk.d].filter(
      (s): s is string => typeof s === "string" && s !== "",
    ),
  };
}

/**
 * Whether the access token is expired, or will be within a minute (the time a capture may take);
 * for a token that lives less than two minutes, within half its lifetime.
 */
export function isExpired(credential: Credential, now = Date.now()): boolean {
  const { expiresAt, obtainedAt } = credential;
  if (expiresAt === undefined) return false;
  const margin = obtainedAt !== undefined ? Math.min(60_000, Math.max(0, expiresAt - obtainedAt) / 2) : 60_000;
  return expiresAt - margin <= now;
}

/** How long discovery may take, in all, when it only improves an error message. */
const HINT_TIMEOUT_MS = 5_000;

/**
 * A 401 from a server: with a stored token, say it was rejected; without one, find the
 * authorization server and say how to sign in (or, in CI, how to pass a token). When the
 * server publishes no OAuth metadata, the original message (pass --bearer) stands.
 */
export async function explainUnauthorized(
  url: URL,
  used: CachedAuthorization | undefined,
  original: Error,
): Promise<Error> {
  const signIn = `mcp-contract auth --url ${url.href}`;
  if (used) {
    return new ServerError(
      `${url.href} answered HTTP 401 Unauthorized to the stored OAuth ${used.dpop ? "DPoP-bound token and its proof" : "token"} (signed in to ${used.issuer}${used.scopes.length ? ` with scopes ${used.scopes.join(" ")}` : ""}): it was revoked, or the server wants other scopes. Sign in again with \`${signIn}\`${used.scopes.length ? " (choose scopes with --scope)" : ""}.`,
      { cause: original },
    );
  }
  let issuer: string;
  let scope: string | undefined;
  try {
    const { discover } = await import("./discovery.ts");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("discovery took too long")), HINT_TIMEOUT_MS);
    });
    const found = await Promise.race([
      discover(url, deadlineIn(HINT_TIMEOUT_MS, `${HINT_TIMEOUT_MS / 1000} s`)),
      late,
    ]).finally(() => clearTimeout(timer));
    issuer = found.issuer;
    scope = found.probe.scope;
  } catch {
    return original;
  }
  return new ServerError(
    `${url.href} answered HTTP 401 Unauthorized: it needs an OAuth sign-in with the authorization server ${issuer}${scope ? ` (scope ${scope})` : ""}. Sign in once with \`${signIn}\`, and snapshot, check and lint use the stored token from then on. In CI, run \`${signIn} --client-credentials\` with MCP_CONTRACT_CLIENT_ID and MCP_CONTRACT_CLIENT_SECRET set to a client registered for it, or pass a token with --bearer TOKEN (or MCP_CONTRACT_BEARER).`,
    { cause: original },
  );
}

/** Whether a target may take a stored token: an HTTP one given no Authorization header (--bearer, --header). */
export function takesStoredToken(target: Target): target is Extract<Target, { kind: "http" }> {
  return target.kind === "http" && !Object.keys(target.headers).some((name) => name.toLowerCase() === "authorization");
}

/**
 * The target with the stored sign-in's token as its Authorization header, when there is one.
 * `timeoutMs` is the capture's --timeout: refreshing an expired token must fit in it.
 */
export async function withStoredToken(
  target: Target,
  timeoutMs?: number,
): Promise<{ target: Target; used: CachedAuthorization | undefined }> {
  if (!takesStoredToken(target)) return { target, used: undefined };
  const used = await cachedAuthorization(target.url, timeoutMs);
  return { target: withToken(target, used), used };
}

/** The target with this token as its Authorization header: `DPoP TOKEN` for a DPoP-bound one (RFC 9449 §7.1). */
export function withToken(target: Target, used: CachedAuthorization | undefined): Target {
  if (!used || target.kind !== "http") return target;
  return { ...target, headers: { ...target.headers, Authorization: `${used.dpop ? "DPoP" : "Bearer"} ${used.token}` } };
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** The capture's fetch for this sign-in: a fresh DPoP proof on every request when the token is DPoP-bound. */
export function fetchFor(used: CachedAuthorization | undefined): ((base: Fetch) => Fetch) | undefined {
  const key = used?.dpop;
  if (!key) return undefined;
  // One nonce store for the capture: a server's nonce learnt by the era probe serves the session too.
  const nonces = new Map<string, string>();
  return (base) => dpopFetch(base, key, "resource", nonces);
}

/** The HTTP status a capture failed on, when it failed on one. */
function statusOf(error: unknown): unknown {
  return (error as { status?: unknown } | undefined)?.status;
}

/** Whether a capture failed on HTTP 401. */
export function isUnauthorized(error: unknown): boolean {
  return statusOf(error) === 401;
}

/** A capture's failure: a 401 explained with what OAuth discovery finds; anything else as it was. */
export async function explainCaptureFailure(
  error: unknown,
  original: Target,
  used: CachedAuthorization | undefined,
): Promise<unknown> {
  if (original.kind !== "http") return error;
  if (statusOf(error) === 403 && used) return explainInsufficientScope(original.url, used, error as Error);
  if (!isUnauthorized(error) || !(used || takesStoredToken(original))) return error;
  return explainUnauthorized(original.url, used, error as Error);
}

/**
 * A 403 to the stored token: the MCP scope challenge (`insufficient_scope` with the scope the
 * server wants in WWW-Authenticate), read by asking again with the token, becomes the --scope to sign in with.
 */
async function explainInsufficientScope(url: URL, used: CachedAuthorization, original: Error): Promise<Error> {
  let wanted: string | undefined;
  try {
    const [{ timedFetch }, { bearerHints }] = await Promise.all([import("./http.ts"), import("./www-authenticate.ts")]);
    const deadline = deadlineIn(HINT_TIMEOUT_MS, `${HINT_TIMEOUT_MS / 1000} s`);
    const direct: Fetch = (u, init) => timedFetch(u, init, deadline);
    const response = await (fetchFor(used)?.(direct) ?? direct)(url, {
      method: "POST",
      headers: {
        authorization: `${used.dpop ? "DPoP" : "Bearer"} ${used.token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "ping" }),
    });
    await response.body?.cancel().catch(() => {});
    if (response.status === 403) wanted = bearerHints(response.headers.get("www-authenticate")).scope;
  } catch {
    // The hint is optional; the advice below stands without it.
  }
  const scopes = [...new Set([...used.scopes, ...(wanted ?? "").split(/\s+/).filter(Boolean)])].join(" ");
  return new ServerError(
    `${url.href} answered HTTP 403 Forbidden to the stored OAuth token (signed in to ${used.issuer} with ${used.scopes.length ? `scopes ${used.scopes.join(" ")}` : "no scopes"}): ${wanted ? `it asks for scope ${wanted}` : "the token does not allow listing the server's surface"}. Sign in again with more scopes: \`mcp-contract auth --url ${url.href} --scope "${wanted ? scopes : "SCOPES"}"\`${wanted ? "" : " (`mcp-contract auth --check` lists the scopes the server supports)"}.`,
    { cause: original },
  );
}
