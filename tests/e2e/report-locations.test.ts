/**
 * Where GitHub annotations and SARIF results point, in a real git repository laid out as a
 * monorepo (the lockfile in packages/srv, mcp-contract run from there): paths from the
 * repository root (or GITHUB_WORKSPACE), SARIF with the %SRCROOT% base, and every change on
 * the NEW lockfile, the file the pull request changes: `diff /tmp/main.json mcp.contract.json`
 * never annotates the temporary copy, and `check --baseline-ref main` takes its lines from
 * the working tree's lockfile, not from main's.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { lockfile, objectSchema, type ToolDef, tool, writeFile } from "./contract-builders.ts";
import { fixtureTarget, type Lockfile, runCli, tempDir } from "./e2e-helpers.ts";

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync(
    "git",
    ["-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false", ...args],
    { cwd, encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr}`);
  return result.stdout;
}

const OLD_TOOLS: ToolDef[] = [
  tool("search", { inputSchema: objectSchema({ q: { type: "string" }, region: { type: "string" } }, ["q"]) }),
  tool("fetch"),
];
/** A tool added at the top (so every line moves), search's region now required, fetch removed. */
const NEW_TOOLS: ToolDef[] = [
  tool("aardvark", { description: "A new tool listed first, so that every line below it moves down by several" }),
  tool("search", {
    inputSchema: objectSchema({ q: { type: "string" }, region: { type: "string" } }, ["q", "region"]),
  }),
];

const NO_WORKSPACE = { GITHUB_WORKSPACE: undefined, GITHUB_STEP_SUMMARY: undefined };

interface Repo {
  root: string;
  srv: string;
  oldText: string;
  newText: string;
  /** main's lockfile, copied out of the repository. */
  mainCopy: string;
}

let repo: Repo;
beforeAll(() => {
  const root = realpathSync(tempDir("mcp-contract-monorepo-"));
  const srv = join(root, "packages", "srv");
  mkdirSync(srv, { recursive: true });
  git(root, "init", "-q", "-b", "main");
  writeFile(srv, "mcp.contract.json", lockfile({ tools: OLD_TOOLS as Lockfile["tools"] }));
  git(root, "add", ".");
  git(root, "commit", "-q", "-m", "the contract on main");
  // The pull request edits the lockfile (uncommitted: the working tree is the PR's).
  writeFile(srv, "mcp.contract.json", lockfile({ tools: NEW_TOOLS as Lockfile["tools"] }));
  const mainCopy = join(realpathSync(tempDir("mcp-contract-main-")), "main.json");
  writeFileSync(mainCopy, git(srv, "show", "main:packages/srv/mcp.contract.json"));
  repo = {
    root,
    srv,
    oldText: readFileSync(mainCopy, "utf8"),
    newText: readFileSync(join(srv, "mcp.contract.json"), "utf8"),
    mainCopy,
  };
});

/** The 1-based line of the first `needle` after `from` in `text`. */
function lineOf(text: string, needle: string, from = ""): number {
  const offset = text.indexOf(needle, from ? text.indexOf(from) : 0);
  if (offset < 0) throw new Error(`${needle} not found`);
  return text.slice(0, offset).split("\n").length;
}

/** The annotation of a rule: its file and line. */
function annotation(stdout: string, rule: string): { command: string; file?: string; line?: number } {
  const found = stdout.split("\n").find((l) => l.includes(`title=${rule}::`));
  if (!found) throw new Error(`no annotation for ${rule} in:\n${stdout}`);
  const match = /^::(\w+) (?:file=([^,]+),line=(\d+),)?/.exec(found);
  return {
    command: match?.[1] ?? "",
    ...(match?.[2] && { file: match[2], line: Number(match[3]) }),
  };
}

type SarifLog = {
  runs: {
    originalUriBaseIds?: Record<string, { uri: string }>;
    results: {
      ruleId: string;
      locations: {
        physicalLocation?: {
          artifactLocation: { uri: string; uriBaseId?: string };
          region: { startLine: number; startColumn?: number };
        };
      }[];
    }[];
  }[];
};

function sarifLocation(log: SarifLog, rule: string) {
  return log.runs[0]?.results.find((r) => r.ruleId === rule)?.locations[0]?.physicalLocation;
}

