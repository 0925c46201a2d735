/** `mcp-contract snapshot`: capture a live server's surface into a lockfile. */
import { Command, Option } from "@commander-js/extra-typings";
import { serializeContract } from "../contract/canonical.ts";
import { UsageError } from "../errors.ts";
import { type GlobalOptions, makeUi, writeStdout } from "./globals.ts";
import { DEFAULT_CONTRACTS_DIR } from "./mcp-config.ts";
import { assertWritable, readRegularFile, writeFileAtomic } from "./output-file.ts";
import { addPeerAliases } from "./peer-aliases.ts";
import { serverLabel, surfaceCounts } from "./summary.ts";
import { addTargetOptions, jobsOption, resolveTarget, type TargetOptionValues } from "./target-options.ts";

export const DEFAULT_LOCKFILE = "mcp.contract.json";

export function snapshotCommand() {
  const command = addTargetOptions(
    new Command("snapshot")
      .summary("capture a server's surface into a contract lockfile")
      .description(
        "Start or connect to an MCP server, capture its whole surface (tools with their schemas and annotations, resources, resource templates, prompts, capabilities) and write it as a deterministic contract lockfile to commit beside your code.",
      )
      .argument("[command...]", "the stdio server to start, after `--`; its own flags pass through untouched")
      .addOption(
        new Option("-o, --output <file>", "where to write the lockfile; - for stdout").default(DEFAULT_LOCKFILE),
      )
      .addOption(
        new Option(
          "--all",
          "capture every server of the MCP client config, one lockfile each (DIR/<name>.contract.json)",
        ),
      )
      .addOption(
        new Option("--dir <dir>", `with --all: the directory of the lockfiles (default ${DEFAULT_CONTRACTS_DIR})`),
      )
      .addOption(jobsOption()),
  ).addHelpText(
    "after",
    `
Examples:
  $ mcp-contract snapshot -- node dist/server.js
  $ mcp-contract snapshot -o contracts/weather.json -- npx -y @acme/weather-mcp --region eu
  $ mcp-contract snapshot --url http://127.0.0.1:3000/mcp --bearer "$TOKEN"
  $ mcp-contract snapshot --server github --config .mcp.json
  $ mcp-contract snapshot --all --dir mcp-contracts             # every configured server
  $ mcp-contract snapshot --era legacy -- python server.py     # no server/discover probe
  $ mcp-contract snapshot -o - -- python server.py | jq '.tools[].name'`,
  );

  addPeerAliases(command, { target: true, out: true });
  return command.action(async (commandArgs, rawOptions, cmd) => {
    const options = rawOptions as unknown as TargetOptionValues & {
      output: string;
      all?: boolean;
      dir?: string;
      jobs?: number;
    };
    const globals = cmd.optsWithGlobals() as GlobalOptions;
    const ui = makeUi(globals);
    if (options.all || options.dir !== undefined) {
      if (!options.all)
        throw new UsageError("--dir applies with --all only; for one server, name its lockfile with -o FILE.");
      const { snapshotAll } = await import("./all-servers.ts");
      const source = (name: string) => cmd.getOptionValueSource(name as never);
      const code = await snapshotAll(
        commandArgs,
        { ...options, dir: options.dir ?? DEFAULT_CONTRACTS_DIR },
        source,
        ui,
      );
      if (code !== 0) process.exitCode = code;
      return;
    }
    const toStdout = options.output === "-";
    if (!toStdout) assertWritable(options.output);
    const resolved = resolveTarget(
      commandArgs,
      {
        ...options,
        alternatives: "; or capture every configured server with `--all`",
        lockfileGoes: (file) =>
          `to write the lockfile there, name it with -o: \`mcp-contract snapshot -o ${file} -- <server command>\``,
      },
      (name) => cmd.getOptionValueSource(name as never),
    );

    const { captureTarget } = await import("./capture-target.ts");
    const { contract, elapsedMs, closed } = await captureTarget(resolved, ui);
    // The lockfile is written while the server shuts down; the run ends once it is gone, whatever happens.
    try {
      const text = serializeContract(contract);
      let destination = options.output;
      if (toStdout) {
        await writeStdout(text);
        destination = "stdout";
      } else if (readRegularFile(options.output) === text) {
        destination = `${options.output} (unchanged)`;
      } else {
        writeFileAtomic(options.output, text);
      }
      ui.info(
        `captured ${surfaceCounts(contract)} from ${serverLabel(contract)} → ${destination} ${ui.dim(`in ${(elapsedMs / 1000).toFixed(1)} s`)}`,
      );
    } finally {
      await closed;
    }
  });
}
