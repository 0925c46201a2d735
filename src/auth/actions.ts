/**
 * What each `auth` mode does, kept beside the OAuth client so that src/cli/auth.ts stays
 * flags only. Output goes through the caller's printer, which masks registered secrets.
 */
import { UsageError } from "../errors.ts";
import { plannedRegistration, revokeTokens } from "./client.ts";
import { type Discovery, discover } from "./discovery.ts";
import { DPOP_ALG, jwkThumbprint, offersDpop, publicJwk } from "./dpop.ts";
import { chooseScope, signInClientCredentials, signInInteractive } from "./signin.ts";
import { type Credential, credentialsDir, listCredentials, normalizeUrl, removeCredential } from "./store.ts";

/** The printer (src/cli/ui.ts Ui): redacted lines on stderr. */
export interface Printer {
  info(text: string): void;
  warn(text: string): void;
  addSecrets(values: string[]): void;
}

export interface ActionOptions {
  scope?: string;
  clientId?: string;
  clientSecret?: string;
  clientMetadataUrl?: string;
  port?: number;
  open: boolean;
  wait: number;
}

export async function signIn(url: URL, options: ActionOptions, ui: Printer): Promise<void> {
  const discovery = await discover(url);
  const credential = await signInInteractive(discovery, {
    ...options,
    waitMs: options.wait * 1000,
    say: (text) => ui.info(text),
    // The address is public (the PKCE challenge, not the verifier); masking its parameters would break it.
    showUrl: (address) => process.stderr.write(`\n  ${address}\n\n`),
    hold: (values) => ui.addSecrets(values),
  });
  registerSecrets(credential, ui);
  ui.info(signedIn(credential));
}

export async function clientCredentials(url: URL, options: ActionOptions, ui: Printer): Promise<void> {
  const discovery = await discover(url);
  const credential = await signInClientCredentials(discovery, options);
  registerSecrets(credential, ui);
  ui.info(signedIn(credential));
}

export async function logout(url: URL | undefined, ui: Printer): Promise<void> {
  const all = listCredentials();
  const wanted = url && normalizeUrl(url);
  const gone = all.filter(
    ({ credential }) =>
      !wanted || normalizeUrl(credential.url) === wanted || normalizeUrl(credential.resource) === wanted,
  );
  if (url && gone.length === 0) {
    throw new UsageError(
      `no sign-in is stored for ${url.href}${all.length ? `; stored: ${all.map(({ credential }) => credential.url).join(", ")}` : ""}. Run \`mcp-contract auth --status\` to list them.`,
    );
  }
  if (gone.length === 0) {
    ui.info("no sign-ins were stored; nothing to remove.");
    return;
  }
  for (const { path, credential } of gone) {
    registerSecrets(credential, ui);
    removeCredential(path);
    // Best effort: the file is gone whatever the server says.
    const revoked = await revokeTokens(credential).catch(() => undefined);
    const outcome =
      revoked === true
        ? "its tokens were revoked at the authorization server (RFC 7009)"
        : revoked === false
          ? "the authorization server offers no revocation, so its tokens stay valid there until they expire"
          : "revoking its tokens failed (the authorization server did not answer or refused), so they stay valid there until they expire";
    ui.info(`removed the sign-in for ${credential.url} (${credential.issuer}); ${outcome}.`);
  }
}

/** `auth --status`: one block per sign-in, no secret in it. */
export function statusText(now = Date.now()): string {
  const all = listCredentials();
  if (all.length === 0) return `no sign-ins stored (in ${credentialsDir()}).\n`;
  const blocks = all.map(({ credential: c }) =>
    [
      c.url,
      `  issuer      ${c.issuer}`,
      `  resource    ${c.resource}`,
      `  scopes      ${c.scopes.length ? c.scopes.join(" ") : "(none)"}`,
      `  expires     ${expiry(c, now)}`,
      `  client      ${c.clientId} (${describeRegistration(c.registration)}, ${c.grant.replace("_", " ")} grant)`,
      `  token       ${describeBinding(c)}`,
    ].join("\n"),
  );
  return `${blocks.join("\n\n")}\n\nstored in ${credentialsDir()}\n`;
}

