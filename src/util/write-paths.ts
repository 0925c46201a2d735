/**
 * Where a write to a user's path lands, for the two writers that take one: the output file
 * (src/cli/output-file.ts) and the mock's --record (src/mock/recorder.ts). A path naming one of
 * our descriptors is written there directly; a symlink chain that ends at nothing yet creates its
 * final target in place, so the links a user set up stay links. Reads the file system; kept out
 * of the pure core.
 */
import { lstatSync, readlinkSync, type Stats } from "node:fs";
import { dirname, resolve } from "node:path";
import { UsageError } from "../errors.ts";

/** The kernel's own limit on links followed in one path (Linux MAXSYMLINKS). */
export const MAX_SYMLINKS = 40;

/** The path a write through a chain of dangling symlinks creates; `what` names it in the error. */
export function followDanglingLinks(absolute: string, what: string): string {
  let current = absolute;
  for (let hops = 0; hops <= MAX_SYMLINKS; hops++) {
    let link: Stats;
    try {
      link = lstatSync(current);
    } catch {
      return current;
    }
    if (!link.isSymbolicLink()) return current;
    current = resolve(dirname(current), readlinkSync(current));
  }
  throw new UsageError(`cannot write ${what}: too many levels of symbolic links.`);
}

/**
 * /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N and /proc/<our pid>/fd/N: an open
 * descriptor of ours, to be written directly (opening it anew fails for sockets). None on Windows.
 */
export function descriptorOf(absolute: string): number | undefined {
  if (process.platform === "win32") return undefined;
  const named = { "/dev/stdout": 1, "/dev/stderr": 2 }[absolute];
  if (named !== undefined) return named;
  const match = /^\/(?:dev|proc\/self|proc\/(\d+))\/fd\/(\d+)$/.exec(absolute);
  if (!match || (match[1] !== undefined && Number(match[1]) !== process.pid)) return undefined;
  return Number(match[2]);
}
