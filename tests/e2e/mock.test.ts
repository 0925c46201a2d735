/**
 * `mcp-contract mock`, driven by the official SDK clients (v2 `@modelcontextprotocol/client`
 * in both eras, SDK 1.x `Client` in the legacy one) over stdio and Streamable HTTP: capturing
 * the mock reproduces the contract byte for byte in each era, tools/call validates arguments
 * and answers with results that conform to the outputSchema, resources and prompts are
 * served, and --record writes every exchange. Runs the compiled binary when MCP_CONTRACT_BIN is set.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Stdio1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import Ajv2020 from "ajv/dist/2020";
import { cliCommand } from "../helpers/cli.ts";
import { BUN, ROOT, runCli, tempDir } from "./e2e-helpers.ts";

const V2_SERVER = join(ROOT, "tests/fixtures/v2/server.ts");
const CASE_MS = 60_000;
const ERAS = ["legacy", "modern"] as const;
type EraName = (typeof ERAS)[number];

const dir = tempDir("mock-e2e-");
const contractOf: Record<EraName, string> = { legacy: join(dir, "legacy.json"), modern: join(dir, "modern.json") };

interface Running {
  url: string;
  stderr: () => string;
  stop: () => Promise<number>;
}

/** Start `mcp-contract mock --http` and wait for the URL it prints on stderr. */
async function startMockHttp(...args: string[]): Promise<Running> {
  const proc = Bun.spawn([...cliCommand(), "mock", "--http", ...args], {
    stdout: "ignore",
    stderr: "pipe",
    stdin: "ignore",
  });
  const reader = proc.stderr.getReader();
  let text = "";
  const deadline = Date.now() + 15_000;
  while (!/listening (\S+)/.test(text)) {
    if (Date.now() > deadline) throw new Error(`mock did not start: ${text}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`mock exited before listening: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return {
    url: (/listening (\S+)/.exec(text) as RegExpExecArray)[1] as string,
    stderr: () => text,
    stop: async () => {
      proc.kill("SIGTERM");
      return proc.exited;
    },
  };
}

const mockArgs = (era: EraName, ...extra: string[]) => ["mock", "--contract", contractOf[era], ...extra];

beforeAll(async () => {
  for (const era of ERAS) {
    const result = await runCli(["snapshot", "--era", era, "-o", contractOf[era], "--", BUN, V2_SERVER]);
    expect(result.stderr).toContain("captured");
    expect(result.code).toBe(0);
  }
}, CASE_MS);

describe("capturing the mock reproduces the contract byte for byte", () => {
  for (const era of ERAS) {
    test(
      `${era} era, over stdio`,
      async () => {
        const out = join(dir, `stdio-${era}.json`);
        const result = await runCli(["snapshot", "--era", era, "-o", out, "--", ...cliCommand(), ...mockArgs(era)]);
        expect(result.code).toBe(0);
        expect(readFileSync(out, "utf8")).toBe(readFileSync(contractOf[era], "utf8"));
      },
      CASE_MS,
    );

    test(
      `${era} era, over Streamable HTTP`,
      async () => {
        const mock = await startMockHttp("--contract", contractOf[era]);
        try {
          const out = join(dir, `http-${era}.json`);
          const result = await runCli(["snapshot", "--era", era, "-o", out, "--url", mock.url]);
          expect(result.code).toBe(0);
          expect(readFileSync(out, "utf8")).toBe(readFileSync(contractOf[era], "utf8"));
        } finally {
          await mock.stop();
        }
      },
      CASE_MS,
    );
  }

  test(
    "a large surface is paginated and still reproduced",
    async () => {
      const big = JSON.parse(readFileSync(contractOf.legacy, "utf8"));
      const tool = big.tools[1];
      big.tools = Array.from({ length: 250 }, (_, i) => ({ ...tool, name: `tool_${String(i).padStart(3, "0")}` }));
      const source = join(dir, "big.json");
      writeFileSync(source, `${JSON.stringify(big, null, 2)}\n`);
      const out = join(dir, "big-out.json");
      const result = await runCli([
        "snapshot",
        "--era",
        "legacy",
        "-o",
        out,
        "--",
        ...cliCommand(),
        "mock",
        "--contract",
        source,
        "--page-size",
        "40",
      ]);
      expect(result.code).toBe(0);
      expect(JSON.parse(readFileSync(out, "utf8")).tools).toEqual(big.tools);
    },
    CASE_MS,
  );
});

type AnyClient = {
  listTools(): Promise<{ tools: unknown[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<Record<string, unknown>>;
  readResource(params: { uri: string }): Promise<{ contents: Array<Record<string, unknown>> }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{ messages: unknown[] }>;
  close(): Promise<void>;
};

interface Setup {
  name: string;
  era: EraName;
  connect: (record?: string) => Promise<{ client: AnyClient; done: () => Promise<void> }>;
}

const v2Options = (era: EraName) => (era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});

const setups: Setup[] = [];
for (const era of ERAS) {
  setups.push({
    name: `SDK v2 client, ${era} era, stdio`,
    era,
    connect: async (record) => {
      const client = new Client({ name: "consumer", version: "1.0.0" }, v2Options(era) as never);
      const [command, ...args] = cliCommand();
      const extra = record ? ["--record", record] : [];
      await client.connect(
        new StdioClientTransport({ command: command as string, args: [...args, ...mockArgs(era, ...extra)] }),
      );
      return { client: client as unknown as AnyClient, done: () => client.close() };
    },
  });
  setups.push({
    name: `SDK v2 client, ${era} era, HTTP`,
    era,
    connect: async (record) => {
      const mock = await startMockHttp("--contract", contractOf[era], ...(record ? ["--record", record] : []));
      const client = new Client({ name: "consumer", version: "1.0.0" }, v2Options(era) as never);
      await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
      return {
        client: client as unknown as AnyClient,
        done: async () => {
          await client.close();
          await mock.stop();
        },
      };
    },
  });
}
setups.push({
  name: "SDK 1.x client, legacy era, stdio",
  era: "legacy",
  connect: async (record) => {
    const client = new Client1({ name: "consumer", version: "1.0.0" });
    const [command, ...args] = cliCommand();
    const extra = record ? ["--record", record] : [];
    await client.connect(new Stdio1({ command: command as string, args: [...args, ...mockArgs("legacy", ...extra)] }));
    return { client: client as unknown as AnyClient, done: () => client.close() };
  },
});
setups.push({
  name: "SDK 1.x client, legacy era, HTTP",
  era: "legacy",
  connect: async (record) => {
    const mock = await startMockHttp("--contract", contractOf.legacy, ...(record ? ["--record", record] : []));
    const client = new Client1({ name: "consumer", version: "1.0.0" });
    await client.connect(new Http1(new URL(mock.url)));
    return {
      client: client as unknown as AnyClient,
      done: async () => {
        await client.close();
        await mock.stop();
      },
    };
  },
});

const ajv = new Ajv2020({ strict: false });

async function rejection(promise: Promise<unknown>): Promise<{ code?: unknown; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: unknown; message: string };
  }
  throw new Error("expected the request to be refused");
}

describe.each(setups)("$name", (setup) => {
  let client: AnyClient;
  let done: () => Promise<void>;
  const record = join(dir, `record-${setup.name.replace(/\W+/g, "-")}.jsonl`);
  const contract = () => JSON.parse(readFileSync(contractOf[setup.era], "utf8"));

  beforeAll(async () => {
    ({ client, done } = await setup.connect(record));
  }, CASE_MS);
  afterAll(async () => {
    await done?.();
  });

  test("lists the contract's tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => (t as { name: string }).name)).toEqual(
      contract().tools.map((t: { name: string }) => t.name),
    );
  });

  test("a valid call returns structuredContent that conforms to the outputSchema", async () => {
    const result = await client.callTool({ name: "get_forecast", arguments: { city: "Paris", days: 3 } });
    expect(result.isError).toBeFalsy();
    const schema = { ...contract().tools.find((t: { name: string }) => t.name === "get_forecast").outputSchema };
    delete schema.$schema;
    const validate = ajv.compile(schema);
    expect(validate(result.structuredContent)).toBe(true);
    const text = (result.content as Array<{ type: string; text: string }>)[0];
    expect(JSON.parse(text?.text ?? "")).toEqual(result.structuredContent);
  });

  test("the same call gives the same result; a tool without outputSchema answers text", async () => {
    const a = await client.callTool({ name: "get_forecast", arguments: { city: "Paris", days: 3 } });
    const b = await client.callTool({ name: "get_forecast", arguments: { city: "Paris", days: 3 } });
    expect(b.structuredContent).toEqual(a.structuredContent);
    const plain = await client.callTool({ name: "set_alert", arguments: { city: "Oslo", aboveC: 30 } });
    expect(plain.structuredContent).toBeUndefined();
    expect((plain.content as Array<{ type: string }>)[0]?.type).toBe("text");
  });

  test("invalid arguments get a tool error naming the path and keyword", async () => {
    const tooMany = await client.callTool({ name: "get_forecast", arguments: { city: "Paris", days: 9 } });
    expect(tooMany.isError).toBe(true);
    const said = (tooMany.content as Array<{ text: string }>)[0]?.text ?? "";
    expect(said).toContain("/days");
    expect(said).toContain("maximum");
    const missing = await client.callTool({ name: "set_alert", arguments: { city: "Oslo" } });
    expect(missing.isError).toBe(true);
    expect((missing.content as Array<{ text: string }>)[0]?.text).toContain("/aboveC is required (required)");
    const wrongType = await client.callTool({ name: "get_forecast", arguments: { city: 42 } });
    expect((wrongType.content as Array<{ text: string }>)[0]?.text).toContain("/city must be string (type)");
  });

  test("an unknown tool is an invalid-params error", async () => {
    const error = await rejection(client.callTool({ name: "no_such_tool", arguments: {} }));
    expect(String(error.message)).toContain("no_such_tool");
  });

  test("resources/read serves listed resources and URIs that match a template", async () => {
    const listed = await client.readResource({ uri: "weather://stations" });
    expect(listed.contents[0]?.uri).toBe("weather://stations");
    expect(listed.contents[0]?.mimeType).toBe("application/json");
    const templated = await client.readResource({ uri: "weather://city/Paris/today" });
    expect(templated.contents[0]?.uri).toBe("weather://city/Paris/today");
    expect(templated.contents[0]?.mimeType).toBe("text/plain");
    const error = await rejection(client.readResource({ uri: "weather://nowhere" }));
    expect(String(error.message)).toContain("Resource not found");
  });

  test("prompts/get checks required arguments; unknown prompts are refused", async () => {
    const ok = await client.getPrompt({ name: "packing_list", arguments: { city: "Oslo" } });
    expect(ok.messages.length).toBeGreaterThan(0);
    const missing = await rejection(client.getPrompt({ name: "packing_list", arguments: {} }));
    expect(String(missing.message)).toContain('missing required argument "city"');
    const unknown = await rejection(client.getPrompt({ name: "no_such_prompt" }));
    expect(String(unknown.message)).toContain("no_such_prompt");
  });

  test("--record holds every request with its answer, as JSON lines", async () => {
    await client.callTool({ name: "set_alert", arguments: { city: "Rome", aboveC: 35 } });
    const lines = readFileSync(record, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const methods = lines.map((l) => l.method);
    // A client pinned to the modern era needs no server/discover before its first request.
    if (setup.era === "legacy") expect(methods).toContain("initialize");
    else expect(lines.every((l) => l.era === "modern")).toBe(true);
    const call = lines.find((l) => l.method === "tools/call" && l.params?.arguments?.city === "Rome");
    expect(call).toBeDefined();
    expect(call.era).toBe(setup.era);
    expect(call.result.content[0].type).toBe("text");
    expect(Number.isNaN(Date.parse(call.time))).toBe(false);
    const refused = lines.find((l) => l.method === "tools/call" && l.params?.name === "no_such_tool");
    expect(refused.error.code).toBe(-32602);
  });
});

