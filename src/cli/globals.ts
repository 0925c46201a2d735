/** Options every command accepts, and the helpers that honour them. */
import { UsageError } from "../errors.ts";
import { describeWriteError } from "./output-file.ts";
import { type ColorMode, Ui } from "./ui.ts";

export interface GlobalOptions {
  quiet?: boolean;
  verbose?: boolean;
  color?: ColorMode;
}

export function makeUi(options: GlobalOptions): Ui {
  return new Ui(options);
}

/** Set once the reader of stdout went away (`… | head -1`): later output is dropped, as a pipe writer's would be. */
let stdoutClosed = false;

/**
 * Write to stdout and wait until it is flushed, so an exit right after loses nothing.
 * A closed pipe (EPIPE) ends output quietly and the command keeps its verdict; any other
 * failure (`>/dev/full`) is exit 2 with the cause.
 */
export function writeStdout(text: string): Promise<void> {
  if (stdoutClosed) return Promise.resolve();
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (error) => {
      if (!error) return resolve();
      if ((error as NodeJS.ErrnoException).code === "EPIPE") {
        stdoutClosed = true;
        return resolve();
      }
      const { why, fix } = describeWriteError(error);
      reject(new UsageError(`cannot write to stdout: ${why}; ${fix}.`, { cause: error }));
    });
  });
}

/** Stream errors on stdout/stderr arrive as events too; without a listener they would crash the process. */
export function guardStandardStreams(): void {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") stdoutClosed = true;
  });
  process.stderr.on("error", () => {
    // Nowhere left to report it: messages are best effort once stderr is gone.
  });
}
