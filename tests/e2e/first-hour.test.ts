/**
 * The first hour (issue #29), tried as a new user would: the defaults the help promises hold,
 * and release notes read as prose.
 */
import { describe, expect, test } from "bun:test";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliCommand, fixtureTarget, ROOT, runCli, startHttpFixture, tempDir } from "../helpers/cli.ts";
import { expectMockCapture } from "./e2e-helpers.ts";

describe("mock", () => {
  test.concurrent("serves ./mcp.contract.json when --contract is not given, as its help says", async () => {
    const dir = tempDir();
    const lockfile = join(dir, "mcp.contract.json");
    const made = await runCli(["snapshot", "-q", "-o", lockfile, ...fixtureTarget({})]);
    expect(made.code).toBe(0);
    // The mock, started with no flags in that directory, is captured: the same surface.
    const again = await runCli(["snapshot", "-q", "-o", "-", "--", ...cliCommand(), "mock"], { cwd: dir });
    expect(again.stderr).toBe("");
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).tools).toEqual(JSON.parse(readFileSync(lockfile, "utf8")).tools);
  });

  test.concurrent("with no lockfile there, says which file and the flag that names another", async () => {
    const result = await runCli(["mock"], { cwd: tempDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("no contract lockfile at mcp.contract.json");
    expect(result.stderr).toContain("--contract FILE");
  });
});

describe("--format changelog", () => {
  test.concurrent("a rewritten description reads as its new text, without word-diff markup", async () => {
    const dir = tempDir();
    const before = join(dir, "old.json");
    const after = join(dir, "new.json");
    copyFileSync(join(ROOT, "tests/fixtures/published/filesystem-2025.8.21.contract.json"), before);
    const lock = JSON.parse(readFileSync(before, "utf8"));
    lock.tools[0].description = "Create a directory, and its parents when they are missing.";
    writeFileSync(after, JSON.stringify(lock));
    const result = await runCli(["diff", before, after, "--format", "changelog"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'description now reads: "Create a directory, and its parents when they are missing."',
    );
    expect(result.stdout).not.toMatch(/\{\+|\[-/);
  });
});

describe("a command given no server", () => {
  test.concurrent("check names every way to give one, --against and --all included", async () => {
    const dir = tempDir();
    copyFileSync(
      join(ROOT, "tests/fixtures/published/filesystem-2026.8.31.contract.json"),
      join(dir, "mcp.contract.json"),
    );
    const result = await runCli(["check"], { cwd: dir });
    expect(result.code).toBe(2);
    for (const way of ["-- COMMAND", "--url URL", "--server NAME", "--against FILE", "--all"]) {
      expect(result.stderr).toContain(way);
    }
  });
});

describe("--transport http against a legacy SSE endpoint", () => {
  test.concurrent("says the path looks like the legacy HTTP+SSE endpoint and how to capture it", async () => {
    const server = await startHttpFixture({ transport: "sse" });
    try {
      const sse = `${server.url.replace(/\/$/, "")}/sse`;
      const result = await runCli(["snapshot", "-o", "-", "--url", sse, "--transport", "http"]);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain("looks like the legacy HTTP+SSE endpoint");
      expect(result.stderr).toContain("--transport sse");
    } finally {
      await server.stop();
    }
  });
});

describe("the mock speaks the contract's era", () => {
  const lockfiles = ["filesystem-2025.3.28", "filesystem-2025.8.21", "filesystem-2026.8.31"];
  test.concurrent("snapshot of the mock with default flags reproduces a legacy capture byte for byte", async () => {
    for (const name of lockfiles) {
      const file = join(ROOT, "tests/fixtures/published", `${name}.contract.json`);
      const again = await runCli(["snapshot", "-q", "-o", "-", "--", ...cliCommand(), "mock", "--contract", file]);
      expect({ name, code: again.code }).toEqual({ name, code: 0 });
      expectMockCapture(name, again.stdout, readFileSync(file, "utf8"));
    }
  });

  test.concurrent("and a modern capture (the v2 SDK server) too", async () => {
    const dir = tempDir();
    const modern = join(dir, "modern.json");
    const made = await runCli([
      "snapshot",
      "-q",
      "-o",
      modern,
      "--",
      process.execPath,
      join(ROOT, "tests/fixtures/v2/server.ts"),
    ]);
    expect(made.code).toBe(0);
    expect(JSON.parse(readFileSync(modern, "utf8")).protocolVersion).toBe("2026-07-28");
    const again = await runCli(["snapshot", "-q", "-o", "-", "--", ...cliCommand(), "mock", "--contract", modern]);
    expect(again.code).toBe(0);
    expectMockCapture("modern", again.stdout, readFileSync(modern, "utf8"));
  });
});

describe("-v names the step in progress", () => {
  test.concurrent("server/discover while the era is probed, then initialize for a legacy server", async () => {
    const result = await runCli(["snapshot", "-v", "-o", "-", ...fixtureTarget({})]);
    expect(result.code).toBe(0);
    const steps = result.stderr.split("\n").filter((line) => line.startsWith("→ "));
    expect(steps.slice(0, 2)).toEqual(["→ server/discover", "→ initialize"]);
  });
});

describe("the README's failing check", () => {
  test.concurrent("is what the bundled example server's 1.3.0 gives against its committed 1.2.0 lockfile", async () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const command =
      "mcp-contract check --baseline examples/weather.contract.json -- node examples/weather-server.mjs --release 1.3.0";
    expect(readme).toContain(`\`\`\`sh\n${command}\n\`\`\``);
    const shown = readme
      .slice(readme.indexOf(`${command}\n\`\`\`\n\n\`\`\`\n`))
      .split("```")[2]
      ?.replace(/^\n/, "");
    const result = await runCli(command.split(" ").slice(1), { cwd: ROOT });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(shown ?? "");
  });
});
