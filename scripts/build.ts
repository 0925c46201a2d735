/**
 * Build the mcp-contract executable(s) with `bun build --compile`, and the release archives.
 *
 *   bun scripts/build.ts                       host binary at dist/mcp-contract (--out DIR: DIR/mcp-contract)
 *   bun scripts/build.ts --all                 every target archived, plus SHA256SUMS and VERSION, in dist/release/
 *   bun scripts/build.ts --targets a,b         only these targets' archives (add --sums for SHA256SUMS)
 *   bun scripts/build.ts --sums                (re)write SHA256SUMS and VERSION over the archives in --out
 *   bun scripts/build.ts --package BIN --targets NAME
 *                                              archive an already built binary as that target (no compile)
 *   --out DIR     where to write (default dist/, or dist/release/ for archives)
 *   --sign        ad-hoc sign darwin binaries with codesign before archiving (on a macOS host; fails elsewhere)
 *   --level N     compression level of the archives (default 9)
 *
 * An archive holds mcp-contract-VERSION-TARGET/ with the binary, LICENSE, README.md and
 * completions/ (bash, zsh, fish, powershell). Archives are byte-stable for a given binary:
 * fixed order, owner and mode, and the time of SOURCE_DATE_EPOCH (else now).
 */
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { completionScript, SHELLS } from "../src/cli/completions.ts";
import { VERSION } from "../src/version.ts";
import {
  archiveName,
  archiveStem,
  COMPLETION_FILES,
  exeName,
  findTarget,
  TARGETS,
  type Target,
} from "./release-config.ts";
import { type ArchiveEntry, tarGzFiles, zipFiles } from "./zip.ts";

const ROOT = resolve(import.meta.dir, "..");

/**
 * How the release binary is compiled (scripts/bench.ts compiles its hello-world the same way).
 * Identifiers unminified and a source map embedded: --verbose stack traces name our functions and
 * src/ lines. --splitting: each lazily imported module is its own chunk, whose imports (Node
 * built-ins too) load only when it does; in one file every import is hoisted to start-up.
 * A compiled Bun binary would otherwise read `.env` and `bunfig.toml` from the working
 * directory at start: a checkout's `.env` would change our environment (and every server's we
 * spawn), its bunfig `preload` would run its code inside ours, and finding them reads every
 * entry of each directory above the working directory (27M instructions for a hello-world
 * under /tmp here, 3.4M without). tsconfig and package.json loading are off by default; said
 * here so that no default can turn them on. --compile-jit-policy: the binary starts with the
 * JIT's tier-up thresholds scaled up, and big inputs go back to the normal policy
 * (src/cli/jit-policy.ts).
 */
export const COMPILE_FLAGS = [
  "build",
  "--compile",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
  "--no-compile-autoload-tsconfig",
  "--no-compile-autoload-package-json",
  "--compile-jit-policy=16",
  "--splitting",
  "--minify-syntax",
  "--minify-whitespace",
  "--sourcemap",
  "--bytecode",
  "--format=esm",
];

