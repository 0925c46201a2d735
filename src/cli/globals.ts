/** Options every command accepts, and the helpers that honour them. */
import { type ColorMode, Ui } from "./ui.ts";

export interface GlobalOptions {
  quiet?: boolean;
  verbose?: boolean;
  color?: ColorMode;
}

export function makeUi(options: GlobalOptions): Ui {
  return new Ui(options);
}

/** Write to stdout and wait until it is flushed, so an exit right after loses nothing. */
export function writeStdout(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (error) => (error ? reject(error) : resolve()));
  });
}
