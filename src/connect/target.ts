/**
 * TARGET: which server to talk to, resolved from flags into plain data before any
 * process or socket is touched, so that flag mistakes fail fast with exit 2.
 */

import { CLIENT_CAPABILITIES, type ClientCapability } from "../contract/model.ts";
import { UsageError } from "../errors.ts";

export type Target =
  | { kind: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { kind: "http"; url: URL; headers: Record<string, string>; transport: "auto" | "http" | "sse" };

export interface TargetFlags {
  url?: string;
  header?: string[];
  bearer?: string;
  transport?: string;
  env?: string[];
  cwd?: string;
  /** More ways the command takes instead of a server, said when none is given ("; or … --against FILE"). */
  alternatives?: string;
}

export const TRANSPORTS = ["auto", "http", "sse"] as const;

export function parseTarget(command: string[], flags: TargetFlags): Target {
  const hasCommand = command.length > 0;
  if (hasCommand && flags.url) {
    throw new UsageError(
      `give either a server command after \`--\` or --url, not both (got --url ${flags.url} and \`${command.join(" ")}\`).`,
    );
  }
  if (!hasCommand && !flags.url) {
    throw new UsageError(
      `no server given. Name one with \`-- COMMAND [ARGS...]\` (stdio), e.g. \`-- node dist/server.js\`, with \`--url URL\` (Streamable HTTP), or with \`--server NAME\` (from .mcp.json, .vscode/mcp.json or .cursor/mcp.json)${flags.alternatives ?? ""}.`,
    );
  }
  if (hasCommand) {
    for (const flag of ["header", "bearer"] as const) {
      if (flags[flag]?.length)
        throw new UsageError(
          `--${flag} applies to --url targets only; a stdio server gets its settings through --env K=V.`,
        );
    }
    if (flags.transport && flags.transport !== "auto") {
      throw new UsageError("--transport applies to --url targets only.");
    }
    const [cmd = "", ...args] = command;
    return { kind: "stdio", command: cmd, args, env: buildEnv(flags.env ?? []), cwd: flags.cwd };
  }
  if (flags.env?.length || flags.cwd) {
    throw new UsageError("--env and --cwd apply to a server command after `--` only; an HTTP server runs on its own.");
  }
  let url: URL;
  try {
    url = new URL(flags.url as string);
  } catch {
    throw new UsageError(
      `--url ${JSON.stringify(flags.url)} is not a valid URL; expected e.g. http://127.0.0.1:3000/mcp.`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`--url must be an http:// or https:// URL, got ${url.protocol}//.`);
  }
  const transport = (flags.transport ?? "auto") as (typeof TRANSPORTS)[number];
  if (!TRANSPORTS.includes(transport)) {
    throw new UsageError(
      `--transport must be one of ${TRANSPORTS.join(", ")}, got ${JSON.stringify(flags.transport)}.`,
    );
  }
  const headers: Record<string, string> = {};
  for (const header of flags.header ?? []) {
    const colon = header.indexOf(":");
    const name = colon > 0 ? header.slice(0, colon).trim() : "";
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new UsageError(
        `--header expects "Name: value", e.g. --header "X-Api-Key: abc"; got a header without a valid name.`,
      );
    }
    headers[name] = header.slice(colon + 1).trim();
    assertHeaderValue(headers[name], `--header ${name}`);
  }
  if (flags.bearer) {
    assertHeaderValue(flags.bearer, "--bearer (or MCP_CONTRACT_BEARER)");
    headers.Authorization = `Bearer ${flags.bearer}`;
  }
  return { kind: "http", url, headers, transport };
}

/** HTTP header values are Latin-1 text on one line; say which flag is wrong instead of failing later. */
function assertHeaderValue(value: string, flag: string): void {
  if (/[\r\n\0]/.test(value))
    throw new UsageError(`${flag} contains a line break or NUL character, which an HTTP header cannot carry.`);
  if (/[^\u0000-\u00ff]/.test(value)) {
    throw new UsageError(
      `${flag} contains characters outside Latin-1, which an HTTP header cannot carry; check for a stray character copied with the value.`,
    );
  }
}

