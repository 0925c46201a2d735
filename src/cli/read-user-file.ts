/**
 * Reading a file the user named (a lockfile, a policy file, a calls or fixtures file, an MCP
 * config file, an envFile): every way it can fail becomes a UsageError (exit 2) that says which
 * file, what is wrong with it, and what to do.
 *
 * Why not readFileSync: it reads until end of file, and some paths never end. /dev/zero and
 * /dev/urandom fill memory until the process dies; opening a FIFO nobody writes waits forever; a
 * 100 GB file (or a sparse one) is read whole before anything can say it is not a lockfile. So:
 * open without blocking, ask the opened descriptor (not the path: no stat-then-open race) whether
 * it is a regular file, and read at most the cap of its kind, plus one byte to know it was over.
 * A UTF-8 byte order mark, which some Windows editors write, is dropped: JSON.parse refuses it.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, type Stats } from "node:fs";
import { UsageError } from "../errors.ts";

const MiB = 1024 * 1024;

/**
 * Lockfiles (read, or imported from another tool): the default. The largest published surfaces
 * are a few MiB, but a capture may hold many pages of up to the 64 MiB response limit each, and
 * the benchmarks diff and lint 10,000-tool lockfiles of over 100 MiB: the cap is there to refuse
 * what is not a lockfile at all, well above any real one.
 */
export const LOCKFILE_MAX_BYTES = 512 * MiB;
/** --calls recordings: one JSON line per consumer call; a longer recording can be split (--calls takes several). */
export const CALLS_MAX_BYTES = 64 * MiB;
/** mock --fixtures: canned answers, at most about as large as the surface they answer for. */
export const FIXTURES_MAX_BYTES = 64 * MiB;
/**
 * MCP client config files (.mcp.json and friends, or --config FILE). Generous, because --config
 * may name a client's whole settings file (Claude Code's ~/.claude.json keeps history and grows).
 */
export const CONFIG_MAX_BYTES = 16 * MiB;
/** Policy files: rules, ignores and overrides, written by hand; a few KiB in practice. */
export const POLICY_MAX_BYTES = 4 * MiB;
/** A config entry's envFile: KEY=VALUE lines. */
export const ENV_FILE_MAX_BYTES = 1 * MiB;

export interface FileRole {
  /** The message when the file does not exist: the cause and the fix. */
  missing: string;
  /** "a lockfile", "a policy file (--policy)": what a directory, device or pipe is not. */
  aKind: string;
  /** "the baseline lockfile", "the policy file": for other read errors. */
  theKind: string;
  /** The most this kind of file may hold, in bytes (one of the constants above); default LOCKFILE_MAX_BYTES. */
  maxBytes?: number;
  /** How messages name the file, when not by the path opened (a config file shown relative to the workspace). */
  shown?: string;
}

/**
 * O_NONBLOCK: opening a FIFO for reading otherwise blocks until a writer comes, so the refusal
 * below could never be said. O_NOCTTY: a terminal device named by mistake must not become ours.
 * Neither exists on Windows (0), where there are no FIFOs to open.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

export function readUserFile(path: string, role: FileRole): string {
  const shown = role.shown ?? path;
  const max = role.maxBytes ?? LOCKFILE_MAX_BYTES;
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    throw openError(error, shown, role);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new UsageError(`${shown} is a directory, not ${role.aKind}.`);
    if (!stat.isFile()) throw notRegular(stat, shown, role);
    if (stat.size > max) throw tooLarge(stat.size, max, shown, role);
    // A regular file of a size within the cap: read straight into a string, the runtime's fast
    // path (a byte buffer first cost a second copy of a 100 MiB lockfile at peak). A file whose
    // size fstat does not know (0 under /proc) is read with the cap checked as it goes.
    const text =
      stat.size > 0 ? readFileSync(fd, "utf8") : readAtMost(fd, max, stat.size, shown, role).toString("utf8");
    if (text.length > max) throw tooLarge(text.length, max, shown, role, true);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${role.theKind} ${shown}: ${(error as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

function openError(error: unknown, shown: string, role: FileRole): UsageError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return new UsageError(role.missing);
  if (code === "EISDIR") return new UsageError(`${shown} is a directory, not ${role.aKind}.`);
  if (code === "EACCES" || code === "EPERM") {
    return new UsageError(
      `cannot read ${role.theKind} ${shown}: permission denied. Check the file's permissions, or run as a user who may read it.`,
    );
  }
  return new UsageError(`cannot read ${role.theKind} ${shown}: ${(error as Error).message}`);
}

/**
 * Read up to max + 1 bytes: the size fstat gave may be stale (a file still being written) or 0
 * (files under /proc), so the cap is checked on what was actually read.
 */
function readAtMost(fd: number, max: number, size: number, shown: string, role: FileRole): Buffer {
  let buffer = Buffer.allocUnsafe(Math.min(max, Math.max(size, 64 * 1024)) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > max) throw tooLarge(length, max, shown, role, true);
      const bigger = Buffer.allocUnsafe(Math.min(max + 1, buffer.length * 2));
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    const n = readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) break;
    length += n;
  }
  if (length > max) throw tooLarge(length, max, shown, role, true);
  return buffer.subarray(0, length);
}

function fileType(stat: Stats): string {
  if (stat.isFIFO()) return "a named pipe (FIFO)";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isSocket()) return "a socket";
  return "not a regular file";
}

/** A device, pipe or socket: it may never end, or never start. */
function notRegular(stat: Stats, shown: string, role: FileRole): UsageError {
  const why = stat.isFIFO()
    ? "a pipe can keep it waiting for a writer forever"
    : stat.isSocket()
      ? "a socket may never end"
      : "a device can send data without end";
  return new UsageError(
    `${shown} is ${fileType(stat)}, not ${role.aKind}: mcp-contract reads ${role.theKind} only from a regular file, because ${why}. Check the path; if the contents come from a command (including a shell's <(…)), save them to a file first (command > file) and pass that file.`,
  );
}

function tooLarge(size: number, max: number, shown: string, role: FileRole, atLeast = false): UsageError {
  return new UsageError(
    `${shown} is ${atLeast ? "more than " : ""}${formatSize(atLeast ? max : size)}, over the ${formatSize(max)} limit mcp-contract sets for ${role.aKind}, so it was not read. Check that the path names the file you meant.`,
  );
}

/** 100 MiB, 1.5 MiB, 12 KiB: sizes in messages. */
export function formatSize(bytes: number): string {
  if (bytes >= MiB) return `${Number((bytes / MiB).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}
