import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveConfiguredServer } from "../../../src/cli/mcp-config.ts";
import {
  describeTarget,
  parseClientCapabilities,
  parseTarget,
  redactFlagValues,
  targetSecrets,
} from "../../../src/connect/target.ts";
import { UsageError } from "../../../src/errors.ts";

function usageError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a UsageError");
}

describe("parseTarget", () => {
  test("stdio: the command and its own flags pass through untouched; env is inherited plus --env", () => {
    process.env.MCP_CONTRACT_TEST_INHERITED = "yes";
    const target = parseTarget(["node", "server.js", "--port", "3", "--url", "x"], {
      env: ["A=1", "B=x=y"],
      cwd: "/tmp",
    });
    expect(target).toMatchObject({
      kind: "stdio",
      command: "node",
      args: ["server.js", "--port", "3", "--url", "x"],
      cwd: "/tmp",
    });
    if (target.kind !== "stdio") throw new Error("unreachable");
    expect(target.env.A).toBe("1");
    expect(target.env.B).toBe("x=y");
    expect(target.env.MCP_CONTRACT_TEST_INHERITED).toBe("yes");
    expect(target.env.PATH).toBe(process.env.PATH as string);
  });

  test("http: headers and bearer become request headers", () => {
    const target = parseTarget([], {
      url: "http://127.0.0.1:3000/mcp",
      header: ["X-Api-Key: abc: def"],
      bearer: "tok123",
    });
    expect(target).toMatchObject({
      kind: "http",
      transport: "auto",
      headers: { "X-Api-Key": "abc: def", Authorization: "Bearer tok123" },
    });
    expect(targetSecrets(target)).toContain("tok123");
    expect(targetSecrets(target)).toContain("abc: def");
  });

  test.each([
    [[], {}, "no server given"],
    [["node"], { url: "http://x/mcp" }, "not both"],
    [["node"], { bearer: "t" }, "--bearer applies to --url targets only"],
    [["node"], { header: ["A: b"] }, "--header applies to --url targets only"],
    [["node"], { transport: "sse" }, "--transport applies"],
    [[], { url: "http://x/mcp", env: ["A=1"] }, "--env and --cwd apply"],
    [[], { url: "not a url" }, "is not a valid URL"],
    [[], { url: "ftp://host/x" }, "http:// or https://"],
    [[], { url: "http://x/mcp", header: ["no colon"] }, 'expects "Name: value"'],
    [[], { url: "http://x/mcp", transport: "ws" }, "--transport must be one of"],
    [["node"], { env: ["NOEQUALS"] }, "--env expects KEY=VALUE"],
  ])("rejects %j %j", (command, flags, message) => {
    expect(usageError(() => parseTarget(command as string[], flags))).toContain(message);
  });

  test("describeTarget shows the command or URL", () => {
    expect(describeTarget(parseTarget(["node", "s.js"], {}))).toBe("`node s.js`");
    expect(describeTarget(parseTarget([], { url: "http://127.0.0.1/mcp" }))).toBe("http://127.0.0.1/mcp");
  });
});

describe("parseClientCapabilities", () => {
  test("parses, dedupes and sorts", () => {
    expect(parseClientCapabilities("sampling, roots,roots")).toEqual(["roots", "sampling"]);
    expect(parseClientCapabilities(undefined)).toEqual([]);
  });
  test("rejects unknown names", () => {
    expect(usageError(() => parseClientCapabilities("roots,telepathy"))).toContain('unknown capability "telepathy"');
  });
});

describe("resolveConfiguredServer (--server NAME --config FILE)", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-config-"));
  const file = join(dir, ".mcp.json");
  afterEach(() => {
    delete process.env.MCP_CONTRACT_TEST_TOKEN;
  });

  test("reads a stdio server with ${VAR} expansion and a relative cwd", () => {
    process.env.MCP_CONTRACT_TEST_TOKEN = "s3cret";
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          weather: {
            command: "node",
            args: ["server.js", "${MISSING:-fallback}"],
            env: { TOKEN: "${MCP_CONTRACT_TEST_TOKEN}" },
            cwd: "sub",
          },
        },
      }),
    );
    expect(resolveConfiguredServer("weather", file)).toEqual({
      command: ["node", "server.js", "fallback"],
      env: ["TOKEN=s3cret"],
      cwd: join(dir, "sub"),
    });
  });

  test("reads an HTTP server (VS Code's `servers` key)", () => {
    writeFileSync(
      file,
      JSON.stringify({ servers: { api: { type: "sse", url: "http://127.0.0.1:1/sse", headers: { "X-Key": "k" } } } }),
    );
    expect(resolveConfiguredServer("api", file)).toEqual({
      url: "http://127.0.0.1:1/sse",
      headers: ["X-Key: k"],
      transport: "sse",
    });
  });

  test.each([
    ["missing file", null, "cannot read the MCP config file"],
    ["bad JSON", "{", "is not valid JSON"],
    ["no servers", "{}", 'has no "mcpServers"'],
    [
      "unknown name",
      JSON.stringify({ mcpServers: { a: { command: "x" } } }),
      'defines no server named "weather"; it defines: a',
    ],
    ["no command", JSON.stringify({ mcpServers: { weather: {} } }), 'neither "command" nor "url"'],
    [
      "unset variable",
      JSON.stringify({ mcpServers: { weather: { command: "${MCP_CONTRACT_UNSET_VAR}" } } }),
      "MCP_CONTRACT_UNSET_VAR is not set",
    ],
  ])("%s", (_, content, message) => {
    const path = content === null ? join(dir, "absent.json") : file;
    if (content !== null) writeFileSync(file, content);
    expect(usageError(() => resolveConfiguredServer("weather", path))).toContain(message);
  });
});

describe("secret-named flags of a stdio server's command line", () => {
  test("their values are masked wherever the command is shown; other flags are kept", () => {
    const shown = redactFlagValues(["-y", "pkg", "--api-key", "sk-1", "--token=abc", "--region", "eu", "--keep", "1"]);
    expect(shown).toEqual(["-y", "pkg", "--api-key", "***", "--token=***", "--region", "eu", "--keep", "1"]);
  });
});
