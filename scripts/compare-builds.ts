/**
 * Behaviour check for refactors: runs two builds over every fixture lockfile and every
 * consecutive pair of one server's releases, in every report format, and prints each command
 * whose stdout, stderr or exit code differs. Exit 0 when every output is the same, 1 otherwise.
 *
 *   bun scripts/compare-builds.ts --old /tmp/old/mcp-contract --new dist/mcp-contract
 *   bun scripts/compare-builds.ts --old A --new B --only lint     # lint, diff, hosts or rules
 *   bun scripts/compare-builds.ts --old A --new B --show 3        # the first 3 differences in full
 *
 * Commands run from the repository root with the paths as given here, so the two builds see
 * the same arguments; timings in text output ("in 0.4 s") are masked before comparing.
 */
import { readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const FIXTURES = join(ROOT, "tests/fixtures");
/** Folders of real lockfiles, each file named NAME-VERSION or NAME@VERSION. */
const FOLDERS = ["published", "published-pairs", "benign", "benign-upgrades", "poisoned", "peers"];
const DIFF_FORMATS = ["text", "json", "sarif", "markdown", "junit", "github", "changelog"];
const LINT_FORMATS = ["text", "json", "sarif", "markdown", "junit", "github"];

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

const oldBin = flag("--old");
const newBin = flag("--new");
if (!oldBin || !newBin) {
  console.error("usage: bun scripts/compare-builds.ts --old BIN --new BIN [--only lint|diff|hosts|rules] [--show N]");
  process.exit(2);
}
const only = flag("--only");
const show = Number(flag("--show") ?? "1");

/** Every lockfile of the fixture folders, as paths relative to the root. */
function lockfiles(): string[] {
  const out: string[] = [];
  for (const folder of FOLDERS) {
    const dir = join(FIXTURES, folder);
    for (const name of readdirSync(dir).sort()) {
      if (name.endsWith(".json") || name.endsWith(".lock")) out.push(relative(ROOT, join(dir, name)));
    }
  }
  return out;
}

/** The server a lockfile belongs to and its version: "filesystem-2025.8.21" → ["filesystem", "2025.8.21"]. */
function nameAndVersion(path: string): [string, string] | undefined {
  const base = path.split("/").pop() as string;
  const stem = base.replace(/\.(contract\.json|json|lock)$/, "").replace(/\.(mcp-covenant|mcp-query)$/, "");
  const match = /^(.+?)[-@](\d[\w.-]*)$/.exec(stem);
  return match ? [match[1] as string, match[2] as string] : undefined;
}

/** Consecutive releases of each server, across folders, in version order. */
function pairs(files: string[]): [string, string][] {
  const byServer = new Map<string, { file: string; version: string }[]>();
  for (const file of files) {
    if (file.endsWith(".lock") || file.includes(".mcp-query.")) continue; // peer formats: linted, not paired
    const nv = nameAndVersion(file);
    if (!nv) continue;
    const list = byServer.get(nv[0]) ?? [];
    list.push({ file, version: nv[1] });
    byServer.set(nv[0], list);
  }
  const out: [string, string][] = [];
  for (const list of byServer.values()) {
    list.sort((a, b) => a.version.localeCompare(b.version, "en", { numeric: true }));
    for (let i = 1; i < list.length; i++) out.push([list[i - 1]!.file, list[i]!.file]);
  }
  return out;
}

function commands(): string[][] {
  const files = lockfiles();
  const out: string[][] = [];
  if (!only || only === "rules") {
    out.push(["rules"], ["rules", "--format", "json"]);
  }
  if (!only || only === "lint") {
    for (const file of files) for (const format of LINT_FORMATS) out.push(["lint", "--from", file, "--format", format]);
  }
  if (!only || only === "hosts") {
    // The host lens: lint and diff with every profile (its findings, summary and drift).
    for (const file of files)
      for (const format of LINT_FORMATS) out.push(["lint", "--from", file, "--format", format, "--hosts", "all"]);
    for (const [a, b] of pairs(files))
      for (const format of ["text", "json"]) out.push(["diff", a, b, "--format", format, "--hosts", "all"]);
  }
  if (!only || only === "diff") {
    for (const [a, b] of pairs(files)) {
      for (const format of DIFF_FORMATS) {
        out.push(["diff", a, b, "--format", format]);
        out.push(["diff", b, a, "--format", format]);
      }
    }
  }
  return out;
}

const mask = (text: string) => text.replace(/\bin \d+(\.\d+)? m?s\b/g, "in # s");

function runOnce(bin: string, args: string[]) {
  const proc = Bun.spawnSync([bin, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" } });
  return { code: proc.exitCode, out: mask(proc.stdout.toString()), err: mask(proc.stderr.toString()) };
}

let differing = 0;
const all = commands();
for (const args of all) {
  const a = runOnce(oldBin, args);
  const b = runOnce(newBin, args);
  if (a.code === b.code && a.out === b.out && a.err === b.err) continue;
  differing++;
  console.log(`differs: mcp-contract ${args.join(" ")}  (exit ${a.code} → ${b.code})`);
  if (differing <= show) {
    for (const [label, x, y] of [
      ["stdout", a.out, b.out],
      ["stderr", a.err, b.err],
    ] as const) {
      if (x === y) continue;
      const xs = x.split("\n");
      const ys = y.split("\n");
      const at = xs.findIndex((line, i) => line !== ys[i]);
      console.log(
        `  ${label}, first difference at line ${at + 1}:\n  - ${xs[at] ?? "(end)"}\n  + ${ys[at] ?? "(end)"}`,
      );
    }
  }
}
console.log(`${all.length} commands, ${differing} with different output`);
process.exit(differing === 0 ? 0 : 1);
