/**
 * The sign-in store on disk: modes from creation, atomic replacement, look-ups by URL or resource;
 * and (#27) what it refuses: symlinked or shared directories, token files others could read or
 * wrote, a full disk (a real one: a 64 KiB tmpfs, when root may mount one).
 */
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Credential,
  credentialsDir,
  findCredential,
  listCredentials,
  saveCredential,
} from "../../../src/auth/store.ts";
import { UsageError } from "../../../src/errors.ts";

function credential(overrides: Partial<Credential> = {}): Credential {
  return {
    version: 1,
    issuer: "https://auth.example.com",
    resource: "https://mcp.example.com/mcp",
    url: "https://mcp.example.com/mcp",
    grant: "authorization_code",
    registration: "dynamic",
    clientId: "c1",
    clientAuth: "none",
    accessToken: "at-1",
    scopes: ["a"],
    createdAt: 1,
    ...overrides,
  };
}

describe("the sign-in store", () => {
  test("directory 0700 and file 0600, even under a permissive umask", () => {
    const env = { XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "auth-store-")) };
    const old = process.umask(0o000);
    try {
      const path = saveCredential(credential(), env);
      expect(statSync(credentialsDir(env)).mode & 0o777).toBe(0o700);
      expect(statSync(join(env.XDG_CONFIG_HOME, "mcp-contract")).mode & 0o777).toBe(0o700);
      expect(statSync(path).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(old);
    }
  });

  test("saving again replaces the file whole, leaving no temporary file", () => {
    const env = { XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "auth-store-")) };
    saveCredential(credential(), env);
    saveCredential(credential({ accessToken: "at-2" }), env);
    expect(readdirSync(credentialsDir(env))).toHaveLength(1);
    expect(listCredentials(env).map((c) => c.credential.accessToken)).toEqual(["at-2"]);
  });

  test("found by its URL or its resource, ignoring a trailing slash; foreign files skipped", () => {
    const env = { XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "auth-store-")) };
    saveCredential(credential({ url: "https://mcp.example.com/v1/mcp", resource: "https://mcp.example.com" }), env);
    writeFileSync(join(credentialsDir(env), "notes.json"), "not json");
    writeFileSync(join(credentialsDir(env), "other.json"), JSON.stringify({ version: 2 }));
    expect(findCredential(new URL("https://mcp.example.com/v1/mcp/"), env)?.credential.clientId).toBe("c1");
    expect(findCredential(new URL("https://mcp.example.com/"), env)?.credential.clientId).toBe("c1");
    expect(findCredential(new URL("https://mcp.example.com/other"), env)).toBeUndefined();
    expect(listCredentials(env)).toHaveLength(1);
  });

  test("no store yet: nothing found, nothing created", () => {
    const env = { XDG_CONFIG_HOME: join(mkdtempSync(join(tmpdir(), "auth-store-")), "absent") };
    expect(listCredentials(env)).toEqual([]);
    expect(findCredential(new URL("https://mcp.example.com/mcp"), env)).toBeUndefined();
  });
});

