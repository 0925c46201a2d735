/**
 * Discovery, as MCP authorization (2025-06-18 onwards, 2026-07-28) has a client do it: ask the
 * server, read `resource_metadata` from its 401's WWW-Authenticate, else try the path-specific
 * then the root `/.well-known/oauth-protected-resource` (RFC 9728); then the authorization
 * server's metadata by RFC 8414 and OpenID Connect discovery, path-inserted and appended forms.
 * oauth4webapi builds and checks every metadata request; this module only orders them.
 */
import * as oauth from "oauth4webapi";
import { errorMessage, ServerError } from "../errors.ts";
import {
  AuthLimitError,
  authFetch,
  type Deadline,
  describeNetworkError,
  isLoopback,
  requestOptions,
  timedFetch,
} from "./http.ts";
import { bearerHints } from "./www-authenticate.ts";

export interface Discovery {
  /** The MCP server URL (--url). */
  url: URL;
  /** The probe's status and what its WWW-Authenticate said. */
  probe: { status: number | undefined; resourceMetadata?: string; scope?: string };
  /** Where the protected resource metadata came from, or undefined when the server publishes none. */
  resourceMetadataUrl?: string;
  resourceMetadata?: oauth.ResourceServer;
  /** The RFC 8707 resource: the metadata's `resource`, else the server URL without its fragment. */
  resource: string;
  issuer: string;
  /** The URL the authorization server metadata was read from. */
  asMetadataUrl: string;
  as: oauth.AuthorizationServer;
  /** Scopes the resource or the authorization server says it supports. */
  scopesSupported: string[];
}

/** Every step tried, for the message when none works. */
type Tried = string[];

export async function discover(url: URL, deadline?: Deadline): Promise<Discovery> {
  assertSecure(url, "the MCP server");
  const probe = await probeServer(url, deadline);
  const tried: Tried = [];
  const prm = await findResourceMetadata(url, probe.resourceMetadata, tried, deadline);
  const resource = prm?.metadata.resource ?? withoutFragment(url);
  // Without resource metadata (servers of the 2025-03-26 spec), the server's origin is the authorization server.
  const issuers = prm?.metadata.authorization_servers?.length ? prm.metadata.authorization_servers : [url.origin];
  const issuer = issuers[0] as string;
  const found = await findAuthorizationServer(issuer, tried, deadline);
  if (!found) {
    const open = probe.status !== undefined && probe.status !== 401 && probe.status !== 403;
    const why = prm
      ? `its protected resource metadata (${prm.url}) names the authorization server ${issuer}, but no authorization server metadata was found there`
      : `it publishes no OAuth protected resource metadata and its origin has no authorization server metadata${open ? `; it answered HTTP ${probe.status} to a request without credentials, so it may need no sign-in at all` : ""}`;
    throw new ServerError(
      `cannot sign in to ${url.href}: ${why} (tried ${tried.join(", ")}). If the server takes another kind of credential, pass it with --bearer TOKEN or --header "Name: value".`,
    );
  }
  const scopesSupported = prm?.metadata.scopes_supported?.length
    ? prm.metadata.scopes_supported
    : (found.as.scopes_supported ?? []);
  return {
    url,
    probe,
    ...(prm ? { resourceMetadataUrl: prm.url, resourceMetadata: prm.metadata } : {}),
    resource,
    issuer: found.as.issuer,
    asMetadataUrl: found.url,
    as: found.as,
    scopesSupported,
  };
}

/** Only the authorization server's metadata, for a refresh: the issuer is already known. */
export async function discoverIssuer(issuer: string, deadline?: Deadline): Promise<oauth.AuthorizationServer> {
  const tried: Tried = [];
  const found = await findAuthorizationServer(issuer, tried, deadline);
  if (!found) {
    throw new ServerError(
      `cannot refresh the sign-in: the authorization server ${issuer} no longer publishes its metadata (tried ${tried.join(", ")}). Sign in again with \`mcp-contract auth --url URL\`, or check that the server is up.`,
    );
  }
  return found.as;
}

export function assertSecure(url: URL, what: string): void {
  if (url.protocol === "https:" || (url.protocol === "http:" && isLoopback(url))) return;
  throw new ServerError(
    `${what} ${url.href} uses ${url.protocol}// and is not on this machine: OAuth over plain http would send codes and tokens in the clear. Use its https:// address.`,
  );
}

/** An unauthenticated request, as any MCP client's first one: its 401 says where to look. */
async function probeServer(url: URL, deadline?: Deadline): Promise<Discovery["probe"]> {
  let response: Response;
  try {
    response = await timedFetch(
      url,
      {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "ping" }),
      },
      deadline,
    );
  } catch (error) {
    throw new ServerError(
      `cannot reach ${url.href} to find how it wants clients to sign in: ${describeNetworkError(error)}. Check the URL and that the server is running.`,
      { cause: error },
    );
  }
  await response.body?.cancel().catch(() => {});
  const hints = response.status === 401 ? bearerHints(response.headers.get("www-authenticate")) : {};
  return { status: response.status, ...hints };
}