describe("--fixtures and --seed", () => {
  test(
    "a fixture answers matching calls; other calls are generated",
    async () => {
      const fixtures = join(dir, "fixtures.json");
      writeFileSync(
        fixtures,
        JSON.stringify({
          tools: {
            get_forecast: [{ arguments: { city: "Paris" }, structuredContent: { city: "Paris", days: [] } }],
            set_alert: { text: "alert set" },
          },
          resources: { "weather://stations": { text: '["LFPG"]', mimeType: "application/json" } },
          prompts: { packing_list: { text: "Pack an umbrella" } },
        }),
      );
      const client = new Client({ name: "consumer", version: "1.0.0" });
      const [command, ...args] = cliCommand();
      await client.connect(
        new StdioClientTransport({
          command: command as string,
          args: [...args, ...mockArgs("legacy", "--fixtures", fixtures)],
        }),
      );
      try {
        const paris = await client.callTool({ name: "get_forecast", arguments: { city: "Paris", days: 2 } });
        expect(paris.structuredContent).toEqual({ city: "Paris", days: [] });
        const oslo = await client.callTool({ name: "get_forecast", arguments: { city: "Oslo" } });
        expect(oslo.structuredContent).not.toEqual({ city: "Paris", days: [] });
        const alert = await client.callTool({ name: "set_alert", arguments: { city: "Oslo", aboveC: 1 } });
        expect((alert.content as Array<{ text: string }>)[0]?.text).toBe("alert set");
        const stations = await client.readResource({ uri: "weather://stations" });
        expect((stations.contents[0] as { text?: string }).text).toBe('["LFPG"]');
        const prompt = await client.getPrompt({ name: "packing_list", arguments: { city: "Oslo" } });
        expect(JSON.stringify(prompt.messages)).toContain("Pack an umbrella");
      } finally {
        await client.close();
      }
    },
    CASE_MS,
  );

  test(
    "a fixture whose output violates the outputSchema is refused at start-up (exit 2)",
    async () => {
      const fixtures = join(dir, "bad-fixtures.json");
      writeFileSync(fixtures, JSON.stringify({ tools: { get_forecast: { structuredContent: { city: 7 } } } }));
      const result = await runCli(mockArgs("legacy", "--fixtures", fixtures));
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("outputSchema");
      const unknown = join(dir, "unknown-fixtures.json");
      writeFileSync(unknown, JSON.stringify({ tools: { nope: { text: "x" } } }));
      const second = await runCli(mockArgs("legacy", "--fixtures", unknown));
      expect(second.code).toBe(2);
      expect(second.stderr).toContain('no tool "nope"');
    },
    CASE_MS,
  );

  test(
    "--seed varies generated results",
    async () => {
      const results: unknown[] = [];
      for (const seed of ["1", "2"]) {
        const client = new Client({ name: "consumer", version: "1.0.0" });
        const [command, ...args] = cliCommand();
        await client.connect(
          new StdioClientTransport({
            command: command as string,
            args: [...args, ...mockArgs("legacy", "--seed", seed)],
          }),
        );
        results.push((await client.callTool({ name: "get_forecast", arguments: { city: "Paris" } })).structuredContent);
        await client.close();
      }
      expect(results[0]).not.toEqual(results[1]);
    },
    CASE_MS,
  );

  test(
    "a missing contract is exit 2",
    async () => {
      const result = await runCli(["mock", "--contract", join(dir, "absent.json")]);
      expect(result.code).toBe(2);
      const port = await runCli(mockArgs("legacy", "--port", "8080"));
      expect(port.code).toBe(2);
      expect(port.stderr).toContain("--port needs --http");
    },
    CASE_MS,
  );
});

