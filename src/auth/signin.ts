/**
 * The grants: authorization code with PKCE S256, the RFC 8707 resource and RFC 9207 iss
 * checked (oauth4webapi's validateAuthResponse), client credentials for CI, and refresh.
 * Each ends in a stored Credential; nothing here prints a token.
 */
import * as oauth from "oauth4webapi";
import { ServerError, UsageError } from "../errors.ts";
import { type ClientChoice, type ClientIdentity, clientAuthFor, describeOAuthError, resolveClient } from "./client.ts";
import { type Discovery, discoverIssuer } from "./discovery.ts";
import {
  type DpopKey,
  dpopFetch,
  generateDpopKey,
  jwkThumbprint,
  offersDpop,
  publicJwk,
  storedDpopKey,
} from "./dpop.ts";
import { AuthLimitError, type Deadline, requestOptions } from "./http.ts";
import { CALLBACK_PATH, openBrowser, readPasted, startCallback } from "./loopback.ts";
import { type Credential, saveCredential } from "./store.ts";

export interface SignInOptions extends ClientChoice {
  scope?: string;
  /** --port: fixed callback port; undefined picks one. */
  port?: number;
  open: boolean;
  /** How long to wait for the browser, ms. */
  waitMs: number;
  /** A line for the user (redacted by the caller). */
  say(text: string): void;
  /** The authorization URL, printed as is: it holds no secret, and redaction would mangle it. */
  showUrl(url: string): void;
  /** Secrets the sign-in comes to hold (the PKCE verifier, the authorization code): masked wherever printed. */
  hold?(values: string[]): void;
}

/** The scope to ask for: --scope, else the 401's `scope`, else everything the resource lists (MCP scope selection). */
export function chooseScope(discovery: Discovery, requested: string | undefined): string | undefined {
  if (requested !== undefined) return requested.trim() || undefined;
  if (discovery.probe.scope) return discovery.probe.scope;
  return discovery.scopesSupported.length ? discovery.scopesSupported.join(" ") : undefined;
}

export async function signInInteractive(discovery: Discovery, options: SignInOptions): Promise<Credential> {
  const { as } = discovery;
  if (!as.authorization_endpoint) {
    throw new ServerError(
      `${as.issuer} has no authorization endpoint, so there is no browser sign-in; use --client-credentials with a client registered for it.`,
    );
  }
  if (!as.code_challenge_methods_supported?.includes("S256")) {
    throw new ServerError(
      `${as.issuer} does not advertise PKCE with S256 (code_challenge_methods_supported), which MCP authorization requires; mcp-contract will not sign in without it. Ask the server's operator to enable PKCE.`,
    );
  }
  const scope = chooseScope(discovery, options.scope);
  // The state exists before the callback does: the callback accepts only the redirect that carries it.
  const state = oauth.generateRandomState();
  const callback = await startCallback(options.port ?? 0, options.port !== undefined, state, (reason) =>
    options.say(`ignored a request to ${CALLBACK_PATH}: ${reason}; still waiting for the browser.`),
  );
  const paste = readPasted(state, (line, reason) =>
    options.say(
      reason
        ? `that address is not this sign-in's answer: ${reason}. Paste the address of the tab this sign-in opened:`
        : `that is not the redirected address (expected ${callback.redirectUri}?code=…&state=…, or just its code=…&state=… part); got ${JSON.stringify(line.slice(0, 60))}. Paste it again:`,
    ),
  );
  try {
    // A fresh registration each sign-in: a client the server has since forgotten would strand the user in the browser.
    const identity = await resolveClient(as, options, callback.redirectUri, scope);
    // A key per sign-in when the server offers DPoP; the code is bound to it too (dpop_jkt, RFC 9449 §10).
    const key = offersDpop(as) ? generateDpopKey() : undefined;
    const verifier = oauth.generateRandomCodeVerifier();
    options.hold?.([verifier]);
    const authorize = new URL(as.authorization_endpoint);
    const params: Record<string, string> = {
      response_type: "code",
      client_id: identity.client.client_id,
      redirect_uri: callback.redirectUri,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      resource: discovery.resource,
      ...(scope ? { scope } : {}),
      ...(key ? { dpop_jkt: jwkThumbprint(publicJwk(key)) } : {}),
    };
    for (const [name, value] of Object.entries(params)) authorize.searchParams.set(name, value);

    const opened = options.open && (await openBrowser(authorize.href));
    options.say(
      opened
        ? `opened your browser to sign in to ${as.issuer}; if it did not open, visit:`
        : `sign in to ${as.issuer} by opening this address in a browser:`,
    );
    options.showUrl(authorize.href);
    options.say(
      `waiting for the browser at ${callback.redirectUri}. If the browser runs on another machine, forward the port (ssh -L ${callback.port}:127.0.0.1:${callback.port} HOST, with --port to fix it) or paste here the address it was redirected to:`,
    );
    const timeout = new Promise<never>((_, reject) => {
      setTimeout(
        () =>
          reject(
            new ServerError(
              `no answer from the browser within ${Math.round(options.waitMs / 1000)} s. Run \`mcp-contract auth --url ${discovery.url.href}\` again and finish the sign-in in the browser, or paste the redirected address at the prompt.`,
            ),
          ),
        options.waitMs,
      ).unref();
    });
    const returned = await Promise.race([callback.received, paste.pasted, timeout]);
    let parameters: URLSearchParams;
    try {
      parameters = oauth.validateAuthResponse(as, identity.client, returned, state);
      const code = parameters.get("code");
      if (code) options.hold?.([code]);
    } catch (error) {
      throw new ServerError(`the sign-in did not complete: ${describeOAuthError(error)}${issHint(error)}.`, {
        cause: error,
      });
    }
    const tokens = await tokenRequest("exchanging the authorization code", dpopHint(as, key), () =>
      oauth
        .authorizationCodeGrantRequest(
          as,
          identity.client,
          clientAuthFor(identity.clientAuth, identity.clientSecret),
          parameters,
          callback.redirectUri,
          verifier,
          { ...tokenOptions(as, key), additionalParameters: { resource: discovery.resource } },
        )
        .then((response) => oauth.processAuthorizationCodeResponse(as, identity.client, response)),
    );
    return store(discovery, identity, "authorization_code", tokens, scope, key, callback.redirectUri);
  } finally {
    paste.stop();
    callback.close();
  }
}

