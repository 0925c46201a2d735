/**
 * `mcp-contract auth` against a real OAuth-protected MCP server on 127.0.0.1
 * (tests/fixtures/oauth/server.ts): discovery, dynamic registration, PKCE, the loopback
 * callback (the test plays the browser by following the authorize redirect), the paste
 * fallback, token files and their modes, captures with the stored token, refresh after expiry,
 * client credentials, status, logout, and a 401 without a token. No token ever reaches
 * stdout, stderr or a lockfile. And (#27) the fixture turned hostile: endless and stalled
 * answers, plain-http endpoints elsewhere, stray requests to the callback; an unsafe token
 * store and a full disk (a real one: a 64 KiB tmpfs, where root may mount one).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { BUN, type CliResult, cliCommand, ROOT, tempDir } from "../helpers/cli.ts";
import { limit } from "../helpers/clock.ts";
import { expectCleanFailure, freePort } from "./e2e-helpers.ts";

const FIXTURE = join(ROOT, "tests/fixtures/oauth/server.ts");
const CI_SECRET = "ci-secret-4b7f0e2a9c";

interface OAuthFixture {
  url: string;
  issuer: string;
  stats(): Promise<{
    registrations: Record<string, unknown>[];
    authorizations: Record<string, string>[];
    tokenRequests: Record<string, string>[];
    revocations: string[];
    unauthorized: number;
  }>;
  stop(): Promise<void>;
}

const started: OAuthFixture[] = [];

async function startFixture(config: object = {}): Promise<OAuthFixture> {
  const proc = Bun.spawn([BUN, FIXTURE], {
    env: { ...process.env, OAUTH_FIXTURE: JSON.stringify(config) },
    stdout: "pipe",
    stderr: "inherit",
    stdin: "ignore",
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
  const fixture: OAuthFixture = {
    url: url as string,
    issuer: issuer as string,
    stats: async () => (await fetch(`${issuer}/_stats`)).json() as never,
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
  started.push(fixture);
  return fixture;
}

afterAll(async () => {
  await Promise.all(started.map((f) => f.stop()));
});

/** What plays the browser: a built-in behaviour, or a function given the authorize address. */
type Browser = "follow" | "paste" | "none" | ((authorizeUrl: string) => Promise<void>);

/**
 * Run mcp-contract with stdin open; once it prints the authorize address, play the browser:
 * `follow` fetches it and follows the redirect to the loopback callback, `paste` reads the
 * redirect without following it and types the address on stdin, `none` does nothing.
 */
async function runCli(
  args: string[],
  env: Record<string, string>,
  browser: Browser = "none",
): Promise<CliResult & { authorizeUrl?: string; pageStatus?: number; ms: number }> {
  const started = performance.now();
  const proc = Bun.spawn([...cliCommand(), ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: "1", ...env },
    stdout: "pipe",
    stderr: "pipe",
    stdin: "pipe",
  });
  const timer = setTimeout(() => proc.kill("SIGKILL"), 45_000);
  const stdout = new Response(proc.stdout).text();
  let stderr = "";
  let authorizeUrl: string | undefined;
  let pageStatus: number | undefined;
  let played: Promise<void> = Promise.resolve();
  const play = async (address: string) => {
    if (typeof browser === "function") {
      await browser(address);
    } else if (browser === "follow") {
      const page = await fetch(address);
      pageStatus = page.status;
      await page.text();
    } else if (browser === "paste") {
      const redirect = await fetch(address, { redirect: "manual" });
      proc.stdin.write(`not a url\n${redirect.headers.get("location")}\n`);
      proc.stdin.flush();
    }
  };
  const decoder = new TextDecoder();
  const readErr = (async () => {
    for await (const chunk of proc.stderr) {
      stderr += decoder.decode(chunk);
      const found = /^ {2}(http\S+\/authorize\?\S+)$/m.exec(stderr)?.[1];
      if (found && !authorizeUrl) {
        authorizeUrl = found;
        played = play(found);
      }
    }
  })();
  if (browser === "none") proc.stdin.end();
  const code = await proc.exited;
  await readErr;
  await played;
  clearTimeout(timer);
  return { code, stdout: await stdout, stderr, authorizeUrl, pageStatus, ms: performance.now() - started };
}

function credentialFiles(xdg: string): string[] {
  const dir = join(xdg, "mcp-contract", "credentials");
  return readdirSync(dir).map((name) => join(dir, name));
}

function storedTokens(xdg: string): string[] {
  return credentialFiles(xdg).flatMap((file) => {
    const c = JSON.parse(readFileSync(file, "utf8"));
    return [c.accessToken, c.refreshToken, c.clientSecret].filter(Boolean);
  });
}

function expectNoSecrets(texts: string[], secrets: string[]): void {
  expect(secrets.length).toBeGreaterThan(0);
  for (const secret of secrets) for (const text of texts) expect(text).not.toContain(secret);
}

