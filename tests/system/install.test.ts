/**
 * install.sh end to end, as `curl -fsSL …/install.sh | sh` runs it, against a release layout
 * (made from the shipped binary) served from 127.0.0.1 through MCP_CONTRACT_BASE_URL: it
 * installs and runs; a checksum mismatch, a missing checksum line, a missing SHA256SUMS and a
 * machine without a SHA-256 tool each abort with a clear message and install nothing; the
 * GitHub Action's install step installs into the tool cache once and reuses it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { archiveName, hostTarget, RELEASE_BASE_URL, RELEASE_REPOSITORY } from "../../scripts/release-config.ts";
import {
  cleanupTempDirs,
  type ReleaseServer,
  ROOT,
  read,
  requireTool,
  restrictedPath,
  run,
  serveRelease,
  shippedBinary,
  tempDir,
  VERSION,
} from "../e2e/ship-helpers.ts";

const INSTALL_SH = join(ROOT, "install.sh");
/** What install.sh runs, besides curl or wget and a SHA-256 tool. */
const BASE_COMMANDS = [
  "sh",
  "uname",
  "grep",
  "mktemp",
  "rm",
  "tr",
  "awk",
  "cut",
  "tar",
  "gzip",
  "mkdir",
  "cp",
  "chmod",
  "mv",
  "ldd",
];

let release: ReleaseServer;

beforeAll(async () => {
  release = await serveRelease(await shippedBinary());
}, 120_000);
afterAll(() => {
  release?.stop();
  cleanupTempDirs();
});

function install(args: string[], options: { env?: Record<string, string | undefined>; shell?: string } = {}) {
  return run([options.shell ?? "sh", INSTALL_SH, ...args], {
    env: { MCP_CONTRACT_BASE_URL: release.base, ...options.env },
    cwd: tempDir(),
  });
}

/** A release VERSION whose SHA256SUMS is broken in the way `sums` says. */
function brokenRelease(version: string, sums: (archive: string, line: string) => string | undefined): void {
  const good = release.versionDir(VERSION);
  const dir = release.versionDir(version);
  mkdirSync(dir, { recursive: true });
  const goodArchive = archiveName(VERSION, hostTarget());
  const archive = archiveName(version, hostTarget());
  cpSync(join(good, goodArchive), join(dir, archive));
  const line = read(join(good, "SHA256SUMS")).replace(goodArchive, archive);
  const text = sums(archive, line);
  if (text !== undefined) writeFileSync(join(dir, "SHA256SUMS"), text);
}

function expectNothingInstalled(prefix: string): void {
  const bin = join(prefix, "bin");
  expect(existsSync(bin) ? readdirSync(bin) : []).toEqual([]);
}

