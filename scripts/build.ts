/**
 * Build the mcp-contract executable(s) with `bun build --compile`.
 *   bun scripts/build.ts            host binary at dist/mcp-contract
 *   bun scripts/build.ts --all      every release target, archived, plus dist/SHA256SUMS
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { VERSION } from "../src/version.ts";
import { zipSingleFile } from "./zip.ts";

const TARGETS = [
  { name: "linux-x64", bun: "bun-linux-x64" },
  { name: "linux-x64-musl", bun: "bun-linux-x64-musl" },
  { name: "linux-arm64", bun: "bun-linux-arm64" },
  { name: "linux-arm64-musl", bun: "bun-linux-arm64-musl" },
  { name: "darwin-x64", bun: "bun-darwin-x64" },
  { name: "darwin-arm64", bun: "bun-darwin-arm64" },
  { name: "windows-x64", bun: "bun-windows-x64" },
] as const;

const DIST = "dist";

async function compile(outfile: string, target?: string): Promise<void> {
  const args = ["build", "--compile", "--minify", "--bytecode", "--format=esm", "main.ts", "--outfile", outfile];
  if (target) args.push(`--target=${target}`);
  const proc = Bun.spawn([process.execPath, ...args], { stdout: "pipe", stderr: "pipe" });
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  if (code !== 0) throw new Error(`bun build failed for ${target ?? "host"}:\n${stderr}`);
}

async function run(cmd: string[], cwd: string): Promise<void> {
  const proc = Bun.spawn(cmd, { cwd, stdout: "inherit", stderr: "inherit" });
  if ((await proc.exited) !== 0) throw new Error(`${cmd.join(" ")} failed`);
}

function sha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function buildAll(): Promise<void> {
  const release = join(DIST, "release");
  rmSync(release, { recursive: true, force: true });
  mkdirSync(release, { recursive: true });
  const sums: string[] = [];
  console.log(`mcp-contract ${VERSION}: building ${TARGETS.length} targets`);
  console.log(`${"target".padEnd(18)} ${"binary".padStart(10)} ${"archive".padStart(10)}  file`);
  for (const target of TARGETS) {
    const stem = `mcp-contract-${VERSION}-${target.name}`;
    const staging = join(release, stem);
    mkdirSync(staging, { recursive: true });
    const exe = target.name.startsWith("windows") ? "mcp-contract.exe" : "mcp-contract";
    await compile(join(staging, exe), target.bun);
    let archive: string;
    if (target.name.startsWith("windows")) {
      archive = `${stem}.zip`;
      writeFileSync(join(release, archive), zipSingleFile(join(staging, exe), `${stem}/${exe}`));
    } else {
      archive = `${stem}.tar.gz`;
      await run(["tar", "-czf", archive, stem], release);
    }
    const binSize = statSync(join(staging, exe)).size;
    const archiveSize = statSync(join(release, archive)).size;
    console.log(`${target.name.padEnd(18)} ${mib(binSize).padStart(10)} ${mib(archiveSize).padStart(10)}  ${archive}`);
    sums.push(`${sha256(join(release, archive))}  ${archive}`);
    rmSync(staging, { recursive: true, force: true });
  }
  writeFileSync(join(release, "SHA256SUMS"), `${sums.join("\n")}\n`);
  console.log(`wrote ${join(release, "SHA256SUMS")}`);
}

if (process.argv.includes("--all")) {
  await buildAll();
} else {
  mkdirSync(DIST, { recursive: true });
  const out = join(DIST, process.platform === "win32" ? "mcp-contract.exe" : "mcp-contract");
  await compile(out);
  console.log(`built ${out} (${mib(statSync(out).size)})`);
}
