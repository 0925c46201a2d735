/**
 * `mcp-contract record`, the transparent recording proxy (#30 part 1), run as a user would (the
 * compiled binary when MCP_CONTRACT_BIN is set) between real SDK clients and real servers: the
 * v2 fixture server over stdio and over Streamable HTTP (SSE answers) in both eras, the mock
 * over HTTP (JSON answers), and a scripted stdio server that checks every byte passes unchanged.
 * The recording is what `check --calls` reads; headers never reach it; a recording that cannot
 * be written costs no traffic; signals end the server's group and the exit follows the server.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Stdio1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { cliCommand } from "../helpers/cli.ts";
import { revealedPieces } from "../helpers/secret-leaks.ts";
import { BUN, ROOT, runCli, tempDir } from "./e2e-helpers.ts";

const V2_SERVER = join(ROOT, "tests/fixtures/v2/server.ts");
const CASE_MS = 60_000;
const ERAS = ["legacy", "modern"] as const;
type EraName = (typeof ERAS)[number];
const dir = tempDir("record-e2e-");
const SECRET = "sk-live-9f8e7d6c5b4a39281706";

interface Line {
  time: string;
  era: string;
  method: string;
  params?: { name?: string; arguments?: Record<string, unknown> };
  result?: { structuredContent?: { city?: string } };
  error?: unknown;
  notification?: true;
  from?: string;
}
const readLines = (path: string): Line[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Line);

const v2Options = (era: EraName) => (era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});

/** A consumer session: list, call a tool, get a prompt. */
async function consume(client: Client, city: string): Promise<void> {
  await client.listTools();
  const answer = (await client.callTool({ name: "get_forecast", arguments: { city, days: 1 } })) as {
    structuredContent?: { city?: string };
  };
  expect(answer.structuredContent?.city).toBe(city);
  await client.close();
}

/** Start a process and wait for `pattern` on the stream it prints its URL to. */
async function startPrinting(cmd: string[], stream: "stdout" | "stderr", pattern = /listening (\S+)/) {
  const proc = Bun.spawn(cmd, {
    stdout: stream === "stdout" ? "pipe" : "ignore",
    stderr: stream === "stderr" ? "pipe" : "ignore",
    stdin: "ignore",
  });
  const reader = (stream === "stdout" ? proc.stdout : proc.stderr) as ReadableStream<Uint8Array>;
  const r = reader.getReader();
  let text = "";
  const deadline = Date.now() + 15_000;
  while (!pattern.test(text)) {
    if (Date.now() > deadline) throw new Error(`did not start: ${text}`);
    const { value, done } = await r.read();
    if (done) throw new Error(`exited before listening: ${text}`);
    text += new TextDecoder().decode(value);
  }
  // Keep reading, so that the process never blocks on a full pipe; `said()` shows it all.
  void (async () => {
    for (;;) {
      const { value, done } = await r.read();
      if (done) return;
      text += new TextDecoder().decode(value);
    }
  })();
  return { proc, url: (pattern.exec(text) as RegExpExecArray)[1] as string, said: () => text };
}