/** The server inherits the user's environment (PATH, HOME, proxies, API keys), plus --env. */
function buildEnv(pairs: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq < 0) throw new UsageError(`--env expects KEY=VALUE, got ${JSON.stringify(pair)} without "=".`);
    if (eq === 0) {
      throw new UsageError(
        `--env expects KEY=VALUE, got ${JSON.stringify(pair)} with nothing before "=": give the variable's name, e.g. --env API_URL${pair}.`,
      );
    }
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return env;
}

export function parseClientCapabilities(value: string | undefined): ClientCapability[] {
  if (!value) return [];
  const caps = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const cap of caps) {
    if (!CLIENT_CAPABILITIES.includes(cap as ClientCapability)) {
      throw new UsageError(
        `--client-capabilities: unknown capability ${JSON.stringify(cap)}; choose from ${CLIENT_CAPABILITIES.join(", ")}.`,
      );
    }
  }
  return [...new Set(caps as ClientCapability[])].sort();
}

/**
 * Values that must never be printed: header values and bearer tokens, URL credentials (and the
 * `user:password` pair that travels as Basic auth) and the values of secret-like query
 * parameters; for a stdio server, its --env values (what it gets beyond the inherited
 * environment, from --env or a config file) and the inherited variables whose names look
 * secret (GITHUB_TOKEN, OPENAI_API_KEY), which it can echo just as well, but not ordinary
 * settings (LOG_LEVEL=debug, PORT=3000, ROOT=/srv/data) under names that do not look secret,
 * which would otherwise be masked in every message. The printer also masks their encodings
 * (src/cli/secret-forms.ts).
 */
export function targetSecrets(target: Target): string[] {
  const values =
    target.kind === "stdio"
      ? Object.entries(target.env).flatMap(([key, value]) => envSecrets(key, value, process.env[key] !== value))
      : [...urlSecrets(target.url.href), ...Object.values(target.headers)].flatMap((v) => [
          v,
          v.replace(/^(?:Bearer|Basic|DPoP)\s+/i, ""),
        ]);
  return [...new Set(values)].filter((v) => v.length >= 4);
}

const FLAG = /^(?:true|false|yes|no|on|off|[01])$/i;
const ORDINARY_SETTING =
  /^(?:true|false|yes|no|on|off|none|null|\d{1,6}|trace|debug|info|warn|warning|error|fatal|silent|verbose|dev|development|prod|production|staging|test|local|stdio|http|https|sse|[~.]?\/[^\s:]*)$/i;

/** An environment variable's secrets: `given` when --env (or a config file) set it, rather than inherited. */
function envSecrets(name: string, value: string, given: boolean): string[] {
  // Session ids of the desktop (XDG_SESSION_CLASS=user) are not credentials.
  const secretName = isSecretParameter(name) && !/(?:^|_)SESSION(?:_|$)/i.test(name);
  const whole = secretName ? !(given ? FLAG : ORDINARY_SETTING).test(value) : given && !ORDINARY_SETTING.test(value);
  return [...(whole ? [value] : []), ...urlSecrets(value)];
}

/** The credentials in the URLs of a text: passwords (raw, decoded, and as `user:password`) and secret-like parameters. */
function urlSecrets(text: string): string[] {
  const out: string[] = [];
  for (const match of text.match(URL_IN_TEXT) ?? []) {
    let url: URL;
    try {
      url = new URL(match);
    } catch {
      continue;
    }
    const { username, password } = url;
    if (password) out.push(password, decodeLoosely(password), `${decodeLoosely(username)}:${decodeLoosely(password)}`);
    const params = [...url.searchParams, ...new URLSearchParams(url.hash.slice(1))];
    for (const [name, value] of params) if (isSecretParameter(name)) out.push(value);
    // As the URL spells it too, which is what the server sees and may echo: `%51uery`, not `Query`.
    for (const pair of `${url.search.slice(1)}&${url.hash.slice(1)}`.split("&")) {
      const eq = pair.indexOf("=");
      if (eq > 0 && isSecretParameter(decodeLoosely(pair.slice(0, eq)))) out.push(pair.slice(eq + 1));
    }
  }
  return out;
}

