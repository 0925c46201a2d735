/** The command tree. Commands live one per file; this only assembles them. */
import { Command, Option } from "@commander-js/extra-typings";
import { VERSION } from "../version.ts";
import { checkCommand } from "./check.ts";
import { completeCommand, completionsCommand } from "./completions.ts";
import { diffCommand } from "./diff.ts";
import { lintCommand } from "./lint.ts";
import { mockCommand } from "./mock.ts";
import { rulesCommand } from "./rules.ts";
import { snapshotCommand } from "./snapshot.ts";

export function buildProgram() {
  const program = new Command("mcp-contract")
    .description(
      "Guard the interface of MCP servers: snapshot a server's surface into a committed lockfile (mcp.contract.json) and fail CI when it drifts in a way that breaks clients.",
    )
    .version(VERSION, "-V, --version", "print the version")
    .addOption(new Option("-q, --quiet", "print only errors: no report on stdout unless --format asks for one"))
    .addOption(new Option("-v, --verbose", "print details: protocol phases, the server's stderr, stack traces"))
    .addOption(
      new Option("--color <when>", "colour output")
        .choices(["auto", "always", "never"] as const)
        .default("auto" as const),
    )
    .showSuggestionAfterError(true)
    .addHelpText(
      "after",
      `
Exit codes:
  0      nothing at or over the failure threshold
  1      the policy failed (breaking changes, lint findings at or over --fail-on)
  2      the input is wrong (flags, unreadable or invalid lockfile, unwritable output)
  3      the server could not be reached or misbehaved (spawn failure, timeout, crash, HTTP 401)
  70     a bug in mcp-contract (please report it, with the --verbose output)
  128+n  stopped by signal n: 130 interrupted (Ctrl-C, SIGINT), 143 terminated (SIGTERM)

Run 'mcp-contract <command> --help' for a command's flags and examples.`,
    );
  program.addCommand(snapshotCommand());
  program.addCommand(checkCommand());
  program.addCommand(diffCommand());
  program.addCommand(lintCommand());
  program.addCommand(mockCommand());
  program.addCommand(rulesCommand());
  program.addCommand(completionsCommand());
  // What the completion scripts call on TAB; hidden from help and from completion itself.
  program.addCommand(completeCommand(program), { hidden: true });
  for (const command of [program, ...program.commands]) {
    command
      .exitOverride()
      .showHelpAfterError(
        `(run '${command === program ? "mcp-contract" : `mcp-contract ${command.name()}`} --help' for usage)`,
      );
  }
  return program;
}
