/**
 * `--server NAME [--config FILE]`: take the server's launch settings from an MCP client
 * config file (.mcp.json, Claude Desktop, Cursor: "mcpServers"; VS Code: "servers").
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { isJsonObject } from "../contract/model.ts";
import { UsageError } from "../errors.ts";
import { suggest } from "../util/text.ts";

export interface ConfiguredServer {
  command?: string[];
  url?: string;
  headers?: string[];
  env?: string[];
  cwd?: string;
  transport?: "sse" | "http";
}

export const DEFAULT_MCP_CONFIG = ".mcp.json";

/** Expand ${VAR} and ${VAR:-default} the way MCP client configs do. */
function expand(value: string, file: string): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_, name: string, fallback?: string) => {
    const v = process.env[name];
    if (v !== undefined) return v;
    if (fallback !== undefined) return fallback;
    throw new UsageError(`${file} uses \${${name}}, but the environment variable ${name} is not set.`);
  });
}

export function resolveConfiguredServer(name: string, configPath = DEFAULT_MCP_CONFIG): ConfiguredServer {
  let text: string;
  try {
    text = readFileSync(configPath, "utf8");
  } catch {
    throw new UsageError(
      `cannot read the MCP config file ${configPath} (for --server ${name}). Point to it with --config FILE.`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new UsageError(`${configPath} is not valid JSON, so --server ${name} cannot be looked up in it.`);
  }
  const servers = isJsonObject(data) ? (data.mcpServers ?? data.servers) : undefined;
  if (!isJsonObject(servers)) {
    throw new UsageError(`${configPath} has no "mcpServers" (or "servers") object to look up --server ${name} in.`);
  }
  const entry = servers[name];
  if (!isJsonObject(entry)) {
    const known = Object.keys(servers);
    const close = suggest(name, known);
    const hint = close.length ? ` Did you mean ${close.map((c) => JSON.stringify(c)).join(" or ")}?` : "";
    throw new UsageError(
      `${configPath} defines no server named ${JSON.stringify(name)}${known.length ? `; it defines: ${known.join(", ")}` : ""}.${hint}`,
    );
  }
  const str = (v: unknown) => (typeof v === "string" ? expand(v, configPath) : undefined);
  const strings = (v: unknown) =>
    Array.isArray(v) ? v.filter((x) => typeof x === "string").map((x) => expand(x, configPath)) : [];
  const pairs = (v: unknown, sep: string) =>
    isJsonObject(v)
      ? Object.entries(v).map(
          ([k, val]) => `${k}${sep}${typeof val === "string" ? expand(val, configPath) : String(val)}`,
        )
      : [];

  const url = str(entry.url) ?? str(entry.serverUrl);
  if (url) {
    const type = str(entry.type);
    return {
      url,
      headers: pairs(entry.headers, ": "),
      transport: type === "sse" ? "sse" : type === "http" || type === "streamable-http" ? "http" : undefined,
    };
  }
  const command = str(entry.command);
  if (!command)
    throw new UsageError(`server ${JSON.stringify(name)} in ${configPath} has neither "command" nor "url".`);
  const cwd = str(entry.cwd);
  return {
    command: [command, ...strings(entry.args)],
    env: pairs(entry.env, "="),
    cwd: cwd ? resolve(dirname(configPath), cwd) : undefined,
  };
}
