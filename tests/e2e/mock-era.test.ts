/**
 * The mock tells the truth about the era (issue #29, item 1), against real servers: the v2 SDK
 * fixture (tests/fixtures/v2/server.ts) served dual-era and modern-only (`legacy: 'reject'`)
 * over Streamable HTTP on 127.0.0.1 and over stdio, and the mock itself. A modern capture over
 * HTTP records `capture.legacy`: "refused" for the modern-only server, "accepted" for the
 * dual-era one; the mock of each answers a legacy initialize exactly as its server did, and
 * capturing it over HTTP reproduces the lockfile byte for byte. Captures that could not ask
 * (stdio, --era modern) record nothing, and diff never compares that unknown with an answer.
 * Runs the compiled binary when MCP_CONTRACT_BIN is set.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cliCommand, type Listening, startListening } from "../helpers/cli.ts";
import { limit } from "../helpers/clock.ts";
import { BUN, expectMockCapture, ROOT, runCli, tempDir } from "./e2e-helpers.ts";

const V2_SERVER = join(ROOT, "tests/fixtures/v2/server.ts");
const CASE_MS = 60_000;

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "legacy-consumer", version: "1" } },
};

/** A 2025 client's first POST: initialize without a session. */
async function postInitialize(url: string): Promise<{ status: number; body: { error?: unknown; result?: unknown } }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify(INITIALIZE),
  });
  const text = await response.text();
  // A dual-era server may answer in an SSE event; the JSON is its data line.
  const json = text.startsWith("{") ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? "{}");
  return { status: response.status, body: JSON.parse(json) };
}

const dir = tempDir();
const modernOnlyLock = join(dir, "modern-only.json");
const dualLock = join(dir, "dual.json");
const modernOnlyStdioLock = join(dir, "modern-only-stdio.json");
let modernOnly: Listening;
let dual: Listening;

beforeAll(async () => {
  [modernOnly, dual] = await Promise.all([
    startListening([BUN, V2_SERVER, "--http", "--modern-only"]),
    startListening([BUN, V2_SERVER, "--http"]),
  ]);
  const made = await Promise.all([
    runCli(["snapshot", "-q", "-o", modernOnlyLock, "--url", modernOnly.url]),
    runCli(["snapshot", "-q", "-o", dualLock, "--url", dual.url]),
  ]);
  expect(made.map((r) => r.code)).toEqual([0, 0]);
}, CASE_MS);

afterAll(async () => {
  await Promise.all([modernOnly?.stop(), dual?.stop()]);
});

const captureOf = (file: string) => JSON.parse(readFileSync(file, "utf8")).capture;

describe("a modern capture over HTTP asks whether the legacy era is served", () => {
  test('the modern-only server: capture.legacy is "refused"', () => {
    expect(captureOf(modernOnlyLock)).toEqual({
      clientCapabilities: [],
      supportedVersions: ["2026-07-28"],
      legacy: "refused",
    });
  });

  test('the dual-era server: capture.legacy is "accepted"', () => {
    expect(captureOf(dualLock)).toEqual({
      clientCapabilities: [],
      supportedVersions: ["2026-07-28"],
      legacy: "accepted",
    });
  });

  test.concurrent(
    "--era modern does not ask, and stdio cannot tell: nothing recorded for the modern-only server, and diff with the HTTP capture sees no change either way",
    async () => {
      const [forced, stdio] = await Promise.all([
        runCli(["snapshot", "-q", "-o", "-", "--era", "modern", "--url", modernOnly.url]),
        runCli(["snapshot", "-q", "-o", modernOnlyStdioLock, "--", BUN, V2_SERVER, "--modern-only"]),
      ]);
      expect([forced.code, stdio.code]).toEqual([0, 0]);
      expect(JSON.parse(forced.stdout).capture.legacy).toBeUndefined();
      expect(captureOf(modernOnlyStdioLock).legacy).toBeUndefined();
      // Unknown (stdio, or a lockfile written before the question) beside "refused": not a change.
      const diffs = await Promise.all([
        runCli(["diff", modernOnlyStdioLock, modernOnlyLock, "--format", "json", "--fail-on", "patch"]),
        runCli(["diff", modernOnlyLock, modernOnlyStdioLock, "--format", "json", "--fail-on", "patch"]),
      ]);
      for (const result of diffs) {
        expect({ code: result.code, changes: JSON.parse(result.stdout).changes }).toEqual({ code: 0, changes: [] });
      }
    },
    CASE_MS,
  );
});

