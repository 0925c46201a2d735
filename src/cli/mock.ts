/** `mcp-contract mock`: the contract as a working MCP server. Loads src/mock only when run. */
import { Command, Option } from "@commander-js/extra-typings";
import { ExitCode, UsageError } from "../errors.ts";
import { guardStandardStreams } from "./globals.ts";
import { readLockfile } from "./lockfile.ts";
import { FIXTURES_MAX_BYTES, readUserFile } from "./read-user-file.ts";
import { DEFAULT_LOCKFILE } from "./snapshot.ts";
import { writeErr } from "./std-streams.ts";

function integer(name: string, min: number, max: number) {
  return (value: string) => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new UsageError(`${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}.`);
    }
    return n;
  };
}

/** --max-message-size: MiB, fractions allowed; the default (4) is DEFAULT_MAX_MESSAGE_BYTES in src/mock/limits.ts. */
const DEFAULT_MAX_MESSAGE_MIB = 4;
const MAX_MESSAGE_MIB_LIMIT = 1024;

/** --request-timeout: seconds; the default is HTTP_REQUEST_TIMEOUT_MS in src/mock/limits.ts (not imported: it loads the mock). */
const DEFAULT_REQUEST_TIMEOUT_S = 30;

function mebibytes(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n <= 0 || n > MAX_MESSAGE_MIB_LIMIT) {
    throw new UsageError(
      `--max-message-size must be a number of MiB above 0 and at most ${MAX_MESSAGE_MIB_LIMIT}, not ${JSON.stringify(value)}.`,
    );
  }
  return n;
}

export function mockCommand() {
  return new Command("mock")
    .summary("serve a contract as a mock MCP server")
    .description(
      "Serve the contract's surface as an MCP server, in the protocol eras its server served (legacy initialize, 2026-07-28 server/discover, or both): over stdio, or Streamable HTTP at /mcp with --http. Lists, capabilities, server info and instructions are served exactly as recorded; tools/call validates the arguments against the tool's inputSchema and answers with a result generated from its outputSchema (or a fixture).",
    )
    .addOption(new Option("--contract <file>", "the lockfile to serve").default(DEFAULT_LOCKFILE))
    .option("--http", "serve Streamable HTTP at /mcp instead of stdio; the URL is printed on stderr")
    .addOption(
      new Option("--port <n>", "the HTTP port; 0 picks a free one").argParser(integer("--port", 0, 65535)).default(0),
    )
    .option("--host <host>", "the HTTP address to listen on", "127.0.0.1")
    .option("--fixtures <file>", "canned tool, resource and prompt answers (JSON), checked against the contract")
    .option(
      "--record <file>",
      "write every request and its answer as JSON lines (method, params, result or error, time)",
    )
    .addOption(
      new Option("--seed <n>", "vary the generated results").argParser(integer("--seed", 0, 2 ** 32 - 1)).default(1),
    )
    .addOption(
      new Option("--page-size <n>", "items per list page").argParser(integer("--page-size", 1, 100_000)).default(100),
    )
    .addOption(
      new Option(
        "--max-message-size <MiB>",
        "refuse a client message (stdio line, HTTP body) larger than this, with a JSON-RPC error (HTTP 413)",
      )
        .argParser(mebibytes)
        .default(DEFAULT_MAX_MESSAGE_MIB),
    )
    .addOption(
      new Option(
        "--request-timeout <seconds>",
        "with --http: close a connection whose request has not arrived whole within this many seconds (slowloris), with 408",
      )
        .argParser(integer("--request-timeout", 1, 3600))
        .default(DEFAULT_REQUEST_TIMEOUT_S),
    )
    .addHelpText(
      "after",
      `
Examples:
  $ mcp-contract mock                                   # serves ./mcp.contract.json
  $ mcp-contract snapshot -- mcp-contract mock --contract mcp.contract.json
  $ mcp-contract mock --contract mcp.contract.json --http --port 8931 --record calls.jsonl
  $ mcp-contract mock --contract mcp.contract.json --fixtures fixtures.json --seed 7`,
    )
    .action(async (options, cmd) => {
      for (const flag of ["port", "requestTimeout"] as const) {
        if (!options.http && cmd.getOptionValueSource(flag) === "cli") {
          const name = flag === "port" ? "--port" : "--request-timeout";
          throw new UsageError(`${name} needs --http: without it the mock serves stdio.`);
        }
      }
      const { contract } = readLockfile(options.contract, "contract", { elsewhere: "--contract FILE" });
      // The stdio mock writes to process.stdout itself.
      guardStandardStreams();
      const mock = await import("../mock/index.ts");
      const fixtures = options.fixtures
        ? mock.parseFixtures(
            readUserFile(options.fixtures, {
              missing: `no fixtures file at ${options.fixtures}.`,
              aKind: "a fixtures file",
              theKind: "the fixtures file",
              maxBytes: FIXTURES_MAX_BYTES,
            }),
            options.fixtures,
            contract,
          )
        : undefined;
      const outcome = await mock.runMock({
        contract,
        http: options.http === true,
        host: options.host,
        port: options.port,
        seed: options.seed,
        pageSize: options.pageSize,
        fixtures,
        record: options.record,
        maxMessageBytes: Math.floor(options.maxMessageSize * 1024 * 1024),
        requestTimeoutMs: options.requestTimeout * 1000,
        say: (text) => writeErr(`${text}\n`),
      });
      // A recording that lost exchanges is an output that could not be written: exit 2, even
      // when a signal stopped the HTTP mock (its usual end), or the loss would go unseen. The
      // reason was said on stderr when it happened.
      if (!outcome.recordingComplete) process.exitCode = ExitCode.usage;
    });
}