describe("install.sh", () => {
  test("is POSIX sh and shellcheck-clean", async () => {
    requireTool("shellcheck");
    const result = await run(["shellcheck", "--shell=sh", "--severity=style", INSTALL_SH]);
    expect(result.stdout + result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(readFileSync(INSTALL_SH, "utf8").split("\n")[0]).toBe("#!/bin/sh");
  });

  test("from a mirror, finds the latest version where the README says a mirror keeps it (BASE/latest/VERSION)", async () => {
    requireTool("curl");
    // A mirror beside the GitHub layout on the same server: BASE/vVERSION/… and BASE/latest/VERSION.
    const root = dirname(dirname(dirname(release.versionDir(VERSION))));
    cpSync(release.versionDir(VERSION), join(root, "mirror", `v${VERSION}`), { recursive: true });
    mkdirSync(join(root, "mirror/latest"), { recursive: true });
    writeFileSync(join(root, "mirror/latest/VERSION"), `${VERSION}\n`);
    const base = release.base.replace(/\/releases\/download$/, "/mirror");
    const prefix = tempDir();
    const result = await install(["--prefix", prefix], { env: { MCP_CONTRACT_BASE_URL: base } });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(release.requests).toContain("/mirror/latest/VERSION");
    expect(release.requests).toContain(`/mirror/v${VERSION}/SHA256SUMS`);
  }, 60_000);

  test("piped to sh (curl … | sh): installs the latest release to ~/.local/bin, prints the version and a PATH hint", async () => {
    requireTool("curl");
    const home = tempDir();
    const result = await run(["sh", "-s"], {
      stdin: read(INSTALL_SH),
      env: { MCP_CONTRACT_BASE_URL: release.base, HOME: home, PATH: process.env.PATH },
      cwd: home,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const bin = join(home, ".local/bin/mcp-contract");
    expect(result.stdout).toContain(`downloading mcp-contract ${VERSION} for ${hostTarget().name}`);
    expect(result.stdout).toMatch(/verified SHA-256 [0-9a-f]{64}/);
    expect(result.stdout).toContain(`installed mcp-contract ${VERSION} to ${bin}`);
    expect(result.stdout).toContain(`export PATH="${join(home, ".local/bin")}:$PATH"`);
    expect((await run([bin, "--version"])).stdout.trim()).toBe(VERSION);
    // The latest version was read from the layout GitHub serves, then the archive and its sums.
    expect(release.requests).toContain("/releases/latest/download/VERSION");
    expect(release.requests).toContain(`/releases/download/v${VERSION}/SHA256SUMS`);
  }, 60_000);

  test("--version and --prefix (under dash), with no PATH hint when the directory is on PATH", async () => {
    requireTool("dash");
    const prefix = tempDir();
    const result = await install(["--version", `v${VERSION}`, "--prefix", prefix], {
      shell: "dash",
      env: { PATH: `${join(prefix, "bin")}:${process.env.PATH}` },
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`installed mcp-contract ${VERSION} to ${join(prefix, "bin/mcp-contract")}`);
    expect(result.stdout).not.toContain("is not on your PATH");
    expect(readdirSync(join(prefix, "bin"))).toEqual(["mcp-contract"]);
  }, 60_000);

  test("downloads with wget when there is no curl", async () => {
    requireTool("wget");
    const prefix = tempDir();
    const path = restrictedPath([...BASE_COMMANDS, "wget", "sha256sum"]);
    const result = await install(["--version", VERSION, "--prefix", prefix], { env: { PATH: path } });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`installed mcp-contract ${VERSION}`);
  }, 60_000);

  test("a checksum mismatch aborts, says so, and installs nothing (an installed binary is kept)", async () => {
    brokenRelease("0.0.1-mismatch", (_, line) => `${"0".repeat(64)}${line.slice(64)}`);
    const prefix = tempDir();
    const result = await install(["--version", "0.0.1-mismatch", "--prefix", prefix]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`checksum mismatch for ${archiveName("0.0.1-mismatch", hostTarget())}`);
    expect(result.stderr).toContain(`expected ${"0".repeat(64)}`);
    expect(result.stderr).toContain("nothing was installed");
    expect(result.stdout).not.toContain("installed mcp-contract");
    expectNothingInstalled(prefix);

    mkdirSync(join(prefix, "bin"));
    writeFileSync(join(prefix, "bin/mcp-contract"), "the old one");
    expect((await install(["--version", "0.0.1-mismatch", "--prefix", prefix])).code).toBe(1);
    expect(readdirSync(join(prefix, "bin"))).toEqual(["mcp-contract"]);
    expect(read(join(prefix, "bin/mcp-contract"))).toBe("the old one");
  }, 60_000);

  test("an archive without a checksum line is refused", async () => {
    brokenRelease("0.0.2-noline", (archive, line) => line.replace(archive, "mcp-contract-0.0.2-noline-other.tar.gz"));
    const prefix = tempDir();
    const result = await install(["--version", "0.0.2-noline", "--prefix", prefix]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `SHA256SUMS of 0.0.2-noline has no checksum for ${archiveName("0.0.2-noline", hostTarget())}, so it cannot be verified; nothing was installed`,
    );
    expectNothingInstalled(prefix);
  }, 60_000);

  test("a release without SHA256SUMS is refused", async () => {
    brokenRelease("0.0.3-nosums", () => undefined);
    const prefix = tempDir();
    const result = await install(["--version", "0.0.3-nosums", "--prefix", prefix]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("SHA256SUMS, so");
    expect(result.stderr).toContain("cannot be verified; nothing was installed");
    expectNothingInstalled(prefix);
  }, 60_000);

  test("a machine without sha256sum, shasum or openssl is refused before downloading", async () => {
    const prefix = tempDir();
    const before = release.requests.length;
    const result = await install(["--prefix", prefix], { env: { PATH: restrictedPath([...BASE_COMMANDS, "curl"]) } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("cannot verify the download: no SHA-256 tool (sha256sum, shasum or openssl)");
    expect(result.stderr).toContain("nothing was installed");
    expectNothingInstalled(prefix);
    expect(release.requests.length).toBe(before);
  });

  test("shasum or openssl verify when sha256sum is absent", async () => {
    for (const tool of ["shasum", "openssl"]) {
      if (!Bun.which(tool)) continue;
      const prefix = tempDir();
      const path = restrictedPath([...BASE_COMMANDS, "curl", tool, ...(tool === "shasum" ? ["perl"] : [])]);
      const result = await install(["--version", VERSION, "--prefix", prefix], { env: { PATH: path } });
      expect({ tool, stderr: result.stderr, code: result.code }).toEqual({ tool, stderr: "", code: 0 });
    }
  }, 60_000);

  test("an unknown version or target, and bad options, fail with a message", async () => {
    const missing = await install(["--version", "9.9.9", "--prefix", tempDir()]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`download failed: ${release.base}/v9.9.9/`);
    const target = await install(["--target", "solaris-sparc"]);
    expect(target.code).toBe(1);
    expect(target.stderr).toContain("unknown --target solaris-sparc");
    const hostile = await install(["--version", "1.0;touch pwned"]);
    expect(hostile.code).toBe(1);
    expect(hostile.stderr).toContain("not a version");
    const option = await install(["--frobnicate"]);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("unknown option --frobnicate");
    const help = await install(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("usage: install.sh");
  });

  test("--dry-run names the archive of a chosen --target on the GitHub layout", async () => {
    const result = await install([
      "--dry-run",
      "--version",
      "1.2.3",
      "--target",
      "linux-arm64-musl",
      "--prefix",
      "/opt",
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        "version: 1.2.3",
        "target: linux-arm64-musl",
        `url: ${release.base}/v1.2.3/mcp-contract-1.2.3-linux-arm64-musl.tar.gz`,
        "prefix: /opt",
        "",
      ].join("\n"),
    );
    const windows = await install(["--dry-run", "--version", "1.2.3", "--target", "windows-x64"]);
    expect(windows.stdout).toContain(`url: ${release.base}/v1.2.3/mcp-contract-1.2.3-windows-x64.zip`);
  });
});

describe("the README's install routes", () => {
  const readme = read(join(ROOT, "README.md"));

  test("name install.sh where the release publishes it", () => {
    const url = `https://github.com/${RELEASE_REPOSITORY}/releases/latest/download/install.sh`;
    expect(readme).toContain(`curl -fsSL ${url} | sh`);
    expect(`${RELEASE_BASE_URL}/`.replace("/download/", "/latest/download/install.sh")).toBe(url);
  });

  test("the archive route works as written (against the local release)", async () => {
    requireTool("sha256sum", "coreutils");
    const section = readme.slice(readme.indexOf("### Archives and checksums"));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
    expect(block).toContain("sha256sum --ignore-missing -c SHA256SUMS");
    const prefix = tempDir();
    const script = block
      .replace(/^MCP_CONTRACT_RELEASES=.*$/m, `MCP_CONTRACT_RELEASES=${release.base}/v${VERSION}`)
      .replace(/^sudo install (\S+) \/usr\/local\/bin\/$/m, `install $1 ${prefix}/`)
      .replace(/^mcp-contract --version$/m, `${prefix}/mcp-contract --version`)
      .replaceAll("0.1.0", VERSION)
      .replaceAll("linux-x64", hostTarget().name);
    const result = await run(["sh", "-ec", script], { cwd: tempDir() });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${archiveName(VERSION, hostTarget())}: OK`);
    expect(result.stdout.trim().split("\n").at(-1)).toBe(VERSION);
  }, 60_000);
});

describe("the GitHub Action's install step", () => {
  test("installs the action's own version into the tool cache, puts it on PATH, and reuses the cache", async () => {
    const cache = tempDir();
    const files = tempDir();
    const env = {
      GITHUB_ACTION_PATH: ROOT,
      RUNNER_TOOL_CACHE: cache,
      RUNNER_ARCH: hostTarget().cpu === "arm64" ? "ARM64" : "X64",
      RUNNER_OS: "Linux",
      GITHUB_PATH: join(files, "path"),
      GITHUB_OUTPUT: join(files, "output"),
      MCP_CONTRACT_BASE_URL: release.base,
      INPUT_VERSION: "",
    };
    const first = await run(["bash", join(ROOT, "scripts/action/install.sh")], { env });
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const dir = join(cache, "mcp-contract", VERSION, hostTarget().cpu);
    expect(existsSync(`${dir}.complete`)).toBe(true);
    expect(read(env.GITHUB_PATH)).toBe(`${dir}/bin\n`);
    expect(read(env.GITHUB_OUTPUT)).toBe(`version=${VERSION}\npath=${dir}/bin/mcp-contract\n`);
    expect((await run([join(dir, "bin/mcp-contract"), "--version"])).stdout.trim()).toBe(VERSION);

    const downloads = release.requests.length;
    const second = await run(["bash", join(ROOT, "scripts/action/install.sh")], {
      env: { ...env, INPUT_VERSION: "latest" },
    });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`mcp-contract ${VERSION} from the tool cache`);
    // Only the latest version was looked up; no archive was downloaded again.
    expect(release.requests.slice(downloads)).toEqual(["/releases/latest/download/VERSION"]);
  }, 60_000);
});
