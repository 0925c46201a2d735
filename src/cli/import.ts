/**
 * `mcp-contract import FILE`: convert a peer tool's file (an mcp-covenant lockfile, an
 * mcp-query contract) into our lockfile, so a team switching keeps its history. The lockfile
 * records what the peer's format could not hold (capture.importedFrom), so that comparisons
 * treat those fields as unknown; the next `check --update` or `snapshot` records them.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { Command, Option } from "@commander-js/extra-typings";
import { serializeContract } from "../contract/canonical.ts";
import { isJsonObject } from "../contract/model.ts";
import { peerFormatOf } from "../contract/peers/detect.ts";
import { describeUnknown, formatLabel } from "../contract/peers/imported.ts";
import { UsageError } from "../errors.ts";
import { type GlobalOptions, makeUi, writeStdout } from "./globals.ts";
import { LockfileReads } from "./lockfile.ts";
import { assertWritable, readRegularFile, writeFileAtomic } from "./output-file.ts";
import { readUserFile } from "./read-user-file.ts";
import { DEFAULT_LOCKFILE } from "./snapshot.ts";
import { surfaceCounts } from "./summary.ts";

export function importCommand() {
  return new Command("import")
    .summary("convert an mcp-covenant lockfile or mcp-query contract into a contract lockfile")
    .description(
      'Read a baseline written by mcp-covenant (mcp-covenant.lock) or by mcp-query\'s mcp-contract (mcp.contract.json with "version": 1) and write it as an mcp-contract lockfile. What that format could not record (capabilities, instructions, titles, annotations, …) is noted in the lockfile as unknown, so comparisons do not report it; the next `check --update` or `snapshot` records the whole surface.',
    )
    .argument("<file>", "the peer tool's file")
    .addOption(new Option("-o, --output <file>", "where to write the lockfile; - for stdout").default(DEFAULT_LOCKFILE))
    .addOption(
      new Option("--out <file>", "the same as -o/--output").helpGroup("Compatibility (mcp-covenant, mcp-query):"),
    )
    .addHelpText(
      "after",
      `
Examples:
  $ mcp-contract import mcp-covenant.lock                # writes mcp.contract.json
  $ mcp-contract import mcp.contract.json                # an mcp-query contract, converted in place
  $ mcp-contract import old/v1.lock -o contracts/v1.json
  $ mcp-contract check --update -- node dist/server.js   # then record what the old format could not

Exit codes: 0 converted, 2 the file is missing, unreadable, not a peer format, or the output cannot be written.`,
    )
    .action(async (file, rawOptions, cmd) => {
      const options = rawOptions as { output: string; out?: string };
      const ui = makeUi(cmd.optsWithGlobals() as GlobalOptions);
      if (options.out !== undefined && cmd.getOptionValueSource("output") === "cli") {
        throw new UsageError("--out is another spelling of -o/--output: give one of them, not both.");
      }
      const output = options.out ?? options.output;
      const toStdout = output === "-";
      // The default name may be a lockfile of ours already: never overwrite it unasked (converting in place is asked).
      const named = options.out !== undefined || cmd.getOptionValueSource("output") === "cli";
      if (!named && existsSync(output) && resolve(output) !== resolve(file)) {
        throw new UsageError(
          `${output} exists already, and import writes there by default. Name the output to overwrite it or to write elsewhere (-o ${output}, or -o contracts/imported.json).`,
        );
      }
      if (!toStdout) assertWritable(output);
      const text = readUserFile(file, {
        missing: `no file to import at ${file}. Give the path of an mcp-covenant lockfile (mcp-covenant.lock) or an mcp-query contract.`,
        aKind: "a lockfile",
        theKind: "the file to import",
      });
      const contract = new LockfileReads().parse(text, file);
      const imported = contract.capture.importedFrom;
      if (imported === undefined || !isPeerText(text)) {
        throw new UsageError(
          `${file} is already an mcp-contract lockfile: there is nothing to import. Use it as it is (\`mcp-contract check --baseline ${file} -- <server command>\`).`,
        );
      }
      const lockfile = serializeContract(contract);
      let destination = output;
      if (toStdout) {
        await writeStdout(lockfile);
        destination = "stdout";
      } else if (readRegularFile(output) === lockfile) {
        destination = `${output} (unchanged)`;
      } else {
        writeFileAtomic(output, lockfile);
      }
      ui.info(`imported the ${formatLabel(imported)} ${file} (${surfaceCounts(contract)}) → ${destination}`);
      ui.info(
        `it does not record ${describeUnknown(imported)}: checks take those as unchanged until \`mcp-contract check --update\` or \`snapshot\` records them.`,
      );
    });
}

/** A file in a peer's format, not one of our lockfiles (which may itself carry an import caveat). */
function isPeerText(text: string): boolean {
  const data: unknown = JSON.parse(text);
  return isJsonObject(data) && peerFormatOf(data) !== undefined;
}
