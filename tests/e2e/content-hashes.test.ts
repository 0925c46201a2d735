/**
 * Content hashes and unmodelled fields end to end, with the compiled binary against the
 * fixture server (raw JSON on the wire): a lockfile keeps a field no MCP revision defines and
 * hashes each item as sent (its `required` a set: a server that reorders it changes nothing);
 * `check` says when only a hash changed (a lockfile edited by hand), lists a changed unknown field under NOT MODELLED (minor, so --fail-on minor
 * fails), and reads a lockfile written before hashes without inventing a change.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contentHash } from "../../src/contract/hashes.ts";
import { fixtureTarget, type Lockfile, runCli, snapshotFixture, tempDir } from "./e2e-helpers.ts";

const search = (required: string[], variant: string) => ({
  name: "search",
  description: "Search the catalogue.",
  inputSchema: { type: "object", properties: { q: { type: "string" }, n: { type: "integer" } }, required },
  outputVariants: [{ mimeType: variant }],
});
const server = (required: string[], variant = "text/csv") => ({ tools: [search(required, variant)] });

async function baseline(): Promise<{ file: string; lock: Lockfile }> {
  const file = join(tempDir(), "mcp.contract.json");
  const made = await snapshotFixture(server(["q", "n"]), file);
  expect(made.code).toBe(0);
  return { file, lock: JSON.parse(readFileSync(file, "utf8")) as Lockfile };
}

describe("content hashes and unmodelled fields", () => {
  test.concurrent("the lockfile keeps the unknown field and the hash of the tool as sent", async () => {
    const { lock } = await baseline();
    const tool = lock.tools[0] as Record<string, unknown>;
    expect(tool.outputVariants).toEqual([{ mimeType: "text/csv" }]);
    // Stored with `required` sorted, and hashed as the set it is: the same hash either way.
    expect((tool.inputSchema as { required: string[] }).required).toEqual(["n", "q"]);
    expect(lock.hashes).toEqual({ tools: { search: contentHash(search(["q", "n"], "text/csv")) } });
    expect(lock.hashes).toEqual({ tools: { search: contentHash(search(["n", "q"], "text/csv")) } });
  });

  test.concurrent("a reordered required is no change; check says when only the hash changed, and passes", async () => {
    const { file, lock } = await baseline();
    const same = await runCli(["check", "--baseline", file, ...fixtureTarget(server(["q", "n"]))]);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain("no changes");
    const reorderedRequired = await runCli(["check", "--baseline", file, ...fixtureTarget(server(["n", "q"]))]);
    expect(reorderedRequired.code).toBe(0);
    expect(reorderedRequired.stdout).toContain("no changes");
    // A hash edited by hand: the item is the same, only its recorded hash differs.
    const edited = { ...lock, hashes: { tools: { search: `sha256:${"0".repeat(64)}` } } };
    writeFileSync(file, `${JSON.stringify(edited, null, 2)}\n`);
    const reordered = await runCli(["check", "--baseline", file, ...fixtureTarget(server(["q", "n"]))]);
    expect(reordered.code).toBe(0);
    expect(reordered.stdout).toContain('tool "search": content hash changed, but nothing in the item did');
    expect(reordered.stdout).toContain("[content-hash-changed]");
    expect(reordered.stdout).toMatch(/PATCH \(1\)/);
  });

  test.concurrent("a changed unknown field is NOT MODELLED (minor): --fail-on minor fails", async () => {
    const { file } = await baseline();
    const changed = server(["q", "n"], "application/json");
    const result = await runCli(["check", "--baseline", file, "--fail-on", "minor", ...fixtureTarget(changed)]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("NOT MODELLED: REVIEW (1)");
    expect(result.stdout).toContain('tool "search": outputVariants changed from [{"mimeType":"text/csv"}]');
    expect(result.stdout).toContain("note: not modelled: review.");
    // The hash changed with the item: said once, by the field's own change.
    expect(result.stdout).not.toContain("content-hash-changed");
  });

  test.concurrent("a lockfile written before hashes reads, and shows no change against the same server", async () => {
    const { file, lock } = await baseline();
    const { hashes: _recorded, ...older } = lock;
    writeFileSync(file, `${JSON.stringify(older, null, 2)}\n`);
    const result = await runCli(["check", "--baseline", file, ...fixtureTarget(server(["n", "q"]))]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("no changes");
  });
});