/** A port nothing listens on now (the OS picks it, we let it go). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

let baseline: string;
let newRequired: string;

beforeAll(async () => {
  baseline = join(dir, "base.json");
  const result = await runCli(["snapshot", "--era", "legacy", "-o", baseline, "--", BUN, V2_SERVER]);
  expect(result.code).toBe(0);
  // The next version requires an argument the recorded calls never sent.
  const next = JSON.parse(readFileSync(baseline, "utf8"));
  const forecast = next.tools.find((t: { name: string }) => t.name === "get_forecast").inputSchema;
  forecast.properties.country = { type: "string" };
  forecast.required = [...(forecast.required ?? []), "country"];
  newRequired = join(dir, "new-required.json");
  writeFileSync(newRequired, `${JSON.stringify(next, null, 2)}\n`);
}, CASE_MS);

const checkCalls = (against: string, calls: string) =>
  runCli(["check", "--baseline", baseline, "--against", against, "--calls", calls]);

describe("stdio: an SDK client launches record in place of the server", () => {
  for (const era of ERAS) {
    test(
      `${era} era: every exchange recorded with its answer, and check --calls reads the file`,
      async () => {
        const out = join(dir, `stdio-${era}.jsonl`);
        const [command, ...args] = cliCommand();
        const client = new Client({ name: "consumer", version: "1.0.0" }, v2Options(era) as never);
        await client.connect(
          new StdioClientTransport({
            command: command as string,
            args: [...args, "record", "-o", out, "--", BUN, V2_SERVER],
          }),
        );
        await consume(client, "Paris");
        const lines = readLines(out);
        const call = lines.find((l) => l.method === "tools/call") as Line;
        expect(call.era).toBe(era);
        expect(call.params?.arguments).toEqual({ city: "Paris", days: 1 });
        expect(call.result?.structuredContent?.city).toBe("Paris");
        expect(lines.find((l) => l.method === "tools/list")?.era).toBe(era);
        if (era === "legacy") {
          expect(lines[0]?.method).toBe("initialize");
          expect(lines.find((l) => l.method === "notifications/initialized")?.notification).toBe(true);
        }
        // A consumer contract: a newly required argument the recorded call lacks fails the check.
        expect((await checkCalls(baseline, out)).code).toBe(0);
        const broken = await checkCalls(newRequired, out);
        expect(broken.code).toBe(1);
        expect(broken.stdout).toContain("get_forecast");
      },
      CASE_MS,
    );
  }
});

describe("Streamable HTTP: --url in front of a real server", () => {
  let upstream: Awaited<ReturnType<typeof startPrinting>>;
  beforeAll(async () => {
    upstream = await startPrinting([BUN, V2_SERVER, "--http"], "stdout");
  }, CASE_MS);
  afterAll(async () => {
    upstream?.proc.kill("SIGTERM");
    await upstream?.proc.exited;
  });

  test(
    "both eras over SSE answers; headers and the upstream query never recorded or shown; SIGTERM ends it with 143",
    async () => {
      const out = join(dir, "http.jsonl");
      // A token in the upstream's query reaches the upstream, never the printed URL.
      const withToken = `${upstream.url}?access_token=${SECRET}`;
      const proxy = await startPrinting([...cliCommand(), "record", "-o", out, "--url", withToken], "stderr");
      expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      for (const era of ERAS) {
        const client = new Client({ name: "consumer", version: "1.0.0" }, v2Options(era) as never);
        const headers = { Authorization: `Bearer ${SECRET}`, "X-Api-Key": SECRET };
        await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url), { requestInit: { headers } }));
        await consume(client, era === "legacy" ? "Oslo" : "Lima");
      }
      proxy.proc.kill("SIGTERM");
      expect(await proxy.proc.exited).toBe(143);
      const text = readFileSync(out, "utf8");
      const calls = readLines(out).filter((l) => l.method === "tools/call");
      expect(calls.map((c) => [c.era, c.result?.structuredContent?.city])).toEqual([
        ["legacy", "Oslo"],
        ["modern", "Lima"],
      ]);
      expect(readLines(out).some((l) => l.method === "initialize" && l.era === "legacy")).toBe(true);
      expect(revealedPieces(text, SECRET)).toEqual([]);
      expect(revealedPieces(proxy.said(), SECRET)).toEqual([]);
      expect((await checkCalls(newRequired, out)).code).toBe(1);
    },
    CASE_MS,
  );

  test(
    "JSON answers (the mock over HTTP) and a fixed --port",
    async () => {
      const mock = await startPrinting([...cliCommand(), "mock", "--http", "--contract", baseline], "stderr");
      const out = join(dir, "http-json.jsonl");
      const port = await freePort();
      const proxy = await startPrinting(
        [...cliCommand(), "record", "-o", out, "--url", mock.url, "--port", String(port)],
        "stderr",
      );
      try {
        expect(proxy.url).toBe(`http://127.0.0.1:${port}/mcp`);
        const client = new Client({ name: "consumer", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
        await client.callTool({ name: "get_forecast", arguments: { city: "Rome" } });
        await client.close();
      } finally {
        proxy.proc.kill("SIGINT");
        mock.proc.kill("SIGTERM");
      }
      expect(await proxy.proc.exited).toBe(130);
      const call = readLines(out).find((l) => l.method === "tools/call") as Line;
      expect(call.params?.arguments).toEqual({ city: "Rome" });
      expect(call.result).toBeDefined();
      await mock.proc.exited;
    },
    CASE_MS,
  );
});

/**
 * A stdio server that keeps what it reads (to compare bytes), answers a request with
 * unusual spacing and CRLF, writes a banner that is not JSON-RPC to stdout and a line to
 * stderr, and exits 7 when its stdin ends.
 */