/** Non-interactive: the client credentials grant (RFC 6749 §4.4) with a client registered for CI. */
export async function signInClientCredentials(
  discovery: Discovery,
  options: Pick<SignInOptions, "clientId" | "clientSecret" | "scope">,
): Promise<Credential> {
  if (!options.clientId || !options.clientSecret) {
    throw new UsageError(
      "--client-credentials needs the id and secret of a client registered for it: pass --client-id and --client-secret, or set MCP_CONTRACT_CLIENT_ID and MCP_CONTRACT_CLIENT_SECRET.",
    );
  }
  const scope = chooseScope(discovery, options.scope);
  const identity = await resolveClient(discovery.as, options, undefined, scope);
  const key = offersDpop(discovery.as) ? generateDpopKey() : undefined;
  const tokens = await clientCredentialsGrant(discovery.as, identity, discovery.resource, scope, key);
  return store(discovery, identity, "client_credentials", tokens, scope, key);
}

async function clientCredentialsGrant(
  as: oauth.AuthorizationServer,
  identity: ClientIdentity,
  resource: string,
  scope: string | undefined,
  key: DpopKey | undefined,
  deadline?: Deadline,
): Promise<oauth.TokenEndpointResponse> {
  return tokenRequest("the client credentials grant", dpopHint(as, key), () =>
    oauth
      .clientCredentialsGrantRequest(
        as,
        identity.client,
        clientAuthFor(identity.clientAuth, identity.clientSecret),
        { resource, ...(scope ? { scope } : {}) },
        tokenOptions(as, key, deadline),
      )
      .then((response) => oauth.processClientCredentialsResponse(as, identity.client, response)),
  );
}

/**
 * A fresh access token for an expired credential: refresh token, or the client credentials grant
 * again. `deadline` (a capture's --timeout) bounds the whole of it, discovery included.
 */
export async function refreshCredential(credential: Credential, deadline?: Deadline): Promise<Credential> {
  const as = await discoverIssuer(credential.issuer, deadline);
  const identity: ClientIdentity = {
    client: { client_id: credential.clientId, token_endpoint_auth_method: credential.clientAuth },
    ...(credential.clientSecret ? { clientSecret: credential.clientSecret } : {}),
    clientAuth: credential.clientAuth,
    registration: credential.registration,
  };
  const scope = credential.scopes.join(" ") || undefined;
  const key = storedDpopKey(credential);
  let tokens: oauth.TokenEndpointResponse;
  if (credential.refreshToken) {
    const refreshToken = credential.refreshToken;
    tokens = await tokenRequest("refreshing the access token", dpopHint(as, key), () =>
      oauth
        .refreshTokenGrantRequest(
          as,
          identity.client,
          clientAuthFor(identity.clientAuth, identity.clientSecret),
          refreshToken,
          // The same key as the sign-in: a public client's refresh token is bound to it (RFC 9449 §5).
          { ...tokenOptions(as, key, deadline), additionalParameters: { resource: credential.resource } },
        )
        .then((response) => oauth.processRefreshTokenResponse(as, identity.client, response)),
    );
  } else if (credential.grant === "client_credentials" && credential.clientSecret) {
    tokens = await clientCredentialsGrant(as, identity, credential.resource, scope, key, deadline);
  } else {
    throw new ServerError(
      `the sign-in to ${credential.issuer} for ${credential.url} has expired and came with no refresh token. Sign in again with \`mcp-contract auth --url ${credential.url}\`.`,
    );
  }
  const next = toCredential(
    { ...credential, refreshToken: tokens.refresh_token ?? credential.refreshToken },
    tokens,
    scope,
    key,
  );
  saveCredential(next);
  return next;
}

