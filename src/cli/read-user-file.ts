/**
 * Reading a file the user named (a lockfile, a policy file): every way it can fail becomes
 * a UsageError (exit 2) that says which file, what it was meant to be, and what to do.
 */
import { readFileSync } from "node:fs";
import { UsageError } from "../errors.ts";

export interface FileRole {
  /** The message when the file does not exist: the cause and the fix. */
  missing: string;
  /** "a lockfile", "a policy file (--policy)": what a directory is not. */
  aKind: string;
  /** "the baseline lockfile", "the policy file": for other read errors. */
  theKind: string;
}

export function readUserFile(path: string, role: FileRole): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new UsageError(role.missing);
    if (code === "EISDIR") throw new UsageError(`${path} is a directory, not ${role.aKind}.`);
    throw new UsageError(`cannot read ${role.theKind} ${path}: ${(error as Error).message}`);
  }
}