describe("check --calls: the consumer's recorded calls as its contract", () => {
  const base = () => JSON.parse(readFileSync(contractOf.legacy, "utf8"));
  const write = (name: string, value: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof value === "string" ? value : `${JSON.stringify(value, null, 2)}\n`);
    return path;
  };
  interface InputSchema {
    properties: Record<string, { type?: string; enum?: string[] }>;
    required: string[];
  }
  const tool = (contract: { tools: Array<{ name: string; inputSchema: InputSchema }> }, name: string) =>
    contract.tools.find((t) => t.name === name) as { inputSchema: InputSchema };
  let recording: string;
  let narrowedEnum: string;
  let newRequired: string;

  beforeAll(async () => {
    // The consumer's test suite, against the mock, recording what it calls.
    recording = join(dir, "consumer-calls.jsonl");
    const client = new Client({ name: "consumer", version: "1.0.0" });
    const [command, ...args] = cliCommand();
    await client.connect(
      new StdioClientTransport({
        command: command as string,
        args: [...args, ...mockArgs("legacy", "--record", recording)],
      }),
    );
    await client.callTool({ name: "get_forecast", arguments: { city: "Paris", units: "metric" } });
    await client.callTool({ name: "set_alert", arguments: { city: "Oslo", aboveC: 30 } });
    await client.close();

    const narrowed = base();
    (tool(narrowed, "get_forecast").inputSchema.properties.units as { enum: string[] }).enum = ["metric"];
    narrowedEnum = write("narrowed-enum.json", narrowed);
    const required = base();
    const alert = tool(required, "set_alert").inputSchema;
    alert.properties.channel = { type: "string" };
    alert.required = [...alert.required, "channel"];
    newRequired = write("new-required.json", required);
  }, CASE_MS);

  const check = (against: string, ...extra: string[]) =>
    runCli(["check", "--baseline", contractOf.legacy, "--against", against, ...extra]);

  test(
    "an enum value the consumer never sends being removed passes with --calls and fails without",
    async () => {
      const without = await check(narrowedEnum);
      expect(without.code).toBe(1);
      const withCalls = await check(narrowedEnum, "--calls", recording, "--format", "json");
      expect(withCalls.code).toBe(0);
      const report = JSON.parse(withCalls.stdout);
      const change = report.changes.find((c: { target: { name: string } }) => c.target.name === "get_forecast");
      expect(change.exempt.kind).toBe("out-of-scope");
      expect(change.exempt.reason).toContain(`--calls ${recording}`);
    },
    CASE_MS,
  );

  test(
    "a newly required argument the recorded call lacks fails",
    async () => {
      const result = await check(newRequired, "--calls", recording);
      expect(result.code).toBe(1);
    },
    CASE_MS,
  );

  test(
    "a change to a tool no recorded call reaches is out of scope (a plain list of calls)",
    async () => {
      const list = write(
        "only-forecast.json",
        JSON.stringify([{ method: "tools/call", params: { name: "get_forecast", arguments: { city: "Rome" } } }]),
      );
      const result = await check(newRequired, "--calls", list);
      expect(result.code).toBe(0);
    },
    CASE_MS,
  );

  test(
    "works against a live server (the mock of the new contract)",
    async () => {
      const live = await runCli([
        "check",
        "--baseline",
        contractOf.legacy,
        "--era",
        "legacy",
        "--calls",
        recording,
        "--",
        ...cliCommand(),
        "mock",
        "--contract",
        narrowedEnum,
      ]);
      expect(live.code).toBe(0);
      const broken = await runCli([
        "check",
        "--baseline",
        contractOf.legacy,
        "--era",
        "legacy",
        "--calls",
        recording,
        "--",
        ...cliCommand(),
        "mock",
        "--contract",
        newRequired,
      ]);
      expect(broken.code).toBe(1);
    },
    CASE_MS,
  );

  test(
    "an unreadable calls file is exit 2",
    async () => {
      expect((await check(narrowedEnum, "--calls", join(dir, "absent.jsonl"))).code).toBe(2);
      expect((await check(narrowedEnum, "--calls", write("bad.jsonl", "{not json\n"))).code).toBe(2);
    },
    CASE_MS,
  );
});

