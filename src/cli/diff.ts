/** `mcp-contract diff`: the offline, human diff of two lockfiles. Never loads the MCP SDK. */
import { Command, Option } from "@commander-js/extra-typings";
import { FAIL_ON, type FailOn } from "../report/model.ts";
import { type GlobalOptions, makeUi } from "./globals.ts";
import { hostsOption, resolveHosts } from "./hosts-option.ts";
import { LockfileReads, readLockfile } from "./lockfile.ts";
import { type PolicyOptionValues, policyOptions, preparePolicy, resolveFailOn } from "./policy-options.ts";
import { formatOptions, planOutputs, reportComparison } from "./report-output.ts";

export function diffCommand() {
  const [witness, format, output] = formatOptions();
  const command = new Command("diff")
    .summary("compare two lockfiles offline")
    .description(
      "Show every change between two contract lockfiles with its severity and rule. Reports only (exit 0) unless --fail-on is given.",
    )
    .argument("<old>", "the older lockfile")
    .argument("<new>", "the newer lockfile")
    .addOption(
      new Option("--fail-on <level>", "exit 1 at this severity or above").choices(FAIL_ON).default("never" as FailOn),
    )
    .addOption(witness)
    .addOption(hostsOption())
    .addOption(format)
    .addOption(output);
  for (const option of policyOptions("OLD")) command.addOption(option);
  return command
    .addHelpText(
      "after",
      `
Examples:
  $ mcp-contract diff v1.contract.json v2.contract.json
  $ mcp-contract diff old.json new.json --format json | jq '.changes[] | select(.severity == "breaking")'
  $ mcp-contract diff old.json new.json --fail-on breaking --format sarif=diff.sarif --format github
  $ mcp-contract diff old.json new.json --format changelog > CHANGES.md
  $ git show main:mcp.contract.json > /tmp/main.json && mcp-contract diff /tmp/main.json mcp.contract.json
  $ mcp-contract diff old.json new.json --enforce-semver --used "get_forecast,list_*"
  $ mcp-contract diff old.json new.json --hosts gemini-parameters,openai --fail-on breaking   # new host rejections break`,
    )
    .action(async (oldPath, newPath, rawOptions, cmd) => {
      const options = rawOptions as PolicyOptionValues & {
        failOn: FailOn;
        format?: string[];
        output?: string[];
        witness: boolean;
        hosts?: string[];
      };
      const hosts = options.hosts === undefined ? undefined : resolveHosts(options.hosts, undefined);
      const globals = cmd.optsWithGlobals() as GlobalOptions;
      const ui = makeUi(globals);
      const plans = planOutputs(options.format, options.output, globals);
      const reads = new LockfileReads();
      const before = readLockfile(oldPath, "old", { reads });
      const after = readLockfile(newPath, "new", { reads });
      const prepared = preparePolicy(options, { beside: oldPath, lockfiles: [oldPath, newPath] }, ui);
      const failOn = resolveFailOn(
        options.failOn,
        cmd.getOptionValueSource("failOn" as never) === "cli",
        prepared.policy,
        "diff",
      );
      const exitCode = await reportComparison(
        {
          command: "diff",
          baseline: { contract: before.contract, source: oldPath },
          current: { contract: after.contract, source: newPath },
          policy: prepared,
          failOn,
          witness: options.witness,
          ...(hosts && { hosts }),
        },
        plans,
        globals.color ?? "auto",
        { baseline: before.file, current: after.file },
        ui,
      );
      if (exitCode !== 0) process.exitCode = exitCode;
    });
}
