/**
 * The command tree. Commands live one per file; this only assembles them.
 *
 * Each command module is imported only when the command line needs it: `diff A B` evaluates
 * the diff command's modules and nothing of `snapshot`, `mock` or the completions; `--version`
 * evaluates none. Help, typo suggestions and completion need every command, so any command line
 * that does not name one gets the whole tree (see `invokedCommand`).
 */
import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { VERSION } from "../version.ts";
import { writeErr, writeOut } from "./std-streams.ts";

/**
 * Every command, in the order help lists them. Adding one is one line here: its name and how to
 * build it (a dynamic import, so that the bundle evaluates the module only when it is used).
 */
const COMMANDS: Record<string, () => Promise<CommandUnknownOpts>> = {
  snapshot: async () => (await import("./snapshot.ts")).snapshotCommand(),
  check: async () => (await import("./check.ts")).checkCommand(),
  diff: async () => (await import("./diff.ts")).diffCommand(),
  lint: async () => (await import("./lint.ts")).lintCommand(),
  mock: async () => (await import("./mock.ts")).mockCommand(),
  replay: async () => (await import("./replay.ts")).replayCommand(),
  "can-i-deploy": async () => (await import("./can-i-deploy.ts")).canIDeployCommand(),
  record: async () => (await import("./record.ts")).recordCommand(),
  import: async () => (await import("./import.ts")).importCommand(),
  auth: async () => (await import("./auth.ts")).authCommand(),
  rules: async () => (await import("./rules.ts")).rulesCommand(),
  completions: async () => (await import("./completions.ts")).completionsCommand(),
};

/** Command aliases (each also declared on its command with .alias), so the line loads the right module. */
const ALIASES: Record<string, string> = { verify: "check" };

/** Global options that take a value in the next word (`--color always`). */
const ROOT_VALUE_OPTIONS = new Set(["--color"]);

/**
 * Which part of the tree `args` (the words after the program name) needs: the name of the one
 * command it runs, `"root"` when it only asks for the version, or `"all"`. It reads the line the
 * way commander will: the first word that is neither a global option nor its value is the command
 * (or `help`, followed by the command to show). Anything else gets the whole tree, so that help,
 * errors and suggestions stay exactly those of the full program.
 */
export function invokedCommand(args: readonly string[]): string {
  let version = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") return "all";
    if (ROOT_VALUE_OPTIONS.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith("--")) {
      if (arg === "--version") version = true;
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      if (arg.includes("V")) version = true;
      continue;
    }
    if (Object.hasOwn(COMMANDS, arg)) return arg;
    if (Object.hasOwn(ALIASES, arg)) return ALIASES[arg] as string;
    const next = args[i + 1];
    if (arg === "help" && next !== undefined && Object.hasOwn(COMMANDS, next)) return next;
    return "all";
  }
  return version ? "root" : "all";
}

/**
 * The program, with the commands `argv` (as `process.argv`: runtime, script, then the words)
 * needs, or every command when `argv` is not given.
 */
export async function buildProgram(argv?: readonly string[]) {
  const wanted = argv === undefined ? "all" : invokedCommand(argv.slice(2));
  const program = new Command("mcp-contract")
    .description(
      "Guard the interface of MCP servers: snapshot a server's surface into a committed lockfile (mcp.contract.json) and fail CI when it drifts in a way that breaks clients.",
    )
    .version(VERSION, "-V, --version", "print the version")
    .addOption(
      new Option("-q, --quiet", "print only errors: no report, warning or summary unless --format asks for one"),
    )
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
  const names = wanted === "all" ? Object.keys(COMMANDS) : wanted === "root" ? [] : [wanted];
  const commands = await Promise.all(names.map((name) => (COMMANDS[name] as () => Promise<CommandUnknownOpts>)()));
  for (const command of commands) program.addCommand(command);
  if (wanted === "all") {
    // What the completion scripts call on TAB; hidden from help and from completion itself.
    const { completeCommand } = await import("./completions.ts");
    program.addCommand(completeCommand(program), { hidden: true });
  }
  // Commander writes its output (version, help, errors) through the descriptors too (std-streams.ts).
  const output = { writeOut: (text: string) => void writeOut(text).catch(() => undefined), writeErr };
  for (const command of [program, ...program.commands]) {
    command
      .configureOutput(output)
      // Each command's help lists the global flags too (-q, -v, --color), under "Global Options".
      .configureHelp({ showGlobalOptions: true })
      .exitOverride()
      .showHelpAfterError(
        `(run '${command === program ? "mcp-contract" : `mcp-contract ${command.name()}`} --help' for usage)`,
      );
  }
  return program;
}
