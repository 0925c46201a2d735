/**
 * DPoP (RFC 9449): tokens bound to a key pair the client holds. When the authorization server
 * offers DPoP with ES256 (`dpop_signing_alg_values_supported`), `auth` makes one P-256 key pair
 * per sign-in, stores its private JWK in the sign-in's 0600 token file, and every request that
 * uses the sign-in (the token requests, each capture request) carries a fresh proof: a JWT
 * signed with that key, naming the method, the URL without query and fragment, the time, a
 * unique id and, beside an access token, its SHA-256 (`ath`). A server's `DPoP-Nonce` is
 * remembered and put in later proofs; a request refused for want of it is sent once more.
 *
 * node:crypto only (no OAuth library), so that captures load nothing more to use a DPoP token.
 * The private key never leaves this module but to the token file: proofs carry the public JWK.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, sign } from "node:crypto";
import { UsageError } from "../errors.ts";
import { parseChallenges } from "./www-authenticate.ts";

/** The one algorithm we sign with: ES256 is the one every DPoP server must accept in practice (RFC 9449 §11.4 names no mandatory one; ES256 is what the SDKs default to). */
export const DPOP_ALG = "ES256";

/** A stored DPoP key: the private JWK of a P-256 key pair (the public half is derived from it). */
export interface DpopKey {
  alg: typeof DPOP_ALG;
  /** kty EC, crv P-256, x, y and the private d. A secret: lives in the token file only. */
  jwk: { kty: "EC"; crv: "P-256"; x: string; y: string; d: string };
}

/** Whether the authorization server's metadata offers DPoP with an algorithm we sign with. */
export function offersDpop(metadata: { dpop_signing_alg_values_supported?: unknown }): boolean {
  const algs = metadata.dpop_signing_alg_values_supported;
  return Array.isArray(algs) && algs.includes(DPOP_ALG);
}

/** A new key pair for one sign-in. */
export function generateDpopKey(): DpopKey {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = privateKey.export({ format: "jwk" }) as DpopKey["jwk"];
  return { alg: DPOP_ALG, jwk: { kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y, d: jwk.d } };
}

/** Whether a stored value is a usable DPoP key (a hand-edited or truncated token file is not). */
export function isDpopKey(value: unknown): value is DpopKey {
  const key = value as DpopKey | undefined;
  const jwk = key?.jwk;
  const wellFormed =
    key?.alg === DPOP_ALG &&
    jwk?.kty === "EC" &&
    jwk.crv === "P-256" &&
    [jwk.x, jwk.y, jwk.d].every((part) => typeof part === "string" && /^[A-Za-z0-9_-]{43}$/.test(part));
  if (!wellFormed) return false;
  // And a real key pair: d's public point is (x, y), so the proofs' JWK is the one that signs them.
  try {
    const derived = createPublicKey(createPrivateKey({ key: jwk, format: "jwk" })).export({ format: "jwk" });
    return derived.x === jwk.x && derived.y === jwk.y;
  } catch {
    return false;
  }
}

/**
 * A stored sign-in's DPoP key, checked: a token file edited by hand or cut short is exit 2 with
 * the fix, never a crypto error from deep inside a request. Undefined for a Bearer sign-in.
 */
export function storedDpopKey(credential: { url: string; dpop?: unknown }): DpopKey | undefined {
  if (credential.dpop === undefined) return undefined;
  if (isDpopKey(credential.dpop)) return credential.dpop;
  throw new UsageError(
    `the stored sign-in for ${credential.url} holds a DPoP key that is not a P-256 private key in JWK form (the token file was edited or damaged), so its DPoP-bound token cannot be used. Sign in again with \`mcp-contract auth --url ${credential.url}\`.`,
  );
}

/** The public JWK that proofs carry: the required members only, never `d`. */
export function publicJwk(key: DpopKey): { kty: "EC"; crv: "P-256"; x: string; y: string } {
  return { kty: "EC", crv: "P-256", x: key.jwk.x, y: key.jwk.y };
}

/** The RFC 7638 JWK thumbprint (SHA-256, base64url): what a DPoP-bound token's `cnf.jkt` names. */
export function jwkThumbprint(jwk: { kty: string; crv?: string; x?: string; y?: string }): string {
  // Required members only, in lexicographic order, no whitespace (RFC 7638 §3.2).
  const canonical = `{"crv":${JSON.stringify(jwk.crv)},"kty":${JSON.stringify(jwk.kty)},"x":${JSON.stringify(jwk.x)},"y":${JSON.stringify(jwk.y)}}`;
  return createHash("sha256").update(canonical).digest("base64url");
}