/** `auth --check`: discovery and the client plan, without registering or signing in. */
export async function checkText(url: URL, options: ActionOptions): Promise<string> {
  const d = await discover(url);
  const plan = plannedRegistration(d.as, options);
  const scope = chooseScope(d, options.scope);
  const row = (name: string, value: string) => `${name.padEnd(14)}${value}`;
  const lines = [
    row(
      "server",
      `${url.href} answered ${d.probe.status === undefined ? "nothing" : `HTTP ${d.probe.status}`}${d.probe.resourceMetadata ? ", WWW-Authenticate names its resource metadata" : ""}`,
    ),
    row(
      "resource",
      d.resourceMetadataUrl
        ? `${d.resource} (metadata ${d.resourceMetadataUrl})`
        : `${d.resource} (no resource metadata; 2025-03-26 fallback)`,
    ),
    row("auth server", `${d.issuer} (metadata ${d.asMetadataUrl})`),
    row("client", describePlan(plan, d, options)),
    row("scopes", scope ? `${scope} (${scopeSource(d, options.scope)})` : "none asked for"),
    row(
      "PKCE",
      d.as.code_challenge_methods_supported?.includes("S256")
        ? "S256 supported"
        : "S256 NOT advertised: sign-in is refused",
    ),
    row(
      "iss (9207)",
      d.as.authorization_response_iss_parameter_supported ? "sent and checked" : "not advertised; checked if sent",
    ),
    row("resource ind.", "sent as resource= on authorize and token requests (RFC 8707)"),
    row(
      "DPoP (9449)",
      offersDpop(d.as)
        ? `${DPOP_ALG} offered: tokens bound to a key made for the sign-in and stored with it`
        : Array.isArray(d.as.dpop_signing_alg_values_supported)
          ? `offered with ${d.as.dpop_signing_alg_values_supported.join(", ")} only; mcp-contract signs ${DPOP_ALG}, so it asks for Bearer tokens`
          : "not offered: Bearer tokens",
    ),
    row("grants", (d.as.grant_types_supported ?? ["authorization_code", "implicit"]).join(", ")),
    row("stored", storedFor(url)),
  ];
  const works = plan !== undefined && d.as.code_challenge_methods_supported?.includes("S256");
  lines.push(
    "",
    works
      ? `\`mcp-contract auth --url ${url.href}\` would ${plan === "dynamic" ? "register a client, then " : ""}open a browser to sign in at ${d.as.authorization_endpoint}.`
      : "a browser sign-in would fail: see above.",
  );
  return `${lines.join("\n")}\n`;
}

function describePlan(plan: ReturnType<typeof plannedRegistration>, d: Discovery, options: ActionOptions): string {
  if (plan === "pre-registered")
    return `pre-registered client ${options.clientId}${options.clientSecret ? " with a secret" : ""}`;
  if (plan === "metadata-document") return `client ID metadata document ${options.clientMetadataUrl}`;
  if (plan === "dynamic") {
    return `dynamic registration at ${d.as.registration_endpoint} (application_type native)${d.as.client_id_metadata_document_supported ? "; the server also takes client ID metadata documents (--client-metadata-url)" : ""}`;
  }
  return "none possible: no registration endpoint and no metadata document; pass --client-id";
}

function scopeSource(d: Discovery, requested: string | undefined): string {
  if (requested !== undefined) return "--scope";
  if (d.probe.scope) return "asked for by the 401";
  return "the resource's scopes_supported";
}

function storedFor(url: URL): string {
  const wanted = normalizeUrl(url);
  const found = listCredentials().find(
    ({ credential }) => normalizeUrl(credential.url) === wanted || normalizeUrl(credential.resource) === wanted,
  );
  return found ? `signed in to ${found.credential.issuer}, expires ${expiry(found.credential)}` : "not signed in";
}

function expiry(c: Credential, now = Date.now()): string {
  if (c.expiresAt === undefined) return "not said by the server";
  const left = Math.round((c.expiresAt - now) / 1000);
  const when = new Date(c.expiresAt).toISOString().replace(/\.\d+Z$/, "Z");
  if (left <= 0)
    return `${when} (expired${c.refreshToken || c.grant === "client_credentials" ? "; refreshed on next use" : "; sign in again"})`;
  return `${when} (in ${left >= 3600 ? `${Math.round(left / 3600)} h` : left >= 60 ? `${Math.floor(left / 60)} min` : `${left} s`})`;
}

function describeRegistration(registration: Credential["registration"]): string {
  return registration === "dynamic"
    ? "registered dynamically"
    : registration === "metadata-document"
      ? "client ID metadata document"
      : "pre-registered";
}

/** Bearer, or DPoP-bound with the public key's thumbprint (RFC 7638): public, and what the server's `cnf.jkt` names. */
function describeBinding(c: Credential): string {
  if (!c.dpop) return "Bearer";
  const jwk = c.dpop.jwk;
  const thumbprint = typeof jwk?.x === "string" && typeof jwk.y === "string" ? jwkThumbprint(publicJwk(c.dpop)) : "?";
  return `DPoP-bound (${DPOP_ALG} key stored with it, thumbprint ${thumbprint})`;
}

function registerSecrets(c: Credential, ui: Printer): void {
  ui.addSecrets([
    c.accessToken,
    ...(c.refreshToken ? [c.refreshToken] : []),
    ...(c.clientSecret ? [c.clientSecret] : []),
    ...(typeof c.dpop?.jwk?.d === "string" ? [c.dpop.jwk.d] : []),
  ]);
}

function signedIn(c: Credential): string {
  return `signed in to ${c.issuer} for ${c.resource}${c.scopes.length ? ` (scopes ${c.scopes.join(" ")})` : ""}, ${c.expiresAt ? `token expires ${expiry(c)}` : "no expiry given"}${c.dpop ? `; the token is DPoP-bound: its ${DPOP_ALG} private key is stored with it and signs a proof for every request` : ""}; stored in ${credentialsDir()} (0600). snapshot, check and lint --url ${c.url} use it from now on.`;
}
