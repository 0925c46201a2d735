#!/usr/bin/env bun
/** mcp-contract: the CLI entry. Builds the command tree, runs it, maps errors to exit codes. */
import type { Ui } from "./src/cli/ui.ts";
import { VERSION } from "./src/version.ts";

/** A bug in mcp-contract itself, never one of the documented outcomes. */
const EXIT_INTERNAL = 70;

async function main(argv: string[]): Promise<number> {
  // `--version` alone, the commonest call in CI scripts, answers before anything else loads
  // (what commander would print). A closed stdout leaves nothing to report.
  if (argv.length === 3 && (argv[2] === "--version" || argv[2] === "-V")) {
    await Bun.write(Bun.stdout, `${VERSION}\n`).catch(() => undefined);
    return 0;
  }
  const [{ CommanderError }, { buildProgram }, { CliError }] = await Promise.all([
    import("@commander-js/extra-typings"),
    import("./src/cli/program.ts"),
    import("./src/errors.ts"),
  ]);
  // Only the invoked command's modules are loaded (see buildProgram).
  const program = await buildProgram(argv);
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    const opts = program.opts();
    // The error path alone needs the UI: start-up does not pay for loading it.
    const [{ redactSecrets, Ui }, { writeErr }] = await Promise.all([
      import("./src/cli/ui.ts"),
      import("./src/cli/std-streams.ts"),
    ]);
    const ui = new Ui({ verbose: opts.verbose, color: opts.color });
    if (error instanceof CliError) {
      ui.error(error.message);
      if (opts.verbose) printStack(ui, error, redactSecrets, writeErr);
      return error.exitCode;
    }
    ui.error(
      `internal error: ${error instanceof Error ? error.message : String(error)}. This is a bug in mcp-contract; please report it with the command you ran${opts.verbose ? "" : " (add --verbose for the stack trace)"}.`,
    );
    if (opts.verbose) printStack(ui, error, redactSecrets, writeErr);
    return EXIT_INTERNAL;
  }
}

function printStack(
  ui: Ui,
  error: unknown,
  redactSecrets: (text: string) => string,
  writeErr: (text: string) => void,
): void {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    writeErr(`${ui.dim(redactSecrets(`${depth ? "caused by: " : ""}${e.stack ?? e.message}`))}\n`);
  }
}

process.exit(await main(process.argv));