export async function compile(file: string, target?: string): Promise<void> {
  const outfile = resolve(file);
  mkdirSync(dirname(outfile), { recursive: true });
  // Built in a scratch directory beside it: the binary embeds its source maps, and the per-chunk
  // .map files bun also writes there are left behind with it.
  const scratch = mkdtempSync(join(dirname(outfile), ".build-"));
  try {
    const built = join(scratch, basename(outfile));
    const args = [...COMPILE_FLAGS, "main.ts", "--outfile", built];
    if (target) args.push(`--target=${target}`);
    const proc = Bun.spawn([process.execPath, ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
    if (code !== 0) throw new Error(`bun build failed for ${target ?? "host"}:\n${stderr}`);
    renameSync(built, outfile);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function run(cmd: string[]): Promise<void> {
  const proc = Bun.spawn(cmd, { stdout: "inherit", stderr: "inherit" });
  if ((await proc.exited) !== 0) throw new Error(`${cmd.join(" ")} failed`);
}

/**
 * macOS kills an arm64 binary without a valid signature, and bun's own ad-hoc signature of a
 * compiled binary has not always been valid: replace it with a fresh ad-hoc one and verify it.
 */
export async function adHocSign(binary: string): Promise<void> {
  if (process.platform !== "darwin") throw new Error("--sign needs macOS (codesign); build darwin targets there");
  await run(["codesign", "--remove-signature", binary]).catch(() => undefined);
  await run(["codesign", "--force", "--sign", "-", binary]);
  await run(["codesign", "--verify", "--strict", "--verbose=2", binary]);
}

export function sha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

function archiveTime(): Date {
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  return Number.isFinite(epoch) && epoch > 0 ? new Date(epoch * 1000) : new Date();
}

/** The files of one target's archive, under mcp-contract-VERSION-TARGET/. */
export function archiveEntries(binary: string, target: Target, version = VERSION): ArchiveEntry[] {
  const stem = archiveStem(version, target);
  const text = (data: string) => new TextEncoder().encode(data);
  return [
    { name: `${stem}/${exeName(target)}`, data: readFileSync(binary), mode: 0o755 },
    { name: `${stem}/LICENSE`, data: readFileSync(join(ROOT, "LICENSE")), mode: 0o644 },
    { name: `${stem}/README.md`, data: readFileSync(join(ROOT, "README.md")), mode: 0o644 },
    ...SHELLS.map((shell) => ({
      name: `${stem}/completions/${COMPLETION_FILES[shell]}`,
      data: text(completionScript(shell)),
      mode: 0o644,
    })),
  ];
}

/** Write one target's archive of `binary` into `outDir`; returns the archive's file name. */
export function writeArchive(
  binary: string,
  target: Target,
  outDir: string,
  options: { version?: string; level?: number } = {},
): string {
  const version = options.version ?? VERSION;
  const name = archiveName(version, target);
  const entries = archiveEntries(binary, target, version);
  const bytes =
    target.os === "win32"
      ? zipFiles(entries, archiveTime(), options.level)
      : tarGzFiles(entries, archiveTime(), options.level);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, name), bytes);
  return name;
}

/**
 * SHA256SUMS over every archive in `dir` (sorted, `sha256sum -c` format), VERSION, and
 * install.sh: the release directory holds what the install URL points at (…/download/install.sh),
 * as the release workflow uploads it.
 */
export function writeChecksums(dir: string, version = VERSION): string {
  const archives = readdirSync(dir)
    .filter((f) => f.startsWith(`mcp-contract-${version}-`) && (f.endsWith(".tar.gz") || f.endsWith(".zip")))
    .sort();
  if (archives.length === 0) throw new Error(`no mcp-contract ${version} archives in ${dir}`);
  const lines = archives.map((f) => `${sha256(join(dir, f))}  ${f}`);
  writeFileSync(join(dir, "SHA256SUMS"), `${lines.join("\n")}\n`);
  writeFileSync(join(dir, "VERSION"), `${version}\n`);
  copyFileSync(join(ROOT, "install.sh"), join(dir, "install.sh"));
  return join(dir, "SHA256SUMS");
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function buildTargets(
  targets: readonly Target[],
  outDir: string,
  options: { sign: boolean; level?: number; prebuilt?: string },
): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const staging = join(outDir, ".staging");
  console.log(`mcp-contract ${VERSION}: ${targets.length} target${targets.length === 1 ? "" : "s"} → ${outDir}`);
  console.log(`${"target".padEnd(22)} ${"binary".padStart(10)} ${"archive".padStart(10)}  file`);
  try {
    for (const target of targets) {
      let binary = options.prebuilt;
      if (!binary) {
        binary = join(staging, target.name, exeName(target));
        await compile(binary, target.bun);
      }
      if (options.sign && target.os === "darwin") await adHocSign(binary);
      const archive = writeArchive(binary, target, outDir, { level: options.level });
      const sizes = [statSync(binary).size, statSync(join(outDir, archive)).size].map((n) => mib(n).padStart(10));
      console.log(`${target.name.padEnd(22)} ${sizes.join(" ")}  ${archive}`);
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  if (i === -1) return undefined;
  const value = process.argv[i + 1];
  if (value === undefined || value.startsWith("--")) throw new Error(`${name} needs a value`);
  return value;
}

async function main(): Promise<void> {
  const has = (name: string) => process.argv.includes(name);
  const out = flag("--out");
  const level = flag("--level") === undefined ? undefined : Number(flag("--level"));
  const prebuilt = flag("--package");
  const names = flag("--targets");
  if (has("--all") || names || prebuilt) {
    const outDir = out ?? join("dist", "release");
    const targets = has("--all") ? TARGETS : (names ?? "").split(",").filter(Boolean).map(findTarget);
    if (prebuilt && targets.length !== 1) throw new Error("--package BINARY needs exactly one --targets NAME");
    if (prebuilt && !existsSync(prebuilt)) throw new Error(`--package: no such file ${prebuilt}`);
    if (has("--all")) rmSync(outDir, { recursive: true, force: true });
    await buildTargets(targets, outDir, { sign: has("--sign"), level, prebuilt });
    if (has("--all") || has("--sums")) console.log(`wrote ${writeChecksums(outDir)}`);
  } else if (has("--sums")) {
    console.log(`wrote ${writeChecksums(out ?? join("dist", "release"))}`);
  } else {
    const outDir = out ?? "dist";
    const file = join(outDir, process.platform === "win32" ? "mcp-contract.exe" : "mcp-contract");
    await compile(resolve(file));
    console.log(`built ${file} (${mib(statSync(file).size)})`);
  }
}

if (import.meta.main) await main();