describe("auth: browser sign-in", () => {
  test("discovery, registration, PKCE, callback, stored token, snapshot, status, refresh, logout", async () => {
    const server = await startFixture({ tokenTtl: 3600 });
    const xdg = tempDir();
    const env = { XDG_CONFIG_HOME: xdg };

    // Before signing in: a 401 that names the authorization server and the command.
    const denied = await runCli(["snapshot", "-o", join(xdg, "out.json"), "--url", server.url], env);
    expectCleanFailure(denied, 3);
    expect(denied.stderr).toContain(`authorization server ${server.issuer}`);
    expect(denied.stderr).toContain(`mcp-contract auth --url ${server.url}`);
    expect(denied.stderr).toContain("--bearer");

    // --check walks discovery without registering.
    const check = await runCli(["auth", "--check", "--url", server.url], env);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain(`${server.issuer}/register`);
    expect(check.stdout).toContain("WWW-Authenticate names its resource metadata");
    expect(check.stdout).toContain("not signed in");
    expect((await server.stats()).registrations).toHaveLength(0);

    const signIn = await runCli(["auth", "--url", server.url, "--no-open"], env, "follow");
    expect(signIn.stderr).toContain("signed in to");
    expect(signIn.code).toBe(0);
    expect(signIn.pageStatus).toBe(200);

    const stats = await server.stats();
    expect(stats.registrations).toHaveLength(1);
    expect(stats.registrations[0]).toMatchObject({ application_type: "native", token_endpoint_auth_method: "none" });
    const redirect = (stats.registrations[0] as { redirect_uris: string[] }).redirect_uris[0] as string;
    expect(redirect).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const authorize = stats.authorizations[0] as Record<string, string>;
    expect(authorize).toMatchObject({
      response_type: "code",
      code_challenge_method: "S256",
      resource: server.url,
      scope: "notes:read",
      redirect_uri: redirect,
    });
    expect(authorize.state?.length).toBeGreaterThan(20);
    expect(authorize.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const exchange = stats.tokenRequests.find((r) => r.grant_type === "authorization_code");
    expect(exchange?.resource).toBe(server.url);
    expect(exchange?.code_verifier?.length).toBeGreaterThanOrEqual(43);

    // Token files: directory 0700, file 0600, no temporary file left.
    const files = credentialFiles(xdg);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.json$/);
    expect(statSync(join(xdg, "mcp-contract", "credentials")).mode & 0o777).toBe(0o700);
    expect(statSync(join(xdg, "mcp-contract")).mode & 0o777).toBe(0o700);
    expect(statSync(files[0] as string).mode & 0o777).toBe(0o600);
    const tokens = storedTokens(xdg);

    // A snapshot uses the stored token; the scopes are recorded, the token is not.
    const out = join(xdg, "mcp.contract.json");
    const snap = await runCli(["snapshot", "-o", out, "--url", server.url], env);
    expect(snap.stderr).toContain("captured 1 tool");
    expect(snap.code).toBe(0);
    const lockfile = readFileSync(out, "utf8");
    expect(JSON.parse(lockfile).capture).toEqual({ clientCapabilities: [], scopes: ["notes:read"] });

    // check and lint against the live server use it too.
    const checked = await runCli(["check", "--baseline", out, "--url", server.url], env);
    expect(checked.stderr).not.toContain("401");
    expect(checked.code).toBe(0);
    const linted = await runCli(["lint", "--format", "json", "--url", server.url], env);
    expect(linted.stderr).not.toContain("401");
    expect(Array.isArray(JSON.parse(linted.stdout).findings)).toBe(true);

    const status = await runCli(["auth", "--status"], env);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`issuer      ${server.issuer}`);
    expect(status.stdout).toContain(`resource    ${server.url}`);
    expect(status.stdout).toContain("scopes      notes:read");
    expect(status.stdout).toMatch(/expires {5}\d{4}-\d\d-\d\dT[\d:]+Z \(in (1 h|59 min)\)/);

    expectNoSecrets(
      [denied, check, signIn, snap, checked, linted, status].flatMap((r) => [r.stdout, r.stderr]).concat(lockfile),
      tokens,
    );

    // Logout removes it; the next capture is refused again.
    const logout = await runCli(["auth", "--logout", "--url", server.url], env);
    expect(logout.code).toBe(0);
    expect(logout.stderr).toContain(`removed the sign-in for ${server.url}`);
    expect(logout.stderr).toContain("revoked at the authorization server");
    expect(credentialFiles(xdg)).toHaveLength(0);
    expect((await server.stats()).revocations).toEqual(["refresh_token", "access_token"]);
    // The revoked token no longer works, even when passed by hand.
    const [revokedToken] = tokens;
    const byHand = await runCli(["snapshot", "-o", "-", "--url", server.url, "--bearer", revokedToken as string], env);
    expect(byHand.code).toBe(3);
    expect(byHand.stderr).not.toContain(revokedToken as string);
    const again = await runCli(["snapshot", "-o", "-", "--url", server.url], env);
    expect(again.code).toBe(3);
    expect((await runCli(["auth", "--status"], env)).stdout).toContain("no sign-ins stored");
  }, 90_000);

  test("an expired token is refreshed on use, and the new one stored", async () => {
    // Tokens that live 3 s, used after they expired.
    const server = await startFixture({ tokenTtl: 3 });
    const xdg = tempDir();
    const env = { XDG_CONFIG_HOME: xdg };
    const port = freePort();
    const signIn = await runCli(
      ["auth", "--url", server.url, "--no-open", "--scope", "notes:read notes:write", "--port", String(port)],
      env,
      "follow",
    );
    expect(signIn.code).toBe(0);
    expect(signIn.stderr).toContain(`ssh -L ${port}:127.0.0.1:${port}`);
    expect((await server.stats()).authorizations[0]?.redirect_uri).toBe(`http://127.0.0.1:${port}/callback`);
    const before = JSON.parse(readFileSync(credentialFiles(xdg)[0] as string, "utf8"));
    await Bun.sleep(3100);
    const snap = await runCli(["snapshot", "-o", "-", "--url", server.url], env);
    expect(snap.stderr).toContain("captured 2 tools");
    expect(snap.code).toBe(0);
    const lockfile = JSON.parse(snap.stdout);
    expect(lockfile.capture.scopes).toEqual(["notes:read", "notes:write"]);
    expect(lockfile.tools.map((t: { name: string }) => t.name)).toEqual(["read_notes", "write_note"]);
    const refreshes = (await server.stats()).tokenRequests.filter((r) => r.grant_type === "refresh_token");
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]?.resource).toBe(server.url);
    const after = JSON.parse(readFileSync(credentialFiles(xdg)[0] as string, "utf8"));
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(statSync(credentialFiles(xdg)[0] as string).mode & 0o777).toBe(0o600);
    expectNoSecrets(
      [snap.stdout, snap.stderr, signIn.stderr],
      [before.accessToken, after.accessToken, after.refreshToken],
    );

    // Captures in parallel refresh once between them: the refresh token rotates, so a second refresh would fail.
    await Bun.sleep(3100);
    const parallel = await Promise.all([1, 2, 3].map(() => runCli(["snapshot", "-o", "-", "--url", server.url], env)));
    expect(parallel.map((r) => r.code)).toEqual([0, 0, 0]);
    const refreshed = (await server.stats()).tokenRequests.filter((r) => r.grant_type === "refresh_token");
    expect(refreshed).toHaveLength(2);
    expect(readdirSync(join(xdg, "mcp-contract", "credentials"))).toHaveLength(1);
  }, 60_000);

  test("the paste fallback: the redirected address typed at the prompt", async () => {
    const server = await startFixture({ metadata: "path" });
    const xdg = tempDir();
    const result = await runCli(["auth", "--url", server.url, "--no-open"], { XDG_CONFIG_HOME: xdg }, "paste");
    expect(result.stderr).toContain("paste here the address");
    expect(result.stderr).toContain("that is not the redirected address");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`signed in to ${server.issuer}`);
    expectNoSecrets([result.stdout, result.stderr], storedTokens(xdg));
    const snap = await runCli(["snapshot", "-o", "-", "--url", server.url], { XDG_CONFIG_HOME: xdg });
    expect(snap.code).toBe(0);
  }, 60_000);

  test.if(process.platform === "linux")(
    "the browser is opened: xdg-open gets the authorize address, and the sign-in finishes through it",
    async () => {
      const server = await startFixture();
      const xdg = tempDir();
      // A system opener that records the address and plays the browser: it follows the
      // authorize redirect to the loopback callback, as a browser would.
      const bin = tempDir();
      const opened = join(bin, "opened.txt");
      const browser = join(bin, "browser.ts");
      writeFileSync(
        browser,
        'import { appendFileSync } from "node:fs";\nappendFileSync(process.env.OPENED_FILE!, `${process.argv[2]}\\n`);\nawait (await fetch(process.argv[2]!)).text();\n',
      );
      writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\nexec "${BUN}" "${browser}" "$1"\n`, { mode: 0o755 });
      const result = await runCli(["auth", "--url", server.url], {
        XDG_CONFIG_HOME: xdg,
        PATH: `${bin}:${process.env.PATH}`,
        OPENED_FILE: opened,
      });
      expect(result.stderr).toContain(`opened your browser to sign in to ${server.issuer}`);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(`signed in to ${server.issuer}`);
      // Exactly the address it printed, once.
      expect(result.authorizeUrl).toBeDefined();
      expect(readFileSync(opened, "utf8")).toBe(`${result.authorizeUrl}\n`);
      expect((await server.stats()).authorizations).toHaveLength(1);
      expectNoSecrets([result.stdout, result.stderr, readFileSync(opened, "utf8")], storedTokens(xdg));
      const snap = await runCli(["snapshot", "-o", "-", "--url", server.url], { XDG_CONFIG_HOME: xdg });
      expect(snap.code).toBe(0);
    },
    60_000,
  );

  test.if(process.platform === "linux")(
    "mcp-query's --open false prints the address and opens nothing; a value other than true or false is exit 2",
    async () => {
      const server = await startFixture();
      const bin = tempDir();
      const opened = join(bin, "opened.txt");
      writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\necho "$1" >> "${opened}"\n`, { mode: 0o755 });
      const env = { XDG_CONFIG_HOME: tempDir(), PATH: `${bin}:${process.env.PATH}` };
      const quiet = await runCli(["auth", "--url", server.url, "--open", "false"], env, "follow");
      expect(quiet.code).toBe(0);
      expect(existsSync(opened)).toBe(false);
      const bad = await runCli(["auth", "--url", server.url, "--open", "maybe"], env);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("--open takes true or false");
    },
    60_000,
  );

  test("a token endpoint that echoes the authorization code and PKCE verifier: neither is printed", async () => {
    const server = await startFixture({ hostile: { token: "echo" } });
    const result = await runCli(["auth", "--url", server.url, "--no-open"], { XDG_CONFIG_HOME: tempDir() }, "follow");
    expect(result.code).toBe(3);
    const sent = (await server.stats()).tokenRequests.find((r) => r.grant_type === "authorization_code");
    expect(sent?.code?.length).toBeGreaterThan(8);
    expect(sent?.code_verifier?.length).toBeGreaterThanOrEqual(43);
    expect(result.stderr).toContain("does not match verifier");
    expectNoSecrets([result.stdout, result.stderr], [sent?.code as string, sent?.code_verifier as string]);
  }, 60_000);

  test("an authorization response with the wrong iss is refused (RFC 9207)", async () => {
    const server = await startFixture({ iss: "wrong" });
    const xdg = tempDir();
    const result = await runCli(["auth", "--url", server.url, "--no-open"], { XDG_CONFIG_HOME: xdg }, "follow");
    // The sign-in prompts come first; the error is one paragraph after them.
    const error = result.stderr.slice(result.stderr.indexOf("error: "));
    expectCleanFailure({ ...result, stderr: error }, 3);
    expect(error).toContain("RFC 9207");
    expect((await server.stats()).tokenRequests).toHaveLength(0);
  }, 60_000);

  /** Signed in, then the stored access token replaced by one the server never issued (and, if asked, no refresh token). */
  async function signedInWithRevokedToken(options: { refresh: boolean }) {
    const server = await startFixture();
    const xdg = tempDir();
    expect((await runCli(["auth", "--url", server.url, "--no-open"], { XDG_CONFIG_HOME: xdg }, "follow")).code).toBe(0);
    const file = credentialFiles(xdg)[0] as string;
    const revoked = "at-revoked-0123456789abcdef";
    const { refreshToken, ...stored } = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ ...stored, ...(options.refresh && { refreshToken }), accessToken: revoked }));
    return { server, xdg, file, revoked };
  }

  test("a stored token the server rejects: refreshed once and captured again", async () => {
    const { server, xdg, file, revoked } = await signedInWithRevokedToken({ refresh: true });
    const result = await runCli(["snapshot", "-o", "-", "--url", server.url, "--verbose"], { XDG_CONFIG_HOME: xdg });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("refused the stored OAuth token: refreshed it, capturing again");
    expect(JSON.parse(result.stdout).tools.map((t: { name: string }) => t.name)).toEqual(["read_notes"]);
    expect((await server.stats()).tokenRequests.filter((r) => r.grant_type === "refresh_token")).toHaveLength(1);
    const after = JSON.parse(readFileSync(file, "utf8"));
    expect(after.accessToken).not.toBe(revoked);
    expectNoSecrets([result.stdout, result.stderr], [revoked, after.accessToken, after.refreshToken]);
  }, 60_000);

  test("a stored token the server rejects, with no way to renew it: exit 3, sign in again", async () => {
    const { server, xdg, revoked } = await signedInWithRevokedToken({ refresh: false });
    const result = await runCli(["snapshot", "-o", "-", "--url", server.url], { XDG_CONFIG_HOME: xdg });
    expect((await server.stats()).tokenRequests.filter((r) => r.grant_type === "refresh_token")).toHaveLength(0);
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain(`stored OAuth token (signed in to ${server.issuer} with scopes notes:read)`);
    expect(result.stderr).toContain(`Sign in again with \`mcp-contract auth --url ${server.url}\``);
    expect(result.stderr).not.toContain(revoked);
  }, 60_000);

  test("check says when the baseline was captured with other OAuth scopes", async () => {
    const server = await startFixture();
    const xdg = tempDir();
    const env = { XDG_CONFIG_HOME: xdg };
    const signIn = (scope: string) =>
      runCli(["auth", "--url", server.url, "--no-open", "--scope", scope], env, "follow");
    expect((await signIn("notes:read notes:write")).code).toBe(0);
    const baseline = join(tempDir(), "mcp.contract.json");
    expect((await runCli(["snapshot", "-o", baseline, "--url", server.url], env)).code).toBe(0);
    expect(JSON.parse(readFileSync(baseline, "utf8")).capture.scopes).toEqual(["notes:read", "notes:write"]);
    // Signed in again with the read scope only: the write tool is gone, and the note says why it may be.
    expect((await signIn("notes:read")).code).toBe(0);
    const check = await runCli(["check", "--baseline", baseline, "--url", server.url], env);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('tool "write_note": removed');
    expect(check.stdout).toContain(
      "note: the baseline was captured with scopes notes:read notes:write; this capture had scope notes:read — the surface may depend on them.",
    );
    const json = await runCli(["check", "--baseline", baseline, "--url", server.url, "--format", "json"], env);
    expect(JSON.parse(json.stdout).environment).toEqual({
      baseline: { env: [], headers: [], scopes: ["notes:read", "notes:write"] },
      current: { env: [], headers: [], scopes: ["notes:read"] },
      message: expect.stringContaining("scope notes:read"),
    });
  }, 60_000);

  test("a pre-registered confidential client: no registration, its secret never printed", async () => {
    const secret = "desktop-secret-77c1d0";
    const server = await startFixture({
      clients: [{ id: "desktop", secret, redirectUris: ["http://127.0.0.1/callback"] }],
    });
    const xdg = tempDir();
    const result = await runCli(
      ["auth", "--url", server.url, "--no-open", "--client-id", "desktop", "--client-secret", secret],
      { XDG_CONFIG_HOME: xdg },
      "follow",
    );
    expect(result.code).toBe(0);
    const stats = await server.stats();
    expect(stats.registrations).toHaveLength(0);
    expect(stats.authorizations[0]?.client_id).toBe("desktop");
    const status = await runCli(["auth", "--status"], { XDG_CONFIG_HOME: xdg });
    expect(status.stdout).toContain("desktop (pre-registered, authorization code grant)");
    expectNoSecrets([result.stdout, result.stderr, status.stdout, status.stderr], [secret, ...storedTokens(xdg)]);
  }, 60_000);

  test("a client ID metadata document instead of registration, where the server supports them", async () => {
    const server = await startFixture({ cimd: true });
    const xdg = tempDir();
    const documentUrl = `${new URL(server.url).origin}/_client.json`;
    const result = await runCli(
      ["auth", "--url", server.url, "--no-open", "--client-metadata-url", documentUrl],
      { XDG_CONFIG_HOME: xdg },
      "follow",
    );
    expect(result.code).toBe(0);
    const stats = await server.stats();
    expect(stats.registrations).toHaveLength(0);
    expect(stats.authorizations[0]?.client_id).toBe(documentUrl);
    expect((await runCli(["auth", "--status"], { XDG_CONFIG_HOME: xdg })).stdout).toContain(
      `${documentUrl} (client ID metadata document, authorization code grant)`,
    );
  }, 60_000);

  test("a 403 insufficient_scope names the scope to sign in with", async () => {
    const server = await startFixture({ requireScope: "notes:write" });
    const xdg = tempDir();
    expect((await runCli(["auth", "--url", server.url, "--no-open"], { XDG_CONFIG_HOME: xdg }, "follow")).code).toBe(0);
    const result = await runCli(["snapshot", "-o", "-", "--url", server.url], { XDG_CONFIG_HOME: xdg });
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("it asks for scope notes:write");
    expect(result.stderr).toContain(`\`mcp-contract auth --url ${server.url} --scope "notes:read notes:write"\``);
    expectNoSecrets([result.stderr], storedTokens(xdg));
    // Signing in as told fixes it.
    const again = await runCli(
      ["auth", "--url", server.url, "--no-open", "--scope", "notes:read notes:write"],
      { XDG_CONFIG_HOME: xdg },
      "follow",
    );
    expect(again.code).toBe(0);
    expect((await runCli(["snapshot", "-o", "-", "--url", server.url], { XDG_CONFIG_HOME: xdg })).code).toBe(0);
  }, 60_000);

  test("an expired token whose refresh is refused: exit 3, sign in again", async () => {
    const server = await startFixture();
    const xdg = tempDir();
    expect((await runCli(["auth", "--url", server.url, "--no-open"], { XDG_CONFIG_HOME: xdg }, "follow")).code).toBe(0);
    const file = credentialFiles(xdg)[0] as string;
    const stale = {
      ...JSON.parse(readFileSync(file, "utf8")),
      expiresAt: Date.now() - 1000,
      refreshToken: "rt-stale-0123456789",
    };
    writeFileSync(file, JSON.stringify(stale));
    const result = await runCli(["snapshot", "-o", "-", "--url", server.url], { XDG_CONFIG_HOME: xdg });
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("has expired and could not be refreshed");
    expect(result.stderr).toContain("invalid_grant");
    expect(result.stderr).toContain(`Sign in again with \`mcp-contract auth --url ${server.url}\``);
    expectNoSecrets([result.stderr], [stale.accessToken, stale.refreshToken]);
  }, 60_000);

  test("a 2025-03-26 server without resource metadata: its origin is the authorization server", async () => {
    const server = await startFixture({ metadata: "none" });
    const xdg = tempDir();
    const check = await runCli(["auth", "--check", "--url", server.url], { XDG_CONFIG_HOME: xdg });
    expect(check.stdout).toContain("no resource metadata; 2025-03-26 fallback");
    const signIn = await runCli(["auth", "--url", server.url, "--no-open"], { XDG_CONFIG_HOME: xdg }, "follow");
    expect(signIn.code).toBe(0);
    expect((await server.stats()).authorizations[0]?.resource).toBe(server.url);
    const snap = await runCli(["snapshot", "-o", "-", "--url", server.url], { XDG_CONFIG_HOME: xdg });
    expect(snap.code).toBe(0);
  }, 60_000);

  test("authorization server metadata by OpenID Connect discovery", async () => {
    const server = await startFixture({ asMetadata: "oidc" });
    const check = await runCli(["auth", "--check", "--url", server.url], { XDG_CONFIG_HOME: tempDir() });
    expect(check.code).toBe(0);
    expect(check.stdout).toContain(`(metadata ${server.issuer}/.well-known/openid-configuration)`);
  }, 30_000);

  test("discovery from the root well-known metadata, when the 401 names none", async () => {
    const server = await startFixture({ metadata: "root" });
    const check = await runCli(["auth", "--check", "--url", server.url], { XDG_CONFIG_HOME: tempDir() });
    expect(check.code).toBe(0);
    expect(check.stdout).toContain(`${new URL(server.url).origin}/.well-known/oauth-protected-resource)`);
  }, 30_000);
});

