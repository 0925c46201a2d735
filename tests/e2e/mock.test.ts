/**
 * `mcp-contract mock`, driven by the official SDK clients (v2 `@modelcontextprotocol/client`
 * in both eras, SDK 1.x `Client` in the legacy one) over stdio and Streamable HTTP: capturing
 * the mock reproduces the contract byte for byte in each era, tools/call validates arguments
 * and answers with results that conform to the outputSchema, resources and prompts are
 * served, and --record writes every exchange. Hostile clients (#27) get bounded input: messages
 * over the size limit, lines that never end, slowloris and connection floods over real sockets;
 * --record survives a full disk, FIFOs and symlinks. Runs the compiled binary when MCP_CONTRACT_BIN is set.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Stdio1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import Ajv2020 from "ajv/dist/2020";
import { cliCommand } from "../helpers/cli.ts";
import { BUN, expectMockCapture, ROOT, runCli, tempDir } from "./e2e-helpers.ts";

const V2_SERVER = join(ROOT, "tests/fixtures/v2/server.ts");
const CASE_MS = 60_000;
const ERAS = ["legacy", "modern"] as const;
type EraName = (typeof ERAS)[number];

const dir = tempDir("mock-e2e-");
const contractOf: Record<EraName, string> = { legacy: join(dir, "legacy.json"), modern: join(dir, "modern.json") };

interface Running {
  url: string;
  pid: number;
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
    pid: proc.pid,
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
        expectMockCapture(era, readFileSync(out, "utf8"), readFileSync(contractOf[era], "utf8"));
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
          expectMockCapture(era, readFileSync(out, "utf8"), readFileSync(contractOf[era], "utf8"));
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

// Hostile clients (#27): what a client sends is bounded, and --record survives what its file does.

const MIB = 1024 * 1024;

/** A JSON-RPC answer as the tests read it. */
interface RpcAnswer {
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** The process's peak resident memory so far, in MiB (Linux's VmHWM); undefined elsewhere. */
function peakRssMiB(pid: number): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** `promise`, or `undefined` once `ms` have passed: a hostile case must never wait for CASE_MS. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([promise, Bun.sleep(ms).then(() => undefined)]);
}

interface StdioMock {
  pid: number;
  send(data: string | Uint8Array): Promise<void>;
  /** The answers so far, once there are `n` of them or `ms` have passed. */
  answers(n: number, ms?: number): Promise<RpcAnswer[]>;
  /** Close stdin and wait for the exit; killed (SIGKILL) after `ms`. */
  finish(ms?: number): Promise<{ code: number; stderr: string; ms: number }>;
}

/** `mcp-contract mock` over stdio, driven line by line as a raw client would. */
/** `wrap` runs the mock inside another command (a private mount namespace). */
function startStdioMock(args: string[], wrap = (argv: string[]) => argv): StdioMock {
  const proc = Bun.spawn(wrap([...cliCommand(), "mock", ...args]), { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  let out = "";
  let err = "";
  const drain = async (stream: ReadableStream<Uint8Array>, add: (text: string) => void) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) add(decoder.decode(chunk, { stream: true }));
  };
  const drained = Promise.all([drain(proc.stdout, (t) => (out += t)), drain(proc.stderr, (t) => (err += t))]);
  const parsed = () =>
    out
      .split("\n")
      .slice(0, -1)
      .map((line) => JSON.parse(line));
  return {
    pid: proc.pid,
    send: async (data) => {
      proc.stdin.write(data);
      await proc.stdin.flush();
    },
    answers: async (n, ms = 10_000) => {
      const deadline = Date.now() + ms;
      while (parsed().length < n && Date.now() < deadline) await Bun.sleep(10);
      return parsed();
    },
    finish: async (ms = 30_000) => {
      const start = performance.now();
      proc.stdin.end();
      const killer = setTimeout(() => proc.kill("SIGKILL"), ms);
      const code = await proc.exited;
      clearTimeout(killer);
      await drained;
      return { code, stderr: err, ms: performance.now() - start };
    },
  };
}

