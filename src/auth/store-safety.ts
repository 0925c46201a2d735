/**
 * What the sign-in store checks before it trusts a directory or a token file, and how it says
 * so. A token file holds refresh tokens and client secrets, and captures send what it says to
 * the issuer it names: so a file others could have written (or a directory others can write,
 * where they could swap files) is never used, a file others could read is refused until
 * tightened (its tokens may have leaked: the message says so), and a symbolic link, which
 * could send our secrets wherever it points, is never followed. Each refusal names the path and
 * the command that fixes it (exit 2: the user's machine, not the server, is wrong).
 *
 * POSIX only: on Windows fs.stat reports neither owners nor ACLs, and %APPDATA% is per-user.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, type Stats } from "node:fs";
import { UsageError } from "../errors.ts";

const POSIX = process.platform !== "win32";
/** A token file is well under a KiB; anything this large was not written by us. */
const TOKEN_FILE_MAX_BYTES = 1024 * 1024;

function mode(stat: Stats): string {
  return (stat.mode & 0o777).toString(8).padStart(4, "0");
}

function ownedByOther(stat: Stats): boolean {
  return POSIX && process.getuid !== undefined && stat.uid !== process.getuid();
}

const MOVE_ASIDE = "or set XDG_CONFIG_HOME to a directory of your own";

/**
 * A directory of the store (mcp-contract/ or credentials/): a real directory, ours, writable
 * by no one else. False when it does not exist yet.
 */
export function checkStoreDir(path: string): boolean {
  let stat: Stats;
  try {
    stat = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw new UsageError(`cannot open the sign-in store ${path}: ${(error as Error).message}.`, { cause: error });
  }
  if (stat.isSymbolicLink()) {
    throw new UsageError(
      `the sign-in store ${path} is a symbolic link; mcp-contract keeps tokens only in a real directory, since a link can lead them where others can read or replace them. Remove the link (rm ${path}) and sign in again, ${MOVE_ASIDE}.`,
    );
  }
  if (!stat.isDirectory()) {
    throw new UsageError(
      `the sign-in store ${path} is not a directory. Remove it (rm ${path}) and sign in again, ${MOVE_ASIDE}.`,
    );
  }
  if (ownedByOther(stat)) {
    throw new UsageError(
      `the sign-in store ${path} belongs to another user (uid ${stat.uid}), who could read or replace its tokens; mcp-contract will not use it. Remove it (rm -r ${path}) and sign in again, ${MOVE_ASIDE}.`,
    );
  }
  if (POSIX && (stat.mode & 0o022) !== 0) {
    throw new UsageError(
      `the sign-in store ${path} is writable by other users (mode ${mode(stat)}), who could replace a sign-in with their own; mcp-contract will not use it. Make it private with \`chmod 700 ${path}\`, and sign in again if you did not expect this.`,
    );
  }
  return true;
}

/** O_NOFOLLOW: a link planted in place of a token file is refused, not followed (0 on Windows). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * A token file's text, checked on the opened descriptor (no race between the check and the
 * read): a regular file of ours that no one else can read or write.
 */
export function readTokenFile(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") {
      throw new UsageError(
        `the token file ${path} is a symbolic link; mcp-contract reads tokens only from regular files it wrote. Remove it (rm ${path}) and sign in again.`,
      );
    }
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > TOKEN_FILE_MAX_BYTES) {
      throw new UsageError(
        `${path} is not a token file mcp-contract wrote (${stat.isFile() ? "far too large" : "not a regular file"}). Remove it (rm ${path}) and sign in again.`,
      );
    }
    if (ownedByOther(stat)) {
      throw new UsageError(
        `the token file ${path} belongs to another user (uid ${stat.uid}), so its tokens and issuer are not yours to trust. Remove it (rm ${path}) and sign in again.`,
      );
    }
    if (POSIX && (stat.mode & 0o177) !== 0) {
      throw new UsageError(
        `the token file ${path} has mode ${mode(stat)}, wider than 0600: other users may have read its tokens. Make it private with \`chmod 600 ${path}\`; if others could really read it, then sign out and in again (mcp-contract auth --logout --url URL, then auth --url URL) so that its tokens are revoked.`,
      );
    }
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/** A credential that could not be written: the disk, the permissions, the reason, and what to do. */
export function saveError(error: unknown, dir: string, url: string): UsageError {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === "ENOSPC" || code === "EDQUOT"
      ? `the disk is full (${code})`
      : code === "EROFS"
        ? "the file system is read-only"
        : code === "EACCES" || code === "EPERM"
          ? "permission denied"
          : (error as Error).message;
  return new UsageError(
    `cannot save the sign-in in ${dir}: ${why}. Nothing was saved and no partial file was left; the tokens just issued are lost. Free some space or fix the directory (or set XDG_CONFIG_HOME to a directory you can write to), then sign in again with \`mcp-contract auth --url ${url}\`.`,
    { cause: error },
  );
}
