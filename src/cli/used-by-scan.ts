/**
 * The I/O half of --used-by: walk the consumer's files and directories and collect the
 * string literals in them (src/policy/literals.ts does the pure part). Directories are
 * walked recursively; node_modules, .git, .hg, .svn and dist are skipped, and so are
 * binary files (a NUL byte near the start), files over 1 MiB, symlinked directories, and
 * mcp-contract's own files (lockfiles, reports, the policy file), which name every tool
 * and would put everything in scope.
 */
import { type Dirent, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { UsageError } from "../errors.ts";
import { extractLiterals } from "../policy/literals.ts";
import { POLICY_FILE } from "../policy/policy.ts";

export const SKIPPED_DIRECTORIES = new Set(["node_modules", ".git", ".hg", ".svn", "dist"]);
export const MAX_SCANNED_FILE_BYTES = 1024 * 1024;
const BINARY_SNIFF_BYTES = 8000;

export interface UsedByScan {
  literals: Set<string>;
  /** Files whose literals were collected. */
  files: number;
  /** Files given by name that were skipped, with why (directories skip silently). */
  skipped: { path: string; why: string }[];
}

/** mcp-contract's own JSON files: lockfiles and reports list every name of the surface. */
function isOwnFile(path: string, head: string): boolean {
  const name = basename(path);
  if (name === POLICY_FILE || name.endsWith(".contract.json")) return true;
  return name.endsWith(".json") && /"(lockfileVersion|reportVersion)"\s*:/.test(head);
}

/**
 * Scan `paths` (as the user gave them). `exclude` holds absolute paths never to read (the
 * lockfiles being compared). Throws a UsageError for a path that does not exist.
 */
export function scanUsedBy(paths: readonly string[], exclude: ReadonlySet<string> = new Set()): UsedByScan {
  const scan: UsedByScan = { literals: new Set(), files: 0, skipped: [] };

  const readOne = (path: string, explicit: boolean, size: number) => {
    if (exclude.has(resolve(path))) return;
    const skip = (why: string) => {
      if (explicit) scan.skipped.push({ path, why });
    };
    if (size > MAX_SCANNED_FILE_BYTES) return skip("it is larger than 1 MiB");
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      return skip(`it cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return skip("it is a binary file");
    const text = bytes.toString("utf8");
    if (isOwnFile(path, text.slice(0, 512))) return skip("it is an mcp-contract lockfile, report or policy file");
    extractLiterals(text, scan.literals);
    scan.files++;
  };

  const walk = (dir: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // an unreadable subdirectory holds nothing we can use
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) walk(path);
      } else if (entry.isFile()) {
        readOne(path, false, statSafe(path)?.size ?? 0);
      } else if (entry.isSymbolicLink()) {
        // Follow links to files; never links to directories (they can loop).
        const target = statSafe(path);
        if (target?.isFile()) readOne(path, false, target.size);
      }
    }
  };

  for (const path of paths) {
    const stat = statSafe(path);
    if (!stat) {
      throw new UsageError(
        `--used-by ${path}: no such file or directory. Give the consumer's source files or directories.`,
      );
    }
    if (stat.isDirectory()) walk(path);
    else readOne(path, true, stat.size);
  }
  return scan;
}

function statSafe(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