/** The tools of the contract the next two groups serve, beside the fixture's own. */
const HOSTILE_TOOLS = [
  {
    name: "passcode",
    inputSchema: { type: "object", properties: { q: { type: "string" } } },
    outputSchema: {
      type: "object",
      properties: {
        code: { type: "string", pattern: "^(?=.*\\d)(?=.*[a-z])[a-z0-9]{6,10}$" },
        tag: { type: "string", pattern: "^#" },
        state: { type: "string", enum: ["open", "closed", "stale"], not: { const: "open" } },
      },
      required: ["code", "tag", "state"],
    },
  },
  {
    name: "impossible",
    inputSchema: { type: "object" },
    outputSchema: {
      type: "object",
      properties: { s: { type: "string", minLength: 5, maxLength: 2 } },
      required: ["s"],
    },
  },
];

function hostileContract(): string {
  const contract = JSON.parse(readFileSync(contractOf.legacy, "utf8"));
  contract.tools = [...contract.tools, ...HOSTILE_TOOLS];
  const path = join(dir, "hostile.json");
  writeFileSync(path, `${JSON.stringify(contract, null, 2)}\n`);
  return path;
}

/** What a crash or the runtime's error page would show: stack frames and our source paths. */
function expectNoTrace(text: string): void {
  expect(text).not.toMatch(/RangeError|Maximum call stack|\n\s+at |<html|<!doctype/i);
  expect(text).not.toContain(ROOT);
  expect(text).not.toContain("transports.ts");
}

