/**
 * What `mcp-contract record` costs per message: N tools/call round trips (default 1,000) to the
 * v2 fixture server, straight and through the proxy, over stdio and over Streamable HTTP; prints
 * each median, the median overhead per round trip and the ratio. Goal (#30): at most 1 ms per
 * message at the median. A raw JSON-RPC client keeps SDK overhead out of the numbers.
 *
 *   bun scripts/bench-record.ts [--calls N] [--bin dist/mcp-contract]
 *
 * Runs the compiled binary when it exists (as users run it), else main.ts under Bun.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const CALLS = Number(option("--calls") ?? 1000);
const WARMUP = 50;
const bin = resolve(ROOT, option("--bin") ?? "dist/mcp-contract");
const CLI = existsSync(bin) ? [bin] : [process.execPath, join(ROOT, "main.ts")];
const SERVER = [process.execPath, join(ROOT, "tests/fixtures/v2/server.ts")];
const dir = mkdtempSync(join(tmpdir(), "bench-record-"));

const initialize = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
};
const callOf = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "get_forecast", arguments: { city: "Paris", days: 3 } },
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Round-trip times (ms) of sequential calls over a stdio server started with `cmd`. */
async function stdioTimes(cmd: string[]): Promise<number[]> {
  const proc = Bun.spawn(cmd, { stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  const nextLine = async (): Promise<string> => {
    for (;;) {
      const newline = buffered.indexOf("\n");
      if (newline !== -1) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        return line;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("the server closed its stdout");
      buffered += decoder.decode(value, { stream: true });
    }
  };
  const send = (message: object) => {
    proc.stdin.write(`${JSON.stringify(message)}\n`);
    proc.stdin.flush();
  };
  send(initialize);
  await nextLine();
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  const times: number[] = [];
  for (let i = 1; i <= CALLS + WARMUP; i++) {
    const started = performance.now();
    send(callOf(i));
    const line = await nextLine();
    if (i > WARMUP) times.push(performance.now() - started);
    if (!line.includes(`"id":${i}`)) throw new Error(`unexpected answer: ${line.slice(0, 200)}`);
  }
  proc.stdin.end();
  proc.kill("SIGTERM");
  await proc.exited;
  return times;
}

/** Start a process and wait for `listening URL` on the stream it prints it to. */
async function listening(cmd: string[], stream: "stdout" | "stderr") {
  const proc = Bun.spawn(cmd, { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const reader = (stream === "stdout" ? proc.stdout : proc.stderr).getReader();
  let text = "";
  while (!/listening (\S+)/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`exited before listening: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { proc, url: (/listening (\S+)/.exec(text) as RegExpExecArray)[1] as string };
}

/** Round-trip times (ms) of sequential calls over Streamable HTTP (a legacy session, SSE answers). */
async function httpTimes(url: string): Promise<number[]> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const post = async (message: object) => {
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(message) });
    const session = response.headers.get("mcp-session-id");
    if (session) headers["mcp-session-id"] = session;
    return response.text();
  };
  await post(initialize);
  headers["mcp-protocol-version"] = "2025-11-25";
  await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  const times: number[] = [];
  for (let i = 1; i <= CALLS + WARMUP; i++) {
    const started = performance.now();
    const text = await post(callOf(i));
    if (i > WARMUP) times.push(performance.now() - started);
    if (!text.includes(`"id":${i}`)) throw new Error(`unexpected answer: ${text.slice(0, 200)}`);
  }
  return times;
}

function report(transport: string, direct: number[], proxied: number[]): number {
  const d = median(direct);
  const p = median(proxied);
  console.log(
    `${transport.padEnd(6)} direct ${d.toFixed(3)} ms, through record ${p.toFixed(3)} ms per round trip (median of ${CALLS}): overhead ${(p - d).toFixed(3)} ms per round trip (${((p - d) / 2).toFixed(3)} ms per message), ratio ${(p / d).toFixed(2)}x`,
  );
  return p - d;
}

console.log(`mcp-contract record: ${CALLS} tools/call round trips (two messages each) to the v2 fixture server`);
const stdioDirect = await stdioTimes(SERVER);
const stdioProxied = await stdioTimes([...CLI, "record", "-o", join(dir, "stdio.jsonl"), "--", ...SERVER]);
const stdioOverhead = report("stdio", stdioDirect, stdioProxied);

const upstream = await listening([...SERVER, "--http"], "stdout");
const proxy = await listening([...CLI, "record", "-o", join(dir, "http.jsonl"), "--url", upstream.url], "stderr");
const httpDirect = await httpTimes(upstream.url);
const httpProxied = await httpTimes(proxy.url);
const httpOverhead = report("http", httpDirect, httpProxied);
proxy.proc.kill("SIGTERM");
upstream.proc.kill("SIGTERM");
await Promise.all([proxy.proc.exited, upstream.proc.exited]);

const worst = Math.max(stdioOverhead, httpOverhead);
const verdict = worst <= 1 ? "met, even counting a whole round trip" : worst <= 2 ? "met per message" : "NOT met";
console.log(
  `goal: at most 1 ms per message at the median: ${verdict} (worst ${(worst / 2).toFixed(3)} ms per message)`,
);