describe("auth: CI", () => {
  test("client credentials from the environment, then a snapshot with the token", async () => {
    const server = await startFixture({ clients: [{ id: "ci-client", secret: CI_SECRET }] });
    const xdg = tempDir();
    const env = { XDG_CONFIG_HOME: xdg, MCP_CONTRACT_CLIENT_ID: "ci-client", MCP_CONTRACT_CLIENT_SECRET: CI_SECRET };
    const signIn = await runCli(["auth", "--url", server.url, "--client-credentials"], env);
    expect(signIn.stderr).toContain("signed in to");
    expect(signIn.code).toBe(0);
    const grant = (await server.stats()).tokenRequests.find((r) => r.grant_type === "client_credentials");
    expect(grant).toMatchObject({ resource: server.url, scope: "notes:read" });
    const snap = await runCli(["--verbose", "snapshot", "-o", "-", "--url", server.url], { XDG_CONFIG_HOME: xdg });
    expect(snap.code).toBe(0);
    expect(snap.stderr).toContain(`using the stored OAuth sign-in to ${server.issuer}`);
    expect(JSON.parse(snap.stdout).capture.scopes).toEqual(["notes:read"]);
    expectNoSecrets([signIn.stdout, signIn.stderr, snap.stdout, snap.stderr], [...storedTokens(xdg), CI_SECRET]);
  }, 60_000);

  test("a wrong client secret is exit 3 naming the server's answer", async () => {
    const server = await startFixture({ clients: [{ id: "ci-client", secret: CI_SECRET }] });
    const result = await runCli(
      [
        "auth",
        "--url",
        server.url,
        "--client-credentials",
        "--client-id",
        "ci-client",
        "--client-secret",
        "wrong-secret-value",
      ],
      { XDG_CONFIG_HOME: tempDir() },
    );
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("invalid_client");
    expect(result.stderr).not.toContain("wrong-secret-value");
  }, 30_000);

  test("--client-credentials without a client is a usage error", async () => {
    const server = await startFixture();
    const result = await runCli(["auth", "--url", server.url, "--client-credentials"], {
      XDG_CONFIG_HOME: tempDir(),
      MCP_CONTRACT_CLIENT_ID: "",
      MCP_CONTRACT_CLIENT_SECRET: "",
    });
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain("MCP_CONTRACT_CLIENT_ID");
  }, 30_000);
});

