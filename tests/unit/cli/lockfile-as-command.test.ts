/**
 * `lint mcp.contract.json` puts a lockfile where the server command goes. Said as that, with the
 * command's own way to name a lockfile, instead of a spawn failure ("permission denied",
 * "command not found") that points at the wrong fix. Without spawning anything.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveTarget } from "../../../src/cli/target-options.ts";
import { UsageError } from "../../../src/errors.ts";

const dir = mkdtempSync(join(tmpdir(), "lockfile-as-command-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const given = () => undefined;
const resolve = (command: string[], lockfileGoes?: (file: string) => string) =>
  resolveTarget(command, { timeout: 30, transport: "auto", ...(lockfileGoes && { lockfileGoes }) }, given);

describe("a lockfile given as the server command", () => {
  test("is a usage error that says where the lockfile goes", () => {
    const file = join(dir, "mcp.contract.json");
    writeFileSync(file, "{}");
    expect(() => resolve([file], (f) => `lint it with \`mcp-contract lint --from ${f}\``)).toThrow(UsageError);
    expect(() => resolve([file], (f) => `lint it with \`mcp-contract lint --from ${f}\``)).toThrow(
      `${file} is a JSON file, not a server command: lint it with \`mcp-contract lint --from ${file}\`. A live server's command goes after \`--\``,
    );
  });

  test("whether or not the file exists, in any case of the extension", () => {
    expect(() => resolve(["missing.JSON"])).toThrow("missing.JSON is a JSON file, not a server command");
  });

  test("a server command that takes a .json argument, or an executable .json, is still a server", () => {
    expect(resolve(["node", "server.json"]).target).toMatchObject({ kind: "stdio", command: "node" });
    const program = join(dir, "server.json");
    writeFileSync(program, "#!/bin/sh\n");
    chmodSync(program, 0o755);
    expect(resolve([program]).target).toMatchObject({ kind: "stdio", command: program });
    expect(resolve(["server.js"]).target).toMatchObject({ kind: "stdio", command: "server.js" });
  });
});
