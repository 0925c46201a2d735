/** Reading lockfiles for commands: file errors and format errors both exit 2. */
import type { Contract } from "../contract/model.ts";
import { parseContract } from "../contract/read.ts";
import { readUserFile } from "../util/read-user-file.ts";

export function readLockfile(path: string, role: string): Contract {
  const text = readUserFile(path, {
    missing: `no ${role} lockfile at ${path}. Create one with \`mcp-contract snapshot -o ${path} -- <server command>\`, or point to it with the right flag.`,
    aKind: "a lockfile",
    theKind: `the ${role} lockfile`,
  });
  return parseContract(text, path);
}
