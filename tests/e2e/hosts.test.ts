/**
 * The host compatibility lens end to end (the compiled binary under `npm run test:e2e`):
 * `lint --hosts` on a published server's lockfile (findings, the host × outcome lines, the JSON
 * report's hosts), the policy file's "hosts", `diff --hosts` failing on a construct a host
 * rejects (and passing without --hosts), a mistyped profile name, and `rules ID` with sources.
 */
import { describe, expect, test } from "bun:test";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { objectSchema, tool, writeFile, writePair } from "./contract-builders.ts";
import { expectCleanFailure, ROOT, runCli, tempDir } from "./e2e-helpers.ts";

const PUBLISHED = join(ROOT, "tests/fixtures/published/filesystem-2025.8.21.contract.json");

describe("lint --hosts", () => {
  test.concurrent("a published server: Gemini's parameters and OpenAI strict reject it, the others accept it", async () => {
    const dir = tempDir("mcp-contract-hosts-");
    const json = join(dir, "lint.json");
    const result = await runCli([
      "lint",
      "--from",
      PUBLISHED,
      "--hosts",
      "gemini-parameters,openai-strict",
      "--hosts",
      "anthropic,cursor",
      "--format",
      "text",
      "--format",
      `json=${json}`,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("");
    expect(result.stdout.trimEnd().split("\n").slice(-5)).toEqual([
      "hosts:",
      "  gemini-parameters: 13 tools rejected, whole list fails",
      "  openai-strict: 6 tools rejected, whole list fails",
      "  anthropic: accepted",
      "  cursor: accepted",
    ]);
    expect(result.stdout).toContain(
      'tool "edit_file": "$schema" at inputSchema is not in Gemini\'s Schema, so the request fails with 400 "Unknown name"; fix: drop "$schema" (Gemini reads no dialect); also at inputSchema.additionalProperties: drop it, inputSchema.properties.edits.items.additionalProperties: drop it (3 places)',
    );
    const report = JSON.parse(readFileSync(json, "utf8"));
    expect(report.hosts.map((h: { host: string; listRejected: boolean }) => [h.host, h.listRejected])).toEqual([
      ["gemini-parameters", true],
      ["openai-strict", true],
      ["anthropic", false],
      ["cursor", false],
    ]);
    const strict = report.findings.filter((f: { host?: string }) => f.host === "openai-strict");
    expect(strict.length).toBeGreaterThan(0);
    expect(strict.every((f: { group: string; level: string }) => f.group === "hosts" && f.level === "error")).toBe(
      true,
    );
  });

  test.concurrent('the policy file\'s "hosts" applies when --hosts is not given; without either, no host finding', async () => {
    const dir = tempDir("mcp-contract-hosts-");
    const lock = join(dir, "mcp.contract.json");
    copyFileSync(PUBLISHED, lock);
    const plain = await runCli(["lint", "--from", lock, "--format", "json"]);
    expect(plain.stdout).not.toContain('"hosts"');
    writeFile(dir, "mcp-contract.config.json", { version: 1, hosts: ["gemini-json-schema", "openai"] });
    const withPolicy = await runCli(["lint", "--from", lock, "--fail-on", "never"]);
    expect(withPolicy.code).toBe(0);
    expect(withPolicy.stdout.trimEnd().split("\n").slice(-3)).toEqual([
      "hosts:",
      "  gemini-json-schema: accepted",
      "  openai: accepted",
    ]);
  });

  test.concurrent("a profile name that does not exist is exit 2 with the list, before anything runs", async () => {
    const result = await runCli(["lint", "--from", PUBLISHED, "--hosts", "gemini,openai"]);
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain('--hosts: no host profile is named "gemini"');
    expect(result.stderr).toContain("gemini-parameters, gemini-json-schema, openai");
  });
});

describe("diff --hosts", () => {
  test.concurrent("a nullable type written as a list breaks Gemini's parameters; without --hosts it is minor", async () => {
    // zed-industries/zed#53919: "Proto field is not repeating, cannot start list".
    const { before, after } = writePair(
      [tool("search", { inputSchema: objectSchema({ limit: { type: "integer" } }) })],
      [tool("search", { inputSchema: objectSchema({ limit: { type: ["integer", "null"] } }) })],
    );
    const [hosted, plain] = await Promise.all([
      runCli(["diff", before, after, "--hosts", "gemini-parameters", "--fail-on", "breaking", "--format", "json"]),
      runCli(["diff", before, after, "--fail-on", "breaking", "--format", "json"]),
    ]);
    expect(hosted.code).toBe(1);
    const changes = JSON.parse(hosted.stdout).changes as { rule: string; severity: string; message: string }[];
    const host = changes.find((c) => c.rule === "host-incompatibility-added");
    expect(host?.severity).toBe("breaking");
    expect(host?.message).toContain("gemini-parameters now rejects the whole tool list (gemini-parameters-type-list)");
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.stdout).changes.map((c: { rule: string }) => c.rule)).toEqual(["null-added"]);
  });
});

describe("rules", () => {
  test.concurrent("a host rule explains its host, impact, sources and the day they were checked", async () => {
    const result = await runCli(["rules", "openai-name-invalid"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Host: openai. Impact: the whole tool list is rejected.");
    expect(result.stdout).toContain("Sources (checked 2026-12-02):\n  https://");
    expect(result.stdout).toContain("https://github.com/Lucassssss/eechat/issues/52");
  });
});
