/**
 * Where sign-ins live: one JSON file per (issuer, resource) under the user's config directory
 * ($XDG_CONFIG_HOME/mcp-contract, else ~/.config/mcp-contract on Linux, ~/Library/Application
 * Support/mcp-contract on macOS, %APPDATA%\mcp-contract on Windows). The directories are 0700
 * and the files 0600 from the moment they exist (created with that mode, never chmod-ed after
 * writing), and every write is a rename of a complete file, so a crash never leaves half a token.
 * A store or token file others could read, write or redirect is refused (store-safety.ts).
 */
import { createHash, randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { UsageError } from "../errors.ts";
import type { DpopKey } from "./dpop.ts";
import { AuthLimitError, type Deadline } from "./limits.ts";
import { checkStoreDir, readTokenFile, saveError } from "./store-safety.ts";

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
  /**
   * The key the tokens are bound to (RFC 9449 DPoP), when the server issued DPoP tokens: its
   * private JWK, a secret kept in this 0600 file only. Absent for Bearer tokens.
   */
  dpop?: DpopKey;
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

/** Our token files' names (credentialFileName); anything else in the directory is not ours to read. */
const CREDENTIAL_FILE = /^[0-9a-f]{24}\.json$/;

function ensureDir(env: NodeJS.ProcessEnv): string {
  const base = configDir(env);
  const dir = credentialsDir(env);
  try {
    mkdirSync(base, { recursive: true, mode: 0o700 });
    checkStoreDir(base);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    checkStoreDir(dir);
    // mkdir leaves an existing directory's mode alone: one others may read (not write) is tightened.
    chmodSync(dir, 0o700);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `cannot create the credentials directory ${dir}: ${(error as Error).message}. Set XDG_CONFIG_HOME to a directory you can write to.`,
      { cause: error },
    );
  }
  return dir;
}

/**
 * Write the credential atomically, 0600 from creation. Any failure (a full disk, above all)
 * removes the temporary file and is a UsageError: the old file, if any, stays as it was.
 */
export function saveCredential(credential: Credential, env: NodeJS.ProcessEnv = process.env): string {
  const dir = ensureDir(env);
  const path = join(dir, credentialFileName(credential.issuer, credential.resource));
  const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  let fd: number | undefined;
  try {
    fd = openSync(temp, "wx", 0o600);
    // writeFileSync on a descriptor loops until every byte is written (writeSync may write part).
    writeFileSync(fd, `${JSON.stringify(credential, null, 2)}\n`);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, path);
  } catch (error) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {}
    }
    rmSync(temp, { force: true });
    throw saveError(error, dir, credential.url);
  }
  return path;
}

/**
 * Every stored sign-in, with its file. Files not named like ours, or not holding a credential,
 * are skipped; a store or token file that is not private is refused (UsageError naming the fix).
 */
export function listCredentials(env: NodeJS.ProcessEnv = process.env): { path: string; credential: Credential }[] {
  const dir = credentialsDir(env);
  if (!checkStoreDir(configDir(env)) || !checkStoreDir(dir)) return [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: { path: string; credential: Credential }[] = [];
  for (const name of names.sort()) {
    if (!CREDENTIAL_FILE.test(name)) continue;
    const path = join(dir, name);
    const credential = readCredential(path);
    if (credential) out.push({ path, credential });
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

/** The credential in a token file; undefined when it is gone or holds none. Unsafe files throw (store-safety.ts). */
export function readCredential(path: string): Credential | undefined {
  let text: string;
  try {
    text = readTokenFile(path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    return undefined;
  }
  try {
    const credential = JSON.parse(text) as Credential;
    return credential?.version === 1 && typeof credential.accessToken === "string" ? credential : undefined;
  } catch {
    return undefined;
  }
}

/** A lock older than this was left by a process that died; it is taken over. */
const STALE_LOCK_MS = 60_000;
/** How long to wait for another process's lock before going ahead anyway. */
const LOCK_WAIT_MS = 20_000;

/**
 * Run `work` holding `PATH.lock` (created exclusively, 0600), waiting while another process
 * holds it: LOCK_WAIT_MS at most, and never past `limit` (a capture's --timeout), which ends
 * the wait with a message saying what held it up.
 */
export async function withLock<T>(path: string, work: () => Promise<T>, limit?: Deadline): Promise<T> {
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
      else if (limit && Date.now() >= limit.at) throw lockTimeout(lock, limit);
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

function lockTimeout(lock: string, limit: Deadline): AuthLimitError {
  return new AuthLimitError(
    `another mcp-contract was refreshing the same stored sign-in (it holds ${lock}) and did not finish within ${limit.name}`,
    `Run the command again; if no other mcp-contract is running, remove the stale lock (rm ${lock})`,
  );
}

export function removeCredential(path: string): void {
  rmSync(path, { force: true });
}
