/**
 * DPoP-bound tokens (RFC 9449, #32) end to end: `mcp-contract auth` then captures against the
 * OAuth fixture (tests/fixtures/oauth/server.ts) in its DPoP mode, where both the authorization
 * and the resource server require a proof (signature by the JWK in its header, htm, htu, iat,
 * ath, an unseen jti, a nonce of their own) and bind tokens to the key's thumbprint. The server
 * counts every proof it refused and why: our proofs must only ever be refused for the nonce it
 * had not yet given. Then the test itself replays a proof, signs one with another key and
 * presents the token as Bearer, to show the server really refuses what a stale or stolen proof
 * would be. The private key never reaches output, the lockfile or --verbose.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createProof, generateDpopKey, jwkThumbprint, publicJwk } from "../../src/auth/dpop.ts";
import { BUN, type CliResult, cliCommand, ROOT, runCli, tempDir } from "../helpers/cli.ts";
import { revealedPieces } from "../helpers/secret-leaks.ts";
import { expectCleanFailure } from "./e2e-helpers.ts";

const FIXTURE = join(ROOT, "tests/fixtures/oauth/server.ts");
const CI_SECRET = "ci-secret-dpop-71c2";

interface DpopStats {
  authorizations: Record<string, string>[];
  tokenRequests: Record<string, string>[];
  dpop: {
    accepted: number;
    rejected: Record<string, number>;
    nonceChallenges: number;
    tokenTypes: string[];
    lastMcpProof: string;
  };
}

const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(stops.map((stop) => stop()));
});

async function startFixture(config: object): Promise<{ url: string; issuer: string; stats(): Promise<DpopStats> }> {
  const proc = Bun.spawn([BUN, FIXTURE], {
    env: { ...process.env, OAUTH_FIXTURE: JSON.stringify(config) },
    stdout: "pipe",
    stderr: "inherit",
    stdin: "ignore",
  });
  stops.push(async () => {
    proc.kill("SIGTERM");
    await proc.exited;
  });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!/listening (\S+) (\S+)\n/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`oauth fixture exited: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const [, url, issuer] = /listening (\S+) (\S+)\n/.exec(text) as RegExpExecArray;
  return { url: url as string, issuer: issuer as string, stats: async () => (await fetch(`${issuer}/_stats`)).json() };
}

/** `auth` with the browser played: the authorize address it prints is fetched, following the redirect to its callback. */
async function signInWithBrowser(url: string, env: Record<string, string>): Promise<CliResult> {
  const proc = Bun.spawn([...cliCommand(), "auth", "--url", url, "--no-open"], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: "1", ...env },
    stdout: "pipe",
    stderr: "pipe",
    stdin: "pipe",
  });
  const timer = setTimeout(() => proc.kill("SIGKILL"), 45_000);
  const stdout = new Response(proc.stdout).text();
  let stderr = "";
  let browsed: Promise<unknown> | undefined;
  for await (const chunk of proc.stderr) {
    stderr += new TextDecoder().decode(chunk);
    const address = /^ {2}(http\S+\/authorize\?\S+)$/m.exec(stderr)?.[1];
    if (address && !browsed) browsed = fetch(address).then((page) => page.text());
  }
  const code = await proc.exited;
  await browsed;
  clearTimeout(timer);
  return { code, stdout: await stdout, stderr };
}

function credentialFile(xdg: string): string {
  const dir = join(xdg, "mcp-contract", "credentials");
  const files = readdirSync(dir).filter((name) => name.endsWith(".json"));
  expect(files).toHaveLength(1);
  return join(dir, files[0] as string);
}

interface Stored {
  accessToken: string;
  refreshToken?: string;
  expiresAt?: number;
  dpop?: { alg: string; jwk: { kty: string; crv: string; x: string; y: string; d: string } };
}

function stored(xdg: string): Stored {
  return JSON.parse(readFileSync(credentialFile(xdg), "utf8"));
}

/** Every refusal the server made of our proofs; the only acceptable one is the nonce it had not yet given. */
function refusalsOtherThanNonce(stats: DpopStats): Record<string, number> {
  const { nonce: _nonce, ...others } = stats.dpop.rejected;
  return others;
}

function expectKeyNeverShown(texts: string[], d: string): void {
  for (const text of texts) expect(revealedPieces(text, d)).toEqual([]);
}

