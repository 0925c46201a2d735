/**
 * `--server NAME [--config FILE]` and `--all`: take servers' launch settings from MCP client
 * config files (.mcp.json, Claude Desktop, Cursor: "mcpServers"; VS Code: "servers").
 *
 * Without --config, three kinds of file are looked for, in this order, each the nearest one
 * walking up from the current directory to the filesystem root:
 *   1. `.mcp.json`          (Claude Code; its workspace is the folder that holds it)
 *   2. `.vscode/mcp.json`   (VS Code; its workspace is the folder that holds .vscode)
 *   3. `.cursor/mcp.json`   (Cursor; its workspace is the folder that holds .cursor)
 * A name defined in several of them is taken from the first (--verbose says which, and which
 * it shadows). Relative `cwd` and `envFile` paths resolve against the file's workspace, and a
 * stdio server without a `cwd` starts in the workspace, as the clients start it.
 */
import { existsSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { isJsonObject, type JsonObject } from "../contract/model.ts";
import { UsageError } from "../errors.ts";
import { suggest } from "../util/text.ts";
import { type ExpandContext, expandVariables, readEnvFile, stripJsonComments } from "./config-variables.ts";
import { CONFIG_MAX_BYTES, readUserFile } from "./read-user-file.ts";

export interface ConfiguredServer {
  command?: string[];
  url?: string;
  headers?: string[];
  env?: string[];
  cwd?: string;
  transport?: "sse" | "http";
}

/** What `--config` names when the lookup is not wanted (the GitHub Action's default, the API's). */
export const DEFAULT_MCP_CONFIG = ".mcp.json";
/** The files looked for without --config, in order; each walking up from the current directory. */
export const CONFIG_LOOKUP = [".mcp.json", ".vscode/mcp.json", ".cursor/mcp.json"] as const;
/** Where `snapshot --all` and `check --all` keep one lockfile per server unless --dir says otherwise. */
export const DEFAULT_CONTRACTS_DIR = "mcp-contracts";

export interface ConfigFile {
  /** Absolute path. */
  path: string;
  /** The path as messages show it: relative to the current directory when that is shorter. */
  shown: string;
  /** The folder `${workspaceFolder}` names and relative paths resolve against. */
  workspace: string;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel !== "" && !isAbsolute(rel) && rel.length < path.length ? rel : path;
}

/** A config file's workspace: the folder that holds it, or for .vscode/ and .cursor/ files, the folder above. */
export function workspaceOf(path: string): string {
  const dir = dirname(path);
  return basename(dir) === ".vscode" || basename(dir) === ".cursor" ? dirname(dir) : dir;
}

function configFile(path: string, cwd: string): ConfigFile {
  const absolute = resolve(cwd, path);
  return { path: absolute, shown: shownPath(absolute, cwd), workspace: workspaceOf(absolute) };
}

/** The config files the lookup finds from `cwd`: the nearest of each kind, in CONFIG_LOOKUP order. */
export function findConfigFiles(cwd = process.cwd()): ConfigFile[] {
  const found: ConfigFile[] = [];
  for (const name of CONFIG_LOOKUP) {
    for (let dir = resolve(cwd); ; dir = dirname(dir)) {
      const candidate = join(dir, name);
      if (isFile(candidate)) {
        found.push(configFile(candidate, cwd));
        break;
      }
      if (dirname(dir) === dir) break;
    }
  }
  return found;
}

/** The files --server and --all read: --config FILE alone, else the lookup's. */
export function configFilesFor(config: string | undefined, cwd = process.cwd()): ConfigFile[] {
  // A file named on the command line is shown as it was given.
  return config !== undefined ? [{ ...configFile(config, cwd), shown: config }] : findConfigFiles(cwd);
}

interface LoadedConfig {
  file: ConfigFile;
  servers: JsonObject;
}

/** Read one config file's server table; `purpose` says in messages what it was read for. */
function loadConfig(file: ConfigFile, purpose: string, required: boolean): LoadedConfig | undefined {
  // Bounded, regular files only, a BOM dropped: a config named by mistake (a device, a FIFO) is refused, not read forever.
  const text = readUserFile(file.path, {
    missing: `cannot read the MCP config file ${file.shown} (for ${purpose}): it does not exist. Point to it with --config FILE.`,
    aKind: "an MCP config file",
    theKind: `the MCP config file (for ${purpose})`,
    maxBytes: CONFIG_MAX_BYTES,
    shown: file.shown,
  });
  let data: unknown;
  try {
    data = JSON.parse(stripJsonComments(text));
  } catch {
    throw new UsageError(
      `${file.shown} is not valid JSON, so ${purpose} cannot be looked up in it. Fix the file, or point to another with --config FILE.`,
    );
  }
  const servers = isJsonObject(data) ? (data.mcpServers ?? data.servers) : undefined;
  if (isJsonObject(servers)) return { file, servers };
  // A file the lookup found may hold only VS Code "inputs"; one named with --config must hold servers.
  if (!required) return undefined;
  throw new UsageError(`${file.shown} has no "mcpServers" (or "servers") object to look up ${purpose} in.`);
}

function noConfigFound(purpose: string, cwd: string): UsageError {
  return new UsageError(
    `no MCP client config file for ${purpose}: looked for ${CONFIG_LOOKUP.join(", ")} in ${cwd} and every folder above it. Create one, or point to one with --config FILE.`,
  );
}

function loadAll(config: string | undefined, purpose: string, cwd: string): LoadedConfig[] {
  const files = configFilesFor(config, cwd);
  if (files.length === 0) throw noConfigFound(purpose, cwd);
  if (config !== undefined && !existsSync(files[0]?.path as string)) {
    throw new UsageError(`cannot read the MCP config file ${config} (for ${purpose}). Point to it with --config FILE.`);
  }
  return files.flatMap((file) => loadConfig(file, purpose, config !== undefined) ?? []);
}

/** A server found by name, with the file it came from and the files whose same-named entry it shadows. */
export interface ServerLookup {
  name: string;
  server: ConfiguredServer;
  file: ConfigFile;
  shadowed: ConfigFile[];
}

export interface LookupOptions {
  /** --config FILE; undefined: the lookup. */
  config?: string;
  cwd?: string;
  env?: Record<string, string | undefined>;
}

/** --server NAME: the entry of the first file that defines it, resolved. */
export function lookupServer(name: string, options: LookupOptions = {}): ServerLookup {
  const cwd = options.cwd ?? process.cwd();
  const purpose = `--server ${name}`;
  const loaded = loadAll(options.config, purpose, cwd);
  const defining = loaded.filter((l) => isJsonObject(l.servers[name]));
  const first = defining[0];
  if (!first) throw unknownServer(name, loaded, options.config === undefined ? cwd : undefined);
  return {
    name,
    server: resolveEntry(name, first.servers[name] as JsonObject, first.file, options.env ?? process.env),
    file: first.file,
    shadowed: defining.slice(1).map((l) => l.file),
  };
}

function unknownServer(name: string, loaded: LoadedConfig[], searchedFrom: string | undefined): UsageError {
  const known = [...new Set(loaded.flatMap((l) => Object.keys(l.servers)))];
  const close = suggest(name, known);
  const hint = close.length ? ` Did you mean ${close.map((c) => JSON.stringify(c)).join(" or ")}?` : "";
  const files = loaded.map((l) => l.file.shown);
  const where =
    files.length === 0
      ? `${CONFIG_LOOKUP.join(", ")} (found above ${searchedFrom}) define no servers, so none is named ${JSON.stringify(name)}`
      : files.length === 1
        ? `${files[0]} defines no server named ${JSON.stringify(name)}${known.length ? `; it defines: ${known.join(", ")}` : ""}`
        : `${files.join(", ")} define no server named ${JSON.stringify(name)}${known.length ? `; they define: ${known.join(", ")}` : ""}`;
  return new UsageError(`${where}.${hint}`);
}

/** A configured server for --all: resolved lazily, so one broken entry fails only that server. */
export interface ConfigEntry {
  name: string;
  file: ConfigFile;
  resolve: () => ConfiguredServer;
}

/** --all: every server the files define, each name once (the first file's entry), in file order. */
export function listConfiguredServers(options: LookupOptions = {}): ConfigEntry[] {
  const cwd = options.cwd ?? process.cwd();
  const loaded = loadAll(options.config, "--all", cwd);
  const entries: ConfigEntry[] = [];
  const seen = new Set<string>();
  for (const { file, servers } of loaded) {
    for (const [name, entry] of Object.entries(servers)) {
      if (seen.has(name) || !isJsonObject(entry)) continue;
      seen.add(name);
      entries.push({ name, file, resolve: () => resolveEntry(name, entry, file, options.env ?? process.env) });
    }
  }
  if (entries.length === 0) {
    throw new UsageError(
      `${loaded.map((l) => l.file.shown).join(", ") || CONFIG_LOOKUP.join(", ")} define${loaded.length === 1 ? "s" : ""} no servers, so --all has nothing to capture. Add servers under "mcpServers" (or VS Code's "servers").`,
    );
  }
  return entries;
}

/** The names the files define, for shell completion: never throws, never expands a variable. */
export function configuredEntries(config: string | undefined, cwd = process.cwd()): [string, JsonObject][] {
  const out: [string, JsonObject][] = [];
  for (const file of configFilesFor(config, cwd)) {
    try {
      const loaded = loadConfig(file, "completion", false);
      for (const [name, entry] of Object.entries(loaded?.servers ?? {})) {
        if (!out.some(([n]) => n === name)) out.push([name, isJsonObject(entry) ? entry : {}]);
      }
    } catch {
      // A broken file completes nothing.
    }
  }
  return out;
}

function resolveEntry(
  name: string,
  entry: JsonObject,
  file: ConfigFile,
  env: Record<string, string | undefined>,
): ConfiguredServer {
  const ctx: ExpandContext = { file: file.shown, workspace: file.workspace, env };
  const expand = (v: string) => expandVariables(v, ctx);
  const str = (v: unknown) => (typeof v === "string" ? expand(v) : undefined);
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x) => typeof x === "string").map(expand) : []);
  const pairs = (v: unknown, sep: string) =>
    isJsonObject(v)
      ? Object.entries(v).map(([k, val]) => `${k}${sep}${typeof val === "string" ? expand(val) : String(val)}`)
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
    throw new UsageError(`server ${JSON.stringify(name)} in ${file.shown} has neither "command" nor "url".`);
  const cwd = str(entry.cwd);
  const envFile = str(entry.envFile);
  // The entry's own env wins over its envFile, as in VS Code.
  const fromFile = envFile ? readEnvFile(envFile, ctx).map(([k, v]) => `${k}=${v}`) : [];
  return {
    command: [command, ...strings(entry.args)],
    env: [...fromFile, ...pairs(entry.env, "=")],
    // Clients start a project's servers in the project: a relative `args` path works from any subfolder.
    cwd: resolve(file.workspace, cwd ?? "."),
  };
}

/** --server NAME [--config FILE]: the server's settings (see lookupServer for where it came from). */
export function resolveConfiguredServer(name: string, configPath?: string): ConfiguredServer {
  return lookupServer(name, { config: configPath }).server;
}
