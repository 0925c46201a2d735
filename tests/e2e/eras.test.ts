/**
 * Both protocol eras, against real servers written with the official v2 server SDK
 * (tests/fixtures/v2/server.ts: dual-era, modern-only and legacy-only, stdio and Streamable
 * HTTP on 127.0.0.1) and with SDK 1.x (tests/fixtures/fixture-server.ts: legacy only).
 * Runs the compiled binary when MCP_CONTRACT_BIN is set.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { limit } from "../helpers/clock.ts";
import {
  BUN,
  type CliResult,
  expectCleanFailure,
  FIXTURE_SERVER,
  type Listening,
  ROOT,
  runCli,
  startHttpFixture,
  startListening,
  tempDir,
} from "./e2e-helpers.ts";

const V2_SERVER = join(ROOT, "tests/fixtures/v2/server.ts");
const CASE_MS = 60_000;

/** The TARGET arguments that start the v2 fixture over stdio. */
const v2 = (...flags: string[]) => ["--", BUN, V2_SERVER, ...flags];

/** Start the v2 fixture over HTTP and return its /mcp URL. */
const startV2Http = (...flags: string[]): Promise<Listening> =>
  startListening([BUN, V2_SERVER, "--http", ...flags], { other: "inherit" });

const snapshot = (...args: string[]) => runCli(["snapshot", "-o", "-", ...args]);

/** A fresh lockfile of the v2 SDK server, captured in the modern era (its own temporary directory). */
async function modernLockfile(): Promise<string> {
  const lockfile = join(tempDir(), "mcp.contract.json");
  expect((await runCli(["snapshot", "-o", lockfile, "--era", "modern", ...v2()])).code).toBe(0);
  return lockfile;
}

interface Captured {
  protocolVersion: string;
  server: Record<string, unknown>;
  capabilities: Record<string, unknown>;
  instructions?: string;
  capture: { clientCapabilities: string[]; era?: string; supportedVersions?: string[]; legacy?: string };
  tools: { name: string; [key: string]: unknown }[];
  resources: { uri: string }[];
  resourceTemplates: { uriTemplate: string }[];
  prompts: { name: string }[];
}

interface ForecastTool {
  title: string;
  annotations: object;
  inputSchema: { properties: Record<string, object>; required: string[] };
  outputSchema: { properties: Record<string, { type: string }> };
}