/** The UsageError `f` throws (exit 2), for its message. */
function refusal(f: () => unknown): UsageError {
  try {
    f();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error("nothing was refused");
}

const posix = process.platform !== "win32";
const isRoot = process.getuid?.() === 0;

describe.if(posix)("the store refuses what others could read, write or redirect (#27)", () => {
  function signedIn() {
    const env = { XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "auth-store-")) };
    const path = saveCredential(credential(), env);
    return { env, path, dir: credentialsDir(env) };
  }

  test("a symlinked credentials directory: refused when saving and when reading", () => {
    const env = { XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "auth-store-")) };
    const elsewhere = mkdtempSync(join(tmpdir(), "auth-elsewhere-"));
    mkdirSync(join(env.XDG_CONFIG_HOME, "mcp-contract"), { mode: 0o700 });
    symlinkSync(elsewhere, credentialsDir(env));
    const save = refusal(() => saveCredential(credential(), env));
    expect(save.message).toContain(`the sign-in store ${credentialsDir(env)} is a symbolic link`);
    expect(save.message).toContain(`rm ${credentialsDir(env)}`);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(refusal(() => listCredentials(env)).message).toContain("is a symbolic link");
  });

  test("a symlinked mcp-contract directory is refused too", () => {
    const env = { XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "auth-store-")) };
    symlinkSync(mkdtempSync(join(tmpdir(), "auth-elsewhere-")), join(env.XDG_CONFIG_HOME, "mcp-contract"));
    expect(refusal(() => saveCredential(credential(), env)).message).toContain(
      `the sign-in store ${join(env.XDG_CONFIG_HOME, "mcp-contract")} is a symbolic link`,
    );
  });

  test.each(["0770", "0777", "0702"])("a credentials directory with mode %s: refused, naming chmod 700", (mode) => {
    const { env, dir } = signedIn();
    chmodSync(dir, Number.parseInt(mode, 8));
    const error = refusal(() => listCredentials(env));
    expect(error.message).toContain(`the sign-in store ${dir} is writable by other users`);
    expect(error.message).toContain(`chmod 700 ${dir}`);
    expect(refusal(() => saveCredential(credential(), env)).message).toContain("writable by other users");
  });

  test("a credentials directory others may only read is tightened, not refused", () => {
    const { env, dir } = signedIn();
    chmodSync(dir, 0o755);
    saveCredential(credential({ accessToken: "at-2" }), env);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  test.each(["0644", "0640", "0604", "0700", "0666"])(
    "a token file with mode %s: refused, naming chmod 600",
    (mode) => {
      const { env, path } = signedIn();
      chmodSync(path, Number.parseInt(mode, 8));
      const error = refusal(() => findCredential(new URL("https://mcp.example.com/mcp"), env));
      expect(error.message).toContain(`the token file ${path} has mode ${mode}, wider than 0600`);
      expect(error.message).toContain(`chmod 600 ${path}`);
      expect(error.exitCode).toBe(2);
    },
  );

  test.if(isRoot)("a token file owned by another user: refused, naming rm", () => {
    const { env, path } = signedIn();
    chownSync(path, 12345, 12345);
    const error = refusal(() => listCredentials(env));
    expect(error.message).toContain(`the token file ${path} belongs to another user (uid 12345)`);
    expect(error.message).toContain(`rm ${path}`);
  });

  test.if(isRoot)("a credentials directory owned by another user: refused", () => {
    const { env, dir } = signedIn();
    chownSync(dir, 12345, 12345);
    expect(refusal(() => listCredentials(env)).message).toContain(`the sign-in store ${dir} belongs to another user`);
  });

  test("a token file that is a symbolic link: refused, not followed", () => {
    const { env, path } = signedIn();
    const target = join(mkdtempSync(join(tmpdir(), "auth-elsewhere-")), "planted.json");
    writeFileSync(target, JSON.stringify(credential({ accessToken: "planted" })), { mode: 0o600 });
    rmSync(path);
    symlinkSync(target, path);
    expect(refusal(() => listCredentials(env)).message).toContain(`the token file ${path} is a symbolic link`);
  });
});

/**
 * A really full disk: a 64 KiB tmpfs, filled. Needs root and mount(8): probed (mounted and
 * unmounted) when the tests are collected, else skipped (the e2e test does the same through the
 * binary). The test mounts its own and always unmounts it, so a filtered run leaves nothing mounted.
 */
function mountTinyTmpfs(): string | undefined {
  if (!isRoot || process.platform !== "linux") return undefined;
  const dir = mkdtempSync(join(tmpdir(), "auth-full-"));
  return spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]).status === 0 ? dir : undefined;
}

const canFillADisk = (() => {
  const probe = mountTinyTmpfs();
  if (probe) spawnSync("umount", [probe]);
  return probe !== undefined;
})();

function fill(dir: string): void {
  const filler = join(dir, "filler");
  try {
    for (;;) appendFileSync(filler, Buffer.alloc(4096, 1));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  }
}

describe("saving on a full disk", () => {
  test.if(canFillADisk)("exit 2, naming the directory and the cause; no temporary file left", () => {
    const root = mountTinyTmpfs() as string;
    try {
      const env = { XDG_CONFIG_HOME: root };
      mkdirSync(credentialsDir(env), { recursive: true, mode: 0o700 });
      fill(root);
      const error = refusal(() => saveCredential(credential(), env));
      expect(error.exitCode).toBe(2);
      expect(error.message).toContain(`cannot save the sign-in in ${credentialsDir(env)}: the disk is full (ENOSPC)`);
      expect(error.message).toContain("mcp-contract auth --url https://mcp.example.com/mcp");
      expect(readdirSync(credentialsDir(env))).toEqual([]);
    } finally {
      spawnSync("umount", [root]);
    }
  });
});
