/**
 * The one way commands read lockfiles, from a file or from text (git show): file errors and
 * format errors both exit 2. A command makes one LockfileReads and reads every lockfile of its
 * run through it: the reads share what they can (src/contract/read-session.ts) and nothing
 * outlives the command. The test tiers set MCP_CONTRACT_FREEZE_READS=1 (tests/helpers/preload.ts)
 * so that every contract read is frozen, and code that modifies one fails there.
 */
import type { Contract } from "../contract/model.ts";
import { parseContract } from "../contract/read.ts";
import { ReadSession } from "../contract/read-session.ts";
import type { ToolReader } from "../contract/tool-spans.ts";
import type { ReportFile } from "../report/context.ts";
import { collectBeforeBigInput } from "./heap-policy.ts";
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
  /** The command's reads, when it reads more than one lockfile; else this read is a session of its own. */
  reads?: LockfileReads;
}

/** The lockfile reads of one command. */
export class LockfileReads {
  private readonly session = new ReadSession({ freeze: process.env.MCP_CONTRACT_FREEZE_READS === "1" });

  /** A lockfile from a file. */
  read(path: string, role: string, { reader, elsewhere }: ReadOptions = {}): LockfileRead {
    const text = readUserFile(path, {
      missing: `no ${role} lockfile at ${path}. Create one with \`mcp-contract snapshot -o ${path} -- <server command>\`${elsewhere ? `, or name another with ${elsewhere}` : ""}.`,
      aKind: "a lockfile",
      theKind: `the ${role} lockfile`,
    });
    return { contract: this.parse(text, path, reader), file: { path, text } };
  }

  /** A lockfile's text from elsewhere (`git show REF:FILE`), named `source` in messages: the same checks. */
  parse(text: string, source: string, reader?: ToolReader): Contract {
    prepareForInput(text.length);
    collectBeforeBigInput(text.length);
    // The commands never modify a lockfile's contract: two lockfiles of one run may share tools.
    const { freeze } = this.session.options;
    return parseContract(text, source, reader ? { reader, freeze } : { session: this.session });
  }
}

/** One lockfile read, in the command's reads when given (`reads`). */
export function readLockfile(path: string, role: string, options: ReadOptions = {}): LockfileRead {
  return (options.reads ?? new LockfileReads()).read(path, role, options);
}