/** One MCP request by hand, as an attacker holding the token (and perhaps a captured proof) would send it. */
function mcpRequest(url: string, authorization: string, proof?: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      authorization,
      ...(proof ? { dpop: proof } : {}),
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
}

describe("auth: DPoP-bound tokens (RFC 9449)", () => {
  test("client credentials with nonces: a bound token, proofs per request, replay and another key refused, no key shown", async () => {
    const server = await startFixture({
      dpop: { nonce: true },
      clients: [{ id: "ci-client", secret: CI_SECRET }],
    });
    const xdg = tempDir();
    const env = { XDG_CONFIG_HOME: xdg };

    const check = await runCli(["auth", "--check", "--url", server.url], { env });
    expect(check.code).toBe(0);
    expect(check.stdout).toContain("DPoP (9449)   ES256 offered");

    const signIn = await runCli(["auth", "--url", server.url, "--client-credentials"], {
      env: { ...env, MCP_CONTRACT_CLIENT_ID: "ci-client", MCP_CONTRACT_CLIENT_SECRET: CI_SECRET },
    });
    expect(signIn.stderr).toContain("the token is DPoP-bound");
    expect(signIn.code).toBe(0);
    const credential = stored(xdg);
    expect(statSync(credentialFile(xdg)).mode & 0o777).toBe(0o600);
    expect(credential.dpop).toMatchObject({ alg: "ES256", jwk: { kty: "EC", crv: "P-256" } });
    const d = credential.dpop?.jwk.d as string;
    let stats = await server.stats();
    expect(stats.dpop.tokenTypes).toEqual(["DPoP"]);
    // The authorization server asked for its nonce once, and the retried request carried it.
    expect(stats.dpop.nonceChallenges).toBe(1);

    const out = join(xdg, "mcp.contract.json");
    const snap = await runCli(["--verbose", "snapshot", "-o", out, "--url", server.url], { env });
    expect(snap.stderr).toContain("captured 1 tool");
    expect(snap.stderr).toContain("a DPoP-bound token: a fresh proof signed per request");
    expect(snap.code).toBe(0);
    const lint = await runCli(["lint", "--format", "json", "--url", server.url], { env });
    expect(Array.isArray(JSON.parse(lint.stdout).findings)).toBe(true);
    const status = await runCli(["auth", "--status"], { env });
    expect(status.stdout).toContain(
      `token       DPoP-bound (ES256 key stored with it, thumbprint ${jwkThumbprint(credential.dpop?.jwk as never)})`,
    );

    stats = await server.stats();
    // The resource server's nonce too: asked for once per capture (each is a new process), then carried.
    expect(stats.dpop.nonceChallenges).toBe(3);
    // Every proof of ours was fresh and right: no replayed jti, no wrong key, htm, htu, ath or iat.
    expect(refusalsOtherThanNonce(stats)).toEqual({});
    expect(stats.dpop.accepted).toBeGreaterThanOrEqual(5);

    // What the server refuses, shown by hand: the last proof it accepted, sent again with the token…
    const token = credential.accessToken;
    const replayed = await mcpRequest(server.url, `DPoP ${token}`, stats.dpop.lastMcpProof);
    expect(replayed.status).toBe(401);
    expect(replayed.headers.get("www-authenticate")).toContain('error="invalid_dpop_proof"');
    // …a fresh, well-formed proof by another key (the server's current nonce in it)…
    const nonce = (await mcpRequest(server.url, `DPoP ${token}`)).headers.get("dpop-nonce");
    const other = createProof(generateDpopKey(), {
      method: "POST",
      url: server.url,
      accessToken: token,
      nonce: nonce ?? undefined,
    });
    expect((await mcpRequest(server.url, `DPoP ${token}`, other)).status).toBe(401);
    // …and the bound token presented as a plain Bearer token.
    expect((await mcpRequest(server.url, `Bearer ${token}`)).status).toBe(401);
    const after = (await server.stats()).dpop.rejected;
    expect(after).toMatchObject({ "replayed jti": 1, "key mismatch": 1, "bearer scheme": 1, "no DPoP proof": 1 });

    const lockfile = readFileSync(out, "utf8");
    expect(lockfile).not.toContain(token);
    expectKeyNeverShown([check, signIn, snap, lint, status].flatMap((r) => [r.stdout, r.stderr]).concat(lockfile), d);
  }, 60_000);

  test("browser sign-in: the code bound by dpop_jkt, the refresh with the same key, a damaged key is exit 2", async () => {
    const server = await startFixture({ dpop: {} });
    const xdg = tempDir();
    const env = { XDG_CONFIG_HOME: xdg };
    const signIn = await signInWithBrowser(server.url, env);
    expect(signIn.stderr).toContain("the token is DPoP-bound");
    expect(signIn.code).toBe(0);
    const first = stored(xdg);
    const key = first.dpop as NonNullable<Stored["dpop"]>;
    const stats = await server.stats();
    expect(stats.authorizations[0]?.dpop_jkt).toBe(jwkThumbprint(publicJwk(key as never)));

    // The access token expired: the capture refreshes it (the refresh token is bound to the key) and uses the new one.
    const path = credentialFile(xdg);
    writeFileSync(path, JSON.stringify({ ...first, expiresAt: Date.now() - 1000 }));
    const snap = await runCli(["--verbose", "snapshot", "-o", "-", "--url", server.url], { env });
    expect(snap.code).toBe(0);
    const second = stored(xdg);
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.dpop).toEqual(key);
    const after = await server.stats();
    expect(after.tokenRequests.map((r) => r.grant_type)).toEqual(["authorization_code", "refresh_token"]);
    expect(after.dpop.tokenTypes).toEqual(["DPoP", "DPoP"]);
    expect(after.dpop.rejected).toEqual({});
    expectKeyNeverShown([signIn.stdout, signIn.stderr, snap.stdout, snap.stderr], key.jwk.d);

    // A token file whose key was cut short: a usage error naming the fix, the key's remains not shown.
    writeFileSync(
      path,
      JSON.stringify({ ...second, dpop: { ...key, jwk: { ...key.jwk, d: key.jwk.d.slice(0, 20) } } }),
    );
    const damaged = await runCli(["snapshot", "-o", "-", "--url", server.url], { env });
    expectCleanFailure(damaged, 2);
    expect(damaged.stderr).toContain(`mcp-contract auth --url ${server.url}`);
    expectKeyNeverShown([damaged.stderr], key.jwk.d.slice(0, 20));
  }, 60_000);

  test("a 403 insufficient_scope to a DPoP token: the scope re-ask carries a proof (and the nonce), so the message names the scope", async () => {
    const server = await startFixture({
      dpop: { nonce: true },
      requireScope: "notes:write",
      clients: [{ id: "ci-client", secret: CI_SECRET }],
    });
    const xdg = tempDir();
    const env = { XDG_CONFIG_HOME: xdg };
    const signIn = await runCli(["auth", "--url", server.url, "--client-credentials"], {
      env: { ...env, MCP_CONTRACT_CLIENT_ID: "ci-client", MCP_CONTRACT_CLIENT_SECRET: CI_SECRET },
    });
    expect(signIn.code).toBe(0);
    const snap = await runCli(["snapshot", "-o", "-", "--url", server.url], { env });
    expectCleanFailure(snap, 3);
    expect(snap.stderr).toContain("403 Forbidden");
    expect(snap.stderr).toContain("it asks for scope notes:write");
    expect(refusalsOtherThanNonce(await server.stats())).toEqual({});
  }, 30_000);

  test("DPoP offered only with an algorithm we do not sign with: a Bearer request, which a DPoP-only server refuses cleanly", async () => {
    const server = await startFixture({ dpop: { algs: ["EdDSA"] }, clients: [{ id: "ci-client", secret: CI_SECRET }] });
    const env = { XDG_CONFIG_HOME: tempDir() };
    const check = await runCli(["auth", "--check", "--url", server.url], { env });
    expect(check.stdout).toContain("offered with EdDSA only; mcp-contract signs ES256, so it asks for Bearer tokens");
    const signIn = await runCli(["auth", "--url", server.url, "--client-credentials"], {
      env: { ...env, MCP_CONTRACT_CLIENT_ID: "ci-client", MCP_CONTRACT_CLIENT_SECRET: CI_SECRET },
    });
    expectCleanFailure(signIn, 3);
    expect(signIn.stderr).toContain("invalid_dpop_proof");
    expect(signIn.stderr).toContain("signs them with ES256 only, and the server's metadata offers EdDSA");
    expect(signIn.stderr).not.toContain(CI_SECRET);
  }, 30_000);
});
