/** `mcp-contract diff`: the offline, human diff of two lockfiles. Never loads the MCP SDK. */
import { Command, Option } from "@commander-js/extra-typings";
import { diffContracts } from "../diff/diff.ts";
import { attachWitnesses } from "../diff/witnesses.ts";
import { buildReport, FAIL_ON, type FailOn, sideOf } from "../report/model.ts";
import type { GlobalOptions } from "./globals.ts";
import { readLockfile } from "./lockfile.ts";
import { formatOptions, planOutputs, writeReports } from "./report-output.ts";

export function diffCommand() {
  const [witness, format, output] = formatOptions();
  return new Command("diff")
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
    .addOption(format)
    .addOption(output)
    .addHelpText(
      "after",
      `
Examples:
  $ mcp-contract diff v1.contract.json v2.contract.json
  $ mcp-contract diff old.json new.json --format json | jq '.changes[] | select(.severity == "breaking")'
  $ mcp-contract diff old.json new.json --fail-on breaking
  $ git show main:mcp.contract.json > /tmp/main.json && mcp-contract diff /tmp/main.json mcp.contract.json`,
    )
    .action(async (oldPath, newPath, rawOptions, cmd) => {
      const options = rawOptions as { failOn: FailOn; format?: string[]; output?: string[]; witness: boolean };
      const globals = cmd.optsWithGlobals() as GlobalOptions;
      const plans = planOutputs(options.format, options.output);
      const before = readLockfile(oldPath, "old");
      const after = readLockfile(newPath, "new");
      const changes = options.witness
        ? await attachWitnesses(diffContracts(before, after), before, after)
        : diffContracts(before, after);
      const report = buildReport("diff", sideOf(before, oldPath), sideOf(after, newPath), changes, options.failOn);
      await writeReports(report, plans, globals.color ?? "auto");
      if (report.result === "fail") process.exitCode = 1;
    });
}
