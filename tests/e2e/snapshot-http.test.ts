/**
 * `mcp-contract snapshot --url`: Streamable HTTP, legacy HTTP+SSE, auth, and every way an
 * HTTP endpoint can be wrong, with secrets (bearer tokens, header values) never printed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  expectCleanFailure,
  freePort,
  listDir,
  RICH,
  readLockfile,
  runCli,
  snapshotFixture,
  startHttpFixture,
  tempDir,
} from "./e2e-helpers.ts";

const TOKEN = "tok-9f3a1c77e2-bearer";
const SECRET = "hdr-5be0d1a4-secret-value";

type Fixture = Awaited<ReturnType<typeof startHttpFixture>>;
let http: Fixture;
let sse: Fixture;
let bearer: Fixture;
let forbidden: Fixture;
let hang: Fixture;
let sseBearer: Fixture;
/** The stdio capture of RICH, to compare the HTTP captures with. */
let stdioLockfile: string;
const seen: { path: string; headers: Record<string, string> }[] = [];
let notFound: ReturnType<typeof Bun.serve>;
let html: ReturnType<typeof Bun.serve>;
let echo: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  const dir = tempDir();
  [http, sse, bearer, forbidden, hang, sseBearer] = await Promise.all([
    startHttpFixture(RICH),
    startHttpFixture({ ...RICH, transport: "sse" }),
    startHttpFixture({ bearer: TOKEN }),
    startHttpFixture({ forbidden: true }),
    startHttpFixture({ mode: "hang" }),
    startHttpFixture({ transport: "sse", bearer: TOKEN }),
  ]);
  const stdio = await snapshotFixture(RICH, join(dir, "stdio.json"));
  if (stdio.code !== 0) throw new Error(`stdio capture failed: ${stdio.stderr}`);
  // The stdio capture records the name of the --env FIXTURE it was given; the HTTP captures were given none.
  stdioLockfile = readFileSync(join(dir, "stdio.json"), "utf8").replace(',\n    "env": [\n      "FIXTURE"\n    ]', "");
  const record = (req: Request) => {
    seen.push({ path: new URL(req.url).pathname, headers: Object.fromEntries(req.headers) });
  };
  notFound = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => {
      record(req);
      return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain" } });
    },
  });
  html = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => new Response("<!doctype html><title>Dashboard</title>", { headers: { "content-type": "text/html" } }),
  });
  // A server that quotes the credentials it got back in its error body, as some do.
  echo = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) =>
      new Response(`invalid credentials: ${req.headers.get("authorization")} ${req.headers.get("x-secret")}`, {
        status: 500,
        headers: { "content-type": "text/plain" },
      }),
  });
});

afterAll(async () => {
  await Promise.all([http, sse, bearer, forbidden, hang, sseBearer].filter(Boolean).map((f) => f.stop()));
  for (const server of [notFound, html, echo]) server?.stop(true);
});

function snapshotUrl(url: string, extra: string[] = [], env?: Record<string, string>) {
  const dir = tempDir();
  const out = join(dir, "c.json");
  return runCli(["snapshot", "-o", out, "--url", url, ...extra], { env }).then((result) => ({ ...result, dir, out }));
}

function expectNoSecrets(result: { stdout: string; stderr: string }, ...secrets: string[]): void {
  for (const secret of secrets) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
}

