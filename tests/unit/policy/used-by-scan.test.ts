import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { scanUsedBy } from "../../../src/cli/used-by-scan.ts";
import { UsageError } from "../../../src/errors.ts";
import { tempDir } from "../../helpers/cli.ts";

function tree(files: Record<string, string | Buffer>): string {
  const root = tempDir("mcp-contract-scan-");
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(root, name, ".."), { recursive: true });
    writeFileSync(join(root, name), content);
  }
  return root;
}

describe("--used-by scan", () => {
  test("walks directories recursively, any language", () => {
    const root = tree({
      "src/client.ts": 'await client.callTool({ name: "get_forecast" });',
      "src/deep/er/tool.py": "session.call_tool('set_alert', {})",
      "scripts/run.sh": 'mcp call "echo"',
      README: "plain text with no quotes",
    });
    const scan = scanUsedBy([root]);
    expect(scan.files).toBe(4);
    for (const name of ["get_forecast", "set_alert", "echo"]) expect(scan.literals.has(name)).toBe(true);
    expect(scan.skipped).toEqual([]);
  });

  test("skips node_modules, .git and dist, binary and large files", () => {
    const root = tree({
      "src/a.ts": '"kept"',
      "node_modules/x/index.js": '"from_node_modules"',
      ".git/config": '"from_git"',
      "dist/bundle.js": '"from_dist"',
      "src/image.png": Buffer.concat([Buffer.from('"from_binary"'), Buffer.from([0, 1, 2])]),
      "src/huge.js": `"from_huge"\n${"x".repeat(1024 * 1024)}`,
    });
    const scan = scanUsedBy([root]);
    expect([...scan.literals].filter((l) => l.startsWith("from_") || l === "kept")).toEqual(["kept"]);
    expect(scan.files).toBe(1);
  });

  test("skips mcp-contract's own files, which name every tool", () => {
    const root = tree({
      "mcp.contract.json": '{"lockfileVersion": 1, "tools": [{"name": "from_lockfile"}]}',
      "contracts/weather.contract.json": '{"tools": [{"name": "from_contract"}]}',
      "contracts/base.json": '{\n  "lockfileVersion": 1,\n  "tools": [{"name": "from_renamed_lockfile"}]}',
      "out/report.json": '{"reportVersion": 1, "changes": [{"target": {"name": "from_report"}}]}',
      "mcp-contract.config.json": '{"version": 1, "ignore": [{"target": "from_policy", "reason": "r"}]}',
      "src/config.json": '{"tool": "kept"}',
    });
    const scan = scanUsedBy([root]);
    expect([...scan.literals].filter((l) => l.startsWith("from_") || l === "kept")).toEqual(["kept"]);
  });

  test("never reads the excluded lockfiles", () => {
    const root = tree({ "old.json": '"from_old"', "src/a.ts": '"kept"' });
    const scan = scanUsedBy([root], new Set([resolve(root, "old.json")]));
    expect(scan.literals.has("from_old")).toBe(false);
    expect(scan.literals.has("kept")).toBe(true);
  });

  test("a file given by name is read; skipped ones are reported", () => {
    const root = tree({ "a.ts": '"get_forecast"', "b.bin": Buffer.from([0, 0, 0]) });
    const scan = scanUsedBy([join(root, "a.ts"), join(root, "b.bin")]);
    expect(scan.literals.has("get_forecast")).toBe(true);
    expect(scan.skipped).toEqual([{ path: join(root, "b.bin"), why: "it is a binary file" }]);
  });

  test("follows symlinked files but not symlinked directories", () => {
    const root = tree({ "real/a.ts": '"linked_file"', "other/b.ts": '"linked_dir"' });
    mkdirSync(join(root, "scan"));
    symlinkSync(join(root, "real/a.ts"), join(root, "scan/a.ts"));
    symlinkSync(join(root, "other"), join(root, "scan/other"));
    symlinkSync(join(root, "scan"), join(root, "scan/loop"));
    const scan = scanUsedBy([join(root, "scan")]);
    expect(scan.literals.has("linked_file")).toBe(true);
    expect(scan.literals.has("linked_dir")).toBe(false);
  });

  test("a path that does not exist is a usage error", () => {
    expect(() => scanUsedBy(["/nonexistent/mcp-contract-src"])).toThrow(UsageError);
    expect(() => scanUsedBy(["/nonexistent/mcp-contract-src"])).toThrow(
      "--used-by /nonexistent/mcp-contract-src: no such file or directory.",
    );
  });
});