/** A failed sign-in's error paragraph (the prompts printed before it left out). */
function errorPart<T extends CliResult>(result: T): T {
  return { ...result, stderr: result.stderr.slice(result.stderr.indexOf("error: ")) };
}

/** Turn the fixture hostile from now on (the sign-in before it went normally). */
async function turnHostile(server: OAuthFixture, hostile: object): Promise<void> {
  const response = await fetch(`${server.issuer}/_hostile`, { method: "POST", body: JSON.stringify(hostile) });
  expect(response.status).toBe(200);
  await response.text();
}

/** Signed in (browser), then the stored access token marked expired, so that the next capture refreshes it. */
async function signedInExpired(server: OAuthFixture): Promise<{ xdg: string; file: string; stored: string }> {
  const xdg = tempDir();
  expect((await runCli(["auth", "--url", server.url, "--no-open"], { XDG_CONFIG_HOME: xdg }, "follow")).code).toBe(0);
  const file = credentialFiles(xdg)[0] as string;
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), expiresAt: Date.now() - 1000 }));
  return { xdg, file, stored: readFileSync(file, "utf8") };
}

describe("auth: every answer of the authorization side is bounded (#27)", () => {
  const prm = (s: OAuthFixture) => `${new URL(s.url).origin}/.well-known/oauth-protected-resource/mcp`;
  const asMetadata = (s: OAuthFixture) => `${s.issuer}/.well-known/oauth-authorization-server`;

  test.each([
    ["protected resource metadata", "prm", ["--check"], prm],
    ["authorization server metadata", "asMetadata", ["--check"], asMetadata],
    ["registration", "register", ["--no-open"], (s: OAuthFixture) => `${s.issuer}/register`],
    ["token", "token", ["--no-open"], (s: OAuthFixture) => `${s.issuer}/token`],
  ] as const)(
    "an endless %s answer is cut at 1 MiB: exit 3 naming the URL",
    async (_, endpoint, flags, urlOf) => {
      const server = await startFixture({ hostile: { [endpoint]: "flood" } });
      const result = await runCli(["auth", ...flags, "--url", server.url], { XDG_CONFIG_HOME: tempDir() }, "follow");
      expectCleanFailure(errorPart(result), 3);
      expect(result.stderr).toContain(
        `error: ${urlOf(server)} sent an OAuth answer larger than 1 MiB and was still sending`,
      );
      expect(result.ms).toBeLessThan(limit(10_000));
    },
    30_000,
  );

  test.each([
    ["stalls after its headers", "token", "stall", (s: OAuthFixture) => `${s.issuer}/token`],
    ["sends a byte at a time", "token", "trickle", (s: OAuthFixture) => `${s.issuer}/token`],
    ["metadata stalls", "asMetadata", "stall", asMetadata],
  ] as const)(
    "a token refresh during a capture obeys --timeout: the authorization server %s",
    async (_, endpoint, mode, urlOf) => {
      const server = await startFixture();
      const { xdg, file, stored } = await signedInExpired(server);
      await turnHostile(server, { [endpoint]: mode });
      const result = await runCli(["snapshot", "-o", "-", "--url", server.url, "--timeout", "2"], {
        XDG_CONFIG_HOME: xdg,
      });
      expectCleanFailure(result, 3);
      expect(result.stderr).toContain(
        `error: the stored sign-in for ${server.url} has expired and could not be refreshed at ${server.issuer}: ${urlOf(server)} did not finish answering within the --timeout of 2 s. Check that the authorization server is up, or allow more time with a larger --timeout; the stored sign-in was not changed.`,
      );
      expect(result.ms).toBeLessThan(limit(2000 + 4000));
      expect(readFileSync(file, "utf8")).toBe(stored);
    },
    30_000,
  );

  test("an endless revocation answer: logout still removes the sign-in, in bounded time", async () => {
    const server = await startFixture();
    const xdg = tempDir();
    expect((await runCli(["auth", "--url", server.url, "--no-open"], { XDG_CONFIG_HOME: xdg }, "follow")).code).toBe(0);
    await turnHostile(server, { revoke: "flood" });
    const logout = await runCli(["auth", "--logout", "--url", server.url], { XDG_CONFIG_HOME: xdg });
    expect(logout.code).toBe(0);
    expect(logout.stderr).toContain("revoking its tokens failed");
    expect(credentialFiles(xdg)).toHaveLength(0);
    expect(logout.ms).toBeLessThan(limit(10_000));
  }, 30_000);
});