function captured(result: CliResult): Captured {
  if (result.code !== 0) throw new Error(`capture failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout) as Captured;
}

let dualHttp: Listening;
let modernHttp: Listening;
let cursorHttp: Listening;
let legacyHttp: Listening;

beforeAll(async () => {
  [dualHttp, modernHttp, cursorHttp] = await Promise.all([
    startV2Http(),
    startV2Http("--modern-only"),
    startV2Http("--mode", "empty-cursor"),
  ]);
  const v1 = await startHttpFixture({});
  legacyHttp = { url: `${v1.url}/mcp`, stop: v1.stop };
});

afterAll(async () => {
  await Promise.all([dualHttp, modernHttp, cursorHttp, legacyHttp].map((s) => s?.stop()));
});

describe("a dual-era server (v2 SDK) is captured in each era, over stdio and HTTP", () => {
  test.concurrent(
    "each era over each transport: the whole surface, the era's facts, stdio and HTTP byte-identical",
    async () => {
      const [modernStdio, legacyStdio, modernUrl, legacyUrl, autoStdio, autoUrl] = await Promise.all([
        snapshot("--era", "modern", ...v2()),
        snapshot("--era", "legacy", ...v2()),
        snapshot("--era", "modern", "--url", dualHttp.url),
        snapshot("--era", "legacy", "--url", dualHttp.url),
        snapshot(...v2()),
        snapshot("--url", dualHttp.url),
      ]);
      const modern = captured(modernStdio);
      const legacy = captured(legacyStdio);
      expect(modern.protocolVersion).toBe("2026-07-28");
      expect(modern.capture).toEqual({ clientCapabilities: [], era: "modern", supportedVersions: ["2026-07-28"] });
      expect(legacy.protocolVersion).toBe("2025-11-25");
      expect(legacy.capture).toEqual({ clientCapabilities: [], era: "legacy" });

      for (const contract of [modern, legacy]) {
        // Server info from _meta["io.modelcontextprotocol/serverInfo"] (modern) or serverInfo (legacy).
        expect(contract.server).toEqual({ name: "v2-weather", title: "Weather (v2 SDK)", version: "2.4.0" });
        expect(contract.instructions).toBe("Call get_forecast before set_alert. Cities are English names.");
        expect(Object.keys(contract.capabilities).sort()).toEqual(["prompts", "resources", "tools"]);
        expect(contract.tools.map((t) => t.name)).toEqual(["get_forecast", "set_alert"]);
        const forecast = contract.tools[0] as unknown as ForecastTool;
        expect(forecast.title).toBe("Weather forecast");
        expect(forecast.annotations).toEqual({ openWorldHint: true, readOnlyHint: true });
        expect(forecast.inputSchema.properties.days).toMatchObject({ type: "integer", minimum: 1, maximum: 7 });
        expect(forecast.inputSchema.required).toEqual(["city"]);
        expect(forecast.outputSchema.properties.days?.type).toBe("array");
        expect(contract.resources.map((r) => r.uri)).toEqual(["weather://stations"]);
        expect(contract.resourceTemplates.map((r) => r.uriTemplate)).toEqual(["weather://city/{city}/today"]);
        expect(contract.prompts.map((p) => p.name)).toEqual(["packing_list"]);
        // Per-message _meta keys are not surface; vendor and extension keys are.
        expect(contract.tools[1]?._meta).toEqual({
          "com.example/owner": "weather-team",
          "io.modelcontextprotocol/ui": { resourceUri: "ui://weather/alert" },
        });
      }

      expect(modernUrl.stdout).toBe(modernStdio.stdout);
      expect(legacyUrl.stdout).toBe(legacyStdio.stdout);
      // auto: modern first, and nothing recorded about the setting.
      const auto = captured(autoStdio);
      expect(auto.protocolVersion).toBe("2026-07-28");
      expect(auto.capture).toEqual({ clientCapabilities: [], supportedVersions: ["2026-07-28"] });
      // Over HTTP in auto the capture also asks whether a legacy initialize is accepted; stdio cannot.
      expect(captured(autoUrl).capture.legacy).toBe("accepted");
      expect(autoUrl.stdout.replace(/,\n\s*"legacy": "accepted"/, "")).toBe(autoStdio.stdout);
      // What stdio could not ask is unknown, and unknown is never compared: no change either way.
      const dir = tempDir();
      const [stdioFile, httpFile] = [join(dir, "stdio.json"), join(dir, "http.json")];
      writeFileSync(stdioFile, autoStdio.stdout);
      writeFileSync(httpFile, autoUrl.stdout);
      const diffs = await Promise.all([
        runCli(["diff", stdioFile, httpFile, "--fail-on", "patch"]),
        runCli(["diff", httpFile, stdioFile, "--fail-on", "patch"]),
      ]);
      for (const result of diffs)
        expect([result.code, result.stdout]).toEqual([0, expect.stringContaining("no changes")]);
    },
    CASE_MS,
  );

  test.concurrent(
    "the two eras' lockfiles diff as no breaking and no minor change, in either direction",
    async () => {
      const dir = tempDir();
      const modern = join(dir, "modern.json");
      const legacy = join(dir, "legacy.json");
      const [m, l] = await Promise.all([
        runCli(["snapshot", "-o", modern, "--era", "modern", ...v2()]),
        runCli(["snapshot", "-o", legacy, "--era", "legacy", "--url", dualHttp.url]),
      ]);
      expect([m.code, l.code]).toEqual([0, 0]);
      for (const [before, after] of [
        [legacy, modern],
        [modern, legacy],
      ] as const) {
        const result = await runCli(["diff", before, after, "--fail-on", "minor", "--format", "json"]);
        expect(result.code).toBe(0);
        const report = JSON.parse(result.stdout) as { changes: { severity: string; rule: string }[] };
        expect(report.changes.filter((c) => c.severity === "breaking" || c.severity === "minor")).toEqual([]);
      }
      const text = await runCli(["diff", legacy, modern]);
      expect(text.stdout).toContain("no changes");
    },
    CASE_MS,
  );

  test.concurrent(
    "check against a modern server that no longer lists a protocol version of the baseline: breaking, exit 1",
    async () => {
      const lockfile = await modernLockfile();
      // The release before this one also spoke 2025-11-25 through server/discover.
      const baseline = JSON.parse(readFileSync(lockfile, "utf8")) as Captured;
      expect(baseline.capture.supportedVersions).toEqual(["2026-07-28"]);
      baseline.capture.supportedVersions = ["2026-07-28", "2025-11-25"];
      writeFileSync(lockfile, `${JSON.stringify(baseline, null, 2)}\n`);
      const result = await runCli(["check", "--baseline", lockfile, "--format", "json", ...v2()]);
      expect(result.code).toBe(1);
      const report = JSON.parse(result.stdout) as { changes: { severity: string; rule: string; before?: string }[] };
      expect(report.changes.map((c) => [c.rule, c.severity, c.before])).toEqual([
        ["protocol-version-support-dropped", "breaking", "2025-11-25"],
      ]);
    },
    CASE_MS,
  );

  test.concurrent(
    "auto: a dual-era server that starts slower than the probe's grace is still captured in the modern era, byte-identical",
    async () => {
      // The grace is 5 s at most; the server reads nothing for 8 s once loaded, so initialize is sent too
      // (3 s to spare: a loaded machine may start our side late, after the server began its wait).
      const [quick, slow] = await Promise.all([
        snapshot(...v2()),
        snapshot("--verbose", "--timeout", "30", ...v2("--slow-start", "8000")),
      ]);
      expect(slow.stderr).toContain("sending initialize as well");
      expect(slow.stderr).toContain("server/discover was answered late (a slow start): modern MCP 2026-07-28");
      expect(captured(slow).protocolVersion).toBe("2026-07-28");
      expect(slow.stdout).toBe(quick.stdout);
    },
    CASE_MS,
  );

  test.concurrent(
    "auto starts a stdio server once, whatever its era; only a server that exits on the probe is started again",
    async () => {
      const dir = tempDir();
      const count = (name: string) => readFileSync(join(dir, name), "utf8").trim().split("\n").length;
      const [dual, legacyOnly, exiting] = await Promise.all([
        snapshot(...v2("--starts", join(dir, "dual"))),
        snapshot(...v2("--legacy-only", "--starts", join(dir, "legacy"))),
        snapshot("--verbose", ...v2("--legacy-only", "--exit-on-probe", "--starts", join(dir, "exiting"))),
      ]);
      expect(captured(dual).protocolVersion).toBe("2026-07-28");
      expect(count("dual")).toBe(1);
      // A legacy server answers server/discover "Method not found"; initialize follows on the same connection.
      expect(captured(legacyOnly).protocolVersion).toBe("2025-11-25");
      expect(count("legacy")).toBe(1);
      expect(captured(exiting).tools.map((t) => t.name)).toEqual(["get_forecast", "set_alert"]);
      expect(count("exiting")).toBe(2);
      expect(exiting.stderr).toContain("exited before it answered server/discover; starting it again");
    },
    CASE_MS,
  );
});

describe("a modern-only server (legacy: 'reject')", () => {
  test.concurrent(
    "auto and --era modern capture it over stdio and HTTP, identically but for what only HTTP can ask",
    async () => {
      const [stdio, url, forced] = await Promise.all([
        snapshot(...v2("--modern-only")),
        snapshot("--url", modernHttp.url),
        snapshot("--era", "modern", "--url", modernHttp.url),
      ]);
      expect(captured(stdio).protocolVersion).toBe("2026-07-28");
      // Over HTTP in auto the capture asks whether a legacy initialize is accepted (legacy-probe.ts).
      expect(captured(url).capture.legacy).toBe("refused");
      expect(url.stdout.replace(/,\n\s*"legacy": "refused"/, "")).toBe(stdio.stdout);
      expect(captured(forced).capture.era).toBe("modern");
    },
    CASE_MS,
  );

  test.concurrent(
    "--era legacy exits 3 naming both eras and the --era that works, over stdio and HTTP",
    async () => {
      const [stdio, url] = await Promise.all([
        snapshot("--era", "legacy", ...v2("--modern-only")),
        snapshot("--era", "legacy", "--url", modernHttp.url),
      ]);
      for (const result of [stdio, url]) {
        expectCleanFailure(result, 3);
        expect(result.stderr).toContain("the server speaks modern MCP only (protocol 2026-07-28");
        expect(result.stderr).toContain('refused initialize with "Unsupported protocol version: 2025-11-25" (-32022)');
        expect(result.stderr).toContain("With --era legacy, mcp-contract speaks legacy MCP");
        expect(result.stderr).toContain("capture this server with --era modern, or with --era auto");
      }
    },
    CASE_MS,
  );
});

describe("a legacy-only server", () => {
  test.concurrent(
    "auto captures SDK 1.x and v2 legacy servers as before: legacy, nothing recorded about the era",
    async () => {
      const [v1Stdio, v1Url, v2Legacy] = await Promise.all([
        snapshot("--", BUN, FIXTURE_SERVER),
        snapshot("--url", legacyHttp.url),
        snapshot(...v2("--legacy-only")),
      ]);
      for (const result of [v1Stdio, v1Url, v2Legacy]) {
        const contract = captured(result);
        expect(contract.protocolVersion).toBe("2025-11-25");
        expect(contract.capture).toEqual({ clientCapabilities: [] });
      }
      expect(v1Url.stdout).toBe(v1Stdio.stdout);
    },
    CASE_MS,
  );

  test.concurrent(
    "--era modern exits 3 naming both eras and the --era that works, over stdio and HTTP",
    async () => {
      const [v1Stdio, v2Legacy, v1Url] = await Promise.all([
        snapshot("--era", "modern", "--", BUN, FIXTURE_SERVER),
        snapshot("--era", "modern", ...v2("--legacy-only")),
        snapshot("--era", "modern", "--url", legacyHttp.url),
      ]);
      for (const result of [v1Stdio, v2Legacy, v1Url]) {
        expectCleanFailure(result, 3);
        expect(result.stderr).toContain(
          "the server speaks legacy MCP (the initialize handshake, protocol 2025-11-25 and earlier) only",
        );
        expect(result.stderr).toContain("answered the modern server/discover request with");
        expect(result.stderr).toContain("With --era modern, mcp-contract speaks modern MCP");
        expect(result.stderr).toContain("capture this server with --era legacy, or with --era auto");
      }
      expect(v1Stdio.stderr).toContain('"Method not found" (-32601)');
      expect(v1Url.stderr).toContain("HTTP 400 and no MCP error in its body");
    },
    CASE_MS,
  );

  test.concurrent(
    "auto: a legacy server that ignores the probe gets initialize after the grace (half of --timeout here), with a warning; one that refuses it with id null is legacy at once",
    async () => {
      const started = performance.now();
      const [silent, nullId, forced] = await Promise.all([
        snapshot("--timeout", "8", ...v2("--legacy-only", "--probe", "ignore")),
        snapshot(...v2("--legacy-only", "--probe", "null-id")),
        snapshot("--era", "modern", "--timeout", "2", ...v2("--legacy-only", "--probe", "ignore")),
      ]);
      expect(captured(silent).protocolVersion).toBe("2025-11-25");
      // Half of what is left of --timeout 8 once the server is started: about 4 s.
      expect(silent.stderr).toMatch(
        /warning: the server did not answer server\/discover within [1-4]\.\d s, and initialize succeeded: captured in the legacy era/,
      );
      expect(silent.stderr).toContain("--era legacy skips the wait");
      expect(captured(nullId).protocolVersion).toBe("2025-11-25");
      expect(nullId.stderr).not.toContain("warning");
      expectCleanFailure(forced, 3);
      expect(forced.stderr).toContain("no answer to server/discover after 2 s");
      expect(forced.stderr).toContain("capture it with --era legacy or --era auto");
      expect(performance.now() - started).toBeLessThan(limit(20_000));
    },
    CASE_MS,
  );

  test.concurrent(
    "--era modern with --transport sse is a usage error (exit 2): SSE is legacy only",
    async () => {
      const result = await snapshot("--era", "modern", "--transport", "sse", "--url", legacyHttp.url);
      expectCleanFailure(result, 2);
      expect(result.stderr).toContain("--transport sse");
    },
    CASE_MS,
  );
});

describe("check captures in the baseline's era", () => {
  test.concurrent(
    "a baseline forced to an era is checked in that era; --era overrides it; no era recorded means auto",
    async () => {
      const dir = tempDir();
      const legacy = join(dir, "legacy.json");
      const modern = join(dir, "modern.json");
      const auto = join(dir, "auto.json");
      const made = await Promise.all([
        runCli(["snapshot", "-o", legacy, "--era", "legacy", ...v2()]),
        runCli(["snapshot", "-o", modern, "--era", "modern", ...v2()]),
        runCli(["snapshot", "-o", auto, ...v2()]),
      ]);
      expect(made.map((r) => r.code)).toEqual([0, 0, 0]);
      const [reusedLegacy, reusedModern, overridden, fromAuto] = await Promise.all([
        runCli(["check", "--verbose", "--baseline", legacy, ...v2()]),
        runCli(["check", "--verbose", "--baseline", modern, ...v2()]),
        runCli(["check", "--verbose", "--baseline", legacy, "--era", "modern", ...v2()]),
        runCli(["check", "--verbose", "--baseline", auto, ...v2()]),
      ]);
      for (const result of [reusedLegacy, reusedModern, overridden, fromAuto]) {
        expect(result.code).toBe(0);
        expect(result.stdout).toContain("no changes");
      }
      expect(reusedLegacy.stderr).toContain("→ initialize");
      expect(reusedLegacy.stderr).not.toContain("→ server/discover");
      expect(reusedModern.stderr).toContain("→ server/discover");
      expect(reusedModern.stderr).not.toContain("→ initialize");
      expect(overridden.stderr).toContain("→ server/discover");
      // auto: the probe, named as the start-up, then the modern verdict.
      expect(fromAuto.stderr).toContain("answered server/discover: modern MCP 2026-07-28");
    },
    CASE_MS,
  );

  test.concurrent(
    "--update keeps the recorded era; a baseline forced to modern fails against a legacy-only server with exit 3",
    async () => {
      const baseline = await modernLockfile();
      const updated = await runCli(["check", "--baseline", baseline, "--update", ...v2()]);
      expect(updated.code).toBe(0);
      expect((JSON.parse(readFileSync(baseline, "utf8")) as Captured).capture.era).toBe("modern");
      const moved = await runCli(["check", "--baseline", baseline, ...v2("--legacy-only")]);
      expectCleanFailure(moved, 3);
      expect(moved.stderr).toContain("capture this server with --era legacy");
    },
    CASE_MS,
  );

  test.concurrent(
    "a lockfile of the format before eras (no capture.era, a legacy protocol) checks against a modern capture as no change",
    async () => {
      const dir = tempDir();
      const old = join(dir, "old.json");
      const made = await runCli(["snapshot", "-o", old, "--era", "legacy", ...v2()]);
      expect(made.code).toBe(0);
      const text = readFileSync(old, "utf8");
      const contract = JSON.parse(text) as Captured;
      delete contract.capture.era;
      writeFileSync(old, `${JSON.stringify(contract, null, 2)}\n`);
      const result = await runCli(["check", "--baseline", old, "--fail-on", "patch", ...v2()]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("no changes");
    },
    CASE_MS,
  );
});

describe("modern-era capture keeps what the legacy capture guarantees", () => {
  test.concurrent(
    "an empty-string nextCursor is a cursor, not the end: every page, in both eras, over stdio and HTTP",
    async () => {
      const results = await Promise.all([
        snapshot("--era", "modern", ...v2("--mode", "empty-cursor")),
        snapshot("--era", "legacy", ...v2("--mode", "empty-cursor")),
        snapshot("--era", "modern", "--url", cursorHttp.url),
        snapshot("--era", "legacy", "--url", cursorHttp.url),
      ]);
      for (const result of results) {
        expect(captured(result).tools.map((t) => t.name)).toEqual(["page-1", "page-2", "page-3"]);
      }
    },
    CASE_MS,
  );

  test.concurrent(
    "list_changed during the capture arrives on subscriptions/listen and the list is taken again, over stdio and HTTP",
    async () => {
      const server = await startV2Http("--mode", "list-changed");
      try {
        const [stdio, url] = await Promise.all([
          snapshot("--era", "modern", "--verbose", ...v2("--mode", "list-changed")),
          snapshot("--era", "modern", "--verbose", "--url", server.url),
        ]);
        for (const result of [stdio, url]) {
          expect(result.stderr).toContain("→ subscriptions/listen");
          expect(result.stderr.match(/→ tools\/list\n/g)).toHaveLength(2);
          expect(captured(result).tools.map((t) => t.name)).toEqual(["get_forecast", "radar", "set_alert"]);
        }
      } finally {
        await server.stop();
      }
    },
    CASE_MS,
  );
});
