/** Client config lookup (walk-up, the three kinds), variables, envFile, ${input:} refusal, did-you-mean. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { basename, dirname, join, sep } from "node:path";
import { lockfileName } from "../../../src/cli/all-servers.ts";
import { configuredServerNames } from "../../../src/cli/completions.ts";
import { expandVariables, stripJsonComments } from "../../../src/cli/config-variables.ts";
import {
  configuredEntries,
  findConfigFiles,
  listConfiguredServers,
  lookupServer,
  workspaceOf,
} from "../../../src/cli/mcp-config.ts";
import { UsageError } from "../../../src/errors.ts";

function usageError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error("expected a UsageError");
}

/** A fresh tree: root/{.mcp.json?}/a/b (the current directory), root/.vscode, root/a/.cursor. */
function tree(): { root: string; a: string; b: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "mcp-config-walk-")));
  const a = join(root, "a");
  const b = join(a, "b");
  mkdirSync(b, { recursive: true });
  return { root, a, b };
}

function write(path: string, content: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

const stdio = (command: string, extra: object = {}) => ({ command, ...extra });

describe("lookup: the nearest file of each kind, walking up", () => {
  test("the nearest .mcp.json wins over one further up; .vscode and .cursor files follow, in that order", () => {
    const { root, a, b } = tree();
    write(join(root, ".mcp.json"), { mcpServers: { far: stdio("far") } });
    write(join(a, ".mcp.json"), { mcpServers: { near: stdio("near") } });
    write(join(root, ".vscode/mcp.json"), { servers: { vs: stdio("vs") } });
    write(join(a, ".cursor/mcp.json"), { mcpServers: { cur: stdio("cur") } });
    const found = findConfigFiles(b);
    expect(found.map((f) => f.path)).toEqual([
      join(a, ".mcp.json"),
      join(root, ".vscode/mcp.json"),
      join(a, ".cursor/mcp.json"),
    ]);
    // Workspaces: the folder of .mcp.json; the folder that holds .vscode / .cursor.
    expect(found.map((f) => f.workspace)).toEqual([a, root, a]);
    expect(found[0]?.shown).toBe(join("..", ".mcp.json"));
    // Only the nearest .mcp.json is read: "far" is not found.
    expect(usageError(() => lookupServer("far", { cwd: b }))).toContain('define no server named "far"');
    expect(lookupServer("vs", { cwd: b }).server.command).toEqual(["vs"]);
    expect(lookupServer("cur", { cwd: b }).file.path).toBe(join(a, ".cursor/mcp.json"));
  });

  test("a name in several files: the first file wins, the others are reported as shadowed", () => {
    const { root, b } = tree();
    write(join(root, ".mcp.json"), { mcpServers: { gh: stdio("from-mcp-json") } });
    write(join(root, ".vscode/mcp.json"), { servers: { gh: stdio("from-vscode") } });
    const found = lookupServer("gh", { cwd: b });
    expect(found.server.command).toEqual(["from-mcp-json"]);
    expect(found.shadowed.map((f) => f.path)).toEqual([join(root, ".vscode/mcp.json")]);
    // --all lists each name once, from the first file.
    const all = listConfiguredServers({ cwd: b });
    expect(all.map((e) => [e.name, e.file.path])).toEqual([["gh", join(root, ".mcp.json")]]);
  });

  test("--config FILE reads that file only; relative paths resolve against its workspace", () => {
    const { root, b } = tree();
    write(join(root, ".mcp.json"), { mcpServers: { other: stdio("x") } });
    const file = write(join(root, "cfg/.vscode/mcp.json"), {
      servers: { local: stdio("node", { args: ["${workspaceFolder}/s.js"], cwd: "srv" }) },
    });
    const found = lookupServer("local", { cwd: b, config: file });
    expect(found.server).toEqual({
      command: ["node", `${join(root, "cfg")}/s.js`],
      env: [],
      cwd: join(root, "cfg/srv"),
    });
    expect(usageError(() => lookupServer("other", { cwd: b, config: file }))).toContain(
      `${file} defines no server named "other"; it defines: local.`,
    );
    expect(workspaceOf("/x/y/claude_desktop_config.json")).toBe("/x/y");
  });

  test("no file anywhere: the message names the files looked for and the flag", () => {
    const { b } = tree();
    // A lookup from the filesystem root of a fresh tree finds nothing unless /tmp or / has one.
    const found = findConfigFiles(b);
    if (found.length > 0) return; // the machine has a config above the temp directory
    const message = usageError(() => lookupServer("x", { cwd: b }));
    expect(message).toContain("no MCP client config file for --server x");
    expect(message).toContain(".mcp.json, .vscode/mcp.json, .cursor/mcp.json");
    expect(message).toContain("--config FILE");
  });

  test("a missing --config file, bad JSON, and a file without servers", () => {
    const { root } = tree();
    expect(usageError(() => lookupServer("x", { cwd: root, config: "absent.json" }))).toContain(
      "cannot read the MCP config file absent.json",
    );
    write(join(root, "bad.json"), "{ nope");
    expect(usageError(() => lookupServer("x", { cwd: root, config: "bad.json" }))).toContain(
      "bad.json is not valid JSON",
    );
    write(join(root, "empty.json"), { inputs: [] });
    expect(usageError(() => lookupServer("x", { cwd: root, config: "empty.json" }))).toContain(
      'has no "mcpServers" (or "servers") object',
    );
  });

  test("comments and trailing commas (VS Code and Cursor write JSONC)", () => {
    const { root } = tree();
    write(
      join(root, ".vscode/mcp.json"),
      '{\n  // my servers\n  "servers": {\n    /* local */ "a": { "command": "x // not a comment", "args": ["/*", "*/",], },\n  },\n}\n',
    );
    expect(lookupServer("a", { cwd: root }).server.command).toEqual(["x // not a comment", "/*", "*/"]);
    expect(JSON.parse(stripJsonComments('{"a": [1, 2, ], "b": "x,]"}'))).toEqual({ a: [1, 2], b: "x,]" });
  });
});

describe("variables", () => {
  const ctx = { file: ".vscode/mcp.json", workspace: "/work/space/proj", env: { TOKEN: "t0k", EMPTY: "" } };

  test.each([
    ["${workspaceFolder}/bin", "/work/space/proj/bin"],
    ["${workspaceFolderBasename}", "proj"],
    ["${userHome}", homedir()],
    ["a${pathSeparator}b${/}c", `a${sep}b${sep}c`],
    ["Bearer ${env:TOKEN}", "Bearer t0k"],
    ["${TOKEN}", "t0k"],
    ["${MISSING:-fallback}", "fallback"],
    ["${EMPTY:-fallback}", ""],
    ["$TOKEN and ${not a variable}", "$TOKEN and ${not a variable}"],
  ])("%s", (value, expected) => {
    expect(expandVariables(value, ctx)).toBe(expected);
  });

  test("${input:ID} is refused with what to write instead", () => {
    const message = usageError(() => expandVariables("${input:api-key}", ctx));
    expect(message).toContain(".vscode/mcp.json uses ${input:api-key}");
    expect(message).toContain("cannot prompt");
    expect(message).toContain("${env:NAME}");
  });

  test("an unset variable names itself and the file; an editor-only variable is refused", () => {
    expect(usageError(() => expandVariables("${env:NOPE_NOT_SET}", ctx))).toContain(
      ".vscode/mcp.json uses ${env:NOPE_NOT_SET}, but the environment variable NOPE_NOT_SET is not set",
    );
    expect(usageError(() => expandVariables("${NOPE_NOT_SET}", ctx))).toContain("NOPE_NOT_SET is not set");
    expect(usageError(() => expandVariables("${command:pick}", ctx))).toContain("cannot resolve outside the editor");
  });

  test("a config's ${input:} is refused before anything is sent; entries that do not use it still resolve", () => {
    const { root } = tree();
    write(join(root, ".vscode/mcp.json"), {
      inputs: [{ id: "key", type: "promptString", password: true }],
      servers: {
        remote: { type: "http", url: "https://example.test/mcp", headers: { Authorization: "Bearer ${input:key}" } },
        ok: { type: "http", url: "https://example.test/${workspaceFolderBasename}" },
      },
    });
    expect(usageError(() => lookupServer("remote", { cwd: root }))).toContain("uses ${input:key}");
    expect(lookupServer("ok", { cwd: root }).server).toEqual({
      url: `https://example.test/${basename(root)}`,
      headers: [],
      transport: "http",
    });
  });

  test("envFile: read relative to the workspace; the entry's own env comes after it (and wins)", () => {
    const { root } = tree();
    write(join(root, ".env"), "# settings\nexport A=1\nB=\"two\\nlines\"\nC='lit ${x}'\nD=plain # comment\nB2=\n");
    write(join(root, ".vscode/mcp.json"), {
      servers: { s: { type: "stdio", command: "srv", envFile: "${workspaceFolder}/.env", env: { A: "override" } } },
    });
    expect(lookupServer("s", { cwd: root }).server.env).toEqual([
      "A=1",
      "B=two\nlines",
      "C=lit ${x}",
      "D=plain",
      "B2=",
      "A=override",
    ]);
    write(join(root, ".vscode/mcp.json"), { servers: { s: { command: "srv", envFile: "missing.env" } } });
    expect(usageError(() => lookupServer("s", { cwd: root }))).toContain(
      "names the envFile missing.env, which cannot be read",
    );
  });
});

describe("unknown names", () => {
  test("did you mean, across every file searched", () => {
    const { root, b } = tree();
    write(join(root, ".mcp.json"), { mcpServers: { github: stdio("gh"), weather: stdio("w") } });
    write(join(root, ".cursor/mcp.json"), { mcpServers: { postgres: stdio("pg") } });
    const message = usageError(() => lookupServer("postgre", { cwd: b }));
    expect(message).toContain('define no server named "postgre"; they define: github, weather, postgres.');
    expect(message).toContain('Did you mean "postgres"?');
    expect(usageError(() => lookupServer("githbu", { cwd: b }))).toContain('Did you mean "github"?');
  });

  test("completion lists every file's names without expanding variables or failing", () => {
    const { root, b } = tree();
    write(join(root, ".mcp.json"), { mcpServers: { a: stdio("${input:never}") } });
    write(join(root, ".vscode/mcp.json"), "{ broken");
    write(join(root, ".cursor/mcp.json"), { mcpServers: { a: stdio("dup"), c: stdio("c") } });
    expect(configuredEntries(undefined, b).map(([name]) => name)).toEqual(["a", "c"]);
    // The shell's --server menu, from the current directory, with the command lines it shows.
    const cwd = process.cwd();
    process.chdir(b);
    try {
      expect(configuredServerNames(undefined)).toEqual([
        { value: "a", description: "${input:never}" },
        { value: "c", description: "c" },
      ]);
    } finally {
      process.chdir(cwd);
    }
  });
});

describe("--all lockfile names", () => {
  test.each([
    ["github", "github.contract.json"],
    ["@acme/weather mcp", "acme-weather-mcp.contract.json"],
    ["../../etc/passwd", "etc-passwd.contract.json"],
    ["my_server.v2", "my_server.v2.contract.json"],
    ["¿?", "server.contract.json"],
  ])("%s → %s", (name, file) => {
    expect(lockfileName(name)).toBe(file);
  });
});