describe("the mock answers initialize as the captured server did", () => {
  test.concurrent(
    "modern-only over HTTP: the same 400 and error; capturing the mock reproduces the lockfile byte for byte",
    async () => {
      const mock = await startListening([...cliCommand(), "mock", "--http", "--contract", modernOnlyLock], {
        on: "stderr",
      });
      try {
        const [real, mocked] = await Promise.all([postInitialize(modernOnly.url), postInitialize(mock.url)]);
        expect(real.status).toBe(400);
        expect(mocked).toEqual(real);
        const again = await runCli(["snapshot", "-q", "-o", "-", "--url", mock.url]);
        expect(again.code).toBe(0);
        expectMockCapture("modern-only", again.stdout, readFileSync(modernOnlyLock, "utf8"));
        // A 2025 client is told the server speaks modern MCP only, as by the real server.
        const legacy = await runCli(["snapshot", "-q", "-o", "-", "--era", "legacy", "--url", mock.url]);
        expect(legacy.code).toBe(3);
        expect(legacy.stderr).toContain("the server speaks modern MCP only");
      } finally {
        await mock.stop();
      }
    },
    CASE_MS,
  );

  test.concurrent(
    'dual-era ("accepted") over HTTP: both eras are served, and the capture is reproduced with "accepted"',
    async () => {
      const mock = await startListening([...cliCommand(), "mock", "--http", "--contract", dualLock], { on: "stderr" });
      try {
        const mocked = await postInitialize(mock.url);
        expect(mocked.status).toBe(200);
        expect(mocked.body.result).toMatchObject({ protocolVersion: "2025-11-25" });
        const [again, legacy, overStdio] = await Promise.all([
          runCli(["snapshot", "-q", "-o", "-", "--url", mock.url]),
          runCli(["snapshot", "-q", "-o", "-", "--era", "legacy", "--url", mock.url]),
          runCli(["snapshot", "-q", "-o", "-", "--", ...cliCommand(), "mock", "--contract", dualLock]),
        ]);
        const lockfile = readFileSync(dualLock, "utf8");
        expect(JSON.parse(again.stdout).capture.legacy).toBe("accepted");
        expectMockCapture("dual", again.stdout, lockfile);
        // Over stdio the capture cannot ask, so the line is not written; the rest is the same.
        expectMockCapture("dual over stdio", overStdio.stdout, lockfile.replace(/,\n\s*"legacy": "accepted"/, ""));
        expect(legacy.code).toBe(0);
        expect(JSON.parse(legacy.stdout).protocolVersion).toBe("2025-11-25");
      } finally {
        await mock.stop();
      }
    },
    CASE_MS,
  );

  test.concurrent(
    "modern-only over stdio: the mock refuses initialize with the server's error",
    async () => {
      const proc = Bun.spawn([...cliCommand(), "mock", "--contract", modernOnlyLock], {
        stdin: "pipe",
        stdout: "pipe",
        stderr: "ignore",
      });
      proc.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
      await proc.stdin.end();
      const line = (await new Response(proc.stdout).text()).split("\n")[0] as string;
      await proc.exited;
      expect(JSON.parse(line)).toEqual({
        jsonrpc: "2.0",
        id: 1,
        error: {
          code: -32022,
          message: "Unsupported protocol version: 2025-11-25",
          data: { supported: ["2026-07-28"], requested: "2025-11-25" },
        },
      });
    },
    CASE_MS,
  );
});

describe("diff", () => {
  test.concurrent(
    "accepted -> refused (a server that dropped the legacy era) is breaking (exit 1 with --fail-on breaking); refused -> accepted is minor",
    async () => {
      const [dropped, added] = await Promise.all([
        runCli(["diff", dualLock, modernOnlyLock, "--format", "json", "--fail-on", "breaking"]),
        runCli(["diff", modernOnlyLock, dualLock, "--format", "json", "--fail-on", "breaking"]),
      ]);
      expect(dropped.code).toBe(1);
      const rules = (r: { stdout: string }) =>
        (JSON.parse(r.stdout).changes as { rule: string; severity: string }[]).map((c) => [c.rule, c.severity]);
      expect(rules(dropped)).toEqual([["legacy-era-dropped", "breaking"]]);
      expect(added.code).toBe(0);
      expect(rules(added)).toEqual([["legacy-era-added", "minor"]]);
    },
    CASE_MS,
  );
});

/**
 * A modern server over real HTTP (Bun.serve on 127.0.0.1) whose legacy side never answers:
 * initialize is left hanging, as a broken or overloaded legacy fallback might.
 */
function hangingLegacyServer() {
  const meta = { "io.modelcontextprotocol/serverInfo": { name: "hangs-on-initialize", version: "1" } };
  const results: Record<string, object> = {
    "server/discover": { supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, _meta: meta },
    "tools/list": { tools: [{ name: "t", inputSchema: { type: "object" } }] },
  };
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const message = (await request.json()) as { id?: unknown; method: string };
      if (message.method === "initialize") return new Promise<Response>(() => {});
      if (message.id === undefined) return new Response(null, { status: 202 });
      const result = results[message.method];
      const body = result
        ? { jsonrpc: "2.0", id: message.id, result: { ...result, resultType: "complete" } }
        : { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } };
      return Response.json(body);
    },
  });
}

describe("a probe that gets no answer", () => {
  test.concurrent(
    "never fails the capture, records nothing, and does not hold the capture until --timeout",
    async () => {
      const server = hangingLegacyServer();
      try {
        const started = performance.now();
        // --timeout 20: a probe left unbounded would hold the capture until then.
        const result = await runCli(["snapshot", "-v", "--timeout", "20", "-o", "-", "--url", `${server.url.href}mcp`]);
        const took = performance.now() - started;
        expect(result.code).toBe(0);
        expect(JSON.parse(result.stdout).capture).toEqual({
          clientCapabilities: [],
          supportedVersions: ["2026-07-28"],
        });
        expect(result.stderr).toContain("got no clear answer");
        expect(took).toBeLessThan(limit(10_000));
      } finally {
        server.stop(true);
      }
    },
    CASE_MS,
  );
});
