/** `mcp-contract record`: a transparent proxy that records a consumer's exchanges with a real server. Loads src/record only when run. */
import { Command, Option } from "@commander-js/extra-typings";
import { parseTarget } from "../connect/target.ts";
import { ExitCode, UsageError } from "../errors.ts";
import { guardStandardStreams } from "./globals.ts";
import { stdStream, writeErr } from "./std-streams.ts";
import { DEFAULT_MAX_RESPONSE_MIB } from "./target-options.ts";

export const DEFAULT_RECORDING = "calls.jsonl";

const collect = (value: string, previous: string[] = []) => [...previous, value];

function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535, not ${JSON.stringify(value)}.`);
  }
  return n;
}

function mebibytes(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n <= 0 || n > 1024) {
    throw new UsageError(
      `--max-message-size must be a number of MiB above 0 and at most 1024, not ${JSON.stringify(value)}.`,
    );
  }
  return n;
}

export function recordCommand() {
  return new Command("record")
    .summary("record a consumer's calls to a real server, as a transparent proxy")
    .description(
      "Stand between an MCP client and a real server and record every exchange (each request with its answer, each notification, both protocol eras) as the JSON lines `mock --record` writes, for `check --calls` and replay. Over stdio, the client launches `mcp-contract record -o FILE -- SERVER…` in place of the server; over Streamable HTTP, the client connects to the URL it prints. Messages pass through unchanged, byte for byte; headers (Authorization, cookies) are forwarded and never recorded.",
    )
    .argument("[command...]", "the stdio server to start, after `--`; its own flags pass through untouched")
    .addOption(
      new Option("-o, --output <file>", "where to write the exchanges, as JSON lines").default(DEFAULT_RECORDING),
    )
    .option("--append", "add to the file instead of starting it afresh (one recording across sessions)")
    .option("--url <url>", "record Streamable HTTP: forward to this server's URL")
    .addOption(
      new Option("--port <n>", "with --url: the port to listen on; 0 picks a free one").argParser(port).default(0),
    )
    .option("--host <host>", "with --url: the address to listen on", "127.0.0.1")
    .addOption(
      new Option("--env <KEY=VALUE>", "extra environment variable for a stdio server (repeatable)").argParser(collect),
    )
    .option("--cwd <dir>", "working directory for a stdio server")
    .addOption(
      new Option(
        "--max-message-size <MiB>",
        "a message (stdio line, HTTP body, SSE event) larger than this is forwarded but not recorded",
      )
        .argParser(mebibytes)
        .default(DEFAULT_MAX_RESPONSE_MIB),
    )
    .addHelpText(
      "after",
      `
Examples:
  $ mcp-contract record -o calls.jsonl -- node dist/server.js          # in the host's config, in place of the server
  $ mcp-contract record -o calls.jsonl --append -- npx -y @modelcontextprotocol/server-everything
  $ mcp-contract record -o calls.jsonl --url http://127.0.0.1:3000/mcp --port 8931
  $ mcp-contract check --calls calls.jsonl -- node dist/server.js       # the recording as a consumer contract

Exit codes: over stdio, the server's own (128+n when a signal ended it); over HTTP, 130 or 143
when Ctrl-C or SIGTERM stops the proxy; 2 when the recording could not be written whole (said
on stderr when it happened; the traffic was forwarded all the same), 3 when the server cannot be
started.`,
    )
    .action(async (commandArgs, options, cmd) => {
      const http = options.url !== undefined;
      for (const [flag, name] of [
        ["--port", "port"],
        ["--host", "host"],
      ] as const) {
        if (!http && cmd.getOptionValueSource(name) === "cli") {
          throw new UsageError(`${flag} needs --url: without it the proxy records a stdio server given after \`--\`.`);
        }
      }
      const target = parseTarget(commandArgs, { url: options.url, env: options.env, cwd: options.cwd });
      const { isDirectory } = await import("../connect/stdio-transport.ts");
      if (target.kind === "stdio" && target.cwd !== undefined && !isDirectory(target.cwd)) {
        throw new UsageError(
          `--cwd ${target.cwd} is not an existing directory, so the server cannot be started in it.`,
        );
      }
      if (target.kind === "http" && options.port !== 0) {
        // Before the recording is opened: a refused command line leaves no file behind.
        const { assertNotSelf } = await import("../record/http-proxy.ts");
        assertNotSelf(target.url, options.host, options.port);
      }
      const say = (text: string) => writeErr(`${text}\n`);
      const maxMessageBytes = Math.floor(options.maxMessageSize * 1024 * 1024);
      guardStandardStreams();
      const { Recorder } = await import("../mock/recorder.ts");
      const recorder = new Recorder(options.output, {
        say,
        stdoutIsProtocol: !http,
        append: options.append === true,
        speaker: { name: "mcp-contract record", who: "the proxy", goesOn: "The proxy forwards on" },
      });
      let code: number;
      try {
        if (target.kind === "stdio") {
          const { runStdioProxy } = await import("../record/stdio-proxy.ts");
          code = await runStdioProxy({
            target,
            recorder,
            input: process.stdin,
            output: stdStream(1),
            errorOutput: (text) => writeErr(text),
            say,
            maxLineBytes: maxMessageBytes,
          });
        } else {
          const { startHttpProxy } = await import("../record/http-proxy.ts");
          const stop = new Promise<number>((resolve) => {
            process.once("SIGINT", () => resolve(130));
            process.once("SIGTERM", () => resolve(143));
          });
          const proxy = await startHttpProxy({
            upstream: target.url,
            host: options.host,
            port: options.port,
            recorder,
            say,
            maxMessageBytes,
            stop,
          });
          const { redactUrls } = await import("../connect/target.ts");
          say(`mcp-contract record: listening ${proxy.url} → ${redactUrls(target.url.href)}`);
          code = await proxy.done;
        }
      } catch (error) {
        // The lines recorded so far stay whole and the file closed.
        await recorder.close();
        throw error;
      }
      const complete = await recorder.close();
      process.exitCode = complete ? code : ExitCode.usage;
    });
}