describe("auth: plain http only on this machine (#27)", () => {
  test.each([
    ["token_endpoint", "token"],
    ["authorization_endpoint", "authorization"],
  ] as const)(
    "an http:// %s elsewhere is refused before anything is sent",
    async (field, key) => {
      // 192.0.2.1 (TEST-NET-1) routes nowhere: before the check, the sign-in went there and waited.
      const elsewhere = `http://192.0.2.1/${key}`;
      const server = await startFixture({ endpoints: { [key]: elsewhere } });
      const result = await runCli(
        ["auth", "--url", server.url, "--no-open", "--wait", "5"],
        { XDG_CONFIG_HOME: tempDir() },
        "follow",
      );
      expectCleanFailure(errorPart(result), 3);
      expect(result.stderr).toContain(
        `the authorization server ${server.issuer} names "${elsewhere}" as its ${field}, which is not an https:// address`,
      );
      expect(result.authorizeUrl).toBeUndefined();
      const stats = await server.stats();
      expect({ registrations: stats.registrations.length, authorizations: stats.authorizations.length }).toEqual({
        registrations: 0,
        authorizations: 0,
      });
      expect(result.ms).toBeLessThan(limit(5000));
    },
    60_000,
  );
});

describe("auth: the callback takes only this sign-in's answer (#27)", () => {
  test("other requests, a wrong or missing state, a missing code: an error page each, and the sign-in goes on", async () => {
    const server = await startFixture();
    const xdg = tempDir();
    const pages: Record<string, number> = {};
    const result = await runCli(
      ["auth", "--url", server.url, "--no-open"],
      { XDG_CONFIG_HOME: xdg },
      async (address) => {
        const authorize = new URL(address);
        const callback = authorize.searchParams.get("redirect_uri") as string;
        const state = authorize.searchParams.get("state") as string;
        // What another local program, or a web page open in the browser, could send first.
        for (const stray of [
          `${callback}?code=forged-code&state=not-the-state`,
          `${callback}?code=forged-code`,
          `${callback}?state=${state}`,
          `${callback}?error=access_denied&state=not-the-state`,
          `${new URL(callback).origin}/`,
        ]) {
          const page = await fetch(stray);
          pages[stray.replace(state, "STATE").replace(callback, "CALLBACK")] = page.status;
          await page.text();
        }
        // Then the real browser.
        const page = await fetch(address);
        pages.real = page.status;
        await page.text();
      },
    );
    expect(pages).toEqual({
      "CALLBACK?code=forged-code&state=not-the-state": 400,
      "CALLBACK?code=forged-code": 400,
      "CALLBACK?state=STATE": 400,
      "CALLBACK?error=access_denied&state=not-the-state": 400,
      [`${new URL(result.authorizeUrl as string).searchParams.get("redirect_uri")?.replace(/\/callback$/, "")}/`]: 404,
      real: 200,
    });
    expect(result.code).toBe(0);
    expect(result.stderr.match(/ignored a request to \/callback/g)).toHaveLength(4);
    expect(result.stderr).toContain(`signed in to ${server.issuer}`);
    const exchanges = (await server.stats()).tokenRequests.filter((r) => r.grant_type === "authorization_code");
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]?.code).not.toBe("forged-code");
  }, 60_000);
});