describe("Streamable HTTP and legacy SSE", () => {
  test.concurrent("Streamable HTTP captures the same surface as stdio, byte for byte", async () => {
    const result = await snapshotUrl(`${http.url}/mcp`);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`→ ${result.out}`);
    expect(readLockfile(result.out).tools).toEqual(JSON.parse(stdioLockfile).tools);
    expect(readFileSync(result.out, "utf8")).toBe(stdioLockfile);
  });

  test.concurrent("--transport sse captures a legacy HTTP+SSE server", async () => {
    const result = await snapshotUrl(`${sse.url}/sse`, ["--transport", "sse"]);
    expect(result.code).toBe(0);
    expect(readFileSync(result.out, "utf8")).toBe(stdioLockfile);
  });

  // Regression: the fallback never happens. openHttp() already turns the SDK error into a
  // ServerError (explainHttpError), and httpStatus() cannot read a status from a
  // ServerError, so openSession() rethrows "answered HTTP 405" instead of trying SSE.
  // Reproduce: a legacy SSE server, then `mcp-contract snapshot --url http://HOST/sse`.
  test("--url …/sse on a legacy server falls back from Streamable HTTP to SSE", async () => {
    const result = await snapshotUrl(`${sse.url}/sse`, ["--verbose"]);
    expect(result.stderr).toContain("trying the legacy HTTP+SSE transport");
    expect(result.code).toBe(0);
    expect(readFileSync(result.out, "utf8")).toBe(stdioLockfile);
  });

  test.concurrent("--transport http on a legacy server: exit 3 with the HTTP status", async () => {
    const result = await snapshotUrl(`${sse.url}/sse`, ["--transport", "http"]);
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("405");
    expect(listDir(result.dir)).toEqual([]);
  });

  test.concurrent("a hanging HTTP server: exit 3 after --timeout, naming initialize", async () => {
    const result = await snapshotUrl(`${hang.url}/mcp`, ["--timeout", "2"]);
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("no answer to initialize after 2 s");
    expect(listDir(result.dir)).toEqual([]);
  });
});

describe("authentication", () => {
  test.concurrent("no token: exit 3, 401, says to pass --bearer", async () => {
    const result = await snapshotUrl(`${bearer.url}/mcp`);
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("401");
    expect(result.stderr).toContain("--bearer");
    expect(listDir(result.dir)).toEqual([]);
  });

  test.concurrent("--bearer TOKEN works, and the token is not printed", async () => {
    const result = await snapshotUrl(`${bearer.url}/mcp`, ["--bearer", TOKEN, "--verbose"]);
    expect(result.code).toBe(0);
    expect(readLockfile(result.out).tools).toHaveLength(3);
    expectNoSecrets(result, TOKEN);
    expect(readFileSync(result.out, "utf8")).not.toContain(TOKEN);
  });

  test.concurrent("MCP_CONTRACT_BEARER works like --bearer", async () => {
    const result = await snapshotUrl(`${bearer.url}/mcp`, [], { MCP_CONTRACT_BEARER: TOKEN });
    expect(result.code).toBe(0);
    expect(readLockfile(result.out).tools).toHaveLength(3);
    expectNoSecrets(result, TOKEN);
  });

  test.concurrent("a wrong token: exit 3, says the credentials were rejected, never prints it", async () => {
    const wrong = "tok-wrong-4d2c9e8b";
    for (const verbose of [[], ["--verbose"]]) {
      const result = await snapshotUrl(`${bearer.url}/mcp`, ["--bearer", wrong, ...verbose]);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain("401");
      expect(result.stderr).toContain("rejected");
      expectNoSecrets(result, wrong);
      if (!verbose.length) expectCleanFailure(result, 3);
    }
    const fromEnv = await snapshotUrl(`${bearer.url}/mcp`, ["--verbose"], { MCP_CONTRACT_BEARER: wrong });
    expect(fromEnv.code).toBe(3);
    expectNoSecrets(fromEnv, wrong);
  });

  test.concurrent("legacy SSE with --bearer works; the token reaches the event stream GET too", async () => {
    const result = await snapshotUrl(`${sseBearer.url}/sse`, ["--transport", "sse", "--bearer", TOKEN]);
    expect(result.code).toBe(0);
    expect(readLockfile(result.out).tools).toHaveLength(3);
    expectNoSecrets(result, TOKEN);
  });

  // Regression: httpStatus() only trusts `code` on errors named "SseError", but the SDK's SseError
  // keeps the default name "Error", so a 401 (or 403, 404) on the SSE stream gets the
  // generic "talking to URL failed: SSE error: Non-200 status code (401)" with no hint.
  // Reproduce: an SSE server needing a token, then
  // `mcp-contract snapshot --transport sse --url http://HOST/sse`.
  test("--transport sse without a needed token says to pass --bearer", async () => {
    const result = await snapshotUrl(`${sseBearer.url}/sse`, ["--transport", "sse"]);
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("401");
    expect(result.stderr).toContain("--bearer");
  });

  test.concurrent("403: exit 3 with a Forbidden message", async () => {
    const result = await snapshotUrl(`${forbidden.url}/mcp`);
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("403 Forbidden");
    expect(listDir(result.dir)).toEqual([]);
  });

  test.concurrent("--header values are sent but never printed, even with --verbose", async () => {
    const url = `http://127.0.0.1:${notFound.port}/secret-probe`;
    const result = await snapshotUrl(url, ["--header", `X-Secret: ${SECRET}`, "--verbose"]);
    expect(result.code).toBe(3);
    expectNoSecrets(result, SECRET);
    // The header did go out, so the check above is not vacuous.
    expect(seen.some((r) => r.path === "/secret-probe" && r.headers["x-secret"] === SECRET)).toBe(true);

    const ok = await snapshotUrl(`${http.url}/mcp`, ["--header", `X-Secret: ${SECRET}`, "--verbose"]);
    expect(ok.code).toBe(0);
    expectNoSecrets(ok, SECRET);
  });

  // Regression: main.ts prints CliErrors through a fresh `new Ui(...)` that never got the secrets
  // registered by captureTarget(), so an error message quoting the server's response body
  // shows the bearer token and header values; --verbose also prints error.stack unredacted.
  // Reproduce: a server answering 500 "invalid credentials: <Authorization header>", then
  // `mcp-contract snapshot --url http://HOST/mcp --bearer TOKEN`.
  test("a server that echoes the credentials in its error does not make us print them", async () => {
    const url = `http://127.0.0.1:${echo.port}/mcp`;
    for (const verbose of [[], ["--verbose"]]) {
      const result = await snapshotUrl(url, ["--bearer", TOKEN, "--header", `X-Secret: ${SECRET}`, ...verbose]);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain("500");
      expectNoSecrets(result, TOKEN, SECRET);
    }
  });
});