const DEEP = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
const ping = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });
const BAD_BATCH = `[${ping(2)}, 5, [${ping(9)}], ${ping(3)}]`;

describe("malformed and deeply nested JSON-RPC gets a JSON-RPC error, never a trace", () => {
  test(
    "over stdio: every line is answered, and the mock lives on",
    async () => {
      const proc = Bun.spawn([...cliCommand(), ...mockArgs("legacy")], {
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
      });
      try {
        proc.stdin.write(`${ping(1)}\n{bad json\n${DEEP}\n${BAD_BATCH}\n${ping(4)}\n`);
        await proc.stdin.flush();
        const reader = proc.stdout.getReader();
        let text = "";
        // A mock that lost an answer never sends it: stop waiting after a while, not at CASE_MS.
        const timeUp = Bun.sleep(20_000).then(() => ({ value: undefined, done: true }));
        while (text.split("\n").length <= 5) {
          const { value, done } = await Promise.race([reader.read(), timeUp]);
          if (done) break;
          text += new TextDecoder().decode(value);
        }
        reader.releaseLock();
        const answers = text
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line));
        expect(answers).toMatchObject([
          { id: 1, result: {} },
          { id: null, error: { code: -32700 } },
          [{ id: null, error: { code: -32600 } }],
          [{ id: 2 }, { id: null, error: { code: -32600 } }, { id: null, error: { code: -32600 } }, { id: 3 }],
          { id: 4, result: {} },
        ]);
      } finally {
        proc.stdin.end();
        await proc.exited;
      }
      const stderr = await new Response(proc.stderr).text();
      expectNoTrace(stderr);
      expect(proc.exitCode).toBe(0);
    },
    CASE_MS,
  );

  test(
    "over HTTP: each body gets a JSON answer, and the next request is still served",
    async () => {
      const mock = await startMockHttp("--contract", contractOf.legacy);
      try {
        const post = async (body: string) => {
          const response = await fetch(mock.url, {
            method: "POST",
            body,
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          });
          const text = await response.text();
          expectNoTrace(text);
          expect(response.headers.get("content-type")).toContain("application/json");
          return { status: response.status, body: JSON.parse(text) };
        };
        expect(await post("{bad json")).toMatchObject({ status: 400, body: { id: null, error: { code: -32700 } } });
        expect(await post(DEEP)).toMatchObject({ status: 200, body: [{ id: null, error: { code: -32600 } }] });
        expect((await post(BAD_BATCH)).body).toMatchObject([
          { id: 2 },
          { id: null, error: { code: -32600 } },
          { id: null, error: { code: -32600 } },
          { id: 3 },
        ]);
        expect(await post(ping(4))).toMatchObject({ status: 200, body: { id: 4, result: {} } });
      } finally {
        await mock.stop();
      }
      expectNoTrace(mock.stderr());
    },
    CASE_MS,
  );
});