const SCRIPTED = `
import { appendFileSync } from "node:fs";
const [received] = process.argv.slice(2);
process.stderr.write("scripted server: ready\\n");
process.stdout.write("banner: not json-rpc\\n");
let partial = "";
process.stdin.on("data", (chunk) => {
  appendFileSync(received, chunk);
  partial += chunk.toString("utf8");
  const lines = partial.split("\\n");
  partial = lines.pop();
  for (const line of lines) {
    let message;
    try { message = JSON.parse(line); } catch { continue; }
    if (message.id !== undefined && message.method) {
      process.stdout.write('{ "jsonrpc" : "2.0", "id" : ' + JSON.stringify(message.id) + ', "result" : { "content" : [ { "type":"text", "text":"\\\\u00e9t\\u00e9" } ] } }\\r\\n');
    }
  }
});
process.stdin.on("end", () => process.exit(7));
`;

describe("passthrough", () => {
  const script = join(dir, "scripted-server.mjs");
  const input = Buffer.concat([
    Buffer.from(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"q":"été","api_key":"k-1"}}}\n',
    ),
    Buffer.from("this line is not json\r\n"),
    Buffer.from('  {"jsonrpc": "2.0", "method": "notifications/initialized"}  \n'),
    Buffer.from([0xff, 0xfe, 0x0a]),
    Buffer.from('[{"jsonrpc":"2.0","id":"b","method":"ping"}]\n'),
  ]);
  const expectedOutput = (ids: string[]) =>
    `banner: not json-rpc\n${ids
      .map(
        (id) =>
          `{ "jsonrpc" : "2.0", "id" : ${id}, "result" : { "content" : [ { "type":"text", "text":"\\u00e9t\u00e9" } ] } }\r\n`,
      )
      .join("")}`;

  async function run(output: string) {
    writeFileSync(script, SCRIPTED);
    const received = join(dir, `received-${Math.random().toString(36).slice(2)}`);
    const proc = Bun.spawn([...cliCommand(), "record", "-o", output, "--", BUN, script, received], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    // In pieces, so that lines are split across chunks.
    for (let at = 0; at < input.length; at += 17) {
      proc.stdin.write(input.subarray(at, at + 17));
      await proc.stdin.flush();
    }
    proc.stdin.end();
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).arrayBuffer(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    return { stdout: Buffer.from(stdout), stderr, code, received: readFileSync(received) };
  }

  test(
    "bytes pass unchanged both ways (malformed lines too), stderr passes through, the exit code is the server's",
    async () => {
      const out = join(dir, "scripted.jsonl");
      const result = await run(out);
      expect(result.received.equals(input)).toBe(true);
      // The batch is not a request to the scripted server (it reads objects): only id 1 is answered.
      expect(result.stdout.toString("utf8")).toBe(expectedOutput(["1"]));
      expect(result.stderr).toContain("scripted server: ready");
      // An argument named like a credential is recorded as sent, and said once.
      expect(result.stderr.match(/sends an argument named "api_key", which looks like a credential/g)).toHaveLength(1);
      expect(result.code).toBe(7);
      const lines = readLines(out);
      expect(lines.map((l) => l.method).sort()).toEqual(["notifications/initialized", "tools/call"]);
      const call = lines.find((l) => l.method === "tools/call");
      expect(call).toMatchObject({ era: "legacy", params: { arguments: { q: "été" } } });
      expect(JSON.stringify(call?.result)).toContain("été");
    },
    CASE_MS,
  );

  test(
    "a recording that cannot be written costs no traffic: said once, forwarding goes on, exit 2",
    async () => {
      const result = await run("/dev/full");
      expect(result.received.equals(input)).toBe(true);
      expect(result.stdout.toString("utf8")).toBe(expectedOutput(["1"]));
      expect(result.stderr.match(/recording to \/dev\/full failed/g)).toHaveLength(1);
      expect(result.stderr).toContain("The proxy forwards on");
      expect(result.code).toBe(2);
    },
    CASE_MS,
  );
});

