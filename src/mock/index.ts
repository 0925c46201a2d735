/** `mcp-contract mock`: run the contract as an MCP server until stdin ends or a signal. */
import type { Contract } from "../contract/model.ts";
import { UsageError } from "../errors.ts";
import type { Fixtures } from "./fixtures.ts";
import { DEFAULT_LIMITS } from "./limits.ts";
import { type NodeHttpServing, serveNodeHttp } from "./node-http.ts";
import { Recorder } from "./recorder.ts";
import { MockServer } from "./server.ts";
import { serveStdio } from "./transports.ts";

export { parseFixtures } from "./fixtures.ts";

export interface RunMockOptions {
  contract: Contract;
  http: boolean;
  host: string;
  port: number;
  seed: number;
  pageSize: number;
  fixtures?: Fixtures;
  record?: string;
  /** The largest message (stdio line, HTTP body) read, in bytes; default 4 MiB (limits.ts). */
  maxMessageBytes?: number;
  /** How long an HTTP request may take to arrive whole; default 30 s (limits.ts). */
  requestTimeoutMs?: number;
  /** Where the HTTP URL and notes go (stderr). */
  say: (text: string) => void;
}

export interface MockOutcome {
  /** False when --record could not write every exchange (said on stderr when it happened). */
  recordingComplete: boolean;
}

export async function runMock(options: RunMockOptions): Promise<MockOutcome> {
  const recorder = options.record
    ? new Recorder(options.record, { say: options.say, stdoutIsProtocol: !options.http })
    : undefined;
  const server = new MockServer(options.contract, {
    seed: options.seed,
    pageSize: options.pageSize,
    fixtures: options.fixtures,
    onExchange: recorder && ((exchange) => recorder.record(exchange)),
  });
  // One line per tool the mock cannot answer (its calls get a tool error that says the same),
  // judged alongside serving: compiling thousands of schemas must not delay the first answer.
  const checking = new AbortController();
  server
    .checkOutputs(
      (name, why) => options.say(`mcp-contract mock: tool ${JSON.stringify(name)} cannot be answered: ${oneLine(why)}`),
      checking.signal,
    )
    .catch(() => {
      // Only stderr can fail here (a closed pipe); the calls still answer with the same reasons.
    });
  const limits = {
    ...DEFAULT_LIMITS,
    maxMessageBytes: options.maxMessageBytes ?? DEFAULT_LIMITS.maxMessageBytes,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_LIMITS.requestTimeoutMs,
  };
  try {
    if (!options.http) {
      await serveStdio(server, limits.maxMessageBytes);
    } else {
      let serving: NodeHttpServing;
      try {
        serving = await serveNodeHttp(server, options.host, options.port, limits);
      } catch (error) {
        throw new UsageError(
          `cannot listen on ${options.host}:${options.port}: ${(error as Error).message}. Pick another --port (0 picks a free one).`,
        );
      }
      options.say(`mcp-contract mock: listening ${serving.url}`);
      // Stopped by a signal: its documented exit code, 128 + n (130 for SIGINT, 143 for SIGTERM).
      await new Promise<void>((stopped) => {
        const stopOn = (code: number) => () => {
          process.exitCode = code;
          void serving.close().then(stopped);
        };
        process.once("SIGINT", stopOn(130));
        process.once("SIGTERM", stopOn(143));
      });
    }
  } finally {
    checking.abort();
  }
  return { recordingComplete: recorder ? await recorder.close() : true };
}

/** A reason can quote a pattern, and patterns may hold line breaks: escape them to keep one line. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
