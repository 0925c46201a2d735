/** The pure pieces of the OAuth client: challenge parsing, config paths, pasted redirects, scope choice, expiry. */
import { describe, expect, test } from "bun:test";
import { isExpired } from "../../../src/auth/cached.ts";
import { clientAuthFor, plannedRegistration } from "../../../src/auth/client.ts";
import type { Discovery } from "../../../src/auth/discovery.ts";
import { isLoopback } from "../../../src/auth/http.ts";
import { parsePasted } from "../../../src/auth/loopback.ts";
import { chooseScope } from "../../../src/auth/signin.ts";
import { type Credential, configDir, credentialFileName, normalizeUrl } from "../../../src/auth/store.ts";
import { bearerHints, parseChallenges } from "../../../src/auth/www-authenticate.ts";

describe("WWW-Authenticate", () => {
  test.each([
    [
      'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="files:read"',
      { resourceMetadata: "https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope: "files:read" },
    ],
    ['Bearer realm="mcp", error="invalid_token", error_description="expired"', {}],
    ["Bearer", {}],
    ["", {}],
    // Another scheme first, with a token68; a quoted value with an escaped quote and a comma.
    [
      'Basic YWxhZGRpbjpvcGVuc2VzYW1l, Bearer scope="a b", resource_metadata="https://x.test/m?q=\\"1\\",2"',
      { resourceMetadata: 'https://x.test/m?q="1",2', scope: "a b" },
    ],
    // Case-insensitive scheme and parameter names; an unquoted token value.
    ["bearer Resource_Metadata=https://x.test/prm", { resourceMetadata: "https://x.test/prm" }],
    // Malformed: never throws.
    ['Bearer scope="unterminated', { scope: "unterminated" }],
  ])("%s", (header, expected) => {
    expect(bearerHints(header)).toEqual(expected);
  });

  test("several challenges keep their order and parameters", () => {
    expect(parseChallenges('DPoP algs="ES256", Bearer realm="r"')).toEqual([
      { scheme: "dpop", params: { algs: "ES256" } },
      { scheme: "bearer", params: { realm: "r" } },
    ]);
  });
});

describe("the config directory", () => {
  test.each([
    [{ XDG_CONFIG_HOME: "/x/cfg", HOME: "/home/u" }, "linux", "/x/cfg/mcp-contract"],
    [{ HOME: "/home/u" }, "linux", "/home/u/.config/mcp-contract"],
    // A relative XDG_CONFIG_HOME is invalid by the spec and ignored.
    [{ XDG_CONFIG_HOME: "rel", HOME: "/home/u" }, "linux", "/home/u/.config/mcp-contract"],
    [{ APPDATA: "C:/Users/u/AppData/Roaming" }, "win32", "C:/Users/u/AppData/Roaming/mcp-contract"],
  ] as const)("%o on %s", (env, platform, expected) => {
    expect(configDir(env as NodeJS.ProcessEnv, platform)).toBe(expected);
  });

  test("macOS: Application Support", () => {
    expect(configDir({}, "darwin")).toMatch(/\/Library\/Application Support\/mcp-contract$/);
  });

  test("file names are stable per issuer and resource, and reveal neither", () => {
    const a = credentialFileName("https://auth.example.com", "https://mcp.example.com/mcp");
    expect(a).toBe(credentialFileName("https://auth.example.com", "https://mcp.example.com/mcp"));
    expect(a).not.toBe(credentialFileName("https://auth.example.com", "https://mcp.example.com/other"));
    expect(a).toMatch(/^[0-9a-f]{24}\.json$/);
  });

  test("URLs compare without fragment or trailing slash", () => {
    expect(normalizeUrl("https://mcp.example.com/mcp/#x")).toBe("https://mcp.example.com/mcp");
    expect(normalizeUrl("https://MCP.example.com/")).toBe("https://mcp.example.com");
    expect(normalizeUrl("https://mcp.example.com/mcp?a=1")).toBe("https://mcp.example.com/mcp?a=1");
  });
});

describe("pasted redirects", () => {
  test.each([
    ["http://127.0.0.1:8765/callback?code=abc&state=xyz&iss=https%3A%2F%2Fa", "abc"],
    ["  http://127.0.0.1:8765/callback?code=abc&state=xyz  ", "abc"],
    ["code=abc&state=xyz", "abc"],
    ["?code=abc&state=xyz", "abc"],
  ])("%s", (line, code) => {
    expect(parsePasted(line)?.searchParams.get("code")).toBe(code);
  });

  test("an error response is taken too, to be reported", () => {
    expect(parsePasted("http://127.0.0.1:1/callback?error=access_denied&state=s")?.searchParams.get("error")).toBe(
      "access_denied",
    );
  });

  test.each(["", "hello", "https://example.com/", "state=only"])("not a redirect: %j", (line) => {
    expect(parsePasted(line)).toBeUndefined();
  });
});

describe("choices", () => {
  const discovery = (probeScope?: string, supported: string[] = []) =>
    ({ probe: { status: 401, scope: probeScope }, scopesSupported: supported }) as unknown as Discovery;

  test("scope: --scope, else the 401's, else everything supported, else none", () => {
    expect(chooseScope(discovery("a", ["a", "b"]), "c d")).toBe("c d");
    expect(chooseScope(discovery("a", ["a", "b"]), undefined)).toBe("a");
    expect(chooseScope(discovery(undefined, ["a", "b"]), undefined)).toBe("a b");
    expect(chooseScope(discovery(), undefined)).toBeUndefined();
    expect(chooseScope(discovery("a"), "  ")).toBeUndefined();
  });

  test("registration: pre-registered, then a metadata document where supported, then dynamic", () => {
    const as = { issuer: "https://a", registration_endpoint: "https://a/register" };
    expect(plannedRegistration(as, { clientId: "x" })).toBe("pre-registered");
    expect(plannedRegistration(as, { clientMetadataUrl: "https://c/m.json" })).toBe("dynamic");
    expect(
      plannedRegistration({ ...as, client_id_metadata_document_supported: true }, { clientMetadataUrl: "https://c/m" }),
    ).toBe("metadata-document");
    expect(plannedRegistration({ issuer: "https://a" }, {})).toBeUndefined();
  });

  test("client authentication follows the stored method", () => {
    expect(typeof clientAuthFor("none", undefined)).toBe("function");
    expect(clientAuthFor("client_secret_post", "s")).not.toBe(clientAuthFor("client_secret_basic", "s"));
  });

  test("expiry: a minute's margin; no expiry never expires", () => {
    const base = { expiresAt: 1_000_000 } as Credential;
    expect(isExpired(base, 1_000_000 - 61_000)).toBe(false);
    expect(isExpired(base, 1_000_000 - 59_000)).toBe(true);
    expect(isExpired({} as Credential, 1e15)).toBe(false);
    // A token that lives 10 s: expired after half of it.
    const short = { obtainedAt: 0, expiresAt: 10_000 } as Credential;
    expect(isExpired(short, 4_900)).toBe(false);
    expect(isExpired(short, 5_000)).toBe(true);
  });

  test("plain http is allowed only on this machine", () => {
    for (const url of ["http://127.0.0.1:1/", "http://localhost/", "http://[::1]:8/", "http://127.1.2.3/"]) {
      expect(isLoopback(new URL(url))).toBe(true);
    }
    for (const url of ["http://10.0.0.1/", "http://example.com/", "http://127.0.0.1.example.com/"]) {
      expect(isLoopback(new URL(url))).toBe(false);
    }
  });
});
