/**
 * Who mcp-contract is to an authorization server, in the order MCP authorization prefers:
 * a client registered in advance (--client-id, --client-secret), else a Client ID Metadata
 * Document (its HTTPS URL is the client id) when the server supports those and one is
 * given, else dynamic client registration (RFC 7591) as a native application.
 */
import * as oauth from "oauth4webapi";
import { errorMessage, ServerError, UsageError } from "../errors.ts";
import { VERSION } from "../version.ts";
import { AuthLimitError, deadlineIn, isLoopback, requestOptions } from "./http.ts";
import type { Registration } from "./store.ts";

export interface ClientIdentity {
  client: oauth.Client;
  clientSecret?: string;
  /** The token endpoint authentication method used. */
  clientAuth: string;
  registration: Registration;
}

export interface ClientChoice {
  clientId?: string;
  clientSecret?: string;
  /** An HTTPS URL serving mcp-contract's client metadata, for servers that support CIMD. */
  clientMetadataUrl?: string;
}

/** What would happen, without registering: for `auth --check`. */
export function plannedRegistration(as: oauth.AuthorizationServer, choice: ClientChoice): Registration | undefined {
  if (choice.clientId) return "pre-registered";
  if (as.client_id_metadata_document_supported === true && choice.clientMetadataUrl) return "metadata-document";
  if (as.registration_endpoint) return "dynamic";
  return undefined;
}

export async function resolveClient(
  as: oauth.AuthorizationServer,
  choice: ClientChoice,
  redirectUri: string | undefined,
  scope: string | undefined,
): Promise<ClientIdentity> {
  const plan = plannedRegistration(as, choice);
  if (plan === "pre-registered") {
    const clientId = choice.clientId as string;
    const method = secretMethod(as, choice.clientSecret);
    return {
      client: { client_id: clientId, token_endpoint_auth_method: method },
      ...(choice.clientSecret ? { clientSecret: choice.clientSecret } : {}),
      clientAuth: method,
      registration: "pre-registered",
    };
  }
  if (plan === "metadata-document") {
    const clientId = choice.clientMetadataUrl as string;
    let parsed: URL | undefined;
    try {
      parsed = new URL(clientId);
    } catch {}
    // The client id it becomes must be an https URL with a path; http only on this machine, for testing.
    if (!parsed || parsed.pathname === "/" || !(parsed.protocol === "https:" || isLoopback(parsed))) {
      throw new UsageError(
        `--client-metadata-url must be an https:// URL with a path (the client id it becomes must be one), got ${clientId}.`,
      );
    }
    return {
      client: { client_id: clientId, token_endpoint_auth_method: "none" },
      clientAuth: "none",
      registration: "metadata-document",
    };
  }
  if (plan === "dynamic") {
    if (!redirectUri) {
      throw new UsageError(
        `${as.issuer} registers clients dynamically, which needs a browser sign-in; for the client credentials grant pass the id and secret of a client registered for CI with --client-id and --client-secret (or MCP_CONTRACT_CLIENT_ID and MCP_CONTRACT_CLIENT_SECRET).`,
      );
    }
    return register(as, redirectUri, scope);
  }
  throw new ServerError(
    `${as.issuer} supports neither dynamic client registration nor client ID metadata documents${as.client_id_metadata_document_supported ? " (it supports metadata documents: pass --client-metadata-url URL of one you host)" : ""}. Register mcp-contract with the server's operator, with the redirect URI http://127.0.0.1:PORT/callback (fix PORT with --port), and pass --client-id ID (and --client-secret if one is issued).`,
  );
}

/** The client authentication method for a secret: none without one, else what the server supports. */
function secretMethod(as: oauth.AuthorizationServer, secret: string | undefined): string {
  if (!secret) return "none";
  const supported = as.token_endpoint_auth_methods_supported;
  if (supported?.includes("client_secret_post") && !supported.includes("client_secret_basic")) {
    return "client_secret_post";
  }
  return "client_secret_basic";
}

/** oauth4webapi's ClientAuth for a stored method. */
export function clientAuthFor(method: string, secret: string | undefined): oauth.ClientAuth {
  if (method === "client_secret_post" && secret) return oauth.ClientSecretPost(secret);
  if (method === "client_secret_basic" && secret) return oauth.ClientSecretBasic(secret);
  return oauth.None();
}

async function register(as: oauth.AuthorizationServer, redirectUri: string, scope?: string): Promise<ClientIdentity> {
  let registered: Awaited<ReturnType<typeof oauth.processDynamicClientRegistrationResponse>>;
  try {
    const response = await oauth.dynamicClientRegistrationRequest(
      as,
      {
        client_name: "mcp-contract",
        software_id: "mcp-contract",
        software_version: VERSION,
        application_type: "native",
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        ...(scope ? { scope } : {}),
      },
      requestOptions(String(as.registration_endpoint)),
    );
    registered = await oauth.processDynamicClientRegistrationResponse(response);
  } catch (error) {
    if (error instanceof AuthLimitError) throw error;
    throw new ServerError(
      `dynamic client registration at ${as.registration_endpoint} failed: ${describeOAuthError(error)}. If the server does not let clients register themselves, register mcp-contract with its operator and pass --client-id ID.`,
      { cause: error },
    );
  }
  const secret = typeof registered.client_secret === "string" ? registered.client_secret : undefined;
  const method =
    typeof registered.token_endpoint_auth_method === "string"
      ? registered.token_endpoint_auth_method
      : secret
        ? "client_secret_basic"
        : "none";
  return {
    client: { client_id: registered.client_id, token_endpoint_auth_method: method },
    ...(secret ? { clientSecret: secret } : {}),
    clientAuth: method,
    registration: "dynamic",
  };
}

/** An oauth4webapi error as a clause: the server's error code and description when it sent one. */
export function describeOAuthError(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError) {
    const description = error.error_description ? `: ${error.error_description}` : "";
    return `the server answered ${error.error}${description}`;
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError)
    return `the server refused the request (HTTP ${error.status})`;
  const text = errorMessage(error).replace(/"response" /g, "the response ");
  return text.replace(/\.$/, "");
}

/** Revoke a sign-in's refresh and access tokens (RFC 7009) where the server offers it; false when it does not. */
export async function revokeTokens(credential: {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  clientAuth: string;
  accessToken: string;
  refreshToken?: string;
}): Promise<boolean> {
  const { discoverIssuer } = await import("./discovery.ts");
  // Logout does not wait long for a courtesy: the file is gone already.
  const deadline = deadlineIn(5_000, "5 s");
  const as = await discoverIssuer(credential.issuer, deadline);
  if (!as.revocation_endpoint) return false;
  const client: oauth.Client = { client_id: credential.clientId, token_endpoint_auth_method: credential.clientAuth };
  const auth = clientAuthFor(credential.clientAuth, credential.clientSecret);
  const options = requestOptions(as.revocation_endpoint, deadline);
  // The refresh token first: revoking it commonly ends the access tokens issued from it too.
  for (const [token, hint] of [
    [credential.refreshToken, "refresh_token"],
    [credential.accessToken, "access_token"],
  ] as const) {
    if (!token) continue;
    const response = await oauth.revocationRequest(as, client, auth, token, {
      ...options,
      additionalParameters: { token_type_hint: hint },
    });
    await oauth.processRevocationResponse(response);
  }
  return true;
}
