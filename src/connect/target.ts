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
      "no server given. Name one with `-- COMMAND [ARGS...]` (stdio), e.g. `-- node dist/server.js`, or with `--url URL` (Streamable HTTP).",
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
    if (eq <= 0)
      throw new UsageError(`--env expects KEY=VALUE, got ${JSON.stringify(pair.split("=")[0])} without "=".`);
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

/** Values that must never be printed: bearer tokens and header values. */
export function targetSecrets(target: Target): string[] {
  if (target.kind !== "http") return [];
  const password = target.url.password ? [decodeURIComponent(target.url.password), target.url.password] : [];
  return [...password, ...Object.values(target.headers)]
    .flatMap((v) => [v, v.replace(/^Bearer\s+/i, "")])
    .filter((v) => v.length >= 4);
}

export function describeTarget(target: Target): string {
  if (target.kind === "stdio") return `\`${[target.command, ...target.args].join(" ")}\``;
  const shown = new URL(target.url.href);
  if (shown.password) shown.password = "***";
  return shown.href;
}