describe("endpoints that are not MCP servers", () => {
  test.concurrent("connection refused until --timeout: exit 3, saying how long it waited", async () => {
    const port = freePort();
    const result = await snapshotUrl(`http://127.0.0.1:${port}/mcp`, ["--timeout", "2"]);
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("connection refused, for 2.0 s (the --timeout)");
    expect(result.stderr).toContain(`127.0.0.1:${port}`);
    expect(listDir(result.dir)).toEqual([]);
  });

  test.concurrent("a server that starts listening a moment later is waited for (server & check in CI)", async () => {
    const port = freePort();
    const capture = snapshotUrl(`http://127.0.0.1:${port}/mcp`, ["--timeout", "20"]);
    await Bun.sleep(1_500);
    const server = await startHttpFixture({ port });
    try {
      const result = await capture;
      expect(result.stderr).not.toContain("error");
      expect(result.code).toBe(0);
      expect(listDir(result.dir)).toEqual(["c.json"]);
    } finally {
      await server.stop();
    }
  });

  test.concurrent("404 everywhere: exit 3 mentioning 404", async () => {
    const result = await snapshotUrl(`http://127.0.0.1:${notFound.port}/mcp`);
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("404");
    expect(result.stderr).toContain(`http://127.0.0.1:${notFound.port}/mcp`);
    expect(listDir(result.dir)).toEqual([]);
  });

  test.concurrent("an HTML page: exit 3, not an MCP endpoint", async () => {
    const result = await snapshotUrl(`http://127.0.0.1:${html.port}/mcp`);
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("text/html");
    expect(result.stderr).toContain("not an MCP endpoint");
    expect(listDir(result.dir)).toEqual([]);
  });

  test.concurrent("--transport sse on a 404 or an HTML page: exit 3 naming the problem", async () => {
    const [missing, page] = await Promise.all([
      snapshotUrl(`http://127.0.0.1:${notFound.port}/sse`, ["--transport", "sse"]),
      snapshotUrl(`http://127.0.0.1:${html.port}/sse`, ["--transport", "sse"]),
    ]);
    expectCleanFailure(missing, 3);
    expect(missing.stderr).toContain("404");
    expectCleanFailure(page, 3);
    expect(page.stderr).toContain("text/event-stream");
  });

  test.concurrent("a URL that is not http(s), or not a URL: exit 2", async () => {
    const [ftp, junk] = await Promise.all([snapshotUrl("ftp://127.0.0.1/mcp"), snapshotUrl("not a url")]);
    expectCleanFailure(ftp, 2);
    expect(ftp.stderr).toContain("http://");
    expectCleanFailure(junk, 2);
    expect(junk.stderr).toContain("not a valid URL");
  });
});
