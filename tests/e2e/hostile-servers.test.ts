/**
 * Servers that fail after the handshake: every way a hostile server (stdio, and HTTP on
 * 127.0.0.1) can misbehave once `initialize` has succeeded ends in bounded time and bounded
 * memory, with exit 3 (or 0 where the capture is still sound), one clear paragraph, no stack
 * trace, and no server process left behind. Small limits (--max-response-size 1, --timeout 2)
 * keep the cases fast; one case each checks the documented default limit.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cliCommand } from "../helpers/cli.ts";
import { limit } from "../helpers/clock.ts";
import {
  allPids,
  BUN,
  type CliResult,
  expectCleanFailure,
  FIXTURE_SERVER,
  killAll,
  ROOT,
  readPids,
  survivors,
  tempDir,
} from "./e2e-helpers.ts";

const STDIO_SERVER = join(ROOT, "tests/fixtures/hostile/stdio-server.ts");
const HTTP_SERVER = join(ROOT, "tests/fixtures/hostile/http-server.ts");
/** Generous: each case is bounded by seconds, not by this. */
const CASE_MS = 40_000;

/** GNU time, when present, reports the peak memory of the process it runs. */
const GNU_TIME = (() => {
  if (!existsSync("/usr/bin/time")) return undefined;
  const probe = Bun.spawnSync(["/usr/bin/time", "-v", "true"], { stdout: "ignore", stderr: "pipe" });
  return probe.exitCode === 0 && probe.stderr.toString().includes("Maximum resident set size")
    ? "/usr/bin/time"
    : undefined;
})();

interface Measured extends CliResult {
  seconds: number;
  /** Peak resident memory of the mcp-contract process, in MiB (undefined: cannot measure). */
  peakMiB: number | undefined;
}

