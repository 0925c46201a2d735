/**
 * replay and can-i-deploy end to end, against real servers: the v2-SDK weather server whose next
 * version retypes a field, removes one, starts failing or changes nothing (stdio and Streamable
 * HTTP, both eras), the v1-SDK fixture server (a call that hangs, a call now refused, a tool that
 * is gone; stdio and HTTP), and server-everything's read-only tools. Recordings are in the format
 * `mock --record` writes; one is made by `mock --record` itself.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import {
  BUN,
  type CliResult,
  cliCommand,
  fixtureTarget,
  type Listening,
  ROOT,
  runCli,
  startHttpFixture,
  startListening,
  tempDir,
} from "../helpers/cli.ts";

const V2 = join(ROOT, "tests/fixtures/v2/server.ts");
const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const dir = tempDir("mcp-contract-replay-");

const line = (method: string, params: object, answer: object, era = "modern") =>
  JSON.stringify({ time: "2026-08-01T00:00:00.000Z", era, method, params, ...answer });

/** What a consumer of the weather server recorded (the answers of its current version). */
const WEATHER = [
  line(
    "tools/call",
    { name: "get_forecast", arguments: { city: "Oslo" } },
    {
      result: {
        content: [{ type: "text", text: "{}" }],
        structuredContent: { city: "Oslo", days: [{ date: "2026-08-01", highC: 21, lowC: 12, summary: "rain" }] },
      },
    },
  ),
  line(
    "prompts/get",
    { name: "packing_list", arguments: { city: "Oslo" } },
    { result: { messages: [{ role: "user", content: { type: "text", text: "Pack for Oslo" } }] } },
  ),
  line("tools/call", { name: "set_alert", arguments: { city: "Oslo", aboveC: 30 } }, { result: { content: [] } }),
].join("\n");
const weatherCalls = join(dir, "weather-app.jsonl");
writeFileSync(weatherCalls, `${WEATHER}\n`);

const v2 = (variant: string, ...flags: string[]) => ["--", BUN, V2, "--forecast", variant, ...flags];

const startV2Http = (variant: string, ...flags: string[]): Promise<Listening> =>
  startListening([BUN, V2, "--http", "--forecast", variant, ...flags]);

const json = (stdout: string) =>
  JSON.parse(stdout) as {
    result: string;
    sections: {
      consumer: string;
      calls: {
        target: string;
        status: string;
        reason?: string;
        findings: { kind: string; path?: string; before?: string; after?: string }[];
      }[];
    }[];
  };

describe("replay against the v2-SDK weather server's next versions", () => {
  test.concurrent("stdio, modern era: unchanged keeps every call; retyped, removed and failing each break get_forecast alone", async () => {
    const run = (variant: string) =>
      runCli([
        "replay",
        "--calls",
        weatherCalls,
        "--allow",
        "set_alert",
        "--format",
        "json",
        "--era",
        "modern",
        ...v2(variant),
      ]);
    const [same, retyped, removed, failing] = (await Promise.all(
      ["same", "retyped", "removed", "failing"].map(run),
    )) as [CliResult, CliResult, CliResult, CliResult];
    expect(same.stderr).toBe("");
    expect(same.code).toBe(0);
    expect(json(same.stdout).sections[0]?.calls.map((c) => c.status)).toEqual(["kept", "kept", "kept"]);

    expect(retyped.code).toBe(1);
    const [forecast, prompt, alert] = json(retyped.stdout).sections[0]?.calls ?? [];
    expect(forecast?.findings).toEqual([
      expect.objectContaining({
        kind: "replay-type-changed",
        path: "/structuredContent/days/*/highC",
        before: "number",
        after: "string",
      }),
    ]);
    expect([prompt?.status, alert?.status]).toEqual(["kept", "kept"]);

    expect(removed.code).toBe(1);
    expect(json(removed.stdout).sections[0]?.calls[0]?.findings).toEqual([
      expect.objectContaining({
        kind: "replay-field-missing",
        path: "/structuredContent/days/*/lowC",
        before: "number",
      }),
    ]);
    expect(failing.code).toBe(1);
    expect(json(failing.stdout).sections[0]?.calls[0]?.findings[0]?.kind).toBe("replay-call-failed");
  });

  test.concurrent("modern Streamable HTTP: an x-mcp-header argument is mirrored into Mcp-Param-*, which the v2 SDK requires", async () => {
    const server = await startV2Http("same", "--mode", "mcp-header");
    const file = join(dir, "regional.jsonl");
    writeFileSync(
      file,
      `${line(
        "tools/call",
        { name: "regional_forecast", arguments: { region: "eu-west é", city: "Oslo" } },
        { result: { content: [{ type: "text", text: "Oslo" }], structuredContent: { city: "Oslo", summary: "rain" } } },
      )}\n`,
    );
    try {
      const result = await runCli(["replay", "--calls", file, "--url", server.url, "--era", "modern"]);
      expect(result.stdout).toContain("✓ tools/call regional_forecast");
      expect(result.code).toBe(0);
    } finally {
      await server.stop();
    }
  });

  test.concurrent("legacy era over stdio, and Streamable HTTP: the retyped field is caught the same way", async () => {
    const server = await startV2Http("retyped");
    try {
      const [legacy, http] = await Promise.all([
        runCli(["replay", "--calls", weatherCalls, "--era", "legacy", ...v2("retyped")]),
        runCli(["replay", "--calls", weatherCalls, "--url", server.url]),
      ]);
      expect(legacy.stdout).toContain("3 calls were recorded in the modern era and replayed in the legacy era");
      for (const result of [legacy, http]) {
        expect(result.code).toBe(1);
        expect(result.stdout).toContain("/structuredContent/days/*/highC was number when recorded and is now string");
        // set_alert is not read-only and was not named: skipped, with the reason.
        expect(result.stdout).toContain("name it with --allow set_alert");
      }
    } finally {
      await server.stop();
    }
  });
});

