/**
 * Everything the CLI prints to stderr goes through here: colour policy, --quiet and
 * --verbose, a progress line on terminals, redaction of secrets (in every encoding we can
 * predict, and secret-like URL parameters), and escaping of the control and bidi characters a
 * server can send (its stderr tail, its names), so that none reaches the terminal raw.
 */
import { Buffer } from "node:buffer";
import { redactUrls } from "../connect/target.ts";
import { escapeControls } from "../report/shared.ts";
import { isTerminal, stdStream, writeErr } from "./std-streams.ts";

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
/** SECRETS longest first, so that a token inside a longer header value is masked whole; rebuilt on change. */
let ordered: string[] | undefined;
/** Shorter values are too likely to occur by chance to be masked. */
const MIN_SECRET_LENGTH = 4;
/** The shortest start of a secret, cut off by "…", that is masked as well. */
const CUT_PREFIX_LENGTH = 6;

function addSecret(value: string): void {
  for (const form of secretForms(value)) {
    if (form.length >= MIN_SECRET_LENGTH && !SECRETS.has(form)) {
      SECRETS.add(form);
      ordered = undefined;
    }
  }
}

/**
 * The forms a secret can take in what a server echoes or an error quotes: as it is,
 * URL-encoded (either case of hex, `+` for space), JSON-escaped, and base64 (padded, unpadded,
 * URL-safe), which is how `user:password` travels as Basic auth. A value that is itself a
 * Basic credential (base64 of `user:password`) also gives its decoded forms.
 */
export function secretForms(value: string): string[] {
  if (value.length < MIN_SECRET_LENGTH) return [];
  const uri = encodeURIComponent(value);
  const base64 = Buffer.from(value, "utf8").toString("base64");
  const forms = [
    value,
    uri,
    uri.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    uri.replace(/%20/g, "+"),
    JSON.stringify(value).slice(1, -1),
    base64,
    base64.replace(/=+$/, ""),
    Buffer.from(value, "utf8").toString("base64url"),
  ];
  const basic = basicCredential(value);
  if (basic !== undefined) forms.push(basic, basic.slice(basic.indexOf(":") + 1));
  return [...new Set(forms)];
}

/** `user:password` when the value is base64 of printable text with a colon. */
function basicCredential(value: string): string | undefined {
  if (value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return undefined;
  const text = Buffer.from(value, "base64").toString("utf8");
  return /^[^\u0000-\u001f\u007f:\ufffd]*:[^\u0000-\u001f\u007f\ufffd]+$/.test(text) ? text : undefined;
}

/** MCP_CONTRACT_BEARER as last registered. */
let envBearer: string | undefined;

/** Secrets of the environment, registered whatever the command: MCP_CONTRACT_BEARER reaches every stdio server too. */
function addEnvironmentSecrets(): void {
  const bearer = process.env.MCP_CONTRACT_BEARER;
  if (bearer && bearer !== envBearer) addSecret(bearer);
  envBearer = bearer;
}

function maskSecrets(text: string): string {
  addEnvironmentSecrets();
  ordered ??= [...SECRETS].sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of ordered) if (out.includes(secret)) out = out.split(secret).join("***");
  return redactUrls(maskCutSecrets(out, ordered));
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
function maskHeld(text: string): string {
  let out = text;
  for (const secret of ordered ?? []) if (out.includes(secret)) out = out.split(secret).join("***");
  return out;
}

/**
 * A server's answer with the secrets we hold masked, and the JSON Pointers where they were:
 * a server that echoes a token or an --env value into a description would otherwise put it in
 * a committed lockfile and every report.
 */
export function maskHeldSecrets<T>(value: T): { value: T; found: string[] } {
  addEnvironmentSecrets();
  ordered ??= [...SECRETS].sort((a, b) => b.length - a.length);
  const found: string[] = [];
  if (ordered.length === 0) return { value, found };
  const walk = (node: unknown, pointer: string): unknown => {
    if (typeof node === "string") {
      const masked = maskHeld(node);
      if (masked !== node) found.push(pointer || "/");
      return masked;
    }
    if (Array.isArray(node)) return node.map((item, i) => walk(item, `${pointer}/${i}`));
    if (node === null || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(node)) {
      const name = maskHeld(key);
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