describe("auth: the token store refuses what others could touch (#27)", () => {
  test("a token file others may read, a shared store directory: exit 2 naming the path and the fix", async () => {
    const server = await startFixture();
    const xdg = tempDir();
    expect((await runCli(["auth", "--url", server.url, "--no-open"], { XDG_CONFIG_HOME: xdg }, "follow")).code).toBe(0);
    const file = credentialFiles(xdg)[0] as string;
    chmodSync(file, 0o644);
    const wide = await runCli(["snapshot", "-o", "-", "--url", server.url], { XDG_CONFIG_HOME: xdg });
    expectCleanFailure(wide, 2);
    expect(wide.stderr).toContain(`the token file ${file} has mode 0644, wider than 0600`);
    expect(wide.stderr).toContain(`chmod 600 ${file}`);
    expectNoSecrets([wide.stderr], storedTokens(xdg));
    chmodSync(file, 0o600);

    const dir = join(xdg, "mcp-contract", "credentials");
    chmodSync(dir, 0o777);
    const shared = await runCli(["auth", "--status"], { XDG_CONFIG_HOME: xdg });
    expectCleanFailure(shared, 2);
    expect(shared.stderr).toContain(`the sign-in store ${dir} is writable by other users (mode 0777)`);
    expect(shared.stderr).toContain(`chmod 700 ${dir}`);
    chmodSync(dir, 0o700);
    expect((await runCli(["snapshot", "-o", "-", "--url", server.url], { XDG_CONFIG_HOME: xdg })).code).toBe(0);
  }, 60_000);
});

