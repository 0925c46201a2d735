/**
 * The release archives and SHA256SUMS that scripts/build.ts writes (here from a stand-in
 * binary, so nothing is compiled): the layout every channel relies on, readable by the
 * system's tar and unzip, byte-stable, and `sha256sum -c` clean. Plus the one release base
 * URL: install.sh carries the same literal as scripts/release-config.ts.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { archiveEntries, writeArchive, writeChecksums } from "../../scripts/build.ts";
import {
  archiveName,
  COMPLETION_FILES,
  findTarget,
  RELEASE_BASE_URL,
  releaseBaseUrl,
  TARGETS,
} from "../../scripts/release-config.ts";
import { tarGzFiles, zipFiles } from "../../scripts/zip.ts";
import { VERSION } from "../../src/version.ts";
import { cleanupTempDirs, ROOT, requireTool, run, tempDir } from "../e2e/ship-helpers.ts";

afterAll(cleanupTempDirs);

function fakeBinary(): string {
  const file = join(tempDir(), "mcp-contract");
  writeFileSync(file, "#!/bin/sh\necho fake\n");
  return file;
}

const stem = (target: string) => `mcp-contract-${VERSION}-${target}`;
const LAYOUT = (target: string, exe: string) =>
  [
    `${stem(target)}/${exe}`,
    `${stem(target)}/LICENSE`,
    `${stem(target)}/README.md`,
    ...Object.values(COMPLETION_FILES).map((f) => `${stem(target)}/completions/${f}`),
  ].sort();

describe("release archives", () => {
  test("a tar.gz holds the binary (executable), LICENSE, README and the four completion scripts", async () => {
    requireTool("tar");
    const dir = tempDir();
    const name = writeArchive(fakeBinary(), findTarget("linux-x64"), dir);
    expect(name).toBe(`${stem("linux-x64")}.tar.gz`);
    const listing = await run(["tar", "-tvzf", join(dir, name)]);
    expect(listing.code).toBe(0);
    const files = listing.stdout
      .split("\n")
      .filter((l) => l.startsWith("-"))
      .map((l) => l.split(/\s+/).at(-1) as string);
    expect(files.sort()).toEqual(LAYOUT("linux-x64", "mcp-contract"));
    expect(listing.stdout).toMatch(/^-rwxr-xr-x root\/root .* mcp-contract-[^/]+\/mcp-contract$/m);
    const out = tempDir();
    expect((await run(["tar", "-xzf", join(dir, name), "-C", out])).code).toBe(0);
    const completions = join(out, stem("linux-x64"), "completions");
    expect(readFileSync(join(completions, COMPLETION_FILES.zsh), "utf8")).toStartWith("#compdef mcp-contract");
    expect(readFileSync(join(out, stem("linux-x64"), "LICENSE"), "utf8")).toStartWith("MIT License");
  });

  test("the Windows zip holds mcp-contract.exe and the same files, and unzip accepts it", async () => {
    requireTool("unzip");
    const dir = tempDir();
    const name = writeArchive(fakeBinary(), findTarget("windows-x64"), dir);
    expect(name).toBe(`${stem("windows-x64")}.zip`);
    const test = await run(["unzip", "-t", join(dir, name)]);
    expect(test.stdout).toContain("No errors detected");
    const listing = await run(["unzip", "-Z1", join(dir, name)]);
    expect(listing.stdout.trim().split("\n").sort()).toEqual(LAYOUT("windows-x64", "mcp-contract.exe"));
  });

  test("the same binary and SOURCE_DATE_EPOCH give the same bytes", () => {
    const entries = archiveEntries(fakeBinary(), findTarget("darwin-arm64"));
    const when = new Date(1_700_000_000_000);
    expect(tarGzFiles(entries, when)).toEqual(tarGzFiles(entries, when));
    expect(zipFiles(entries, when)).toEqual(zipFiles(entries, when));
  });

  test("SHA256SUMS lists every archive, sorted, as sha256sum -c reads it; VERSION names the release", async () => {
    requireTool("sha256sum", "coreutils");
    const dir = tempDir();
    const binary = fakeBinary();
    for (const target of TARGETS) writeArchive(binary, target, dir, { level: 1 });
    writeFileSync(join(dir, "unrelated.txt"), "not an archive");
    writeChecksums(dir);
    const sums = readFileSync(join(dir, "SHA256SUMS"), "utf8");
    const names = sums
      .trim()
      .split("\n")
      .map((l) => l.split("  ")[1]);
    expect(names).toEqual(TARGETS.map((t) => archiveName(VERSION, t)).sort());
    const check = await run(["sha256sum", "-c", "SHA256SUMS"], { cwd: dir });
    expect(check.code).toBe(0);
    expect(readFileSync(join(dir, "VERSION"), "utf8")).toBe(`${VERSION}\n`);
    // What the install URL points at (…/download/install.sh) is in the release directory too.
    expect(readFileSync(join(dir, "install.sh"), "utf8")).toBe(readFileSync(join(ROOT, "install.sh"), "utf8"));
  });

  test("seven platforms plus x64 -baseline builds", () => {
    expect(TARGETS.filter((t) => !t.baseline).map((t) => t.name)).toEqual([
      "linux-x64",
      "linux-x64-musl",
      "linux-arm64",
      "linux-arm64-musl",
      "darwin-x64",
      "darwin-arm64",
      "windows-x64",
    ]);
    expect(TARGETS.filter((t) => t.baseline).every((t) => t.cpu === "x64" && t.bun.endsWith("-baseline"))).toBe(true);
  });
});

describe("the release base URL", () => {
  const installSh = readFileSync(join(ROOT, "install.sh"), "utf8");

  test("is one constant: install.sh carries the same literal, and nothing else in the install routes does", () => {
    expect(installSh).toContain(`DEFAULT_BASE_URL="${RELEASE_BASE_URL}"`);
    for (const file of [
      "scripts/action/install.sh",
      "scripts/action/check.sh",
      "action.yml",
      "npm/wrapper/lib/binary.js",
    ]) {
      expect({ file, has: readFileSync(join(ROOT, file), "utf8").includes("/releases/download") }).toEqual({
        file,
        has: false,
      });
    }
    expect(releaseBaseUrl({ MCP_CONTRACT_BASE_URL: "http://127.0.0.1:1/x/" })).toBe("http://127.0.0.1:1/x");
    expect(releaseBaseUrl({})).toBe(RELEASE_BASE_URL);
  });

  test("install.sh knows every target", () => {
    const cases = /\n {2}(linux-x64 \|[^)]*)\) ext=tar\.gz/.exec(installSh)?.[1] ?? "";
    const windows = /\n {2}(windows-x64[^)]*)\) ext=zip/.exec(installSh)?.[1] ?? "";
    const listed = [...cases.split("|"), ...windows.split("|")].map((s) => s.trim()).sort();
    expect(listed).toEqual(TARGETS.map((t) => t.name).sort());
  });
});