/** `htu`: the request URL without its query and fragment (RFC 9449 §4.2). */
export function htuOf(url: URL | string): string {
  const u = new URL(url);
  u.search = "";
  u.hash = "";
  return u.href;
}

/** `ath`: base64url SHA-256 of the access token's ASCII (RFC 9449 §4.2). */
export function accessTokenHash(token: string): string {
  return createHash("sha256").update(token, "ascii").digest("base64url");
}

export interface ProofInput {
  method: string;
  url: URL | string;
  /** The access token the request presents, when it presents one. */
  accessToken?: string;
  nonce?: string;
  /** Seconds since the epoch; now by default. */
  iat?: number;
  /** Unique per proof; a random UUID by default. */
  jti?: string;
}

/** The proof's JOSE header and claims, before signing. Pure. */
export function proofParts(key: DpopKey, input: ProofInput) {
  const header = { typ: "dpop+jwt", alg: key.alg, jwk: publicJwk(key) };
  const payload = {
    jti: input.jti ?? randomUUID(),
    htm: input.method.toUpperCase(),
    htu: htuOf(input.url),
    iat: input.iat ?? Math.floor(Date.now() / 1000),
    ...(input.accessToken !== undefined ? { ath: accessTokenHash(input.accessToken) } : {}),
    ...(input.nonce !== undefined ? { nonce: input.nonce } : {}),
  };
  return { header, payload };
}

/** A signed DPoP proof JWT (compact JWS, ES256: the raw r‖s signature, RFC 7518 §3.4). */
export function createProof(key: DpopKey, input: ProofInput): string {
  const { header, payload } = proofParts(key, input);
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const signingInput = `${encode(header)}.${encode(payload)}`;
  const privateKey = createPrivateKey({ key: key.jwk, format: "jwk" });
  const signature = sign("sha256", Buffer.from(signingInput), { key: privateKey, dsaEncoding: "ieee-p1363" });
  return `${signingInput}.${signature.toString("base64url")}`;
}

/**
 * Whether a response asks for the request again with the nonce it sent: 401 with
 * `WWW-Authenticate: DPoP error="use_dpop_nonce"` from a resource server (§9), 400 with the
 * OAuth error `use_dpop_nonce` from an authorization server (§8; its body, already bounded
 * by the OAuth client's fetch, is read only then). Pure but for reading that body.
 */
async function asksForNonce(response: Response, server: "authorization" | "resource"): Promise<boolean> {
  if (!response.headers.get("dpop-nonce")) return false;
  if (response.status === 401) {
    return parseChallenges(response.headers.get("www-authenticate")).some(
      (c) => c.scheme === "dpop" && c.params.error === "use_dpop_nonce",
    );
  }
  if (response.status === 400 && server === "authorization") {
    const body = (await response
      .clone()
      .json()
      .catch(() => undefined)) as { error?: unknown } | undefined;
    return body?.error === "use_dpop_nonce";
  }
  return false;
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** The access token a request presents with the DPoP scheme, from its Authorization header. */
function presentedToken(headers: Headers): string | undefined {
  return /^DPoP\s+(\S+)$/i.exec(headers.get("authorization") ?? "")?.[1];
}

/**
 * `base` with a fresh DPoP proof on every request, signed with `key`. Nonces are kept per
 * origin (in `nonces`), from each response's `DPoP-Nonce`; a request refused for want of one is sent once
 * more with it (a body that cannot be sent twice, a stream, is not: the refusal stands).
 */
export function dpopFetch(
  base: Fetch,
  key: DpopKey,
  server: "authorization" | "resource",
  /** The nonces by origin; shared by the fetches of one capture (its era probe and its session). */
  nonces = new Map<string, string>(),
): Fetch {
  const send = async (url: string | URL, init: RequestInit | undefined): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const origin = new URL(url).origin;
    const proof = createProof(key, {
      method: init?.method ?? "GET",
      url,
      accessToken: presentedToken(headers),
      nonce: nonces.get(origin),
    });
    headers.set("dpop", proof);
    const response = await base(url, { ...init, headers });
    const nonce = response.headers.get("dpop-nonce");
    if (nonce) nonces.set(origin, nonce);
    return response;
  };
  return async (url, init) => {
    const before = nonces.get(new URL(url).origin);
    const response = await send(url, init);
    const replayable = init?.body === undefined || init.body === null || !(init.body instanceof ReadableStream);
    if (!replayable || !(await asksForNonce(response, server))) return response;
    if (nonces.get(new URL(url).origin) === before) return response;
    await response.body?.cancel().catch(() => {});
    return send(url, init);
  };
}
