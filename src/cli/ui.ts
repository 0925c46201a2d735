/**
 * Everything the CLI prints to stderr goes through here: colour policy, --quiet and
 * --verbose, a progress line on terminals, and redaction of secrets.
 */

export type ColorMode = "auto" | "always" | "never";

export interface UiOptions {
  quiet?: boolean;
  verbose?: boolean;
  color?: ColorMode;
}

export function useColor(mode: ColorMode = "auto", stream: { isTTY?: boolean } = process.stderr): boolean {
  if (mode === "always") return true;
  if (mode === "never") return false;
  if (process.env.NO_COLOR) return false;
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== "0") return true;
  return Boolean(stream.isTTY) && process.env.TERM !== "dumb";
}

/** Process-wide, so that the error printer in main.ts redacts what a command registered. */
const SECRETS = new Set<string>();

export function redactSecrets(text: string): string {
  let out = text;
  // Longest first, so that a token inside a longer header value is masked whole.
  for (const secret of [...SECRETS].sort((a, b) => b.length - a.length)) out = out.split(secret).join("***");
  return out;
}

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** Capture that finishes faster than this shows no progress line at all. */
const PROGRESS_DELAY_MS = 300;

export class Ui {
  readonly quiet: boolean;
  readonly verbose: boolean;
  readonly color: boolean;
  private progressText: string | undefined;
  private progressTimer: ReturnType<typeof setInterval> | undefined;
  private progressShown = false;
  private progressStart = 0;
  private frame = 0;

  constructor(options: UiOptions = {}) {
    this.quiet = Boolean(options.quiet);
    this.verbose = Boolean(options.verbose) && !this.quiet;
    this.color = useColor(options.color);
  }

  /** Register values (tokens, header values) that must never be printed, by any Ui. */
  addSecrets(values: string[]): void {
    for (const value of values) if (value.length >= 4) SECRETS.add(value);
  }

  redact(text: string): string {
    return redactSecrets(text);
  }

  paint(code: string, text: string): string {
    return this.color ? `\u001b[${code}m${text}\u001b[0m` : text;
  }

  bold = (t: string) => this.paint("1", t);
  dim = (t: string) => this.paint("2", t);
  red = (t: string) => this.paint("31", t);
  green = (t: string) => this.paint("32", t);
  yellow = (t: string) => this.paint("33", t);

  private write(text: string): void {
    this.clearProgress();
    process.stderr.write(`${this.redact(text)}\n`);
    this.drawProgress();
  }

  /** Normal status output (suppressed by --quiet). */
  info(text: string): void {
    if (!this.quiet) this.write(text);
  }

  warn(text: string): void {
    this.write(`${this.yellow("warning:")} ${text}`);
  }

  error(text: string): void {
    this.write(`${this.paint("1;31", "error:")} ${text}`);
  }

  debug(text: string): void {
    if (this.verbose) this.write(this.dim(text));
  }

  /** Show a progress line on a terminal once work takes longer than a moment. */
  progress(text: string): void {
    if (this.quiet || !process.stderr.isTTY) return;
    this.progressText = text;
    if (!this.progressTimer) {
      this.progressStart = Date.now();
      this.progressTimer = setInterval(() => this.drawProgress(), 80);
      this.progressTimer.unref?.();
    }
  }

  private drawProgress(): void {
    if (!this.progressText || !this.progressTimer) return;
    if (Date.now() - this.progressStart < PROGRESS_DELAY_MS) return;
    this.frame = (this.frame + 1) % SPINNER.length;
    const line = `${this.paint("36", SPINNER[this.frame] ?? "")} ${this.redact(this.progressText)}`;
    process.stderr.write(`\r\u001b[2K${line.slice(0, (process.stderr.columns || 80) - 1)}`);
    this.progressShown = true;
  }

  private clearProgress(): void {
    if (this.progressShown) process.stderr.write("\r\u001b[2K");
    this.progressShown = false;
  }

  stopProgress(): void {
    if (this.progressTimer) clearInterval(this.progressTimer);
    this.progressTimer = undefined;
    this.progressText = undefined;
    this.clearProgress();
  }
}
