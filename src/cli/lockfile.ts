/** Reading lockfiles for commands: file errors and format errors both exit 2. */
import { readFileSync } from "node:fs";
import type { Contract } from "../contract/model.ts";
import { parseContract } from "../contract/read.ts";
import { UsageError } from "../errors.ts";

export function readLockfile(path: string, role: string): Contract {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      throw new UsageError(
        `no ${role} lockfile at ${path}. Create one with \`mcp-contract snapshot -o ${path} -- <server command>\`, or point to it with the right flag.`,
      );
    }
    if (code === "EISDIR") throw new UsageError(`${path} is a directory, not a lockfile.`);
    throw new UsageError(`cannot read the ${role} lockfile ${path}: ${(error as Error).message}`);
  }
  return parseContract(text, path);
}
