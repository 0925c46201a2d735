#!/usr/bin/env bun
/** mcp-contract: the CLI entry. Builds the command tree, runs it, maps errors to exit codes. */
import { CommanderError } from "@commander-js/extra-typings";
import { guardStandardStreams } from "./src/cli/globals.ts";
import { buildProgram } from "./src/cli/program.ts";
import { redactSecrets, Ui } from "./src/cli/ui.ts";
import { CliError } from "./src/errors.ts";

/** A bug in mcp-contract itself, never one of the documented outcomes. */
const EXIT_INTERNAL = 70;

async function main(argv: string[]): Promise<number> {
  guardStandardStreams();
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    const opts = program.opts();
    const ui = new Ui({ verbose: opts.verbose, color: opts.color });
    if (error instanceof CliError) {
      ui.error(error.message);
      if (opts.verbose) printStack(ui, error);
      return error.exitCode;
    }
    ui.error(
      `internal error: ${error instanceof Error ? error.message : String(error)}. This is a bug in mcp-contract; please report it with the command you ran${opts.verbose ? "" : " (add --verbose for the stack trace)"}.`,
    );
    if (opts.verbose) printStack(ui, error);
    return EXIT_INTERNAL;
  }
}

function printStack(ui: Ui, error: unknown): void {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    process.stderr.write(`${ui.dim(redactSecrets(`${depth ? "caused by: " : ""}${e.stack ?? e.message}`))}\n`);
  }
}

process.exit(await main(process.argv));