describe("generated results satisfy the outputSchema, or the tool is reported", () => {
  test(
    "the SDK client accepts every generated result; an unsatisfiable tool is one stderr line and a tool error",
    async () => {
      const contract = hostileContract();
      const client = new Client({ name: "consumer", version: "1.0.0" });
      const [command, ...args] = cliCommand();
      const transport = new StdioClientTransport({
        command: command as string,
        args: [...args, "mock", "--contract", contract],
        stderr: "pipe",
      });
      let stderr = "";
      transport.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
      });
      await client.connect(transport);
      try {
        // The v2 client validates structuredContent against the listed outputSchema itself.
        await client.listTools();
        const validate = ajv.compile(HOSTILE_TOOLS[0]?.outputSchema as object);
        for (const q of ["a", "b", "c", "d", "e"]) {
          const result = await client.callTool({ name: "passcode", arguments: { q } });
          expect(result.isError).toBeFalsy();
          expect(validate(result.structuredContent)).toBe(true);
        }
        for (const attempt of [1, 2]) {
          const result = await client.callTool({ name: "impossible", arguments: { attempt } });
          expect(result.isError).toBe(true);
          expect(result.structuredContent).toBeUndefined();
          expect((result.content as Array<{ text: string }>)[0]?.text).toContain("minLength 5 > maxLength 2");
        }
      } finally {
        await client.close();
      }
      const lines = stderr.split("\n").filter((line) => line.includes("cannot be answered"));
      expect(lines).toEqual([
        'mcp-contract mock: tool "impossible" cannot be answered: its outputSchema is unsatisfiable: minLength 5 > maxLength 2 at outputSchema/properties/s',
      ]);
    },
    CASE_MS,
  );
});
