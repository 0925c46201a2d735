/**
 * What every release channel agrees on: where releases live, the targets and their archive
 * names. One release feeds four channels (the archives + install.sh, Homebrew, the GitHub
 * Action, npm), and all of them read these.
 *
 * RELEASE_BASE_URL is the project's GitHub releases download address. install.sh carries the
 * same literal (it runs alone, piped from curl); tests/unit/release/release-config.test.ts
 * holds the two together. MCP_CONTRACT_BASE_URL overrides it everywhere, for mirrors and for
 * tests, which serve the same layout from 127.0.0.1:
 *
 *   BASE/vVERSION/ARCHIVE            e.g. BASE/v0.1.0/mcp-contract-0.1.0-linux-x64.tar.gz
 *   BASE/vVERSION/SHA256SUMS         "<sha256>  <archive>" lines
 *   BASE/../latest/download/VERSION  the newest version (GitHub's "latest release" redirect)
 */

export const RELEASE_REPOSITORY = "mcp-contract/mcp-contract";
export const RELEASE_BASE_URL = `https://github.com/${RELEASE_REPOSITORY}/releases/download`;

/** The Homebrew tap (a repository named homebrew-tap): `brew install mcp-contract/tap/mcp-contract`. */
export const HOMEBREW_TAP = "mcp-contract/tap";

/** The npm scope of the per-platform packages (@mcp-contract/linux-x64, …); the wrapper is `mcp-contract`. */
export const NPM_SCOPE = "@mcp-contract";
export const NPM_WRAPPER = "mcp-contract";

export function releaseBaseUrl(env: Record<string, string | undefined> = process.env): string {
  return (env.MCP_CONTRACT_BASE_URL || RELEASE_BASE_URL).replace(/\/+$/, "");
}

export interface Target {
  /** The archive suffix: mcp-contract-VERSION-<name>.tar.gz (or .zip on Windows). */
  name: string;
  /** bun build --compile --target */
  bun: string;
  /** As Node's process.platform / process.arch name them (npm's os and cpu fields). */
  os: "linux" | "darwin" | "win32";
  cpu: "x64" | "arm64";
  libc?: "glibc" | "musl";
  /** Built for x64 CPUs without AVX2 (pre-2013 hardware, some virtual machines). */
  baseline?: boolean;
}

/** Seven targets, plus x64 `-baseline` builds for CPUs without AVX2. */
export const TARGETS: readonly Target[] = [
  { name: "linux-x64", bun: "bun-linux-x64", os: "linux", cpu: "x64", libc: "glibc" },
  { name: "linux-x64-baseline", bun: "bun-linux-x64-baseline", os: "linux", cpu: "x64", libc: "glibc", baseline: true },
  { name: "linux-x64-musl", bun: "bun-linux-x64-musl", os: "linux", cpu: "x64", libc: "musl" },
  { name: "linux-arm64", bun: "bun-linux-arm64", os: "linux", cpu: "arm64", libc: "glibc" },
  { name: "linux-arm64-musl", bun: "bun-linux-arm64-musl", os: "linux", cpu: "arm64", libc: "musl" },
  { name: "darwin-x64", bun: "bun-darwin-x64", os: "darwin", cpu: "x64" },
  { name: "darwin-arm64", bun: "bun-darwin-arm64", os: "darwin", cpu: "arm64" },
  { name: "windows-x64", bun: "bun-windows-x64", os: "win32", cpu: "x64" },
  { name: "windows-x64-baseline", bun: "bun-windows-x64-baseline", os: "win32", cpu: "x64", baseline: true },
];

export function findTarget(name: string): Target {
  const target = TARGETS.find((t) => t.name === name);
  if (!target)
    throw new Error(`unknown target ${JSON.stringify(name)}; known: ${TARGETS.map((t) => t.name).join(", ")}`);
  return target;
}

/** The target of the machine this runs on (glibc vs musl: whether a musl loader is present). */
export function hostTarget(): Target {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const cpu = process.arch;
  let musl = false;
  if (process.platform === "linux") {
    const report = (process.report?.getReport?.() ?? {}) as { header?: { glibcVersionRuntime?: string } };
    musl = report.header?.glibcVersionRuntime === undefined;
  }
  return findTarget(`${os}-${cpu}${musl ? "-musl" : ""}`);
}

export const exeName = (target: Target) => (target.os === "win32" ? "mcp-contract.exe" : "mcp-contract");
export const archiveStem = (version: string, target: Target) => `mcp-contract-${version}-${target.name}`;
export const archiveName = (version: string, target: Target) =>
  `${archiveStem(version, target)}${target.os === "win32" ? ".zip" : ".tar.gz"}`;

/** The completion scripts in every archive, under completions/. */
export const COMPLETION_FILES = {
  bash: "mcp-contract.bash",
  zsh: "_mcp-contract",
  fish: "mcp-contract.fish",
  powershell: "mcp-contract.ps1",
} as const;