test.concurrent("a 2026 tool whose outputSchema is an array: its items' shape is judged; --exact also compares values", async () => {
  const file = join(dir, "forecast-days.jsonl");
  writeFileSync(
    file,
    `${line(
      "tools/call",
      { name: "forecast_days", arguments: { region: "eu-west", city: "Oslo", days: 3 } },
      {
        result: {
          content: [{ type: "text", text: "[]" }],
          structuredContent: [{ date: "2026-07-01", summary: "rain" }],
        },
      },
    )}\n`,
  );
  const run = (...flags: string[]) =>
    runCli([
      "replay",
      "--calls",
      file,
      "--allow",
      "forecast_days",
      "--allow-destructive",
      "--format",
      "json",
      ...flags,
      "--",
      BUN,
      V2,
      "--mode",
      "surface-2026",
    ]);
  const [shape, exact] = await Promise.all([run(), run("--exact")]);
  expect(shape.code).toBe(0);
  expect(exact.code).toBe(1);
  expect(json(exact.stdout).sections[0]?.calls[0]?.findings.map((f) => [f.kind, f.path])).toEqual([
    ["replay-value-changed", "/structuredContent/0/date"],
    ["replay-value-changed", "/structuredContent/0/summary"],
  ]);
});

describe("replay against the v1-SDK fixture server", () => {
  const tools = ["slow", "fine", "refused", "retyped"].map((name) => ({
    name,
    inputSchema: { type: "object" },
    annotations: { readOnlyHint: true },
  }));
  const callResults = {
    slow: { hang: true },
    refused: { rpcError: "city is required now" },
    fine: { content: [{ type: "text", text: "ok" }], structuredContent: { n: 2.5 } },
    retyped: { content: [{ type: "text", text: "ok" }], structuredContent: { n: "2" } },
  };
  const recorded = (name: string) =>
    line(
      "tools/call",
      { name, arguments: {} },
      { result: { content: [{ type: "text", text: "ok" }], structuredContent: { n: 1 } } },
      "legacy",
    );
  const file = join(dir, "fixture-consumer.jsonl");
  writeFileSync(file, `${["slow", "fine", "refused", "gone", "retyped"].map(recorded).join("\n")}\n`);

  test.concurrent("stdio: a hanging call times out alone, a refused call, a gone tool and a retyped field are each found", async () => {
    const result = await runCli([
      "replay",
      "--calls",
      file,
      "--call-timeout",
      "1",
      "--format",
      "json",
      ...fixtureTarget({ tools, callResults }),
    ]);
    expect(result.code).toBe(1);
    const calls = json(result.stdout).sections[0]?.calls ?? [];
    expect(calls.map((c) => [c.target, c.status, c.findings[0]?.kind])).toEqual([
      ["slow", "broken", "replay-timeout"],
      // An integer recorded, a fraction now: both are numbers.
      ["fine", "kept", undefined],
      ["refused", "broken", "replay-call-refused"],
      ["gone", "broken", "replay-target-gone"],
      ["retyped", "broken", "replay-type-changed"],
    ]);
    expect(result.stderr).not.toContain("    at ");
  });

  test.concurrent("Streamable HTTP: the same judgement; --dry-run sends nothing and says what would be sent", async () => {
    const server = await startHttpFixture({ tools, callResults });
    try {
      const [live, dry] = await Promise.all([
        runCli(["replay", "--calls", file, "--call-timeout", "1", "--url", `${server.url}/mcp`, "--format", "junit"]),
        runCli(["replay", "--calls", file, "--dry-run", "--url", `${server.url}/mcp`]),
      ]);
      expect(live.code).toBe(1);
      // One test case per recorded call; four of the five fail.
      expect(live.stdout.match(/<testcase /g)?.length).toBe(5);
      expect(live.stdout).toContain('failures="4"');
      expect(dry.stdout).toContain('would send tools/call {"name":"slow","arguments":{}}');
      // Only the gone tool is a verdict without sending anything.
      expect(dry.code).toBe(1);
    } finally {
      await server.stop();
    }
  });
});

