import { describe, expect, test } from "bun:test";
import { fetchHint, repoPath } from "../../../src/cli/git-baseline.ts";

describe("git baseline helpers", () => {
  test.each([
    ["origin/main", ["origin"], "git fetch origin main"],
    ["upstream/release/2.x", ["origin", "upstream"], "git fetch upstream release/2.x"],
    ["main", ["origin"], "git fetch origin main"],
    ["v1.2.0", ["origin"], "git fetch origin v1.2.0"],
    ["feature/x", ["origin"], "git fetch origin feature/x"],
    ["main", [], "git fetch"],
  ])("fetch hint for %p", (ref, remotes, hint) => {
    expect(fetchHint(ref, remotes)).toBe(hint);
  });

  test.each([
    ["", "/repo", "mcp.contract.json", "mcp.contract.json"],
    ["server/", "/repo/server", "mcp.contract.json", "server/mcp.contract.json"],
    ["server/", "/repo/server", "../contracts/w.json", "contracts/w.json"],
    ["server/", "/repo/server", "./contracts/./w.json", "server/contracts/w.json"],
    ["server/", "/repo/server", "/repo/server/x/w.json", "server/x/w.json"],
    ["", "/repo", "../outside.json", "../outside.json"],
  ])("prefix %p, cwd %p, baseline %p", (prefix, cwd, baseline, expected) => {
    expect(repoPath(prefix, cwd, baseline)).toBe(expected);
  });
});