describe("a monorepo: the lockfile in packages/srv, run from there", () => {
  test.concurrent("diff /tmp/main.json mcp.contract.json: paths from the repository root, lines of the NEW file", async () => {
    const sarifFile = join(repo.srv, "contract.sarif");
    const result = await runCli(
      ["diff", repo.mainCopy, "mcp.contract.json", "--format", "github", "--format", `sarif=${sarifFile}`],
      { cwd: repo.srv, env: NO_WORKSPACE },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const file = "packages/srv/mcp.contract.json";
    expect(annotation(result.stdout, "required-added")).toEqual({
      command: "error",
      file,
      line: lineOf(repo.newText, '"required"', '"name": "search"'),
    });
    expect(annotation(result.stdout, "tool-added")).toEqual({
      command: "notice",
      file,
      line: lineOf(repo.newText, '"name": "aardvark"') - 1,
    });
    // The removal exists only in the temporary copy, outside the repository: the NEW file's tool list.
    expect(annotation(result.stdout, "tool-removed")).toEqual({
      command: "error",
      file,
      line: lineOf(repo.newText, '"tools": ['),
    });
    expect(result.stdout).not.toContain(repo.mainCopy);
    expect(result.stdout).not.toContain("file=mcp.contract.json");

    const log = JSON.parse(readFileSync(sarifFile, "utf8")) as SarifLog;
    expect(log.runs[0]?.originalUriBaseIds).toEqual({ "%SRCROOT%": { uri: `${pathToFileURL(repo.root).href}/` } });
    expect(sarifLocation(log, "required-added")).toEqual({
      artifactLocation: { uri: file, uriBaseId: "%SRCROOT%" },
      region: { startLine: lineOf(repo.newText, '"required"', '"name": "search"'), startColumn: 9 },
    });
    expect(sarifLocation(log, "tool-removed")?.artifactLocation.uri).toBe(file);
  });

  test.concurrent("check --baseline-ref main against the live server: the working tree's lines, not main's", async () => {
    const config = { tools: NEW_TOOLS, serverInfo: { name: "fixture", version: "1.0.0" } };
    const result = await runCli(["check", "--baseline-ref", "main", "--format", "github", ...fixtureTarget(config)], {
      cwd: repo.srv,
      env: NO_WORKSPACE,
    });
    expect(result.code).toBe(1);
    const newLine = lineOf(repo.newText, '"required"', '"name": "search"');
    const oldLine = lineOf(repo.oldText, '"required"', '"name": "search"');
    expect(newLine).not.toBe(oldLine);
    expect(annotation(result.stdout, "required-added")).toEqual({
      command: "error",
      file: "packages/srv/mcp.contract.json",
      line: newLine,
    });
    // Removed since main: main's lines are not the working tree's, so the working tree's tool list.
    expect(annotation(result.stdout, "tool-removed")).toEqual({
      command: "error",
      file: "packages/srv/mcp.contract.json",
      line: lineOf(repo.newText, '"tools": ['),
    });
  });

  test.concurrent("GITHUB_WORKSPACE, when set, is the root paths are relative to", async () => {
    const workspace = join(repo.root, "packages");
    const result = await runCli(["diff", repo.mainCopy, "mcp.contract.json", "--format", "github"], {
      cwd: repo.srv,
      env: { GITHUB_WORKSPACE: workspace, GITHUB_STEP_SUMMARY: undefined },
    });
    expect(annotation(result.stdout, "required-added").file).toBe("srv/mcp.contract.json");
  });

  test.concurrent("lint --from: SARIF results on the lockfile from the repository root", async () => {
    const sarifFile = join(repo.srv, "lint.sarif");
    const result = await runCli(
      ["lint", "--from", "mcp.contract.json", "--fail-on", "never", "--format", `sarif=${sarifFile}`],
      { cwd: repo.srv, env: NO_WORKSPACE },
    );
    expect(result.code).toBe(0);
    const log = JSON.parse(readFileSync(sarifFile, "utf8")) as SarifLog;
    const located = log.runs[0]?.results.map((r) => r.locations[0]?.physicalLocation?.artifactLocation);
    expect(located?.length).toBeGreaterThan(0);
    for (const location of located ?? []) {
      expect(location).toEqual({ uri: "packages/srv/mcp.contract.json", uriBaseId: "%SRCROOT%" });
    }
  });
});
