/**
 * The shipped binary reads nothing of the runtime's own from the directory it runs in. A
 * compiled Bun executable loads `.env` and `bunfig.toml` from the working directory unless it
 * is built not to (scripts/build.ts): a checkout's `.env` would then set our environment, and a
 * bunfig `preload` would run the checkout's code inside mcp-contract. `diff` of two lockfiles
 * in an untrusted pull request's checkout must run nothing of it.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTempDirs, ROOT, run, shippedBinary, tempDir } from "./ship-helpers.ts";

afterAll(cleanupTempDirs);

const PUBLISHED = join(ROOT, "tests/fixtures/published");
const OLD = join(PUBLISHED, "filesystem-2025.3.28.contract.json");
const NEW = join(PUBLISHED, "filesystem-2025.8.21.contract.json");

test("a .env and a bunfig.toml in the working directory are not read", async () => {
  const bin = await shippedBinary();
  const dir = tempDir("mcp-contract-cwd-");
  const summary = join(dir, "summary.md");
  const preloaded = join(dir, "preloaded");
  // The github format appends to GITHUB_STEP_SUMMARY when it is set: the .env would set it.
  writeFileSync(join(dir, ".env"), `GITHUB_STEP_SUMMARY=${summary}\n`);
  writeFileSync(join(dir, "bunfig.toml"), 'preload = ["./preload.ts"]\n');
  writeFileSync(join(dir, "preload.ts"), `require("node:fs").writeFileSync(${JSON.stringify(preloaded)}, "ran");\n`);
  const env = { GITHUB_STEP_SUMMARY: undefined };
  for (const args of [["--version"], ["diff", OLD, NEW, "--format", "github"], ["lint", "--from", OLD]]) {
    const result = await run([bin, ...args], { cwd: dir, env });
    expect(result.stderr).not.toContain("preload");
    expect([0, 1]).toContain(result.code);
  }
  expect(existsSync(preloaded)).toBe(false);
  expect(existsSync(summary)).toBe(false);
  // The same variable from the real environment is honoured: the test can tell the two apart.
  const honoured = await run([bin, "diff", OLD, NEW, "--format", "github"], {
    cwd: dir,
    env: { GITHUB_STEP_SUMMARY: summary },
  });
  expect(honoured.code).toBe(0);
  expect(existsSync(summary)).toBe(true);
}, 120_000);
