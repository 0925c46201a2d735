/**
 * The completion engine behind every shell's script: what TAB offers after each kind of word,
 * read from the real command tree (so a new flag or choice completes without a change here).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Command, Option } from "@commander-js/extra-typings";
import { bashWords, complete, completionScript, renderCompletion, SHELLS } from "../../../src/cli/completions.ts";
import { buildProgram } from "../../../src/cli/program.ts";
import { FORMATS } from "../../../src/report/context.ts";
import { FAIL_ON } from "../../../src/report/model.ts";
import { LINT_RULES, RULES } from "../../../src/rules/registry.ts";
import { cleanupTempDirs, tempDir } from "../../e2e/ship-helpers.ts";

afterAll(cleanupTempDirs);

const program = await buildProgram();
const values = (words: string[]) => complete(program, words).candidates.map((c) => c.value);
const modeOf = (words: string[]) => complete(program, words).mode;

describe("completion of a command line", () => {
  test("commands, with their summaries, and never the hidden __complete or help", () => {
    const all = complete(program, [""]).candidates;
    const names = all.map((c) => c.value);
    expect(names).toEqual(program.commands.map((c) => c.name()).filter((n) => n !== "__complete"));
    expect(names).toEqual(expect.arrayContaining(["snapshot", "check", "diff", "lint", "rules", "completions"]));
    expect(names).not.toContain("help");
    expect(all.every((c) => (c.description ?? "").length > 0)).toBe(true);
    expect(values(["ch"])).toEqual(["check"]);
    expect(values(["-q", "--color", "never", "l"])).toEqual(["lint"]);
  });

  test("flags of the command and the global ones, long and short", () => {
    const flags = values(["check", "--"]);
    for (const flag of [
      "--baseline",
      "--fail-on",
      "--format",
      "--output",
      "--url",
      "--server",
      "--quiet",
      "--color",
      "--help",
    ]) {
      expect(flags).toContain(flag);
    }
    expect(values(["check", "--fail"])).toEqual(["--fail-on"]);
    expect(values(["snapshot", "-"])).toContain("-o");
    expect(values(["snapshot", "-"])).toContain("--");
    expect(values(["diff", "--"])).not.toContain("--url");
  });

  test("the values commander declares as choices, after a space or an =", () => {
    expect(values(["check", "--fail-on", ""])).toEqual([...FAIL_ON]);
    expect(values(["check", "--fail-on", "mi"])).toEqual(["minor"]);
    expect(values(["check", "--fail-on=p"])).toEqual(["--fail-on=patch"]);
    expect(values(["lint", "--fail-on", ""])).toEqual(["error", "warning", "info", "never"]);
    expect(values(["snapshot", "--transport", ""])).toEqual(["auto", "http", "sse"]);
    expect(values(["--color", ""])).toEqual(["auto", "always", "never"]);
    expect(values(["rules", "--format", ""])).toEqual(["text", "json", "markdown"]);
    expect(values(["completions", ""])).toEqual([...SHELLS]);
  });

  test("every flag with choices completes them, whatever it is called (--era too, once it exists)", () => {
    for (const command of program.commands) {
      for (const option of command.options as unknown as Option[]) {
        if (!option.argChoices?.length || !option.long) continue;
        expect({ flag: `${command.name()} ${option.long}`, values: values([command.name(), option.long, ""]) }).toEqual(
          {
            flag: `${command.name()} ${option.long}`,
            values: [...option.argChoices],
          },
        );
      }
    }
    const tree = new Command("x").addCommand(
      new Command("snap").addOption(new Option("--era <era>").choices(["auto", "modern", "legacy"])),
    );
    expect(complete(tree, ["snap", "--era", "m"]).candidates.map((c) => c.value)).toEqual(["modern"]);
  });

  test("report formats, rule ids, lint rule lists and client capabilities", () => {
    expect(values(["check", "--format", ""])).toEqual([...FORMATS]);
    expect(values(["lint", "--format", "sa"])).toEqual(["sarif"]);
    expect(values(["rules", ""])).toEqual(RULES.map((r) => r.id));
    expect(values(["rules", "enum-value-a"])).toEqual(["enum-value-added"]);
    expect(values(["lint", "--disable", ""])).toEqual(LINT_RULES.map((r) => r.id));
    const [first, second] = LINT_RULES.map((r) => r.id);
    expect(values(["lint", "--disable", `${first},${second?.slice(0, 4)}`])).toContain(`${first},${second}`);
    expect(values(["snapshot", "--client-capabilities", "roots,s"])).toEqual(["roots,sampling"]);
  });

  test("--server names from the client config the command would read (--config, else .mcp.json)", () => {
    const dir = tempDir();
    const config = join(dir, "clients.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { weather: { command: "node", args: ["w.mjs"] }, github: { url: "https://x/mcp" } },
      }),
    );
    const got = complete(program, ["snapshot", "--config", config, "--server", ""]).candidates;
    expect(got).toEqual([
      { value: "weather", description: "node w.mjs" },
      { value: "github", description: "https://x/mcp" },
    ]);
    expect(values(["check", `--config=${config}`, "--server=w"])).toEqual(["--server=weather"]);
    writeFileSync(join(dir, "vscode.json"), JSON.stringify({ servers: { local: { command: "x" } } }));
    expect(values(["lint", "--config", join(dir, "vscode.json"), "--server", ""])).toEqual(["local"]);
    expect(values(["lint", "--config", join(dir, "missing.json"), "--server", ""])).toEqual([]);
    // The menu is on screen: no credentials from the config in it.
    writeFileSync(
      join(dir, "secrets.json"),
      JSON.stringify({
        mcpServers: {
          a: { command: "npx", args: ["srv", "--api-key", "sk-123", "--token=abc", "--region", "eu"] },
          b: { url: "https://h/mcp?access_token=zzz&x=1" },
        },
      }),
    );
    const menu = complete(program, ["check", "--config", join(dir, "secrets.json"), "--server", ""]).candidates;
    expect(menu.map((c) => c.description).join(" ")).not.toMatch(/sk-123|abc|zzz/);
    expect(menu[0]?.description).toBe("npx srv --api-key *** --token=*** --region eu");
  });

  test("files, directories and commands are left to the shell", () => {
    expect(modeOf(["diff", ""])).toBe("files");
    expect(modeOf(["diff", "a.json", ""])).toBe("files");
    expect(modeOf(["diff", "--", "x"])).toBe("files");
    expect(modeOf(["check", "--baseline", ""])).toBe("files");
    expect(modeOf(["check", "--baseline="])).toBe("files");
    expect(modeOf(["snapshot", "-o", ""])).toBe("files");
    expect(modeOf(["snapshot", "--cwd", ""])).toBe("dirs");
    expect(modeOf(["snapshot", "--", ""])).toBe("commands");
    expect(modeOf(["snapshot", "--", "node", ""])).toBe("files");
    // After `--` the server's own flags are its business.
    expect(values(["snapshot", "--", "node", "--"])).toEqual([]);
    expect(modeOf(["snapshot", "--url", ""])).toBe("plain");
  });
});

describe("the bash word splitting", () => {
  test("re-joins words bash split at = and :, and says what the reply replaces", () => {
    expect(bashWords(["check", "--fail-on", "="], "\"'><=;|&(:")).toEqual({ words: ["check", "--fail-on="], cut: 10 });
    expect(bashWords(["check", "--fail-on", "=", "mi"], "=:")).toEqual({ words: ["check", "--fail-on=mi"], cut: 10 });
    expect(bashWords(["--server", "=", "a", ":", "b"], "=:")).toEqual({ words: ["--server=a:b"], cut: 11 });
    expect(bashWords(["rules", "enum"], "=:")).toEqual({ words: ["rules", "enum"], cut: 0 });
    expect(bashWords([], "=:")).toEqual({ words: [""], cut: 0 });
  });

  test("the protocol: one candidate a line, a tab before the description, the mode last", () => {
    expect(
      renderCompletion(
        {
          candidates: [{ value: "--fail-on=minor", description: "a\tb\nc" }, { value: "--fail-on=never" }],
          mode: "plain",
        },
        10,
      ),
    ).toBe("minor\ta b c\nnever\n:plain\n");
  });
});

describe("the scripts", () => {
  test("each names the program and calls the hidden command", () => {
    for (const shell of SHELLS) {
      const script = completionScript(shell);
      expect(script).toContain("mcp-contract");
      expect(script).toContain("__complete");
    }
    expect(completionScript("zsh").startsWith("#compdef mcp-contract\n")).toBe(true);
    expect(completionScript("powershell")).toContain("Register-ArgumentCompleter -Native -CommandName 'mcp-contract'");
    // Windows PowerShell drops empty arguments: the current word travels inside --current=.
    expect(completionScript("powershell")).toContain('"--current=$wordToComplete"');
  });
});
