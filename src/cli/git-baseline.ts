/**
 * --baseline-ref REV: read the baseline lockfile as committed at a git revision
 * (`git show REV:<path from the repository root>`), without touching the working tree.
 * I/O: runs git. Every problem is a UsageError (exit 2) that says how to fix it.
 */
import { spawnSync } from "node:child_process";
import { isAbsolute, posix, relative, resolve, sep } from "node:path";
import type { Contract } from "../contract/model.ts";
import { UsageError } from "../errors.ts";
import { LockfileReads } from "./lockfile.ts";

interface GitResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Lockfiles can be large; git's output is read whole. */
const MAX_BUFFER = 1024 * 1024 * 1024;

function git(args: string[], cwd: string): GitResult {
  const result = spawnSync("git", args, {
    cwd,
    encoding: "utf8",
    maxBuffer: MAX_BUFFER,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" },
  });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      throw new UsageError(
        "--baseline-ref needs git, and git was not found on PATH. Install git, or write the baseline to a file yourself (`git show REV:mcp.contract.json > base.json`) and pass it with --baseline.",
      );
    }
    throw new UsageError(`--baseline-ref: could not run git: ${result.error.message}`);
  }
  return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr.trim() };
}

function firstLine(text: string): string {
  return (
    text
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.replace(/^(fatal|error): /, "") ?? ""
  );
}

/** A fetch command that would most likely bring `ref` in: `git fetch origin main` for origin/main. */
export function fetchHint(ref: string, remotes: readonly string[]): string {
  const slash = ref.indexOf("/");
  if (slash > 0) {
    const remote = ref.slice(0, slash);
    const branch = ref.slice(slash + 1);
    if (remotes.includes(remote) && branch !== "") return `git fetch ${remote} ${branch}`;
  }
  const remote = remotes.includes("origin") ? "origin" : remotes[0];
  return remote ? `git fetch ${remote} ${ref}` : "git fetch";
}

/** The baseline path from the repository root, in git's spelling (forward slashes). */
export function repoPath(prefix: string, cwd: string, baseline: string): string {
  const fromCwd = isAbsolute(baseline) ? relative(cwd, baseline) : baseline;
  return posix.normalize(posix.join(prefix, fromCwd.split(sep).join("/")));
}

export interface GitBaseline {
  contract: Contract;
  /** `mcp.contract.json@origin/main`, for the report. */
  source: string;
  /** The lockfile text at that revision, for locating findings in it. */
  text: string;
}

export function readBaselineAtRef(
  ref: string,
  baseline: string,
  reads: LockfileReads = new LockfileReads(),
  cwd: string = process.cwd(),
): GitBaseline {
  const source = `${baseline}@${ref}`;
  if (ref.trim() === "" || ref.startsWith("-")) {
    throw new UsageError(
      `--baseline-ref ${JSON.stringify(ref)} is not a git revision. Give a branch, tag or commit, e.g. origin/main.`,
    );
  }
  const inside = git(["rev-parse", "--show-prefix"], cwd);
  if (inside.status !== 0) {
    if (/not a git repository/i.test(inside.stderr)) {
      throw new UsageError(
        `--baseline-ref needs a git repository, and ${resolve(cwd)} is not inside one. Run mcp-contract from your repository, or pass the baseline file with --baseline instead.`,
      );
    }
    throw new UsageError(
      `--baseline-ref: git cannot read the repository at ${resolve(cwd)}: ${firstLine(inside.stderr)}`,
    );
  }
  const prefix = inside.stdout.trim();
  const path = repoPath(prefix, resolve(cwd), baseline);
  if (path === ".." || path.startsWith("../")) {
    throw new UsageError(
      `--baseline ${baseline} is outside the git repository, so --baseline-ref ${ref} cannot read it from there.`,
    );
  }

  const commit = git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], cwd);
  if (commit.status !== 0) {
    const remotes = git(["remote"], cwd)
      .stdout.split("\n")
      .map((r) => r.trim())
      .filter(Boolean);
    const shallow = git(["rev-parse", "--is-shallow-repository"], cwd).stdout.trim() === "true";
    throw new UsageError(
      `--baseline-ref: the revision ${JSON.stringify(ref)} does not exist in this repository. If it is a remote branch that was not fetched (CI checkouts are often shallow${shallow ? ", and this one is" : ""}), fetch it first: \`${fetchHint(ref, remotes)}\`.`,
    );
  }

  const shown = git(["show", `${ref}:${path}`], cwd);
  if (shown.status !== 0) {
    if (/does not exist|exists on disk, but not in/i.test(shown.stderr)) {
      throw new UsageError(
        `--baseline-ref: ${path} does not exist at ${ref}. The lockfile may not have been committed there yet, or under another name; pass its path with --baseline (relative to the current directory).`,
      );
    }
    throw new UsageError(`--baseline-ref: git could not read ${path} at ${ref}: ${firstLine(shown.stderr)}`);
  }
  return { contract: reads.parse(shown.stdout, source), source, text: shown.stdout };
}

/**
 * The top level of the git repository `cwd` is in, or undefined (not a repository, or no git
 * on PATH): report paths are relative to it, as GitHub resolves them.
 */
export function gitTopLevel(cwd: string = process.cwd()): string | undefined {
  const result = spawnSync("git", ["rev-parse", "--show-toplevel"], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" },
  });
  if (result.error || result.status !== 0) return undefined;
  const top = result.stdout.trim();
  return top === "" ? undefined : top;
}