interface RawClient {
  socket: Socket;
  received(): string;
  isClosed(): boolean;
  /** Resolves with the milliseconds from connecting to the close. */
  closed: Promise<number>;
  /** Write, waiting for the kernel to take it (false: the connection is gone). */
  write(data: string): Promise<boolean>;
}

/** A raw TCP connection to the mock's HTTP port: what a hostile HTTP client sends, byte by byte. */
function rawClient(url: string): Promise<RawClient> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const opened = performance.now();
    let text = "";
    let isClosed = false;
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
    });
    const closed = new Promise<number>((done) =>
      socket.on("close", () => {
        isClosed = true;
        done(performance.now() - opened);
      }),
    );
    socket.once("error", (error) => {
      if (!socket.connecting) return;
      reject(error);
    });
    socket.on("error", () => {});
    socket.once("connect", () =>
      resolve({
        socket,
        received: () => text,
        isClosed: () => isClosed,
        closed,
        write: (data) =>
          new Promise((written) => {
            if (isClosed || socket.destroyed) return written(false);
            if (socket.write(data)) return written(true);
            const settle = () => written(!isClosed);
            socket.once("drain", settle);
            socket.once("close", settle);
          }),
      }),
    );
  });
}

/** The JSON body of a raw HTTP answer. */
function bodyOf(answer: string): RpcAnswer {
  return JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
}

const postHead = (extra: string) =>
  `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extra}\r\n`;

