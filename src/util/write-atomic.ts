/**
 * Lockfiles are written atomically or not at all: a temporary file beside the target,
 * flushed to disk, then renamed over it. Readers never see a half-written lockfile.
 */
import {
  accessSync,
  closeSync,
  constants,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { UsageError } from "../errors.ts";

/** Fail before any work is done if `path` cannot be written (exit 2, nothing touched). */
export function assertWritable(path: string, flag = "-o"): void {
  const dir = dirname(resolve(path));
  let dirStat: ReturnType<typeof statSync>;
  try {
    dirStat = statSync(dir);
  } catch {
    throw new UsageError(
      `cannot write ${path} (${flag}): the directory ${dir} does not exist. Create it first or choose another path.`,
    );
  }
  if (!dirStat.isDirectory()) throw new UsageError(`cannot write ${path} (${flag}): ${dir} is not a directory.`);
  try {
    if (statSync(path).isDirectory()) {
      throw new UsageError(
        `cannot write ${path} (${flag}): it is a directory. Give a file path, e.g. ${join(path, "mcp.contract.json")}.`,
      );
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new UsageError(`cannot write ${path} (${flag}): permission denied on the directory ${dir}.`);
  }
}

export function writeFileAtomic(path: string, content: string, mode = 0o644): void {
  const target = resolve(path);
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  try {
    const fd = openSync(temp, "wx", mode);
    try {
      writeSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "EACCES" || code === "EPERM"
        ? "permission denied"
        : code === "ENOSPC"
          ? "the disk is full"
          : (error as Error).message;
    throw new UsageError(`cannot write ${path}: ${why}. Nothing was written.`);
  }
}