/**
 * A real full disk: a 64 KiB tmpfs, filled. Only where root may mount one: probed (mounted and
 * unmounted) when the tests are collected, else the test is skipped. The test mounts its own
 * and always unmounts it, so that a filtered run leaves nothing mounted.
 */
function mountTinyTmpfs(): string | undefined {
  if (process.getuid?.() !== 0 || process.platform !== "linux") return undefined;
  const dir = tempDir("mcp-contract-full-");
  return spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]).status === 0 ? dir : undefined;
}

const canFillADisk = (() => {
  const probe = mountTinyTmpfs();
  if (probe) spawnSync("umount", [probe]);
  return probe !== undefined;
})();

describe("auth: a full disk while saving a credential (#27)", () => {
  test.if(canFillADisk)(
    "exit 2 with the cause and the fix, and no temporary file left",
    async () => {
      const xdg = mountTinyTmpfs() as string;
      try {
        const server = await startFixture({ clients: [{ id: "ci-client", secret: CI_SECRET }] });
        const dir = join(xdg, "mcp-contract", "credentials");
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        try {
          for (;;) appendFileSync(join(xdg, "filler"), Buffer.alloc(4096, 1));
        } catch (error) {
          expect((error as NodeJS.ErrnoException).code).toBe("ENOSPC");
        }
        const result = await runCli(["auth", "--url", server.url, "--client-credentials"], {
          XDG_CONFIG_HOME: xdg,
          MCP_CONTRACT_CLIENT_ID: "ci-client",
          MCP_CONTRACT_CLIENT_SECRET: CI_SECRET,
        });
        expectCleanFailure(result, 2);
        expect(result.stderr).toContain(`error: cannot save the sign-in in ${dir}: the disk is full (ENOSPC)`);
        expect(result.stderr).toContain(`sign in again with \`mcp-contract auth --url ${server.url}\``);
        expect(readdirSync(dir)).toEqual([]);
      } finally {
        spawnSync("umount", [xdg]);
      }
    },
    30_000,
  );
});
