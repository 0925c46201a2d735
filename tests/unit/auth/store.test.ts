/** The sign-in store on disk: modes from creation, atomic replacement, look-ups by URL or resource. */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Credential,
  credentialsDir,
  findCredential,
  listCredentials,
  saveCredential,
} from "../../../src/auth/store.ts";

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