test.concurrent("server-everything: its read-only tools, a prompt and a resource are replayed and kept; others are skipped", async () => {
  const file = join(dir, "everything.jsonl");
  const text = (t: string) => ({ result: { content: [{ type: "text", text: t }] } });
  writeFileSync(
    file,
    [
      line("tools/call", { name: "echo", arguments: { message: "hi" } }, text("Echo: hi"), "legacy"),
      line("tools/call", { name: "get-sum", arguments: { a: 1, b: 2 } }, text("The sum of 1 and 2 is 3."), "legacy"),
      line(
        "tools/call",
        { name: "get-structured-content", arguments: { location: "New York" } },
        {
          result: {
            content: [{ type: "text", text: "{}" }],
            structuredContent: { temperature: 33, conditions: "Cloudy", humidity: 82 },
          },
        },
        "legacy",
      ),
      line("tools/call", { name: "toggle-simulated-logging", arguments: {} }, text("on"), "legacy"),
      line(
        "prompts/get",
        { name: "simple-prompt" },
        { result: { messages: [{ role: "user", content: { type: "text", text: "x" } }] } },
        "legacy",
      ),
    ].join("\n"),
  );
  const result = await runCli(["replay", "--calls", file, "--format", "json", "--", "node", EVERYTHING, "stdio"]);
  expect(result.code).toBe(0);
  const calls = json(result.stdout).sections[0]?.calls ?? [];
  expect(calls.map((c) => c.status)).toEqual(["kept", "kept", "kept", "skipped", "kept"]);
  expect(calls[3]?.reason).toContain("--allow toggle-simulated-logging");
});

