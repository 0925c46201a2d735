/** `mcp-contract mock`: run the contract as an MCP server until stdin ends or a signal. */
import { closeSync, openSync, writeSync } from "node:fs";
import type { Contract } from "../contract/model.ts";
import { UsageError } from "../errors.ts";
import type { Fixtures } from "./fixtures.ts";
import { type Exchange, MockServer } from "./server.ts";
import { serveHttp, serveStdio } from "./transports.ts";

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
  /** Where the HTTP URL and notes go (stderr). */
  say: (text: string) => void;
}

export async function runMock(options: RunMockOptions): Promise<void> {
  let recordFd: number | undefined;
  if (options.record) {
    try {
      recordFd = openSync(options.record, "w");
    } catch (error) {
      throw new UsageError(`cannot write the recording ${options.record}: ${(error as Error).message}`);
    }
  }
  const fd = recordFd;
  const server = new MockServer(options.contract, {
    seed: options.seed,
    pageSize: options.pageSize,
    fixtures: options.fixtures,
    onExchange: fd === undefined ? undefined : (exchange: Exchange) => writeSync(fd, `${JSON.stringify(exchange)}\n`),
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
  try {
    if (!options.http) {
      await serveStdio(server);
      return;
    }
    let serving: ReturnType<typeof serveHttp>;
    try {
      serving = serveHttp(server, options.host, options.port);
    } catch (error) {
      throw new UsageError(
        `cannot listen on ${options.host}:${options.port}: ${(error as Error).message}. Pick another --port (0 picks a free one).`,
      );
    }
    options.say(`mcp-contract mock: listening ${serving.url}`);
    // Stopped by a signal: its documented exit code, 128 + n (130 for SIGINT, 143 for SIGTERM).
    const stopOn = (code: number) => () => {
      process.exitCode = code;
      serving.stop();
    };
    process.once("SIGINT", stopOn(130));
    process.once("SIGTERM", stopOn(143));
    await serving.closed;
  } finally {
    checking.abort();
    if (fd !== undefined) closeSync(fd);
  }
}

/** A reason can quote a pattern, and patterns may hold line breaks: escape them to keep one line. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
