/**
 * Everything the CLI prints to stderr goes through here: colour policy, --quiet and
 * --verbose, a progress line on terminals, redaction of secrets (in every encoding we can
 * predict, and secret-like URL parameters), and escaping of the control and bidi characters a
 * server can send (its stderr tail, its names), so that none reaches the terminal raw.
 */
import { redactUrls } from "../connect/target.ts";
import { escapeControls } from "../report/shared.ts";
import { secretForms } from "./secret-forms.ts";
import { isTerminal, stdStream, writeErr } from "./std-streams.ts";

export { secretForms };

export type ColorMode = "auto" | "always" | "never";

export interface UiOptions {
  quiet?: boolean;
  verbose?: boolean;
  color?: ColorMode;
}

export function useColor(mode: ColorMode = "auto", stream: { isTTY?: boolean } = { isTTY: isTerminal(2) }): boolean {
  if (mode === "always") return true;
  if (mode === "never") return false;
  if (process.env.NO_COLOR) return false;
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== "0") return true;
  return Boolean(stream.isTTY) && process.env.TERM !== "dumb";
}

/** Process-wide, so that the error printer in main.ts redacts what a command registered. */
const SECRETS = new Set<string>();
/**
 * SECRETS longest first, so that a token inside a longer header value is masked whole, and as
 * one alternation in that order (leftmost match, then longest): one pass over a text, however
 * many forms each secret has. Rebuilt on change.
 */
let ordered: string[] | undefined;
let pattern: RegExp | undefined;
/** The shortest start of a secret, cut off by "…", that is masked as well. */
const CUT_PREFIX_LENGTH = 6;

/**
 * Held once, in every form (src/cli/secret-forms.ts): as it is, percent-encoded as sent on
 * the wire, JSON-escaped, hex, base64 and base64url, whole and inside a longer base64 text at
 * each alignment. Every mask below works on these forms, so all of them are masked wherever
 * the plain value is.
 */
function addSecret(value: string): void {
  for (const form of secretForms(value)) {
    if (!SECRETS.has(form)) {
      SECRETS.add(form);
      ordered = undefined;
      pattern = undefined;
    }
  }
}

/** MCP_CONTRACT_BEARER as last registered. */
let envBearer: string | undefined;

/** Secrets of the environment, registered whatever the command: MCP_CONTRACT_BEARER reaches every stdio server too. */
function addEnvironmentSecrets(): void {
  const bearer = process.env.MCP_CONTRACT_BEARER;
  if (bearer && bearer !== envBearer) addSecret(bearer);
  envBearer = bearer;
}

/** The secrets we hold, every form, longest first; MCP_CONTRACT_BEARER included. */
function heldForms(): string[] {
  addEnvironmentSecrets();
  ordered ??= [...SECRETS].sort((a, b) => b.length - a.length);
  return ordered;
}

/** The held forms as one alternation, longest first; undefined while nothing is held. */
function heldPattern(): RegExp | undefined {
  const forms = heldForms();
  if (forms.length === 0) return undefined;
  pattern ??= new RegExp(forms.map((form) => form.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")).join("|"), "g");
  return pattern;
}

function maskSecrets(text: string): string {
  return redactUrls(maskCutSecrets(maskHeld(text, heldPattern()), heldForms()));
}

/**
 * A quoted line cut short ("…", as a server's stderr tail or a stray stdout line is) can end
 * inside a secret; the part before the cut is masked too, so no prefix of a secret leaks.
 */
function maskCutSecrets(text: string, secrets: readonly string[]): string {
  if (!text.includes("…") || secrets.length === 0) return text;
  return text.replace(/([^\s…]+)…/g, (whole, before: string) => {
    for (const secret of secrets) {
      for (let k = Math.min(before.length, secret.length - 1); k >= CUT_PREFIX_LENGTH; k--) {
        if (before.endsWith(secret.slice(0, k))) return `${before.slice(0, before.length - k)}***…`;
      }
    }
    return whole;
  });
}

/** `text` with every secret we hold (in every form) replaced by `***`; URLs and cut text left as they are. */
function maskHeld(text: string, held: RegExp | undefined): string {
  return held ? text.replace(held, "***") : text;
}

/**
 * A server's answer with the secrets we hold masked, and the JSON Pointers where they were:
 * a server that echoes a token or an --env value into a description would otherwise put it in
 * a committed lockfile and every report.
 */
export function maskHeldSecrets<T>(value: T): { value: T; found: string[] } {
  const found: string[] = [];
  const held = heldPattern();
  if (!held) return { value, found };
  const walk = (node: unknown, pointer: string): unknown => {
    if (typeof node === "string") {
      const masked = maskHeld(node, held);
      if (masked !== node) found.push(pointer || "/");
      return masked;
    }
    if (Array.isArray(node)) return node.map((item, i) => walk(item, `${pointer}/${i}`));
    if (node === null || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(node)) {
      const name = maskHeld(key, held);
      const at = `${pointer}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`;
      if (name !== key) found.push(at);
      out[name] = walk(item, at);
    }
    return out;
  };
  const masked = walk(value, "") as T;
  return found.length ? { value: masked, found } : { value, found };
}

/** Our own colours: SGR sequences (`ESC [ … m`), the only escape sequences the CLI writes. */
const SGR = /(\u001b\[[0-9;]*m)/;

/**
 * Text as it may reach the terminal: registered secrets (in every form) and secret-like URL
 * parameters masked, control and bidi characters escaped (`\u001b`), tab and line feed kept.
 */
export function redactSecrets(text: string): string {
  return escapeControls(maskSecrets(text));
}

/** As redactSecrets, but colours (SGR sequences) are kept when they are on. */
function terminalText(text: string, color: boolean): string {
  const masked = maskSecrets(text);
  if (!color) return escapeControls(masked);
  return masked
    .split(SGR)
    .map((part, i) => (i % 2 === 1 ? part : escapeControls(part)))
    .join("");
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

  /** Register values (tokens, header values, --env values) that must never be printed, by any Ui. */
  addSecrets(values: string[]): void {
    for (const value of values) addSecret(value);
  }

  /** Text as this Ui prints it: secrets masked, control characters escaped, its own colours kept. */
  redact(text: string): string {
    return terminalText(text, this.color);
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
    writeErr(`${this.redact(text)}\n`);
    this.drawProgress();
  }

  /** Normal status output (suppressed by --quiet). */
  info(text: string): void {
    if (!this.quiet) this.write(text);
  }

  /** Suppressed by --quiet ("print only errors"), as info is. */
  warn(text: string): void {
    if (this.quiet) return;
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
    if (this.quiet || !isTerminal(2)) return;
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
    writeErr(`\r\u001b[2K${line.slice(0, (stdStream(2).columns || 80) - 1)}`);
    this.progressShown = true;
  }

  private clearProgress(): void {
    if (this.progressShown) writeErr("\r\u001b[2K");
    this.progressShown = false;
  }

  stopProgress(): void {
    if (this.progressTimer) clearInterval(this.progressTimer);
    this.progressTimer = undefined;
    this.progressText = undefined;
    this.clearProgress();
  }
}