/** Run mcp-contract, timing it and measuring its peak memory (GNU time, else /proc VmHWM). */
async function run(args: string[]): Promise<Measured> {
  const report = join(tempDir(), "time.txt");
  const cmd = GNU_TIME ? [GNU_TIME, "-v", "-o", report, ...cliCommand(), ...args] : [...cliCommand(), ...args];
  const started = performance.now();
  const proc = Bun.spawn(cmd, {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: "1" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const killer = setTimeout(() => proc.kill("SIGKILL"), CASE_MS - 5000);
  let hwm: number | undefined;
  const poll = GNU_TIME
    ? undefined
    : setInterval(() => {
        try {
          const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"))?.[1];
          if (kb) hwm = Math.max(hwm ?? 0, Number(kb));
        } catch {
          // gone
        }
      }, 20);
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  const seconds = (performance.now() - started) / 1000;
  clearTimeout(killer);
  if (poll) clearInterval(poll);
  if (GNU_TIME && existsSync(report)) {
    hwm = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(readFileSync(report, "utf8"))?.[1]);
  }
  return { code, stdout, stderr, seconds, peakMiB: hwm === undefined ? undefined : hwm / 1024 };
}

function expectPeakBelow(result: Measured, mib: number): void {
  if (result.peakMiB !== undefined) expect(result.peakMiB).toBeLessThan(mib);
}

function expectFailure(result: Measured, maxSeconds: number, ...phrases: (string | RegExp)[]): void {
  expectCleanFailure(result, 3);
  expect(result.stderr).not.toContain("verbose: true");
  for (const phrase of phrases) {
    if (typeof phrase === "string") expect(result.stderr).toContain(phrase);
    else expect(result.stderr).toMatch(phrase);
  }
  expect(result.seconds).toBeLessThan(limit(maxSeconds));
}

const stdio = (mode: string, ...args: string[]) => ["--", BUN, STDIO_SERVER, mode, ...args];

// ---------------------------------------------------------------- HTTP

let httpServer: ReturnType<typeof Bun.spawn> | undefined;
let base = "";
const url = (mode: string) => `${base}/${mode}/mcp`;
const snapshotUrl = (mode: string, ...flags: string[]) =>
  run(["snapshot", "-o", "-", "--timeout", "20", ...flags, "--url", url(mode)]);

beforeAll(async () => {
  httpServer = Bun.spawn([BUN, HTTP_SERVER], { stdout: "pipe", stderr: "inherit", stdin: "ignore" });
  const reader = (httpServer.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  const deadline = Date.now() + limit(15_000);
  while (!/listening (\S+)/.test(text)) {
    if (Date.now() > deadline) throw new Error(`hostile HTTP server did not start: ${text}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`hostile HTTP server exited: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  base = (/listening (\S+)/.exec(text) as RegExpExecArray)[1] as string;
});

afterAll(async () => {
  httpServer?.kill("SIGKILL");
  await httpServer?.exited;
});

describe("HTTP failures after initialize: exit 3 at once, naming the step, the status and the fix", () => {
  const cases: [mode: string, ...phrases: (string | RegExp)[]][] = [
    ["status-500", "HTTP 500 Internal Server Error to tools/list", "upstream failure", "server's logs"],
    ["status-401", "HTTP 401 Unauthorized to tools/list", "--bearer"],
    ["status-403", "HTTP 403 Forbidden to tools/list", "scopes"],
    ["status-404", "HTTP 404 Not Found to tools/list", "Mcp-Session-Id"],
    ["status-429", "HTTP 429 Too Many Requests to tools/list", "rate limit"],
    ["status-503", "HTTP 503 Service Unavailable to tools/list", "proxy"],
    ["status-500-html", "HTTP 500", 'web page titled "Sign in"'],
    ["html", "answered tools/list with text/html", "not an MCP response"],
    ["reset", "connection to", "closed during tools/list", "ECONNRESET"],
    ["reset-mid-json", "closed during tools/list"],
    ["truncated-json", "answer to tools/list that is not valid JSON", "cut off"],
    ["not-jsonrpc", "tools/list with JSON that is not a JSON-RPC 2.0 message"],
    ["truncated-sse", "tools/list", "not valid JSON"],
    ["sse-reset", "broke while the server was streaming its answer to tools/list"],
    ["sse-no-answer", "ended its event stream for tools/list without sending the answer"],
    ["wrong-id", "answer with id 9999", "waiting for tools/list, id 1"],
    ["duplicate-id", "answered tools/list (id 1) a second time"],
  ];
  for (const [mode, ...phrases] of cases) {
    test.concurrent(
      mode,
      async () => {
        const result = await snapshotUrl(mode);
        // --timeout 20: each ends long before it, as soon as the fault shows.
        expectFailure(result, 10, ...phrases);
        // The HTTP faults name the endpoint; a bad id is a JSON-RPC fault, the same on any transport.
        if (!mode.endsWith("-id")) expect(result.stderr).toContain(url(mode));
      },
      CASE_MS,
    );
  }

  test.concurrent(
    "a well-behaved answer from the same server is captured (control)",
    async () => {
      const result = await snapshotUrl("ok");
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout).tools).toHaveLength(1);
    },
    CASE_MS,
  );
});

describe("HTTP bodies are bounded: size, decoded size, SSE events, time", () => {
  test(
    "an endless chunked JSON body stops at --max-response-size 1",
    async () => {
      const result = await snapshotUrl("big-json", "--max-response-size", "1");
      expectFailure(result, 10, "larger than the 1 MiB response limit", "--max-response-size");
      expectPeakBelow(result, 300);
    },
    CASE_MS,
  );

  test(
    "the documented default: an endless body stops at 64 MiB",
    async () => {
      const result = await snapshotUrl("big-json");
      expectFailure(result, 15, "larger than the 64 MiB response limit");
      expectPeakBelow(result, 700); // was 2.7 GiB within --timeout 5
    },
    CASE_MS,
  );

  test(
    "a gzip bomb (260 KB on the wire, 256 MiB decoded) stops at the decoded limit",
    async () => {
      const result = await snapshotUrl("gzip-bomb", "--max-response-size", "1");
      expectFailure(result, 15, "larger than the 1 MiB response limit once decompressed", "gzip");
      expectPeakBelow(result, 300);
    },
    CASE_MS,
  );

  test(
    "an SSE event that never ends stops at the limit",
    async () => {
      const result = await snapshotUrl("endless-sse-event", "--max-response-size", "1");
      expectFailure(result, 10, "event stream during tools/list grew past the 1 MiB response limit");
      expectPeakBelow(result, 300);
    },
    CASE_MS,
  );

  test(
    "an endless error page is cut short: the status is reported",
    async () => {
      const result = await snapshotUrl("big-500");
      expectFailure(result, 10, "HTTP 500 Internal Server Error to tools/list", "web page");
      expectPeakBelow(result, 300);
    },
    CASE_MS,
  );

  test(
    "an endless flood of SSE notifications ends at --timeout, counting them",
    async () => {
      const result = await run(["snapshot", "-o", "-", "--timeout", "2", "--url", url("sse-flood")]);
      expectFailure(result, 10, "no answer to tools/list after 2 s", /sent [\d,]+ notifications/);
      expectPeakBelow(result, 400);
    },
    CASE_MS,
  );

  test(
    "a body that trickles forever ends at --timeout",
    async () => {
      const result = await run(["snapshot", "-o", "-", "--timeout", "2", "--url", url("drip")]);
      expectFailure(result, 10, "no answer to tools/list after 2 s");
      expect(result.seconds).toBeGreaterThan(1.5);
    },
    CASE_MS,
  );
});

// ---------------------------------------------------------------- stdio

describe("stdio: huge lines are read in linear time, capped, and --timeout holds", () => {
  test(
    "a 200 MiB line stops at the documented 64 MiB line limit",
    async () => {
      const result = await run(["snapshot", "-o", "-", "--timeout", "20", ...stdio("huge-line", "200")]);
      expectFailure(result, 15, "stdout line longer than the 64 MiB limit during tools/list", "--max-response-size");
      expectPeakBelow(result, 700); // was 1.8 GiB, and 70 s for --timeout 5
    },
    CASE_MS,
  );

  test(
    "a 100 MiB line under a raised limit is read in linear time and captured",
    async () => {
      const result = await run([
        "snapshot",
        "-o",
        "-",
        "--timeout",
        "30",
        "--max-response-size",
        "128",
        ...stdio("huge-line", "100"),
      ]);
      expect(result.stderr).toContain("captured 0 tools");
      expect(result.code).toBe(0);
      expect(result.seconds).toBeLessThan(limit(20));
    },
    CASE_MS,
  );

  test(
    "a line that never ends is cut off by --timeout, however large the limit",
    async () => {
      const result = await run([
        "snapshot",
        "-o",
        "-",
        "--timeout",
        "2",
        "--max-response-size",
        "1024",
        ...stdio("endless-line"),
      ]);
      expectFailure(result, 10, "no answer to tools/list after 2 s");
      expectPeakBelow(result, 700);
    },
    CASE_MS,
  );
});

describe("stdio: a server that crashes while its child holds stdout open", () => {
  test(
    "is reported at once with its exit code and stderr tail, and the child is ended",
    async () => {
      const pidFile = join(tempDir(), "pids");
      try {
        const result = await run(["snapshot", "-o", "-", "--timeout", "30", ...stdio("crash-with-child", pidFile)]);
        // --timeout 30: it used to say "did not respond" after all of it.
        expectFailure(
          result,
          10,
          "exited with code 7 during tools/list",
          "| hostile-stdio: fatal: lost the database connection",
          "| hostile-stdio: giving up",
        );
        const started = readPids(pidFile);
        expect(started[0]?.grandchild).toBeNumber();
        expect(await survivors(allPids(started))).toEqual([]);
      } finally {
        killAll(allPids(readPids(pidFile)));
      }
    },
    CASE_MS,
  );
});

describe("stdio: requests from the server, bad ids, floods and storms end in bounded time", () => {
  test.concurrent(
    "roots, sampling and elicitation requests are answered as declared, and the capture succeeds",
    async () => {
      const result = await run([
        "snapshot",
        "-o",
        "-",
        "--verbose",
        "--client-capabilities",
        "roots,sampling,elicitation",
        ...stdio("ask"),
      ]);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout).tools).toHaveLength(1);
      expect(result.stderr).toContain('roots/list -> {"roots":[]}');
      expect(result.stderr).toContain("sampling/createMessage -> {");
      expect(result.stderr).toContain("does not sample a model");
      expect(result.stderr).toContain('elicitation/create -> {"action":"decline"}');
    },
    CASE_MS,
  );

  test.concurrent(
    "undeclared capabilities: the requests get 'method not found', and the capture succeeds",
    async () => {
      const result = await run(["snapshot", "-o", "-", "--verbose", ...stdio("ask")]);
      expect(result.code).toBe(0);
      expect(result.stderr.match(/-> \{"code":-32601/g)).toHaveLength(3);
    },
    CASE_MS,
  );

  test.concurrent(
    "a server that waits for a sampling answer forever: exit 3 at --timeout, naming its request",
    async () => {
      const result = await run(["snapshot", "-o", "-", "--timeout", "2", ...stdio("ask-and-wait")]);
      expectFailure(result, 10, "no answer to tools/list after 2 s", "requests of its own (sampling/createMessage)");
    },
    CASE_MS,
  );

  const protocolCases: [mode: string, phrase: string][] = [
    ["wrong-id", "answer with id 4242, but no request of ours has that id (waiting for tools/list, id 1)"],
    ["duplicate-id", "answered tools/list (id 1) a second time"],
    ["null-id-error", 'error that answers no request with the error "Parse error"'],
    ["invalid-response", "answer to tools/list is not a valid JSON-RPC response"],
  ];
  for (const [mode, phrase] of protocolCases) {
    test.concurrent(
      `${mode}: exit 3 at once`,
      async () => {
        const result = await run(["snapshot", "-o", "-", "--timeout", "20", ...stdio(mode)]);
        expectFailure(result, 10, phrase);
      },
      CASE_MS,
    );
  }

  test(
    "200,000 notifications before the answer: captured",
    async () => {
      const result = await run(["snapshot", "-o", "-", "--timeout", "20", ...stdio("notify-flood", "200000")]);
      expect(result.code).toBe(0);
      expect(result.seconds).toBeLessThan(limit(15));
      expectPeakBelow(result, 400);
    },
    CASE_MS,
  );

  test(
    "notifications forever: exit 3 at --timeout, though the flood delays every timer",
    async () => {
      const result = await run(["snapshot", "-o", "-", "--timeout", "2", ...stdio("notify-forever")]);
      expectFailure(
        result,
        9,
        "no answer to tools/list after 2 s",
        /sent [\d,]+ notifications \(notifications\/message\)/,
      );
      expectPeakBelow(result, 400);
    },
    CASE_MS,
  );

  test.concurrent(
    "a list_changed storm with every answer: exit 3 after three re-lists",
    async () => {
      const result = await run(["snapshot", "-o", "-", "--timeout", "20", ...stdio("list-changed-storm")]);
      expectFailure(result, 10, "kept announcing that its tools list changed");
    },
    CASE_MS,
  );

  test.concurrent(
    "a burst of 10,000 list_changed once: one re-list, captured",
    async () => {
      const result = await run(["snapshot", "-o", "-", "--timeout", "20", ...stdio("list-changed-burst")]);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout).tools).toHaveLength(1);
      expect(result.seconds).toBeLessThan(limit(10));
    },
    CASE_MS,
  );

  test(
    "pings forever while it never reads our answers: exit 3, memory bounded",
    async () => {
      const result = await run(["snapshot", "-o", "-", "--timeout", "20", ...stdio("ping-no-read")]);
      expectFailure(result, 10, "requests of its own (ping)", "without taking our answers");
      expectPeakBelow(result, 400); // each unanswered request used to hold memory for good
    },
    CASE_MS,
  );
});

