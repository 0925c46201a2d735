/**
 * The command tree is built lazily: only the command a line invokes is loaded. These tests
 * pin which lines get which part of the tree, and that the part behaves as the whole would
 * (same help, same commands and options).
 */
import { describe, expect, test } from "bun:test";
import { buildProgram, invokedCommand } from "../../../src/cli/program.ts";

describe("which part of the tree a command line needs", () => {
  test.each([
    [["diff", "a.json", "b.json"], "diff"],
    [["--color", "never", "diff", "a", "b"], "diff"],
    [["--color=never", "-q", "lint", "--from", "x"], "lint"],
    [["-v", "snapshot", "--", "node", "server.js"], "snapshot"],
    [["help", "diff"], "diff"],
    [["diff", "--help"], "diff"],
    [["--help", "check"], "check"],
    [["--version"], "root"],
    [["-V"], "root"],
    [["-qV"], "root"],
    [["--color", "always", "--version"], "root"],
    [[], "all"],
    [["--help"], "all"],
    [["help"], "all"],
    [["help", "nope"], "all"],
    [["dif", "a", "b"], "all"],
    [["verify", "--against", "x"], "check"],
    [["__complete", "--", "di"], "all"],
    [["--", "diff"], "all"],
    [["--color", "diff"], "all"],
  ])("%j → %s", (args, wanted) => {
    expect(invokedCommand(args)).toBe(wanted);
  });
});

describe("a partial tree behaves as the whole", () => {
  const helpOf = async (argv: string[], name: string) => {
    const program = await buildProgram(argv);
    const command = program.commands.find((c) => c.name() === name);
    return command?.helpInformation();
  };

  test("only the invoked command is built; the whole tree has every command and __complete", async () => {
    const partial = await buildProgram(["bun", "mcp-contract", "diff", "a", "b"]);
    expect(partial.commands.map((c) => c.name())).toEqual(["diff"]);
    const root = await buildProgram(["bun", "mcp-contract", "--version"]);
    expect(root.commands).toEqual([]);
    const whole = await buildProgram();
    const names = whole.commands.map((c) => c.name());
    expect(names).toContain("diff");
    expect(names).toContain("snapshot");
    expect(names.at(-1)).toBe("__complete");
  });

  test("each command's help is the same from its partial tree as from the whole", async () => {
    const whole = await buildProgram();
    for (const command of whole.commands.filter((c) => c.name() !== "__complete")) {
      const name = command.name();
      expect(await helpOf(["bun", "mcp-contract", name, "--help"], name)).toBe(command.helpInformation());
    }
  });
});

describe("help", () => {
  test("every command's help shows the global flags (issue #29)", async () => {
    const whole = await buildProgram();
    for (const command of whole.commands.filter((c) => c.name() !== "__complete")) {
      const help = command.helpInformation();
      expect({ command: command.name(), global: help.includes("Global Options:") }).toEqual({
        command: command.name(),
        global: true,
      });
      for (const flag of ["-q, --quiet", "-v, --verbose", "--color <when>"]) expect(help).toContain(flag);
    }
  });
});
