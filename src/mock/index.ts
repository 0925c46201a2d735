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
    if (fd !== undefined) closeSync(fd);
  }
}
