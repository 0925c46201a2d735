/** Reading lockfiles for commands: file errors and format errors both exit 2. */
import type { Contract } from "../contract/model.ts";
import { parseContract } from "../contract/read.ts";
import type { ToolReader } from "../contract/tool-spans.ts";
import type { ReportFile } from "../report/context.ts";
import { prepareForInput } from "./jit-policy.ts";
import { readUserFile } from "./read-user-file.ts";

export interface LockfileRead {
  contract: Contract;
  /** The text exactly as read: reports point at its lines, so it must be the text that was parsed. */
  file: ReportFile;
}

export interface ReadOptions {
  /**
   * A reader of each tool's text as it is parsed, for a caller that reads more of each (lint's
   * shapes); such a read shares no tools with another lockfile.
   */
  reader?: ToolReader;
  /** How the command names another file, when a flag does ("--baseline FILE"): said when this one is missing. */
  elsewhere?: string;
}

export function readLockfile(path: string, role: string, { reader, elsewhere }: ReadOptions = {}): LockfileRead {
  const text = readUserFile(path, {
    missing: `no ${role} lockfile at ${path}. Create one with \`mcp-contract snapshot -o ${path} -- <server command>\`${elsewhere ? `, or name another with ${elsewhere}` : ""}.`,
    aKind: "a lockfile",
    theKind: `the ${role} lockfile`,
  });
  prepareForInput(text.length);
  // The commands never modify a lockfile's contract: two lockfiles of one run may share tools.
  return { contract: parseContract(text, path, reader ? { reader } : { share: true }), file: { path, text } };
}
