/** Options every command accepts, and the helpers that honour them. */
import { UsageError } from "../errors.ts";
import { describeWriteError } from "./output-file.ts";
import { stdStream, writeOut } from "./std-streams.ts";
import { type ColorMode, Ui } from "./ui.ts";

export interface GlobalOptions {
  quiet?: boolean;
  verbose?: boolean;
  color?: ColorMode;
}

export function makeUi(options: GlobalOptions): Ui {
  return new Ui(options);
}

/**
 * Write to stdout and wait until it is flushed, so an exit right after loses nothing.
 * A closed pipe (EPIPE) ends output quietly and the command keeps its verdict; any other
 * failure (`>/dev/full`) is exit 2 with the cause. (Through the descriptor: see std-streams.ts.)
 */
export function writeStdout(text: string): Promise<void> {
  return writeOut(text).catch((error: NodeJS.ErrnoException) => {
    const { why, fix } = describeWriteError(error);
    throw new UsageError(`cannot write to stdout: ${why}; ${fix}.`, { cause: error });
  });
}

/**
 * Stream errors on stdout/stderr arrive as events too; without a listener they would crash the
 * process. For code that writes to the streams itself (the mock's stdio transport): it creates them.
 */
export function guardStandardStreams(): void {
  stdStream(1);
  stdStream(2);
}
