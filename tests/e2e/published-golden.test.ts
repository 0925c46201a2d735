/**
 * Capture stability against a real published server: capturing the pinned
 * @modelcontextprotocol/server-filesystem today gives exactly the committed lockfile that
 * the golden diff test (tests/unit/diff/golden-filesystem.test.ts) reasons about.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runCli, tempDir } from "../helpers/cli.ts";

test("server-filesystem 2026.8.31 captures to the committed golden lockfile", async () => {
  const server = join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
  const { code, stdout, stderr } = await runCli(["snapshot", "-q", "-o", "-", "--", "node", server, tempDir()]);
  expect(stderr).toBe("");
  expect(code).toBe(0);
  expect(stdout).toBe(readFileSync(join(ROOT, "tests/fixtures/published/filesystem-2026.8.31.contract.json"), "utf8"));
});
