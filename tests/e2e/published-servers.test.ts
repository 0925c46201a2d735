/**
 * Published MCP servers, pinned as devDependencies: what `snapshot` records from them,
 * that no tool's inputSchema came out empty (the zod 4 conversion trap), and that two
 * captures give the same bytes.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { type Lockfile, ROOT, readLockfile, runCli, tempDir } from "./e2e-helpers.ts";

const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const FILESYSTEM = join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

/** Tools that really take no arguments: `{type: "object", properties: {}}` is right for them. */
const NO_ARGUMENT_TOOLS = new Set([
  "get-env",
  "get-tiny-image",
  "toggle-simulated-logging",
  "toggle-subscriber-updates",
  // Only listed to clients that declare roots / elicitation; `inputSchema: {}` in their source.
  "get-roots-list",
  "trigger-elicitation-request",
  "list_allowed_directories",
]);

function expectRealSchemas(lock: Lockfile): void {
  for (const tool of lock.tools) {
    const schema = tool.inputSchema as { type?: string; properties?: Record<string, unknown> } | undefined;
    expect({ tool: tool.name, type: schema?.type }).toEqual({ tool: tool.name, type: "object" });
    const properties = Object.keys(schema?.properties ?? {});
    if (NO_ARGUMENT_TOOLS.has(tool.name)) {
      expect({ tool: tool.name, properties }).toEqual({ tool: tool.name, properties: [] });
    } else {
      expect({ tool: tool.name, empty: properties.length === 0 }).toEqual({ tool: tool.name, empty: false });
      // Every argument is described by a schema, not an empty object.
      for (const [name, property] of Object.entries(schema?.properties ?? {})) {
        expect({ tool: tool.name, name, empty: Object.keys(property as object).length === 0 }).toEqual({
          tool: tool.name,
          name,
          empty: false,
        });
      }
    }
  }
}

async function captureTwice(target: string[], extra: string[] = []) {
  const dir = tempDir();
  const [a, b] = await Promise.all(
    ["a.json", "b.json"].map((name) => runCli(["snapshot", "-o", join(dir, name), ...extra, "--", ...target])),
  );
  expect(a?.code).toBe(0);
  expect(b?.code).toBe(0);
  const text = readFileSync(join(dir, "a.json"), "utf8");
  expect(readFileSync(join(dir, "b.json"), "utf8")).toBe(text);
  return { text, lock: readLockfile(join(dir, "a.json")), stderr: a?.stderr ?? "" };
}

describe("@modelcontextprotocol/server-everything", () => {
  test.concurrent("13 tools, 7 resources, 2 templates, 4 prompts; real schemas; stable bytes", async () => {
    const { text, lock, stderr } = await captureTwice(["node", EVERYTHING, "stdio"]);
    expect(stderr).toContain("captured 13 tools, 7 resources, 2 templates, 4 prompts from mcp-servers/everything");
    expect(lock.server).toMatchObject({ name: "mcp-servers/everything" });
    expect(lock.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Object.keys(lock.capabilities)).toEqual(expect.arrayContaining(["tools", "resources", "prompts"]));
    expect(typeof lock.instructions).toBe("string");
    expect(lock.tools.map((t) => t.name)).toEqual([
      "echo",
      "get-annotated-message",
      "get-env",
      "get-resource-links",
      "get-resource-reference",
      "get-structured-content",
      "get-sum",
      "get-tiny-image",
      "gzip-file-as-resource",
      "simulate-research-query",
      "toggle-simulated-logging",
      "toggle-subscriber-updates",
      "trigger-long-running-operation",
    ]);
    expect(lock.resources).toHaveLength(7);
    expect(lock.resources.every((r) => r.uri.startsWith("demo://resource/static/"))).toBe(true);
    expect(lock.resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      "demo://resource/dynamic/blob/{resourceId}",
      "demo://resource/dynamic/text/{resourceId}",
    ]);
    expect(lock.prompts.map((p) => p.name)).toEqual([
      "args-prompt",
      "completable-prompt",
      "resource-prompt",
      "simple-prompt",
    ]);
    expectRealSchemas(lock);
    const sum = lock.tools.find((t) => t.name === "get-sum")?.inputSchema as { properties?: object } | undefined;
    expect(Object.keys(sum?.properties ?? {}).sort()).toEqual(["a", "b"]);
    expect(lock.tools.find((t) => t.name === "get-structured-content")?.outputSchema).toBeDefined();
    expect(text).not.toContain(ROOT);
  });

  test.concurrent("declaring roots, sampling and elicitation exposes the tools that need them", async () => {
    const dir = tempDir();
    const out = join(dir, "c.json");
    const result = await runCli([
      "snapshot",
      "-o",
      out,
      "--client-capabilities",
      "roots,sampling,elicitation",
      "--",
      "node",
      EVERYTHING,
      "stdio",
    ]);
    expect(result.code).toBe(0);
    const lock = readLockfile(out);
    expect(lock.capture.clientCapabilities).toEqual(["elicitation", "roots", "sampling"]);
    const names = lock.tools.map((t) => t.name);
    expect(names).toHaveLength(16);
    expect(names).toEqual(
      expect.arrayContaining(["get-roots-list", "trigger-sampling-request", "trigger-elicitation-request"]),
    );
    expectRealSchemas(lock);
  });
});