export function describeTarget(target: Target): string {
  if (target.kind === "stdio") {
    return redactUrls(`\`${[target.command, ...redactFlagValues(target.args)].map(shellWord).join(" ")}\``);
  }
  return redactUrls(target.url.href);
}

/** One word of a command line as a POSIX shell would need it: bare when safe, else single-quoted. */
export function shellWord(word: string): string {
  if (word === "***" || /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, "'\\''")}'`;
}

/**
 * The value of a secret-named flag of the server's own command line (`--api-key X`,
 * `--token=X`, `-password X`) as `***`, so a report source or message never shows it.
 */
export function redactFlagValues(args: readonly string[]): string[] {
  const out: string[] = [];
  let maskNext = false;
  for (const arg of args) {
    if (maskNext) {
      out.push("***");
      maskNext = false;
      continue;
    }
    const flag = /^(--?[A-Za-z][\w.-]*)(=)?/.exec(arg);
    if (flag && isSecretParameter(flag[1]!.replace(/^-+/, ""))) {
      if (flag[2]) out.push(`${flag[1]}=***`);
      else {
        out.push(arg);
        maskNext = true;
      }
      continue;
    }
    out.push(arg);
  }
  return out;
}

function decodeLoosely(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** Words that make a query parameter's value a credential: `token`, `api_key`, `X-Amz-Signature`, `code`. */
const SECRET_WORDS = new Set([
  "token",
  "key",
  "apikey",
  "secret",
  "password",
  "passwd",
  "pwd",
  "pass",
  "passphrase",
  "sig",
  "signature",
  "auth",
  "authorization",
  "code",
  "credential",
  "credentials",
  "jwt",
  "bearer",
  "session",
  "sessionid",
  "cookie",
  "otp",
  "passcode",
]);
/** The same run together (`accesstoken`, `clientsecret`). */
const SECRET_SUFFIXES = /(?:token|secret|password|passwd|signature|credential|apikey|accesskey|privatekey)$/;

/** Whether a query (or fragment) parameter of this name carries a credential. */
export function isSecretParameter(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.some((w) => SECRET_WORDS.has(w)) || SECRET_SUFFIXES.test(words.join(""));
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/**
 * Every URL in the text as it may be shown: the password of its credentials and the values of
 * its secret-like query and fragment parameters (`?token=`, `api_key`, `sig`, `#access_token=`)
 * replaced by `***`, the rest as written. The one function every display of a URL goes through
 * (progress lines, errors, report sources); text without such a URL comes back unchanged.
 */
export function redactUrls(text: string): string {
  return text.replace(URL_IN_TEXT, (match) => {
    // Punctuation that ends a sentence is not part of the URL.
    const trail = /[.,;:!?)\]}]+$/.exec(match)?.[0] ?? "";
    const url = match.slice(0, match.length - trail.length);
    return `${redactUrl(url)}${trail}`;
  });
}

function redactUrl(url: string): string {
  const scheme = url.indexOf("://") + 3;
  const authorityEnd = url.slice(scheme).search(/[/?#]/);
  const authority = authorityEnd < 0 ? url.slice(scheme) : url.slice(scheme, scheme + authorityEnd);
  const at = authority.lastIndexOf("@");
  const colon = authority.indexOf(":");
  const shownAuthority =
    at >= 0 && colon >= 0 && colon + 1 < at ? `${authority.slice(0, colon)}:***${authority.slice(at)}` : authority;
  const rest = url.slice(scheme + authority.length);
  const query = rest.search(/[?#]/);
  const path = query < 0 ? rest : rest.slice(0, query);
  const params = query < 0 ? "" : rest.slice(query);
  const shownParams = params.replace(
    /([?#&;])([^=&#;]*)=([^&#;]*)/g,
    (whole, sep: string, name: string, value: string) =>
      value !== "" && isSecretParameter(decodeLoosely(name)) ? `${sep}${name}=***` : whole,
  );
  return `${url.slice(0, scheme)}${shownAuthority}${path}${shownParams}`;
}