async function findResourceMetadata(
  url: URL,
  fromHeader: string | undefined,
  tried: Tried,
  deadline?: Deadline,
): Promise<{ url: string; metadata: oauth.ResourceServer } | undefined> {
  const candidates: string[] = [];
  if (fromHeader) {
    try {
      candidates.push(new URL(fromHeader, url).href);
    } catch {
      // An unusable header value: fall back to the well-known locations.
    }
  }
  const path = url.pathname.replace(/\/$/, "");
  if (path) candidates.push(new URL(`/.well-known/oauth-protected-resource${path}`, url.origin).href);
  candidates.push(new URL("/.well-known/oauth-protected-resource", url.origin).href);
  for (const candidate of [...new Set(candidates)]) {
    tried.push(candidate);
    const target = new URL(candidate);
    assertSecure(target, "the protected resource metadata");
    let response: Response;
    try {
      response = await authFetch(deadline)(target, { headers: { accept: "application/json" }, redirect: "manual" });
    } catch (error) {
      // A location that refuses connections is one without metadata; one that floods or stalls is a fault to report.
      if (error instanceof AuthLimitError) throw error;
      continue;
    }
    if (response.status !== 200) continue;
    const metadata = (await response
      .clone()
      .json()
      .catch(() => undefined)) as { resource?: unknown } | undefined;
    if (typeof metadata?.resource !== "string") continue;
    assertResourceMatches(metadata.resource, url, candidate);
    // oauth4webapi validates the document; the resource it expects is the one just checked.
    const checked = await oauth
      .processResourceDiscoveryResponse(new URL(metadata.resource), response)
      .catch((error: unknown) => {
        throw new ServerError(
          `the protected resource metadata at ${candidate} is invalid: ${errorMessage(error)}. The server's operator must fix it (RFC 9728).`,
          { cause: error },
        );
      });
    return { url: candidate, metadata: checked };
  }
  return undefined;
}

/**
 * The metadata's resource must be this server or a prefix of its URL on the same origin
 * (RFC 9728 §3.3, as MCP clients apply it): otherwise a token could be minted for another resource.
 */
function assertResourceMatches(resource: string, url: URL, where: string): void {
  let parsed: URL;
  try {
    parsed = new URL(resource);
  } catch {
    parsed = new URL("invalid:");
  }
  const prefix = parsed.pathname.endsWith("/") ? parsed.pathname : `${parsed.pathname}/`;
  const path = url.pathname.endsWith("/") ? url.pathname : `${url.pathname}/`;
  if (parsed.origin === url.origin && path.startsWith(prefix)) return;
  throw new ServerError(
    `the protected resource metadata at ${where} is for ${JSON.stringify(resource)}, not for ${url.href}; signing in with it could give a token meant for another server. Check the URL, or ask the server's operator to fix its metadata.`,
  );
}

/** RFC 8414 path-inserted, OIDC path-inserted, OIDC appended; for an issuer without a path the first and last. */
async function findAuthorizationServer(
  issuer: string,
  tried: Tried,
  deadline?: Deadline,
): Promise<{ url: string; as: oauth.AuthorizationServer } | undefined> {
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(issuer);
  } catch {
    throw new ServerError(`the authorization server ${JSON.stringify(issuer)} named by the server is not a URL.`);
  }
  assertSecure(issuerUrl, "the authorization server");
  const options = requestOptions(issuerUrl, deadline);
  const path = issuerUrl.pathname.replace(/\/$/, "");
  const attempts: { url: string; request: () => Promise<Response> }[] = [
    {
      url: new URL(`/.well-known/oauth-authorization-server${path}`, issuerUrl.origin).href,
      request: () => oauth.discoveryRequest(issuerUrl, { ...options, algorithm: "oauth2" }),
    },
  ];
  if (path) {
    const inserted = new URL(`/.well-known/openid-configuration${path}`, issuerUrl.origin);
    attempts.push({
      url: inserted.href,
      request: () => authFetch(deadline)(inserted, { headers: { accept: "application/json" }, redirect: "manual" }),
    });
  }
  attempts.push({
    url: new URL(`${path}/.well-known/openid-configuration`, issuerUrl.origin).href,
    request: () => oauth.discoveryRequest(issuerUrl, { ...options, algorithm: "oidc" }),
  });
  for (const attempt of attempts) {
    tried.push(attempt.url);
    let response: Response;
    try {
      response = await attempt.request();
    } catch (error) {
      if (error instanceof AuthLimitError) throw error;
      continue;
    }
    if (response.status !== 200) continue;
    let as: oauth.AuthorizationServer;
    try {
      as = await oauth.processDiscoveryResponse(issuerUrl, response);
    } catch (error) {
      throw new ServerError(
        `the authorization server metadata at ${attempt.url} is invalid: ${errorMessage(error)}. Its issuer must be exactly ${issuer} (RFC 8414 §3.3); the operator must fix it.`,
        { cause: error },
      );
    }
    assertEndpointsSecure(as);
    return { url: attempt.url, as };
  }
  return undefined;
}

/** The endpoints the sign-in sends something to, and what would travel in the clear over plain http. */
const ENDPOINTS = {
  authorization_endpoint: "your sign-in (the browser goes there)",
  token_endpoint: "the authorization code, the tokens and any client secret",
  registration_endpoint: "the client registration",
  revocation_endpoint: "the tokens being revoked",
} as const;

/**
 * An https issuer may still name plain-http endpoints (a misconfiguration, or an attacker who
 * controls the metadata), and oauth4webapi's http switch is per request, not per endpoint: so
 * every endpoint is checked here, once, before anything is sent to any of them.
 */
function assertEndpointsSecure(as: oauth.AuthorizationServer): void {
  for (const [field, carries] of Object.entries(ENDPOINTS)) {
    const value = as[field];
    if (value === undefined) continue;
    let url: URL | undefined;
    try {
      url = new URL(String(value));
    } catch {}
    if (url && (url.protocol === "https:" || (url.protocol === "http:" && isLoopback(url)))) continue;
    throw new ServerError(
      `the authorization server ${as.issuer} names ${JSON.stringify(value)} as its ${field}, which is not an https:// address (plain http:// is accepted only on this machine: 127.0.0.0/8, ::1, localhost); using it would send ${carries} unprotected, so nothing was sent. Its operator must publish https:// endpoints; check that --url is the server you meant.`,
    );
  }
}

function withoutFragment(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = "";
  return copy.href;
}