// ---------------------------------------------------------------- signals and flags

describe("SIGHUP and SIGQUIT end the server's process group, like SIGINT and SIGTERM", () => {
  for (const [signal, code] of [
    ["SIGHUP", 129],
    ["SIGQUIT", 131],
  ] as const) {
    test.concurrent(
      `${signal} during a hanging tools/list: exit ${code}, a stubborn server and its grandchild gone`,
      async () => {
        const pidFile = join(tempDir(), "pids");
        const config = { mode: "hang-on-list", stubborn: true, pidFile };
        const proc = Bun.spawn(
          [
            ...cliCommand(),
            "snapshot",
            "-o",
            "-",
            "--verbose",
            "--env",
            `FIXTURE=${JSON.stringify(config)}`,
            "--",
            BUN,
            FIXTURE_SERVER,
          ],
          { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" }, stdin: "ignore", stdout: "pipe", stderr: "pipe" },
        );
        let stderr = "";
        const drained = (async () => {
          for await (const chunk of proc.stderr as ReadableStream<Uint8Array>)
            stderr += new TextDecoder().decode(chunk);
        })();
        try {
          const deadline = Date.now() + limit(15_000);
          while (!stderr.includes("→ tools/list") && Date.now() < deadline) await Bun.sleep(50);
          expect(stderr).toContain("→ tools/list");
          await Bun.sleep(300);
          const sent = performance.now();
          proc.kill(signal);
          expect(await proc.exited).toBe(code);
          expect(performance.now() - sent).toBeLessThan(limit(3000));
          await drained;
          expect(stderr).not.toMatch(/^\s+at /m);
          expect(await survivors(allPids(readPids(pidFile)))).toEqual([]);
        } finally {
          proc.kill("SIGKILL");
          killAll(allPids(readPids(pidFile)));
        }
      },
      CASE_MS,
    );
  }
});

describe("limits given on the command line", () => {
  test.concurrent(
    "--timeout above 24.8 days (a timer would overflow and fire at once): exit 2",
    async () => {
      const result = await run(["snapshot", "-o", "-", "--timeout", "2147484", ...stdio("ok")]);
      expectCleanFailure(result, 2);
      expect(result.stderr).toContain("--timeout");
      expect(result.stderr).toContain("at most 2147483 seconds (24.8 days)");
    },
    CASE_MS,
  );

  test.concurrent(
    "--timeout at the largest allowed value works",
    async () => {
      const result = await run(["snapshot", "-o", "-", "--timeout", "2147483", ...stdio("ok")]);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout).tools).toHaveLength(1);
    },
    CASE_MS,
  );

  test.concurrent(
    "--max-response-size must be a positive number of MiB: exit 2",
    async () => {
      for (const value of ["0", "-3", "lots", "4096"]) {
        const result = await run(["snapshot", "-o", "-", "--max-response-size", value, ...stdio("ok")]);
        expectCleanFailure(result, 2);
        expect(result.stderr).toContain("--max-response-size");
      }
    },
    CASE_MS,
  );

  test.concurrent(
    "--max-response-size is refused where nothing is captured (check --against)",
    async () => {
      const dir = tempDir();
      const lockfile = join(dir, "c.json");
      const captured = await run(["snapshot", "-o", lockfile, ...stdio("ok")]);
      expect(captured.code).toBe(0);
      const result = await run(["check", "--baseline", lockfile, "--against", lockfile, "--max-response-size", "8"]);
      expectCleanFailure(result, 2);
      expect(result.stderr).toContain("--max-response-size");
    },
    CASE_MS,
  );

  test.concurrent(
    "MiB is the unit: a limit of 1 MiB refuses a 2 MiB line, 0.5 MiB a 1 MiB one",
    async () => {
      const [two, one] = await Promise.all([
        run(["snapshot", "-o", "-", "--max-response-size", "1", ...stdio("huge-line", "2")]),
        run(["snapshot", "-o", "-", "--max-response-size", "0.5", ...stdio("huge-line", "1")]),
      ]);
      expectFailure(two, 10, "longer than the 1 MiB limit");
      expectFailure(one, 10, "longer than the 0.5 MiB limit");
    },
    CASE_MS,
  );
});
