/**
 * The peer tools' command-line spellings, accepted as documented compatibility aliases so that
 * a CI line written for mcp-covenant or mcp-query runs unchanged:
 *
 *   --http URL                    mcp-covenant's --url
 *   --command CMD --args "A B"    mcp-query's `-- CMD A B` (the string split as a shell would)
 *   --contract FILE               mcp-query verify's --baseline
 *   --out FILE                    -o/--output of snapshot
 *   verify --contract A B.json    mcp-query's offline verify: --baseline A --against B.json
 *   --format human                mcp-covenant's text report (src/cli/report-output.ts)
 *   mcp-covenant.lock             check's baseline when there is no mcp.contract.json (covenant's default)
 *
 * Each alias becomes our own flag before the command runs (a preAction hook), so the commands
 * see only their own options; giving both spellings of one flag is a usage error.
 */
import { existsSync } from "node:fs";
import { type Command, Option } from "@commander-js/extra-typings";
import { UsageError } from "../errors.ts";
import { splitShellWords } from "./shell-words.ts";

const GROUP = "Compatibility (mcp-covenant, mcp-query):";
/** mcp-covenant's default lockfile name, read by `check` when ours is not there. */
export const COVENANT_LOCKFILE = "mcp-covenant.lock";

export interface PeerAliasSet {
  /** --http, --command, --args (snapshot, check, lint; not mock, whose --http is a switch). */
  target?: boolean;
  /** --contract for --baseline, and mcp-covenant.lock as the fallback baseline (check). */
  baseline?: { defaultFile: string };
  /** --out for -o/--output (snapshot). */
  out?: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: the aliases apply to commands of any option shape.
type AnyCommand = Command<any, any, any>;

export function addPeerAliases<C extends AnyCommand>(command: C, set: PeerAliasSet): C {
  const options: Option[] = [];
  if (set.target) {
    options.push(
      new Option("--http <url>", "mcp-covenant's spelling of --url"),
      new Option("--command <cmd>", 'mcp-query\'s stdio server: --command CMD --args "A B" is -- CMD A B'),
      new Option("--args <string>", "the arguments of --command, split as a POSIX shell would (quotes, backslashes)"),
    );
  }
  if (set.baseline) options.push(new Option("--contract <file>", "mcp-query verify's spelling of --baseline"));
  if (set.out) options.push(new Option("--out <file>", "the same as -o/--output"));
  for (const option of options) command.addOption(option.helpGroup(GROUP));
  command.hook("preAction", (_hooked, actionCommand) => applyAliases(actionCommand as AnyCommand, set));
  return command;
}

function applyAliases(cmd: AnyCommand, set: PeerAliasSet): void {
  const opts = cmd.opts() as Record<string, unknown>;
  const given = (name: string) => cmd.getOptionValueSource(name) === "cli" || cmd.getOptionValueSource(name) === "env";
  const rename = (alias: string, ours: string, flag: string) => {
    if (opts[alias] === undefined) return;
    if (given(ours)) {
      throw new UsageError(`--${alias} is another spelling of ${flag}: give one of them, not both.`);
    }
    cmd.setOptionValueWithSource(ours, opts[alias], "cli");
  };
  if (set.target) {
    rename("http", "url", "--url");
    if (opts.args !== undefined && opts.command === undefined) {
      throw new UsageError(
        "--args gives the arguments of the server that --command starts: add --command CMD, or write the server after `--` (-- CMD ARG...).",
      );
    }
    if (opts.command !== undefined) {
      const [commandArgs, ...rest] = cmd.processedArgs as [string[], ...unknown[]];
      if (commandArgs.length > 0) {
        throw new UsageError(
          'give the stdio server once: either --command CMD --args "ARG..." or -- CMD ARG..., not both.',
        );
      }
      const words = splitShellWords(typeof opts.args === "string" ? opts.args : "");
      cmd.processedArgs = [[opts.command as string, ...words], ...rest];
    }
  }
  if (set.out) rename("out", "output", "-o/--output");
  if (set.baseline) {
    const fromContract = opts.contract !== undefined;
    rename("contract", "baseline", "--baseline");
    // mcp-query's `verify --contract A B.json` compares with the file B.json, not a server named so.
    const [commandArgs, ...rest] = cmd.processedArgs as [string[], ...unknown[]];
    const lone = commandArgs.length === 1 ? (commandArgs[0] as string) : undefined;
    if (fromContract && lone?.endsWith(".json") && opts.against === undefined && existsSync(lone)) {
      cmd.setOptionValueWithSource("against", lone, "cli");
      cmd.processedArgs = [[], ...rest];
    }
    // mcp-covenant's `check -- cmd` reads mcp-covenant.lock by default: so do we, when ours is not there.
    if (
      cmd.getOptionValueSource("baseline") === "default" &&
      opts.update === undefined &&
      opts.baselineRef === undefined &&
      !existsSync(set.baseline.defaultFile) &&
      existsSync(COVENANT_LOCKFILE)
    ) {
      cmd.setOptionValueWithSource("baseline", COVENANT_LOCKFILE, "default");
    }
  }
}
