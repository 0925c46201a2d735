/**
 * The OAuth client's bounds (#27), in-process against a real hostile authorization server on
 * 127.0.0.1: a refresh that obeys its deadline (the capture's --timeout) whether the token
 * endpoint stalls or trickles, an endless answer cut at 1 MiB, plain-http endpoints elsewhere
 * refused, and a refresh lock held by another process given up at the deadline.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { discoverIssuer } from "../../../src/auth/discovery.ts";
import { AUTH_MAX_RESPONSE_BYTES, AuthLimitError, deadlineIn } from "../../../src/auth/http.ts";
import { refreshCredential } from "../../../src/auth/signin.ts";
import type { Credential } from "../../../src/auth/store.ts";
import { withLock } from "../../../src/auth/store.ts";
import { limit } from "../../helpers/clock.ts";

type Mode = "ok" | "stall" | "trickle" | "flood";

/** An authorization server whose metadata and token endpoint behave as `modes` says (changeable between tests). */
const modes: { metadata: Mode; token: Mode; endpoints: Record<string, string> } = {
  metadata: "ok",
  token: "ok",
  endpoints: {},
};

function misbehave(res: ServerResponse, mode: Mode): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.flushHeaders();
  let open = true;
  res.on("close", () => {
    open = false;
  });
  if (mode === "trickle") {
    const timer = setInterval(() => (open ? res.write(" ") : clearInterval(timer)), 100);
  } else if (mode === "flood") {
    const chunk = Buffer.alloc(64 * 1024, " ");
    const pump = () => {
      while (open && res.write(chunk)) {}
      if (open) res.once("drain", pump);
    };
    pump();
  }
}

const server = createServer((req, res) => {
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (req.url === "/.well-known/oauth-authorization-server") {
    if (modes.metadata !== "ok") return misbehave(res, modes.metadata);
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        issuer,
        token_endpoint: `${issuer}/token`,
        response_types_supported: ["code"],
        ...modes.endpoints,
      }),
    );
    return;
  }
  if (req.url === "/token") {
    if (modes.token !== "ok") return misbehave(res, modes.token);
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ access_token: "at-new", token_type: "Bearer", expires_in: 60 }));
    return;
  }
  res.writeHead(404).end();
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const ISSUER = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function expired(): Credential {
  return {
    version: 1,
    issuer: ISSUER,
    resource: "http://127.0.0.1:1/mcp",
    url: "http://127.0.0.1:1/mcp",
    grant: "authorization_code",
    registration: "dynamic",
    clientId: "c1",
    clientAuth: "none",
    accessToken: "at-old",
    refreshToken: "rt-old",
    expiresAt: 1,
    scopes: [],
    createdAt: 1,
  };
}

/** The AuthLimitError `run` rejects with, and how long it took. */
async function limited(run: () => Promise<unknown>): Promise<{ error: AuthLimitError; ms: number }> {
  const started = performance.now();
  const error = await run().then(
    () => new Error("it did not fail"),
    (e: unknown) => e,
  );
  if (!(error instanceof AuthLimitError)) throw error;
  return { error, ms: performance.now() - started };
}

describe("a refresh obeys its deadline (a capture's --timeout)", () => {
  test.each(["stall", "trickle"] as const)(
    "the token endpoint's answer %ss: given up at the deadline",
    async (mode) => {
      Object.assign(modes, { metadata: "ok", token: mode, endpoints: {} });
      const { error, ms } = await limited(() =>
        refreshCredential(expired(), deadlineIn(800, "the --timeout of 0.8 s")),
      );
      expect(error.message).toBe(
        `${ISSUER}/token did not finish answering within the --timeout of 0.8 s. Check that the authorization server is up, or allow more time with a larger --timeout.`,
      );
      expect(error.exitCode).toBe(3);
      expect(ms).toBeGreaterThanOrEqual(700);
      expect(ms).toBeLessThan(limit(3000));
    },
  );

  test("the metadata stalls: the same deadline covers discovery", async () => {
    Object.assign(modes, { metadata: "stall", token: "ok", endpoints: {} });
    const { error, ms } = await limited(() => discoverIssuer(ISSUER, deadlineIn(500, "the --timeout of 0.5 s")));
    expect(error.fact).toBe(
      `${ISSUER}/.well-known/oauth-authorization-server did not finish answering within the --timeout of 0.5 s`,
    );
    expect(ms).toBeLessThan(limit(3000));
  });
});

describe("answers are size-limited", () => {
  test("an endless metadata answer is cut at 1 MiB", async () => {
    Object.assign(modes, { metadata: "flood", token: "ok", endpoints: {} });
    const { error } = await limited(() => discoverIssuer(ISSUER));
    expect(AUTH_MAX_RESPONSE_BYTES).toBe(1024 * 1024);
    expect(error.fact).toBe(
      `${ISSUER}/.well-known/oauth-authorization-server sent an OAuth answer larger than 1 MiB and was still sending`,
    );
  });

  test("an endless token answer is cut at 1 MiB", async () => {
    Object.assign(modes, { metadata: "ok", token: "flood", endpoints: {} });
    const { error } = await limited(() => refreshCredential(expired(), undefined));
    expect(error.fact).toBe(`${ISSUER}/token sent an OAuth answer larger than 1 MiB and was still sending`);
  });
});

describe("plain http only on this machine", () => {
  test.each([
    ["token_endpoint", "http://192.0.2.1/token", "refused"],
    ["authorization_endpoint", "http://mcp.example.com/authorize", "refused"],
    ["registration_endpoint", "ftp://127.0.0.1/register", "refused"],
    ["revocation_endpoint", "http://127.0.0.1.example.com/revoke", "refused"],
    ["token_endpoint", "http://localhost:1/token", "accepted"],
    ["token_endpoint", "http://[::1]:1/token", "accepted"],
    ["authorization_endpoint", "http://127.8.9.10/authorize", "accepted"],
    ["token_endpoint", "https://as.example.com/token", "accepted"],
  ] as const)("%s %s: %s", async (field, value, verdict) => {
    Object.assign(modes, { metadata: "ok", token: "ok", endpoints: { [field]: value } });
    const outcome = await discoverIssuer(ISSUER).then(
      () => "accepted",
      (e: Error) => e.message,
    );
    if (verdict === "accepted") expect(outcome).toBe("accepted");
    else expect(outcome).toContain(`names ${JSON.stringify(value)} as its ${field}, which is not an https:// address`);
  });
});

describe("the refresh lock", () => {
  test("held by another process past the deadline: given up, naming the lock", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "auth-lock-")), "abc.json");
    writeFileSync(`${path}.lock`, "");
    let ran = false;
    const { error, ms } = await limited(() =>
      withLock(
        path,
        async () => {
          ran = true;
        },
        deadlineIn(300, "the --timeout of 0.3 s"),
      ),
    );
    expect(ran).toBe(false);
    expect(error.message).toContain(
      `another mcp-contract was refreshing the same stored sign-in (it holds ${path}.lock) and did not finish within the --timeout of 0.3 s`,
    );
    expect(error.message).toContain(`rm ${path}.lock`);
    expect(ms).toBeLessThan(limit(3000));
  });
});
