/**
 * Writing the files a user names (-o, --output, --update): never destroy, never pretend.
 *
 * - A regular file (or a path that does not exist yet) is written atomically: a temporary file
 *   beside the *resolved* target (symlinks followed, so the link stays a link and its target is
 *   updated), every byte checked, flushed, then renamed over it. A failed write keeps the old file.
 * - Anything else that exists (a device such as /dev/null, a FIFO, /dev/stdout, a `>(…)` pipe)
 *   is written in place: renaming onto it would replace the device with a regular file.
 * - Every failure is a UsageError (exit 2) naming the path, the cause and the fix.
 */
import {
  accessSync,
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { UsageError } from "../errors.ts";
import { descriptorOf, followDanglingLinks } from "../util/write-paths.ts";

/** Where bytes for `path` go: a regular file replaced by rename, or something written in place. */
type Destination =
  | { kind: "file"; target: string; existing?: Stats }
  | { kind: "in-place"; path: string; fifo: boolean }
  | { kind: "descriptor"; fd: number };

/** How long an in-place write waits for a process to open a FIFO for reading. */
const FIFO_READER_WAIT_MS = 10_000;

/** Fail before any work is done if `path` cannot be written (exit 2, nothing touched). */
export function assertWritable(path: string, flag = "-o"): void {
  const destination = resolveDestination(path, flag);
  if (destination.kind === "descriptor") return;
  if (destination.kind === "in-place") {
    try {
      accessSync(destination.path, constants.W_OK);
    } catch {
      throw new UsageError(`cannot write ${path} (${flag}): permission denied.`);
    }
    return;
  }
  // A directory that does not exist yet is created when the file is written (after a capture
  // succeeded), so what must be writable now is the nearest one that exists.
  let dir = dirname(destination.target);
  let dirStat: Stats | undefined;
  for (;;) {
    try {
      dirStat = statSync(dir);
      break;
    } catch {
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  if (!dirStat?.isDirectory()) throw new UsageError(`cannot write ${path} (${flag}): ${dir} is not a directory.`);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new UsageError(`cannot write ${path} (${flag}): permission denied on the directory ${dir}.`);
  }
}

/** The current text of `path` when it is a regular file (through symlinks), else undefined. Never blocks on a FIFO. */
export function readRegularFile(path: string): string | undefined {
  try {
    if (!statSync(path).isFile()) return undefined;
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * Write `content` to `path` completely or fail with exit 2. `mode` applies to a new file; an
 * existing file keeps its mode (and, when run as root, its owner).
 * Returns false when the reader of a pipe went away (EPIPE): the caller carries on, as a pipe writer would.
 */
export function writeFileAtomic(path: string, content: string, mode = 0o644): boolean {
  const destination = resolveDestination(path, "-o");
  // TextEncoder: several times faster than Buffer.from on a multi-megabyte report.
  const bytes = new TextEncoder().encode(content);
  if (destination.kind !== "file") return writeInPlace(path, destination, bytes);
  const { target, existing } = destination;
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  try {
    mkdirSync(dirname(target), { recursive: true });
    const fd = openSync(temp, "wx", mode);
    try {
      if (existing) keepOwnerAndMode(fd, existing);
      writeAll(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    const { why, fix } = describeWriteError(error);
    const kept = existing ? "The old file was kept unchanged" : "Nothing was written";
    throw new UsageError(`cannot write ${path}: ${why}. ${kept}; ${fix}.`, { cause: error });
  }
  syncDirectory(dirname(target));
  return true;
}

function resolveDestination(path: string, flag: string): Destination {
  const absolute = resolve(path);
  const fd = descriptorOf(absolute);
  if (fd !== undefined) return { kind: "descriptor", fd };
  let stats: Stats | undefined;
  try {
    stats = statSync(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw new UsageError(`cannot write ${path} (${flag}): too many levels of symbolic links.`);
    if (code === "ENOTDIR") throw new UsageError(`cannot write ${path} (${flag}): a parent of it is not a directory.`);
    // ENOENT: nothing there yet, or a symlink whose target does not exist yet.
  }
  if (stats?.isDirectory()) {
    throw new UsageError(
      `cannot write ${path} (${flag}): it is a directory. Give a file path, e.g. ${join(path, "mcp.contract.json")}.`,
    );
  }
  // /dev/stdout, /dev/fd/N and /proc/self/fd/N name an open descriptor: even when it is a regular
  // file, the shell holds that inode, so a rename would write where nobody looks.
  const descriptorPath = /^\/(dev|proc)\//.test(absolute);
  if (stats && (!stats.isFile() || descriptorPath)) {
    return { kind: "in-place", path: absolute, fifo: stats.isFIFO() };
  }
  if (stats) return { kind: "file", target: realpathSync(absolute), existing: stats };
  return { kind: "file", target: followDanglingLinks(absolute, `${path} (${flag})`) };
}

function writeInPlace(
  path: string,
  destination: { kind: "in-place"; path: string; fifo: boolean } | { kind: "descriptor"; fd: number },
  bytes: Uint8Array,
): boolean {
  let fd: number | undefined;
  try {
    if (destination.kind === "descriptor") {
      writeAll(destination.fd, bytes);
      return true;
    }
    fd = destination.fifo ? openFifoForWriting(destination.path) : openSync(destination.path, "w");
    writeAll(fd, bytes);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EPIPE") return false;
    if (error instanceof UsageError) throw error;
    const { why, fix } = describeWriteError(error);
    throw new UsageError(`cannot write ${path}: ${why}; ${fix}.`, { cause: error });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Open a FIFO without blocking forever when nobody reads it: wait a bounded time for a reader. */
function openFifoForWriting(path: string): number {
  const deadline = Date.now() + FIFO_READER_WAIT_MS;
  for (;;) {
    try {
      return openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENXIO") throw error;
      if (Date.now() > deadline) {
        throw new UsageError(
          `cannot write ${path}: it is a FIFO and no process opened it for reading within ${FIFO_READER_WAIT_MS / 1000} s. Start the reader first (e.g. \`cat ${path} &\`).`,
        );
      }
      sleep(20);
    }
  }
}

/** writeSync may write fewer bytes than asked (a file-size limit, a full disk, a pipe): loop until all are written. */
function writeAll(fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) {
    let written: number;
    try {
      written = writeSync(fd, bytes, offset, bytes.length - offset);
    } catch (error) {
      // A non-blocking FIFO whose reader is slower than us.
      if ((error as NodeJS.ErrnoException).code === "EAGAIN") {
        sleep(2);
        continue;
      }
      throw error;
    }
    if (written <= 0) throw Object.assign(new Error("write made no progress"), { code: "EIO" });
    offset += written;
  }
}

function keepOwnerAndMode(fd: number, existing: Stats): void {
  fchmodSync(fd, existing.mode & 0o7777);
  if (process.getuid?.() === 0) {
    try {
      fchownSync(fd, existing.uid, existing.gid);
    } catch {
      // Best effort: a file system without owners (e.g. some mounts) keeps the new file's owner.
    }
  }
}

/** Make the rename itself durable; not every platform or file system can open a directory. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // The data is written and renamed; only crash-durability of the rename is at stake.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** A write error's cause in words, and what the user can do about it. */
export function describeWriteError(error: unknown): { why: string; fix: string } {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case "ENOSPC":
      return { why: "no space is left on the device (ENOSPC)", fix: "free some space and run again" };
    case "EDQUOT":
      return { why: "the disk quota is exhausted (EDQUOT)", fix: "free some space or raise the quota and run again" };
    case "EFBIG":
      return {
        why: "the file would exceed the file-size limit (EFBIG)",
        fix: "raise the limit (`ulimit -f`) or write elsewhere",
      };
    case "EACCES":
    case "EPERM":
      return { why: "permission denied", fix: "check the permissions or choose another path" };
    case "EROFS":
      return { why: "the file system is read-only (EROFS)", fix: "choose a path on a writable file system" };
    case "EIO":
      return { why: "an input/output error (EIO)", fix: "check the device and run again" };
    default:
      return { why: (error as Error).message ?? String(error), fix: "fix the cause and run again" };
  }
}