describe("@modelcontextprotocol/server-filesystem", () => {
  test.concurrent("14 tools with real schemas; the allowed directory is not in the lockfile", async () => {
    const allowed = tempDir("mcp-contract-fs-allowed-");
    const { text, lock, stderr } = await captureTwice(["node", FILESYSTEM, allowed]);
    expect(stderr).toContain("captured 14 tools, 0 resources, 0 templates, 0 prompts from secure-filesystem-server");
    expect(lock.tools.map((t) => t.name)).toEqual([
      "create_directory",
      "directory_tree",
      "edit_file",
      "get_file_info",
      "list_allowed_directories",
      "list_directory",
      "list_directory_with_sizes",
      "move_file",
      "read_file",
      "read_media_file",
      "read_multiple_files",
      "read_text_file",
      "search_files",
      "write_file",
    ]);
    expect(lock.capabilities).toEqual({ tools: { listChanged: true } });
    expectRealSchemas(lock);
    // The server does not report its allowed directories in its surface, so a lockfile
    // captured on one machine matches one captured on another.
    expect(text).not.toContain(allowed);
    expect(text).not.toContain(realpathSync(allowed));
    expect(text).not.toContain("mcp-contract-fs-allowed-");
  });

  test.concurrent("two different allowed directories give the same lockfile", async () => {
    const dir = tempDir();
    const [a, b] = await Promise.all(
      ["a.json", "b.json"].map((name) =>
        runCli(["snapshot", "-o", join(dir, name), "--", "node", FILESYSTEM, tempDir("mcp-contract-fs-allowed-")]),
      ),
    );
    expect([a?.code, b?.code]).toEqual([0, 0]);
    expect(readFileSync(join(dir, "a.json"), "utf8")).toBe(readFileSync(join(dir, "b.json"), "utf8"));
  });
});

describe("lint on published servers", () => {
  test.concurrent("server-everything, live: no protocol or security findings, and the estimate", async () => {
    const result = await runCli([
      "lint",
      "--format",
      "json",
      "--fail-on",
      "warning",
      "--",
      "node",
      EVERYTHING,
      "stdio",
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      findings: { rule: string; level: string; group: string }[];
      toolList: { tools: number; tokens: number };
    };
    expect(report.findings.filter((f) => f.group !== "quality")).toEqual([]);
    expect(report.findings.filter((f) => f.level !== "info")).toEqual([]);
    expect(report.toolList.tools).toBe(13);
    expect(report.toolList.tokens).toBeGreaterThan(1000);
  });

  test.concurrent("server-filesystem, live: the 2026.8.31 release passes --fail-on warning", async () => {
    const root = realpathSync(tempDir());
    const result = await runCli(["lint", "--fail-on", "warning", "--", "node", FILESYSTEM, root]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("0 errors, 0 warnings");
  });
});
