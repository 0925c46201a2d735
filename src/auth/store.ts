/**
 * Where sign-ins live: one JSON file per (issuer, resource) under the user's config directory
 * ($XDG_CONFIG_HOME/mcp-contract, else ~/.config/mcp-contract on Linux, ~/Library/Application
 * Support/mcp-contract on macOS, %APPDATA%\mcp-contract on Windows). The directories are 0700
 * and the files 0600 from the moment they exist (created with that mode, never chmod-ed after
 * writing), and every write is a rename of a complete file, so a crash never leaves half a token.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { UsageError } from "../errors.ts";

/** How the client identified itself to the authorization server. */
export type Registration = "pre-registered" | "metadata-document" | "dynamic";

/** One sign-in. Never printed whole: `auth --status` shows everything but the secrets. */
export interface Credential {
  version: 1;
  /** The authorization server's issuer identifier. */
  issuer: string;
  /** The RFC 8707 resource the token is for (the protected resource metadata's `resource`). */
  resource: string;
  /** The MCP server URL signed in for (--url), which captures look the credential up by. */
  url: string;
  grant: "authorization_code" | "client_credentials";
  registration: Registration;
  clientId: string;
  /** Secrets: a registered or given client secret, the tokens. */
  clientSecret?: string;
  /** client_secret_post, client_secret_basic or none. */
  clientAuth: string;
  /** The loopback redirect URI the client was registered with (dynamic registration). */
  redirectUri?: string;
  accessToken: string;
  refreshToken?: string;
  /** When the access token expires, ms since the epoch; absent when the server did not say. */
  expiresAt?: number;
  /** When the access token was issued, ms since the epoch. */
  obtainedAt?: number;
  /** Scopes granted (or, when the server did not say, requested), sorted. */
  scopes: string[];
  /** When the sign-in was made, ms since the epoch. */
  createdAt: number;
}

/** The mcp-contract config directory, by platform and environment. */
export function configDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg?.startsWith("/")) return join(xdg, "mcp-contract");
  if (platform === "win32") return join(env.APPDATA || join(homedir(), "AppData", "Roaming"), "mcp-contract");
  if (platform === "darwin") return join(homedir(), "Library", "Application Support", "mcp-contract");
  return join(env.HOME || homedir(), ".config", "mcp-contract");
}

export function credentialsDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), "credentials");
}

/** A file name for (issuer, resource): stable, and revealing neither. */
export function credentialFileName(issuer: string, resource: string): string {
  return `${createHash("sha256").update(`${issuer}\n${resource}`).digest("hex").slice(0, 24)}.json`;
}

function ensureDir(env: NodeJS.ProcessEnv): string {
  const base = configDir(env);
  const dir = credentialsDir(env);
  try {
    mkdirSync(base, { recursive: true, mode: 0o700 });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // mkdir leaves an existing directory's mode alone, and the umask may have narrowed a new one.
    chmodSync(dir, 0o700);
  } catch (error) {
    throw new UsageError(
      `cannot create the credentials directory ${dir}: ${(error as Error).message}. Set XDG_CONFIG_HOME to a directory you can write to.`,
      { cause: error },
    );
  }
  return dir;
}

/** Write the credential atomically, 0600 from creation. */
export function saveCredential(credential: Credential, env: NodeJS.ProcessEnv = process.env): string {
  const dir = ensureDir(env);
  const path = join(dir, credentialFileName(credential.issuer, credential.resource));
  const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  const fd = openSync(temp, "wx", 0o600);
  try {
    writeSync(fd, `${JSON.stringify(credential, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return path;
}

/** Every stored sign-in, with its file; unreadable or foreign files are skipped. */
export function listCredentials(env: NodeJS.ProcessEnv = process.env): { path: string; credential: Credential }[] {
  const dir = credentialsDir(env);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: { path: string; credential: Credential }[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith(".json")) continue;
    const path = join(dir, name);
    try {
      const credential = JSON.parse(readFileSync(path, "utf8")) as Credential;
      if (credential?.version === 1 && typeof credential.accessToken === "string") out.push({ path, credential });
    } catch {
      // Not ours, or mid-write by another process: ignore.
    }
  }
  return out;
}

/** A URL as compared for look-ups: no fragment, no trailing slash on the path. */
export function normalizeUrl(url: string | URL): string {
  const u = new URL(url.toString());
  u.hash = "";
  return u.href.replace(/\/(?=$|\?)/, "");
}

/** The stored sign-in for this MCP server URL (its --url, or its resource), newest first. */
export function findCredential(url: URL, env: NodeJS.ProcessEnv = process.env) {
  const wanted = normalizeUrl(url);
  const matches = listCredentials(env).filter(
    ({ credential }) => normalizeUrl(credential.url) === wanted || normalizeUrl(credential.resource) === wanted,
  );
  return matches.sort((a, b) => b.credential.createdAt - a.credential.createdAt)[0];
}

export function readCredential(path: string): Credential | undefined {
  try {
    const credential = JSON.parse(readFileSync(path, "utf8")) as Credential;
    return credential?.version === 1 ? credential : undefined;
  } catch {
    return undefined;
  }
}

/** A lock older than this was left by a process that died; it is taken over. */
const STALE_LOCK_MS = 60_000;
/** How long to wait for another process's lock before going ahead anyway. */
const LOCK_WAIT_MS = 20_000;

/** Run `work` holding `PATH.lock` (created exclusively, 0600), waiting while another process holds it. */
export async function withLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  let held = false;
  while (!held) {
    try {
      closeSync(openSync(lock, "wx", 0o600));
      held = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") break;
      let age = 0;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue;
      }
      if (age > STALE_LOCK_MS) rmSync(lock, { force: true });
      else if (Date.now() > deadline) break;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    return await work();
  } finally {
    if (held) rmSync(lock, { force: true });
  }
}

export function removeCredential(path: string): void {
  rmSync(path, { force: true });
}