/** oauth4webapi's options for a token request: with a fresh DPoP proof on it when the sign-in has a key. */
function tokenOptions(as: oauth.AuthorizationServer, key: DpopKey | undefined, deadline?: Deadline) {
  const options = requestOptions(tokenEndpoint(as), deadline);
  if (!key) return options;
  return { ...options, [oauth.customFetch]: dpopFetch(options[oauth.customFetch], key, "authorization") };
}

/** The token endpoint (discovery checked it is https, or http on this machine); oauth4webapi reports a missing one. */
function tokenEndpoint(as: oauth.AuthorizationServer): string {
  return as.token_endpoint ?? as.issuer;
}

/**
 * What to add when a token request without a proof is refused for want of DPoP: the server
 * offers DPoP with algorithms we do not sign with (or does not say it offers it at all).
 */
function dpopHint(as: oauth.AuthorizationServer, key: DpopKey | undefined): string {
  if (key) return "";
  const algs = as.dpop_signing_alg_values_supported;
  return ` The authorization server requires DPoP proofs (RFC 9449); mcp-contract signs them with ES256 only, and the server's metadata ${Array.isArray(algs) && algs.length ? `offers ${algs.join(", ")}` : "does not offer DPoP (dpop_signing_alg_values_supported)"}. Ask its operator to offer ES256 for DPoP.`;
}

async function tokenRequest<T>(what: string, dpopAdvice: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    // Too slow or too large: said as it is (the message names the token endpoint), never as a grant to renew.
    if (error instanceof AuthLimitError) throw error;
    const invalidGrant = error instanceof oauth.ResponseBodyError && error.error === "invalid_grant";
    const wantsDpop =
      error instanceof oauth.ResponseBodyError && ["invalid_dpop_proof", "use_dpop_nonce"].includes(error.error);
    throw new ServerError(
      `${what} failed: ${describeOAuthError(error)}.${invalidGrant ? " The grant is no longer valid (revoked, expired or already used): sign in again with `mcp-contract auth --url URL`." : ""}${wantsDpop ? dpopAdvice : ""}`,
      { cause: error },
    );
  }
}

function issHint(error: unknown): string {
  const text = error instanceof Error ? error.message : "";
  return /"iss"/.test(text)
    ? " (RFC 9207: the response did not come from the authorization server the sign-in was sent to, a sign of a mix-up attack or a misconfigured server; nothing was stored. Check that --url is the server you meant, or tell its operator)"
    : "";
}

function store(
  discovery: Discovery,
  identity: ClientIdentity,
  grant: Credential["grant"],
  tokens: oauth.TokenEndpointResponse,
  scope: string | undefined,
  key: DpopKey | undefined,
  redirectUri?: string,
): Credential {
  const base = {
    version: 1 as const,
    issuer: discovery.issuer,
    resource: discovery.resource,
    url: discovery.url.href,
    grant,
    registration: identity.registration,
    clientId: identity.client.client_id,
    ...(identity.clientSecret ? { clientSecret: identity.clientSecret } : {}),
    clientAuth: identity.clientAuth,
    ...(redirectUri ? { redirectUri } : {}),
    ...(tokens.refresh_token ? { refreshToken: tokens.refresh_token } : {}),
    createdAt: Date.now(),
  };
  const credential = toCredential(base, tokens, scope, key);
  saveCredential(credential);
  return credential;
}

function toCredential(
  base: Omit<Credential, "accessToken" | "expiresAt" | "scopes"> & Partial<Credential>,
  tokens: oauth.TokenEndpointResponse,
  requestedScope: string | undefined,
  key: DpopKey | undefined,
): Credential {
  const type = tokens.token_type.toLowerCase();
  if (type === "dpop" && !key) {
    throw new ServerError(
      "the authorization server issued a DPoP-bound token to a request that carried no DPoP proof (its metadata does not offer ES256 in dpop_signing_alg_values_supported, the one algorithm mcp-contract signs proofs with); nothing was stored. Ask the server's operator to offer ES256 for DPoP.",
    );
  }
  if (type !== "dpop" && type !== "bearer") {
    throw new ServerError(
      `the authorization server issued a ${tokens.token_type} token; mcp-contract sends Bearer and DPoP tokens only.`,
    );
  }
  const scopes = (tokens.scope ?? requestedScope ?? "").split(/\s+/).filter(Boolean);
  // A Bearer answer to a request with a proof (the server chose not to bind it) keeps no key.
  const { expiresAt: _old, dpop: _key, ...rest } = base;
  return {
    ...rest,
    ...(type === "dpop" ? { dpop: key } : {}),
    accessToken: tokens.access_token,
    obtainedAt: Date.now(),
    ...(typeof tokens.expires_in === "number" ? { expiresAt: Date.now() + tokens.expires_in * 1000 } : {}),
    scopes: [...new Set(scopes)].sort(),
  } as Credential;
}