describe("hostile clients: what the mock reads is bounded", () => {
  test(
    "stdio: a message over the 4 MiB limit gets a JSON-RPC error and the next is answered; --max-message-size sets it",
    async () => {
      const mock = startStdioMock(["--contract", contractOf.legacy]);
      const big = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping", params: { pad: "x".repeat(5 * MIB) } });
      await mock.send(`${ping(1)}\n${big}\n${ping(3)}\n`);
      const answers = await mock.answers(3);
      expect((await mock.finish()).code).toBe(0);
      expect(answers).toMatchObject([
        { id: 1, result: {} },
        { id: null, error: { code: -32600 } },
        { id: 3, result: {} },
      ]);
      expect(answers[1]?.error?.message).toContain("4 MiB");

      const smaller = startStdioMock(["--contract", contractOf.legacy, "--max-message-size", "1"]);
      const twoMiB = JSON.stringify({ jsonrpc: "2.0", id: 5, method: "ping", params: { pad: "x".repeat(2 * MIB) } });
      const halfMiB = JSON.stringify({ jsonrpc: "2.0", id: 6, method: "ping", params: { pad: "x".repeat(MIB / 2) } });
      await smaller.send(`${twoMiB}\n${halfMiB}\n`);
      const refused = await smaller.answers(2);
      expect((await smaller.finish()).code).toBe(0);
      expect(refused).toMatchObject([
        { id: null, error: { code: -32600 } },
        { id: 6, result: {} },
      ]);
      expect(refused[0]?.error?.message).toContain("1 MiB");
    },
    CASE_MS,
  );

  test(
    "stdio: a line that never ends is refused as it passes the limit, without the memory to hold it",
    async () => {
      const mock = startStdioMock(["--contract", contractOf.legacy]);
      await mock.send(`${ping(1)}\n`);
      await mock.answers(1);
      const baseline = peakRssMiB(mock.pid);
      const started = performance.now();
      const chunk = new Uint8Array(MIB).fill(0x61);
      for (let sent = 0; sent < 64; sent++) await mock.send(chunk);
      // The refusal comes while the line is still open: the mock does not wait for its end.
      const refused = await mock.answers(2, 5_000);
      const peak = peakRssMiB(mock.pid);
      await mock.send(`aaaa\n${ping(3)}\n`);
      const answers = await mock.answers(3);
      const seconds = (performance.now() - started) / 1000;
      expect((await mock.finish()).code).toBe(0);
      console.log(
        `64 MiB line without a newline: refused in ${seconds.toFixed(1)} s; peak RSS ${baseline} → ${peak} MiB`,
      );
      expect(refused).toHaveLength(2);
      expect(answers).toMatchObject([{ id: 1 }, { id: null, error: { code: -32600 } }, { id: 3, result: {} }]);
      if (baseline !== undefined && peak !== undefined) expect(peak - baseline).toBeLessThan(32);
      expect(seconds).toBeLessThan(15);
    },
    CASE_MS,
  );

  test(
    "stdio: a client that never reads its answers is not read either, and the mock's memory stays flat",
    async () => {
      // The mock's stdout is a FIFO whose only reader (this process) never reads.
      const fifo = mkfifo(join(dir, "unread-stdout.fifo"));
      const readEnd = openSync(fifo, constants.O_RDWR);
      const proc = Bun.spawn([...cliCommand(), "mock", "--contract", contractOf.legacy], {
        stdin: "pipe",
        stdout: readEnd,
        stderr: "ignore",
      });
      try {
        // Small requests with large answers, for 5 s, or until the mock stops taking them.
        const block = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })}\n`.repeat(10_000);
        const started = Date.now();
        let sent = 0;
        while (Date.now() - started < 5_000) {
          const taken = await within(
            (async () => {
              proc.stdin.write(block);
              await proc.stdin.flush();
              return true;
            })(),
            1_000,
          );
          if (!taken) break;
          sent += block.length;
        }
        await Bun.sleep(Math.max(0, 5_000 - (Date.now() - started)));
        const peak = peakRssMiB(proc.pid);
        console.log(`unread answers: ${(sent / MIB).toFixed(1)} MiB of requests taken in 5 s; peak RSS ${peak} MiB`);
        if (peak !== undefined) expect(peak).toBeLessThan(250);
        expect(sent).toBeLessThan(16 * MIB);
      } finally {
        proc.kill("SIGKILL");
        await proc.exited;
        closeSync(readEnd);
      }
    },
    CASE_MS,
  );

  test(
    "HTTP: a body over the limit is a 413 with a JSON-RPC error, declared or chunked, and the connection goes on",
    async () => {
      const mock = await startMockHttp("--contract", contractOf.legacy);
      const answers = (client: RawClient) => client.received().match(/^HTTP\/1\.1 \d+/gm) ?? [];
      const until = async (done: () => boolean, ms: number) => {
        const deadline = Date.now() + ms;
        while (!done() && Date.now() < deadline) await Bun.sleep(10);
        return done();
      };
      const pingRequest = (id: number) => `${postHead(`Content-Length: ${ping(id).length}\r\n`)}${ping(id)}`;
      try {
        // Declared too large: answered at once, before the body is sent.
        const declared = await rawClient(mock.url);
        await declared.write(postHead(`Content-Length: ${5 * MIB}\r\n`));
        expect(await until(() => answers(declared).length === 1, 5_000)).toBe(true);
        expect(declared.received()).toMatch(/^HTTP\/1\.1 413 /);
        expect(bodyOf(declared.received())).toMatchObject({ id: null, error: { code: -32600 } });
        expect(bodyOf(declared.received()).error?.message).toContain("4 MiB");
        // The body is let go as it comes; then the same connection serves the next request.
        await declared.write("x".repeat(5 * MIB));
        await declared.write(pingRequest(4));
        expect(await until(() => declared.received().includes('"id":4'), 5_000)).toBe(true);

        // Chunked, growing without end: refused once it passes the limit, while still sending.
        const baseline = peakRssMiB(mock.pid);
        const chunked = await rawClient(mock.url);
        await chunked.write(postHead("Transfer-Encoding: chunked\r\n"));
        const piece = `${MIB.toString(16)}\r\n${"a".repeat(MIB)}\r\n`;
        let sent = 0;
        while (sent < 256 && answers(chunked).length === 0 && (await chunked.write(piece))) {
          sent++;
          // A turn of the event loop between pieces, so that the answer is read as it comes: writes
          // that resolved at once kept the client from reading, and `sent` then counted that (69).
          await Bun.sleep(0);
        }
        await until(() => answers(chunked).length === 1, 5_000);
        const peak = peakRssMiB(mock.pid);
        console.log(`chunked body: 413 after ${sent} MiB sent; peak RSS ${baseline} → ${peak} MiB`);
        expect(chunked.received()).toMatch(/^HTTP\/1\.1 413 /);
        expect(sent).toBeLessThan(64);
        if (baseline !== undefined && peak !== undefined) expect(peak - baseline).toBeLessThan(48);
        await chunked.write(`0\r\n\r\n${pingRequest(5)}`);
        expect(await until(() => chunked.received().includes('"id":5'), 5_000)).toBe(true);

        const next = await fetch(mock.url, {
          method: "POST",
          body: ping(6),
          headers: { "content-type": "application/json" },
        });
        expect(await next.json()).toMatchObject({ id: 6, result: {} });
      } finally {
        await mock.stop();
      }
    },
    CASE_MS,
  );

  test(
    "HTTP: at most 64 connections at once; once they go, the mock serves again",
    async () => {
      const mock = await startMockHttp("--contract", contractOf.legacy);
      try {
        const clients = await Promise.all(
          Array.from({ length: 300 }, () => rawClient(mock.url).catch(() => undefined)),
        );
        await Bun.sleep(1_000);
        const open = clients.filter((c) => c !== undefined && !c.isClosed()).length;
        console.log(`300 connections: ${open} held open; peak RSS ${peakRssMiB(mock.pid)} MiB`);
        expect(open).toBeGreaterThan(0);
        expect(open).toBeLessThanOrEqual(64);
        for (const client of clients) client?.socket.destroy();
        await Bun.sleep(300);
        const next = await fetch(mock.url, {
          method: "POST",
          body: ping(7),
          headers: { "content-type": "application/json" },
        });
        expect(await next.json()).toMatchObject({ id: 7, result: {} });
      } finally {
        await mock.stop();
      }
    },
    CASE_MS,
  );

  test.concurrent(
    "HTTP: silent, idle and trickling connections are closed within --request-timeout (here 4 s); others are served meanwhile",
    async () => {
      // The default, 30 s, is the limits' own (tests/unit/mock); the binary is timed with 4 s.
      const mock = await startMockHttp("--contract", contractOf.legacy, "--request-timeout", "4");
      try {
        const silent = await rawClient(mock.url);
        const headers = await rawClient(mock.url);
        await headers.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ");
        const body = await rawClient(mock.url);
        await body.write(postHead("Content-Length: 100000\r\n"));
        const idle = await rawClient(mock.url);
        await idle.write(`${postHead(`Content-Length: ${ping(1).length}\r\n`)}${ping(1)}`);
        const trickle = setInterval(() => {
          for (const slow of [headers, body]) if (!slow.isClosed()) slow.socket.write("a");
        }, 500);
        try {
          await Bun.sleep(1_000);
          const served = await fetch(mock.url, {
            method: "POST",
            body: ping(2),
            headers: { "content-type": "application/json" },
          });
          expect(await served.json()).toMatchObject({ id: 2, result: {} });
          const closedAfter = await Promise.all([silent, headers, body, idle].map((c) => within(c.closed, 12_000)));
          console.log(
            `closed after (ms): silent, headers, body, idle = ${closedAfter.map((ms) => ms?.toFixed(0) ?? "still open")}`,
          );
          for (const ms of closedAfter) {
            expect(ms).toBeDefined();
            expect(ms as number).toBeLessThan(8_000);
          }
          expect(idle.received()).toContain('"id":1');
        } finally {
          clearInterval(trickle);
          for (const c of [silent, headers, body, idle]) c.socket.destroy();
        }
      } finally {
        await mock.stop();
      }
    },
    CASE_MS,
  );
});

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});
/** A tool call of about 1 KB, so that a few dozen fill a pipe or a tiny disk. */
const callLine = (id: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "set_alert", arguments: { city: "x".repeat(1000), aboveC: id } },
  });

/** A stdio session of `calls` tool calls with --record FILE: the answers, how fast they came, the exit. */
async function recordedSession(
  record: string,
  calls: number,
  exitWithinMs = 30_000,
  wrap?: (argv: string[]) => string[],
) {
  const mock = startStdioMock(["--contract", contractOf.legacy, "--record", record], wrap);
  const started = performance.now();
  await mock.send(`${[INIT, ...Array.from({ length: calls }, (_, i) => callLine(i + 1))].join("\n")}\n`);
  const answers = await mock.answers(calls + 1, 10_000);
  const answeredMs = performance.now() - started;
  return { answers, answeredMs, ...(await mock.finish(exitWithinMs)) };
}

/** Every request got its real answer: no internal error, no tool error. */
function expectAllAnswered(answers: RpcAnswer[], calls: number): void {
  expect(answers).toHaveLength(calls + 1);
  expect(answers.filter((a) => a.error !== undefined || a.result?.isError)).toEqual([]);
}

/** One stderr line says the recording failed, naming the file and the cause. */
function expectOneRecordingFailure(stderr: string, file: string, cause: RegExp): void {
  const lines = stderr.split("\n").filter((line) => /record/i.test(line));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(file);
  expect(lines[0]).toMatch(cause);
  expectNoTrace(stderr);
}

/** The number of lines of a recording, each of them whole JSON ending in a newline. */
function wholeLines(text: string): number {
  if (text === "") return 0;
  expect(text.endsWith("\n")).toBe(true);
  const lines = text.slice(0, -1).split("\n");
  for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  return lines.length;
}

function mkfifo(path: string): string {
  expect(Bun.spawnSync(["mkfifo", path]).exitCode).toBe(0);
  return path;
}

/**
 * A real full disk: a tmpfs mounted in a private mount namespace (`unshare -rm`: no root needed,
 * and nothing stays mounted if the test dies). Where user namespaces are off, that case is skipped.
 */
const canUnshare = process.platform === "linux" && Bun.spawnSync(["unshare", "-rm", "true"]).exitCode === 0;

/**
 * Runs argv in a new mount namespace with a 64 KiB tmpfs on `mount`; once it ends, the recording is
 * copied out to `copy` (the mount goes with the namespace) and argv's exit code is passed on.
 */
function onFullDisk(mount: string, copy: string) {
  const script =
    'm=$0; c=$1; shift; mount -t tmpfs -o size=64k tmpfs "$m" || exit 99; "$@"; code=$?; cp "$m/calls.jsonl" "$c"; exit $code';
  return (argv: string[]) => ["unshare", "-rm", "sh", "-c", script, mount, copy, ...argv];
}

describe("--record survives its file: the mock answers on, says so once, and exits 2", () => {
  test.skipIf(!canUnshare)(
    "a full disk (a 64 KiB tmpfs in a private mount namespace): every call answered, the recording a whole-line prefix",
    async () => {
      const mount = join(dir, "full-disk");
      mkdirSync(mount);
      const record = join(mount, "calls.jsonl");
      const copy = join(dir, "full-disk-recording.jsonl");
      const session = await recordedSession(record, 150, 30_000, onFullDisk(mount, copy));
      expectAllAnswered(session.answers, 150);
      expectOneRecordingFailure(session.stderr, record, /no space left/i);
      const recorded = wholeLines(readFileSync(copy, "utf8"));
      console.log(`full disk: ${recorded} of 151 exchanges recorded, exit ${session.code}`);
      expect(recorded).toBeGreaterThan(0);
      expect(recorded).toBeLessThan(151);
      expect(session.stderr).toContain(`first ${recorded} exchanges`);
      expect(session.code).toBe(2);
    },
    CASE_MS,
  );

  test(
    "a symlink to /dev/full: followed, written in place, and every write fails",
    async () => {
      const link = join(dir, "to-dev-full.jsonl");
      symlinkSync("/dev/full", link);
      const session = await recordedSession(link, 5);
      expectAllAnswered(session.answers, 5);
      expectOneRecordingFailure(session.stderr, link, /no space left/i);
      expect(session.code).toBe(2);
    },
    CASE_MS,
  );

  test(
    "over HTTP: answers go on, and a SIGTERM exits 2 instead of 143 when the recording lost exchanges",
    async () => {
      const post = (url: string) =>
        fetch(url, { method: "POST", body: callLine(1), headers: { "content-type": "application/json" } });
      const failing = await startMockHttp("--contract", contractOf.legacy, "--record", "/dev/full");
      let answer: RpcAnswer;
      try {
        answer = (await (await post(failing.url)).json()) as RpcAnswer;
      } finally {
        expect(await failing.stop()).toBe(2);
      }
      expect(answer.error).toBeUndefined();
      expect(answer.result?.isError).toBeFalsy();
      const fine = await startMockHttp("--contract", contractOf.legacy, "--record", join(dir, "http-calls.jsonl"));
      try {
        await post(fine.url);
      } finally {
        expect(await fine.stop()).toBe(143);
      }
      expect(wholeLines(readFileSync(join(dir, "http-calls.jsonl"), "utf8"))).toBe(1);
    },
    CASE_MS,
  );

  test.concurrent(
    "a FIFO nobody opens for reading: answered at once, and the mock does not hang",
    async () => {
      const fifo = mkfifo(join(dir, "nobody.fifo"));
      const session = await recordedSession(fifo, 5, 20_000);
      console.log(
        `FIFO without a reader: answered in ${session.answeredMs.toFixed(0)} ms, exit ${session.code} ${session.ms.toFixed(0)} ms after stdin closed`,
      );
      expectAllAnswered(session.answers, 5);
      expect(session.answeredMs).toBeLessThan(3_000);
      expectOneRecordingFailure(session.stderr, fifo, /no process opened it for reading/);
      expect(session.code).toBe(2);
    },
    CASE_MS,
  );

  test.concurrent(
    "a FIFO whose reader never reads: answers go on while the pipe is full",
    async () => {
      const fifo = mkfifo(join(dir, "stuck.fifo"));
      // Holds the FIFO open for reading and reads nothing.
      const reader = Bun.spawn(["sh", "-c", 'exec 3<"$0"; sleep 60', fifo], { stdin: "ignore" });
      try {
        await Bun.sleep(200);
        const session = await recordedSession(fifo, 150, 20_000);
        console.log(`FIFO never read: answered in ${session.answeredMs.toFixed(0)} ms, exit ${session.code}`);
        expectAllAnswered(session.answers, 150);
        expect(session.answeredMs).toBeLessThan(5_000);
        expectOneRecordingFailure(session.stderr, fifo, /stopped reading/);
        expect(session.code).toBe(2);
      } finally {
        reader.kill("SIGKILL");
      }
    },
    CASE_MS,
  );

  test(
    "--record naming the stdio mock's own stdout is exit 2 before serving: it would corrupt the answers",
    async () => {
      const result = await runCli(["mock", "--contract", contractOf.legacy, "--record", "/dev/stdout"]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain("it is the mock's stdout");
      const size = await runCli(["mock", "--contract", contractOf.legacy, "--max-message-size", "0"]);
      expect(size.code).toBe(2);
      expect(size.stderr).toContain("--max-message-size");
    },
    CASE_MS,
  );

  test(
    "a symlink to a file and a dangling one are followed, the links kept; a FIFO with a reader gets every line",
    async () => {
      const target = join(dir, "real-calls.jsonl");
      writeFileSync(target, "an old recording\n");
      const link = join(dir, "link-calls.jsonl");
      symlinkSync(target, link);
      const viaLink = await recordedSession(link, 3);
      expectAllAnswered(viaLink.answers, 3);
      expect(viaLink.code).toBe(0);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(wholeLines(readFileSync(target, "utf8"))).toBe(4);

      const dangling = join(dir, "dangling-calls.jsonl");
      const created = join(dir, "not-yet", "calls.jsonl");
      symlinkSync(created, dangling);
      const viaDangling = await recordedSession(dangling, 3);
      expectAllAnswered(viaDangling.answers, 3);
      expect(viaDangling.code).toBe(0);
      expect(lstatSync(dangling).isSymbolicLink()).toBe(true);
      expect(wholeLines(readFileSync(created, "utf8"))).toBe(4);

      const fifo = mkfifo(join(dir, "read.fifo"));
      const reader = Bun.spawn(["cat", fifo], { stdout: "pipe" });
      const viaFifo = await recordedSession(fifo, 100);
      expectAllAnswered(viaFifo.answers, 100);
      expect(viaFifo.code).toBe(0);
      expect(wholeLines(await new Response(reader.stdout).text())).toBe(101);
    },
    CASE_MS,
  );
});
