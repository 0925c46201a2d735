/**
 * Files the user names are read with a limit (#27): real devices, a real FIFO nobody writes, a
 * sparse file over the cap, a BOM, a directory; each refused (or read) at once, never a hang.
 */
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type FileRole,
  formatSize,
  LOCKFILE_MAX_BYTES,
  POLICY_MAX_BYTES,
  readUserFile,
} from "../../../src/cli/read-user-file.ts";
import { UsageError } from "../../../src/errors.ts";
import { within } from "../../helpers/clock.ts";

const ROLE: FileRole = { missing: "no lockfile here.", aKind: "a lockfile", theKind: "the old lockfile" };
const posix = process.platform !== "win32";

function dir(): string {
  return mkdtempSync(join(tmpdir(), "read-user-file-"));
}

/** The UsageError readUserFile throws for `path`, within 2 s (a hang fails the test, not the run). */
function refusal(path: string, role: FileRole = ROLE): UsageError {
  return within(2000, `reading ${path}`, () => {
    try {
      readUserFile(path, role);
    } catch (error) {
      if (error instanceof UsageError) return error;
      throw error;
    }
    throw new Error(`${path} was read`);
  });
}

describe("readUserFile refuses what is not a regular file of sane size", () => {
  test.if(posix).each(["/dev/zero", "/dev/urandom"])("%s: a device, refused at once", (device) => {
    const error = refusal(device);
    expect(error.message).toContain(`${device} is a character device, not a lockfile`);
    expect(error.message).toContain("only from a regular file");
    expect(error.exitCode).toBe(2);
  });

  test.if(posix)("a FIFO nobody writes: refused at once, not waited on", () => {
    const fifo = join(dir(), "policy.json");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    const error = refusal(fifo, { ...ROLE, aKind: "a policy file (--policy)", theKind: "the policy file" });
    expect(error.message).toContain(`${fifo} is a named pipe (FIFO), not a policy file (--policy)`);
    expect(error.message).toContain("save them to a file first");
  });

  test("a sparse 600 MiB file: refused by its size, without reading it", () => {
    const big = join(dir(), "mcp.contract.json");
    writeFileSync(big, "");
    truncateSync(big, 600 * 1024 * 1024);
    const error = refusal(big);
    expect(error.message).toBe(
      `${big} is 600 MiB, over the 512 MiB limit mcp-contract sets for a lockfile, so it was not read. Check that the path names the file you meant.`,
    );
  });

  test("each kind has its own cap: a 5 MiB policy file is refused, a lockfile that size is read", () => {
    const file = join(dir(), "five.json");
    writeFileSync(file, `[${" ".repeat(5 * 1024 * 1024)}]`);
    expect(POLICY_MAX_BYTES).toBeLessThan(5 * 1024 * 1024);
    expect(refusal(file, { ...ROLE, maxBytes: POLICY_MAX_BYTES }).message).toContain("over the 4 MiB limit");
    expect(readUserFile(file, ROLE).length).toBe(5 * 1024 * 1024 + 2);
    expect(LOCKFILE_MAX_BYTES).toBe(512 * 1024 * 1024);
  });

  test("a directory and a missing file keep their messages", () => {
    const d = dir();
    expect(refusal(d).message).toBe(`${d} is a directory, not a lockfile.`);
    expect(refusal(join(d, "absent.json")).message).toBe("no lockfile here.");
  });

  test("messages name the file as the caller shows it", () => {
    expect(refusal("/dev/zero", { ...ROLE, shown: ".mcp.json" }).message).toStartWith(
      ".mcp.json is a character device",
    );
  });
});

describe("readUserFile reads regular files", () => {
  test("a UTF-8 byte order mark is dropped, the rest kept byte for byte", () => {
    const file = join(dir(), "bom.json");
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a": "é\uFEFF"}\n')]));
    const text = readUserFile(file, ROLE);
    expect(text).toBe('{"a": "é\uFEFF"}\n');
    expect(JSON.parse(text)).toEqual({ a: "é\uFEFF" });
  });

  test.if(process.platform === "linux")("a file whose size the kernel reports as 0 (/proc) is read whole", () => {
    expect(readUserFile("/proc/self/status", ROLE)).toContain("Pid:");
  });

  test("a file larger than the first read buffer is read whole", () => {
    const d = dir();
    mkdirSync(join(d, "sub"));
    const file = join(d, "sub", "big.json");
    const text = `"${"x".repeat(300_000)}"`;
    writeFileSync(file, text);
    expect(readUserFile(file, ROLE)).toBe(text);
  });

  test("sizes in messages", () => {
    expect(formatSize(100 * 1024 * 1024)).toBe("100 MiB");
    expect(formatSize(1536 * 1024)).toBe("1.5 MiB");
    expect(formatSize(2048)).toBe("2 KiB");
    expect(formatSize(12)).toBe("12 bytes");
  });
});