describe("can-i-deploy", () => {
  const consumers = join(dir, "consumers");
  const app = join(consumers, "weather-app");
  const bot = join(consumers, "packing-bot");
  mkdirSync(app, { recursive: true });
  mkdirSync(bot, { recursive: true });
  writeFileSync(join(app, "consumer.json"), JSON.stringify({ name: "weather-app", environments: ["production"] }));
  writeFileSync(join(app, "calls.jsonl"), `${WEATHER.split("\n")[0]}\n`);
  writeFileSync(
    join(bot, "consumer.json"),
    JSON.stringify({ name: "packing-bot", environments: ["staging", "production"] }),
  );
  writeFileSync(join(bot, "calls.jsonl"), `${WEATHER.split("\n")[1]}\n`);
  const baseline = join(dir, "weather.contract.json");
  const next = join(dir, "weather-next.contract.json");

  test.concurrent("two consumers in different environments: only the one deployed there decides", async () => {
    const [snap, snapNext] = await Promise.all([
      runCli(["snapshot", "-o", baseline, ...v2("same")]),
      runCli(["snapshot", "-o", next, ...v2("retyped")]),
    ]);
    expect([snap.code, snapNext.code]).toEqual([0, 0]);
    const common = ["can-i-deploy", "--consumers", consumers, "--baseline", baseline];
    const [staging, production, offline] = await Promise.all([
      runCli([...common, "--to", "staging", ...v2("retyped")]),
      runCli([...common, "--to", "production", "--format", "junit", ...v2("retyped")]),
      runCli([...common, "--to", "production", "--against", next, "--format", "json"]),
    ]);
    expect(staging.code).toBe(0);
    expect(staging.stdout).toContain("packing-bot: ok");
    expect(staging.stdout).not.toContain("weather-app");

    expect(production.code).toBe(1);
    // One suite per consumer, one test case per recorded call (plus the surface case).
    expect(production.stdout).toContain('<testsuite name="packing-bot"');
    expect(production.stdout).toContain('<testsuite name="weather-app"');
    expect(production.stdout).toContain('name="tools/call get_forecast');
    expect(production.stdout).toContain("replay-type-changed");

    // Without a live server: the schema judgement alone (the outputSchema's highC changed type).
    expect(offline.code).toBe(1);
    const report = JSON.parse(offline.stdout) as { sections: { consumer: string; result: string }[] };
    const ajv = new Ajv2020({ strict: false });
    const documented = JSON.parse(readFileSync(join(ROOT, "docs/replay-report.schema.json"), "utf8"));
    expect(ajv.validate(documented, report) ? "" : ajv.errorsText(ajv.errors)).toBe("");
    expect(report.sections.map((s) => [s.consumer, s.result])).toEqual([
      ["packing-bot", "pass"],
      ["weather-app", "fail"],
    ]);
  });

  test.concurrent("bad input: an unknown environment, a manifest typo, a truncated recording (exit 2, named)", async () => {
    const typo = join(dir, "typo");
    mkdirSync(join(typo, "c"), { recursive: true });
    writeFileSync(join(typo, "c", "consumer.json"), JSON.stringify({ name: "c", enviroments: ["production"] }));
    const truncated = join(dir, "truncated.jsonl");
    writeFileSync(truncated, `${WEATHER.split("\n")[1]}\n${(WEATHER.split("\n")[0] as string).slice(0, 60)}\n`);
    const edited = join(dir, "edited.jsonl");
    writeFileSync(edited, `${WEATHER.split("\n")[1]}\n${line("tools/call", { arguments: {} }, { result: {} })}\n`);
    const lockfile = join(ROOT, "examples/weather.contract.json");
    const [handEdited, missing] = await Promise.all([
      runCli(["replay", "--calls", edited, "--dry-run", "--against", lockfile]),
      runCli(["replay", "--calls", join(dir, "nowhere.jsonl"), "--dry-run", "--against", lockfile]),
    ]);
    expect(handEdited.code).toBe(2);
    expect(handEdited.stderr).toContain('edited.jsonl:2: a tools/call whose params have no string "name"');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("nowhere.jsonl: no such file or directory");
    const [env, manifest, cut] = await Promise.all([
      runCli(["can-i-deploy", "--to", "prod", "--consumers", consumers, "--against", lockfile, "--baseline", lockfile]),
      runCli([
        "can-i-deploy",
        "--to",
        "production",
        "--consumers",
        typo,
        "--against",
        lockfile,
        "--baseline",
        lockfile,
      ]),
      runCli(["replay", "--calls", truncated, "--dry-run", "--against", lockfile]),
    ]);
    expect(env.code).toBe(2);
    expect(env.stderr).toContain("no consumer under");
    expect(env.stderr).toContain("production, staging");
    expect(manifest.code).toBe(2);
    expect(manifest.stderr).toContain('unknown key "enviroments"');
    expect(cut.code).toBe(2);
    expect(cut.stderr).toContain("truncated.jsonl, line 2, is not valid JSON");
    for (const r of [env, manifest, cut]) expect(r.stderr).not.toContain("    at ");
  });
});

test.concurrent("a recording made by mock --record replays against the server it mocks", async () => {
  const lockfile = join(dir, "mocked.contract.json");
  const recording = join(dir, "mocked.jsonl");
  expect((await runCli(["snapshot", "-o", lockfile, ...v2("same")])).code).toBe(0);
  // The consumer's test: one call to the mock over stdio, recorded.
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const cli = cliCommand();
  const client = new Client({ name: "consumer", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: cli[0] as string,
      args: [...cli.slice(1), "mock", "--contract", lockfile, "--record", recording],
    }),
  );
  await client.callTool({ name: "get_forecast", arguments: { city: "Oslo" } });
  await client.close();
  expect(readFileSync(recording, "utf8")).toContain('"tools/call"');
  const result = await runCli(["replay", "--calls", recording, ...v2("same")]);
  expect(result.stdout).toContain("✓ tools/call get_forecast");
});