describe("requests the server starts: sampling through server-everything", () => {
  const EVERYTHING = join(ROOT, "node_modules/.bin/mcp-server-everything");

  /** A 1.x SDK client that declares sampling and answers it; calls the tool that asks for it. */
  async function sample(transport: Transport, city: string, more?: (client: Client1) => Promise<void>): Promise<void> {
    const client = new Client1({ name: "consumer", version: "1.0.0" }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      model: "test-model",
      role: "assistant",
      content: { type: "text", text: `sampled ${city}` },
    }));
    await client.connect(transport);
    const answer = await client.callTool({ name: "trigger-sampling-request", arguments: { prompt: city } });
    expect(JSON.stringify(answer)).toContain(`sampled ${city}`);
    await more?.(client);
    await client.close();
  }

  function expectSampled(path: string, city: string): void {
    const lines = readLines(path);
    const sampling = lines.find((l) => l.method === "sampling/createMessage") as Line & { result: object };
    expect(sampling.from).toBe("server");
    expect(JSON.stringify(sampling.result)).toContain(`sampled ${city}`);
    const call = lines.find((l) => l.method === "tools/call") as Line;
    expect(call.from).toBeUndefined();
    expect(call.params?.arguments).toEqual({ prompt: city });
  }

  test(
    "over stdio: the server's request is paired with the client's answer, marked from: server",
    async () => {
      const out = join(dir, "sampling-stdio.jsonl");
      const [command, ...args] = cliCommand();
      await sample(
        new Stdio1({
          command: command as string,
          args: [...args, "record", "-o", out, "--", EVERYTHING],
          stderr: "ignore",
        }),
        "Quito",
      );
      expectSampled(out, "Quito");
      expect(readLines(out).some((l) => l.method === "notifications/tools/list_changed" && l.from === "server")).toBe(
        true,
      );
    },
    CASE_MS,
  );

  test(
    "over HTTP: the request comes on the call's SSE stream, its answer in a later POST; the GET stream's notifications",
    async () => {
      const port = await freePort();
      const upstream = Bun.spawn([EVERYTHING, "streamableHttp"], {
        env: { ...process.env, PORT: String(port) },
        stdout: "ignore",
        stderr: "ignore",
      });
      const out = join(dir, "sampling-http.jsonl");
      try {
        const proxy = await startPrinting(
          [...cliCommand(), "record", "-o", out, "--url", `http://127.0.0.1:${port}/mcp`],
          "stderr",
        );
        try {
          // The upstream may still be starting: the proxy answers 502 until it listens.
          const deadline = Date.now() + 15_000;
          while ((await fetch(proxy.url, { method: "GET" }).then((r) => r.status)) === 502) {
            if (Date.now() > deadline) throw new Error("server-everything did not start");
            await Bun.sleep(50);
          }
          // A log message the server sends on the session's GET stream is recorded too.
          await sample(new Http1(new URL(proxy.url)), "Accra", async (client) => {
            await client.callTool({ name: "toggle-simulated-logging", arguments: {} });
            const logged = () =>
              readLines(out).some((l) => l.method === "notifications/message" && l.from === "server");
            for (const until = Date.now() + 15_000; !logged() && Date.now() < until; ) await Bun.sleep(50);
          });
        } finally {
          proxy.proc.kill("SIGTERM");
          await proxy.proc.exited;
        }
      } finally {
        upstream.kill("SIGTERM");
        await upstream.exited;
      }
      expectSampled(out, "Accra");
      expect(readLines(out).some((l) => l.method === "notifications/message" && l.from === "server")).toBe(true);
    },
    CASE_MS,
  );
});

describe("processes and input", () => {
  test(
    "SIGTERM is passed on to the server's process group: the server ends, the exit follows it",
    async () => {
      const starts = join(dir, "starts.txt");
      const proc = Bun.spawn(
        [...cliCommand(), "record", "-o", join(dir, "term.jsonl"), "--", BUN, V2_SERVER, "--starts", starts],
        { stdin: "pipe", stdout: "ignore", stderr: "ignore" },
      );
      const deadline = Date.now() + 15_000;
      while (!existsSync(starts) || readFileSync(starts, "utf8").trim() === "") {
        if (Date.now() > deadline) throw new Error("the server did not start");
        await Bun.sleep(20);
      }
      const serverPid = Number(readFileSync(starts, "utf8").trim());
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(143);
      expect(() => process.kill(serverPid, 0)).toThrow();
    },
    CASE_MS,
  );

  test(
    "a server that cannot be started is exit 3; flags for the other transport, or a proxy to itself, are exit 2",
    async () => {
      const missing = await runCli(["record", "-o", join(dir, "x.jsonl"), "--", join(dir, "no-such-server")]);
      expect(missing.code).toBe(3);
      expect(missing.stderr).toContain("command not found");
      expect(missing.stderr).not.toMatch(/^\s+at /m);
      const port = await runCli(["record", "--port", "8931", "--", "node", "server.js"]);
      expect(port.code).toBe(2);
      expect(port.stderr).toContain("--port needs --url");
      const self = await freePort();
      const looped = join(dir, "loop.jsonl");
      const loop = await runCli([
        "record",
        "-o",
        looped,
        "--url",
        `http://localhost:${self}/mcp`,
        "--port",
        String(self),
      ]);
      expect(existsSync(looped)).toBe(false);
      expect(loop.code).toBe(2);
      expect(loop.stderr).toContain("forwarded to itself");
      const none = await runCli(["record", "-o", join(dir, "y.jsonl")]);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain("no server given");
    },
    CASE_MS,
  );
});
