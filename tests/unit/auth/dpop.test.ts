/**
 * DPoP proofs (RFC 9449), in process: the claims, the RFC's own example values for `ath` and
 * the JWK thumbprint, the ES256 signature checked against the public key the proof carries,
 * and the fetch wrapper's nonce handling against a scripted server (no sockets).
 */
import { describe, expect, test } from "bun:test";
import { createPublicKey, verify } from "node:crypto";
import { fetchFor, withToken } from "../../../src/auth/cached.ts";
import {
  accessTokenHash,
  createProof,
  type DpopKey,
  dpopFetch,
  generateDpopKey,
  htuOf,
  isDpopKey,
  jwkThumbprint,
  offersDpop,
  proofParts,
  publicJwk,
  storedDpopKey,
} from "../../../src/auth/dpop.ts";
import { targetSecrets } from "../../../src/connect/target.ts";
import { UsageError } from "../../../src/errors.ts";

const KEY = generateDpopKey();

function decode(proof: string) {
  const [h, p, s] = proof.split(".") as [string, string, string];
  const json = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
  return { header: json(h), payload: json(p), signingInput: `${h}.${p}`, signature: Buffer.from(s, "base64url") };
}

describe("proof construction", () => {
  test("RFC 9449's examples: ath of its access token, the thumbprint of its key (RFC 7638)", () => {
    expect(accessTokenHash("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU")).toBe(
      "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo",
    );
    // Member order and extra members do not change it: only crv, kty, x, y, in that order, count.
    const jwk = {
      y: "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA",
      kty: "EC",
      x: "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs",
      crv: "P-256",
      use: "sig",
    };
    expect(jwkThumbprint(jwk)).toBe("0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I");
  });

  test("htu drops the query and fragment, keeps the path", () => {
    expect(htuOf("https://rs.example/mcp/v1?session=abc#frag")).toBe("https://rs.example/mcp/v1");
    expect(htuOf(new URL("http://127.0.0.1:8080/token"))).toBe("http://127.0.0.1:8080/token");
  });

  test("header and claims: typ, alg, the public JWK only; htm upper-cased, iat, jti, ath and nonce when given", () => {
    const { header, payload } = proofParts(KEY, {
      method: "post",
      url: "https://rs.example/mcp?x=1",
      accessToken: "tok",
      nonce: "n-1",
      iat: 1_700_000_000,
      jti: "id-1",
    });
    expect(header).toEqual({ typ: "dpop+jwt", alg: "ES256", jwk: publicJwk(KEY) });
    expect(JSON.stringify(header)).not.toContain(KEY.jwk.d);
    expect(payload).toEqual({
      jti: "id-1",
      htm: "POST",
      htu: "https://rs.example/mcp",
      iat: 1_700_000_000,
      ath: accessTokenHash("tok"),
      nonce: "n-1",
    });
    // A token request presents no access token: no ath; no nonce until a server gives one.
    const bare = proofParts(KEY, { method: "POST", url: "https://as.example/token" }).payload;
    expect(Object.keys(bare).sort()).toEqual(["htm", "htu", "iat", "jti"]);
    expect(Math.abs(bare.iat - Date.now() / 1000)).toBeLessThan(5);
  });

  test("the signature verifies with the JWK in the header (raw r||s, 64 bytes); every proof has its own jti", () => {
    const proof = createProof(KEY, { method: "GET", url: "https://rs.example/mcp" });
    const { header, payload, signingInput, signature } = decode(proof);
    expect(signature.length).toBe(64);
    const key = createPublicKey({ key: header.jwk, format: "jwk" });
    expect(verify("sha256", Buffer.from(signingInput), { key, dsaEncoding: "ieee-p1363" }, signature)).toBe(true);
    const other = createPublicKey({ key: publicJwk(generateDpopKey()), format: "jwk" });
    expect(verify("sha256", Buffer.from(signingInput), { key: other, dsaEncoding: "ieee-p1363" }, signature)).toBe(
      false,
    );
    const again = decode(createProof(KEY, { method: "GET", url: "https://rs.example/mcp" })).payload;
    expect(again.jti).not.toBe(payload.jti);
  });

  test("keys: each sign-in its own; a damaged stored key is a usage error naming the fix", () => {
    expect(isDpopKey(KEY)).toBe(true);
    expect(generateDpopKey().jwk.d).not.toBe(KEY.jwk.d);
    expect(storedDpopKey({ url: "https://x.test/mcp" })).toBeUndefined();
    expect(storedDpopKey({ url: "https://x.test/mcp", dpop: KEY })).toBe(KEY);
    const otherD = generateDpopKey().jwk.d;
    const notOnCurve = `A${KEY.jwk.x.slice(1)}` === KEY.jwk.x ? `B${KEY.jwk.x.slice(1)}` : `A${KEY.jwk.x.slice(1)}`;
    for (const damaged of [
      {},
      { alg: "ES256", jwk: { ...KEY.jwk, d: "short" } },
      { ...KEY, alg: "RS256" },
      // Well-formed but not a key pair: another key's d, a point off the curve.
      { alg: "ES256", jwk: { ...KEY.jwk, d: otherD } },
      { alg: "ES256", jwk: { ...KEY.jwk, x: notOnCurve } },
    ]) {
      let thrown: unknown;
      try {
        storedDpopKey({ url: "https://x.test/mcp", dpop: damaged });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(UsageError);
      expect((thrown as Error).message).toContain("mcp-contract auth --url https://x.test/mcp");
      expect((thrown as Error).message).not.toContain(KEY.jwk.d);
    }
  });

  test("offered only with ES256 in the metadata", () => {
    expect(offersDpop({ dpop_signing_alg_values_supported: ["RS256", "ES256"] })).toBe(true);
    expect(offersDpop({ dpop_signing_alg_values_supported: ["EdDSA"] })).toBe(false);
    expect(offersDpop({})).toBe(false);
  });
});

interface Seen {
  url: string;
  method: string;
  authorization: string | null;
  proof: ReturnType<typeof decode>;
}

/** A scripted server: answers each request with the next of `answers` (the last one repeats). */
function scripted(answers: (() => Response)[]) {
  const seen: Seen[] = [];
  const base = async (url: string | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    seen.push({
      url: String(url),
      method: init?.method ?? "GET",
      authorization: headers.get("authorization"),
      proof: decode(headers.get("dpop") ?? ".."),
    });
    return (answers[Math.min(seen.length - 1, answers.length - 1)] as () => Response)();
  };
  return { base, seen };
}

const ok = (nonce?: string) => () => new Response("{}", { headers: nonce ? { "dpop-nonce": nonce } : {} });
const rsWantsNonce = (nonce: string) => () =>
  new Response("", {
    status: 401,
    headers: { "dpop-nonce": nonce, "www-authenticate": 'DPoP error="use_dpop_nonce", algs="ES256"' },
  });
const asWantsNonce = (nonce: string) => () =>
  new Response(JSON.stringify({ error: "use_dpop_nonce" }), {
    status: 400,
    headers: { "dpop-nonce": nonce, "content-type": "application/json" },
  });

describe("the DPoP fetch", () => {
  test("a proof per request bound to the presented token; Authorization is left as given", async () => {
    const { base, seen } = scripted([ok()]);
    const send = dpopFetch(base, KEY, "resource");
    const init = { method: "POST", headers: { authorization: "DPoP at-123" }, body: "{}" };
    await send("https://rs.example/mcp?q=1", init);
    await send("https://rs.example/mcp?q=1", init);
    expect(seen.map((s) => s.authorization)).toEqual(["DPoP at-123", "DPoP at-123"]);
    const [a, b] = seen.map((s) => s.proof.payload);
    expect(a).toMatchObject({ htm: "POST", htu: "https://rs.example/mcp", ath: accessTokenHash("at-123") });
    expect(a.jti).not.toBe(b.jti);
  });

  test("a resource server's 401 use_dpop_nonce: retried once with the nonce, which later requests carry too", async () => {
    const { base, seen } = scripted([rsWantsNonce("n1"), ok(), ok()]);
    const send = dpopFetch(base, KEY, "resource");
    const first = await send("https://rs.example/mcp", { method: "POST", body: "{}" });
    expect(first.status).toBe(200);
    await send("https://rs.example/mcp", { method: "POST", body: "{}" });
    expect(seen.map((s) => s.proof.payload.nonce)).toEqual([undefined, "n1", "n1"]);
  });

  test("one capture's fetches (era probe, session) share what the server's nonce is", async () => {
    const { base, seen } = scripted([rsWantsNonce("n1"), ok(), ok()]);
    const wrap = fetchFor({ token: "t", scopes: [], issuer: "https://as.example", secrets: [], dpop: KEY });
    await wrap?.(base)("https://rs.example/mcp", { method: "POST", body: "{}" });
    await wrap?.(base)("https://rs.example/mcp", { method: "POST", body: "{}" });
    expect(seen.map((s) => s.proof.payload.nonce)).toEqual([undefined, "n1", "n1"]);
  });

  test("a nonce the server keeps refusing: one retry only, then its answer stands", async () => {
    const { base, seen } = scripted([rsWantsNonce("n1"), rsWantsNonce("n2")]);
    const response = await dpopFetch(base, KEY, "resource")("https://rs.example/mcp", { method: "POST", body: "x" });
    expect(response.status).toBe(401);
    expect(seen.length).toBe(2);
  });

  test("an authorization server's 400 use_dpop_nonce is retried; a resource server's 400 is not", async () => {
    const as = scripted([asWantsNonce("as-n"), ok()]);
    const token = await dpopFetch(
      as.base,
      KEY,
      "authorization",
    )("https://as.example/token", {
      method: "POST",
      body: new URLSearchParams({ grant_type: "client_credentials" }),
    });
    expect(token.status).toBe(200);
    expect(as.seen.map((s) => s.proof.payload.nonce)).toEqual([undefined, "as-n"]);
    expect(as.seen[0]?.proof.payload.ath).toBeUndefined();

    const rs = scripted([asWantsNonce("rs-n"), ok()]);
    const answer = await dpopFetch(rs.base, KEY, "resource")("https://rs.example/mcp", { method: "POST", body: "{}" });
    expect(answer.status).toBe(400);
    expect(rs.seen.length).toBe(1);
  });

  test("a Bearer sign-in is untouched: no proof, Bearer scheme; a DPoP one says DPoP", () => {
    const target = {
      kind: "http" as const,
      url: new URL("https://rs.example/mcp"),
      headers: {},
      transport: "auto" as const,
    };
    const bearer = { token: "t", scopes: [], issuer: "https://as.example", secrets: [] };
    expect(fetchFor(bearer)).toBeUndefined();
    expect(withToken(target, bearer)).toMatchObject({ headers: { Authorization: "Bearer t" } });
    const bound: typeof bearer & { dpop: DpopKey } = { ...bearer, dpop: KEY };
    expect(fetchFor(bound)).toBeFunction();
    expect(withToken(target, bound)).toMatchObject({ headers: { Authorization: "DPoP t" } });
    // The token alone is masked wherever printed, as a Bearer token is.
    expect(targetSecrets(withToken(target, { ...bound, token: "at-secret" }))).toContain("at-secret");
  });
});
