/**
 * Replay speed against a floor: 1,000 recorded calls to server-everything's read-only tools,
 * replayed by `mcp-contract replay` (start, capture, replay, judge, report), against the SDK
 * client making the same calls directly (start, connect, call). Prints the ratio; the goal is at
 * most 1.5x. Not a test: a number for the notes.
 *
 *   bun scripts/bench-replay.ts [--calls 1000] [--runs 3] [--bin dist/mcp-contract]
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { tempDir } from "../tests/helpers/cli.ts";

const ROOT = resolve(import.meta.dir, "..");
const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : (args[at + 1] as string);
};
const COUNT = Number(option("--calls", "1000"));
const RUNS = Number(option("--runs", "3"));
const BIN = option("--bin", "");
const cli = BIN ? [resolve(BIN)] : [process.execPath, join(ROOT, "main.ts")];

/** The calls a consumer made: server-everything's read-only tools, a prompt and a resource, in turn. */
const CALLS: { method: string; params: Record<string, unknown> }[] = [
  { method: "tools/call", params: { name: "echo", arguments: { message: "hello" } } },
  { method: "tools/call", params: { name: "get-sum", arguments: { a: 2, b: 3 } } },
  { method: "tools/call", params: { name: "get-structured-content", arguments: { location: "New York" } } },
  { method: "tools/call", params: { name: "get-annotated-message", arguments: { messageType: "success" } } },
  { method: "prompts/get", params: { name: "simple-prompt" } },
  { method: "resources/read", params: { uri: "demo://resource/static/document/architecture.md" } },
];
const calls = Array.from({ length: COUNT }, (_, i) => CALLS[i % CALLS.length] as (typeof CALLS)[number]);

async function connect(): Promise<{ client: Client; transport: StdioClientTransport }> {
  const client = new Client({ name: "bench", version: "1.0.0" });
  const transport = new StdioClientTransport({ command: "node", args: [EVERYTHING, "stdio"], stderr: "ignore" });
  await client.connect(transport);
  return { client, transport };
}

/** Until the process is gone: mcp-contract waits for its server's exit too, so the floor does. */
async function gone(pid: number | null): Promise<void> {
  if (pid === null) return;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function send(client: Client, call: (typeof CALLS)[number]) {
  const p = call.params as never;
  if (call.method === "tools/call") return client.callTool(p);
  if (call.method === "prompts/get") return client.getPrompt(p);
  return client.readResource(p);
}

/** Record the calls once, with the SDK client, in the format `mock --record` writes. */
async function record(file: string): Promise<void> {
  const { client } = await connect();
  const lines: string[] = [];
  for (const call of calls) {
    const result = await send(client, call);
    lines.push(JSON.stringify({ time: new Date().toISOString(), era: "legacy", ...call, result }));
  }
  await client.close();
  writeFileSync(file, `${lines.join("\n")}\n`);
}

/** The SDK client making the same calls: one after another (as a client awaits each), and all at once. */
async function sdk(concurrent: boolean): Promise<{ answered: number; exited: number }> {
  const started = performance.now();
  const { client, transport } = await connect();
  if (concurrent) await Promise.all(calls.map((call) => send(client, call)));
  else for (const call of calls) await send(client, call);
  const answered = performance.now() - started;
  const pid = transport.pid;
  await client.close();
  await gone(pid);
  return { answered, exited: performance.now() - started };
}

/** Until the verdict (the JSON report on stdout, written before the server's shutdown) and until exit. */
async function replay(file: string): Promise<{ answered: number; exited: number }> {
  const started = performance.now();
  const proc = Bun.spawn([...cli, "replay", "--calls", file, "--format", "json", "--", "node", EVERYTHING, "stdio"], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = proc.stdout.getReader();
  let answered = 0;
  for (;;) {
    const { done } = await reader.read();
    if (answered === 0) answered = performance.now() - started;
    if (done) break;
  }
  const code = await proc.exited;
  if (code !== 0) throw new Error(`replay exited ${code}`);
  return { answered, exited: performance.now() - started };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const dir = tempDir("mcp-contract-bench-replay-");
const file = join(dir, "calls.jsonl");
await record(file);
type Times = { answered: number; exited: number };
const runs: Record<"replay" | "sequential" | "concurrent", Times[]> = { replay: [], sequential: [], concurrent: [] };
for (let run = 0; run < RUNS; run++) {
  runs.sequential.push(await sdk(false));
  runs.concurrent.push(await sdk(true));
  runs.replay.push(await replay(file));
}
const m = (list: Times[], key: "answered" | "exited") => median(list.map((t) => t[key]));
const ms = (n: number) => `${n.toFixed(0)} ms`;
console.log(`${COUNT} calls to server-everything over stdio, median of ${RUNS} runs, from process start:`);
console.log("                                        last answer / verdict   server gone");
for (const [label, list] of [
  ["SDK client, one call after another", runs.sequential],
  ["SDK client, all calls at once", runs.concurrent],
  ["mcp-contract replay (capture+replay+judge+report)", runs.replay],
] as const) {
  console.log(`  ${label.padEnd(50)} ${ms(m(list, "answered")).padStart(8)}   ${ms(m(list, "exited")).padStart(8)}`);
}
for (const key of ["answered", "exited"] as const) {
  const r = m(runs.replay, key);
  console.log(
    `  ratio (${key === "answered" ? "to the verdict" : "to exit"}): ${(r / m(runs.sequential, key)).toFixed(2)}x the sequential SDK client, ${(r / m(runs.concurrent, key)).toFixed(2)}x the concurrent one (goal: <= 1.5x)`,
  );
}
