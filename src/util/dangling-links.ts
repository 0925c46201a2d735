/**
 * Where a write through a symlink lands when the chain ends at nothing yet: the output file
 * (src/cli/output-file.ts) and the mock's --record (src/mock/recorder.ts) both create the final
 * target in place, so the links a user set up stay links. Reads the file system; kept out of
 * the pure core.
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
