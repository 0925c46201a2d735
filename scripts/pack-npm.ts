/**
 * The npm packages, in the pattern esbuild, Biome and Bun use: a small wrapper package,
 * `mcp-contract` (the `npx mcp-contract` launcher and the programmatic API), plus one package
 * per platform holding the binary (`@mcp-contract/linux-x64`, …), each limited by os/cpu/libc
 * so that npm installs only the one that fits. Nothing is downloaded at install time.
 *
 *   bun scripts/pack-npm.ts                      wrapper + this platform's package (binary compiled now)
 *   bun scripts/pack-npm.ts --binary PATH        … with an already built host binary
 *   bun scripts/pack-npm.ts --release DIR        wrapper + every platform, from the release archives in DIR
 *   --out DIR                                    where the tarballs go (default dist/npm)
 *
 * (npm run pack:npm.) Publishing is `npm publish` of each tarball, the platform packages first
 * (the release workflow does it).
 */
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { VERSION } from "../src/version.ts";
import { compile } from "./build.ts";
import {
  archiveName,
  archiveStem,
  exeName,
  hostTarget,
  NPM_SCOPE,
  NPM_WRAPPER,
  RELEASE_REPOSITORY,
  TARGETS,
  type Target,
} from "./release-config.ts";

const ROOT = resolve(import.meta.dir, "..");

/** The platforms npm gets: every target but the -baseline builds (install.sh serves those). */
export const NPM_TARGETS = TARGETS.filter((t) => !t.baseline);

/** @mcp-contract/linux-x64, @mcp-contract/linux-x64-musl, @mcp-contract/win32-x64, … (os as Node names it). */
export function platformPackageName(target: Target): string {
  return `${NPM_SCOPE}/${target.os}-${target.cpu}${target.libc === "musl" ? "-musl" : ""}`;
}

const repository = { type: "git", url: `git+https://github.com/${RELEASE_REPOSITORY}.git` };

export function platformManifest(target: Target, version = VERSION): Record<string, unknown> {
  const libc = target.libc ? ` (${target.libc})` : "";
  return {
    name: platformPackageName(target),
    version,
    description: `The ${target.os} ${target.cpu}${libc} binary of mcp-contract`,
    license: "MIT",
    repository,
    os: [target.os],
    cpu: [target.cpu],
    ...(target.libc ? { libc: [target.libc] } : {}),
    files: ["bin/", "README.md", "LICENSE"],
    preferUnplugged: true,
  };
}

export function wrapperManifest(version = VERSION): Record<string, unknown> {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { description: string };
  return {
    name: NPM_WRAPPER,
    version,
    description: pkg.description,
    license: "MIT",
    repository,
    homepage: `https://github.com/${RELEASE_REPOSITORY}#readme`,
    keywords: ["mcp", "model-context-protocol", "contract", "lockfile", "breaking-changes", "ci", "json-schema"],
    type: "module",
    bin: { "mcp-contract": "bin/mcp-contract.js" },
    main: "./dist/api.js",
    types: "./dist/types/api/index.d.ts",
    exports: {
      ".": { types: "./dist/types/api/index.d.ts", default: "./dist/api.js" },
      "./binary": { types: "./lib/binary.d.ts", default: "./lib/binary.js" },
      "./package.json": "./package.json",
    },
    files: ["bin/", "lib/", "dist/", "README.md", "LICENSE"],
    // 20.16: the API hashes items with node:crypto, reached through process.getBuiltinModule (src/contract/hashes.ts).
    engines: { node: ">=20.16" },
    optionalDependencies: Object.fromEntries(NPM_TARGETS.map((t) => [platformPackageName(t), version])),
  };
}

async function run(cmd: string[], cwd = ROOT): Promise<string> {
  const proc = Bun.spawn(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  const [code, stdout, stderr] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} failed (exit ${code}):\n${stderr}${stdout}`);
  return stdout;
}

function writeJson(path: string, data: unknown): void {
  writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`);
}

/** The API as Node ESM: one entry, with the SDK (capture) and the witness validator in lazily loaded chunks. */
async function bundleApi(outDir: string): Promise<void> {
  await run([
    process.execPath,
    "build",
    "src/api/index.ts",
    "--target=node",
    "--format=esm",
    "--splitting",
    "--outdir",
    outDir,
    "--entry-naming",
    "api.js",
    "--chunk-naming",
    "chunks/[name]-[hash].js",
  ]);
}

const SPECIFIER = /(\bfrom\s+|\bimport\s*\(\s*)(["'])(\.{1,2}\/[^"']+?)\.ts\2/g;

/**
 * TypeScript declarations of the API: emitted by tsc from src/api/index.ts, import paths rewritten
 * from .ts to .js, and only the files api/index.d.ts reaches kept (the CLI's are left out).
 */
async function declarations(outDir: string, scratch: string): Promise<void> {
  const emitted = join(scratch, "types");
  const tsconfig = join(scratch, "tsconfig.json");
  writeJson(tsconfig, {
    extends: join(ROOT, "tsconfig.json"),
    compilerOptions: {
      noEmit: false,
      declaration: true,
      emitDeclarationOnly: true,
      outDir: emitted,
      rootDir: join(ROOT, "src"),
      // The tree's own types (Bun's globals), found from here: the scratch directory has no
      // node_modules, and without them every use of Bun would be reported as a type error.
      types: ["bun"],
      typeRoots: [join(ROOT, "node_modules/@types")],
    },
    include: [],
    files: [join(ROOT, "src/api/index.ts")],
  });
  // Type errors elsewhere in the tree are `npm run typecheck`'s to report; what matters here is
  // that the declarations could be emitted (TS4xxx: a type that cannot be named, and the like).
  const tsc = Bun.spawnSync([join(ROOT, "node_modules/.bin/tsc"), "-p", tsconfig], { cwd: ROOT });
  const diagnostics = `${tsc.stdout.toString()}${tsc.stderr.toString()}`;
  const fatal = diagnostics
    .split("\n")
    .filter((line) => /error TS(2742|2527|2883|4\d{3}|5\d{3}|6\d{3}|9\d{3}):/.test(line));
  if (fatal.length || !existsSync(join(emitted, "api/index.d.ts"))) {
    throw new Error(`tsc could not emit the API's declarations:\n${diagnostics}`);
  }
  if (tsc.exitCode !== 0) {
    console.log(`note: tsc reports type errors elsewhere (run npm run typecheck); the declarations were emitted`);
  }
  const queue = ["api/index.d.ts"];
  const kept = new Set<string>();
  while (queue.length) {
    const file = queue.pop() as string;
    if (kept.has(file)) continue;
    kept.add(file);
    const text = readFileSync(join(emitted, file), "utf8");
    for (const m of text.matchAll(SPECIFIER)) {
      queue.push(relative(emitted, resolve(dirname(join(emitted, file)), `${m[3]}.d.ts`)));
    }
    const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    const bare = [...code.matchAll(/\b(?:from\s+|import\s*\(\s*)["']([^./"'][^"']*)["']/g)].map((x) => x[1]);
    if (bare.length) throw new Error(`${file} imports ${bare.join(", ")}: the API's types must stand alone`);
    const out = join(outDir, file);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(
      out,
      text.replace(SPECIFIER, (_, head, quote, path) => `${head}${quote}${path}.js${quote}`),
    );
  }
}

function copyDocs(dir: string, readme: string): void {
  writeFileSync(join(dir, "README.md"), readme);
  copyFileSync(join(ROOT, "LICENSE"), join(dir, "LICENSE"));
}

/** npm pack a staged directory into outDir; returns the tarball's path. */
async function npmPack(dir: string, outDir: string): Promise<string> {
  const out = await run(["npm", "pack", "--json", "--ignore-scripts", "--pack-destination", outDir], dir);
  const [info] = JSON.parse(out) as { filename: string }[];
  return join(outDir, (info as { filename: string }).filename);
}

export async function stageWrapper(dir: string, scratch: string, version = VERSION): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(ROOT, "npm/wrapper/bin"), join(dir, "bin"), { recursive: true });
  cpSync(join(ROOT, "npm/wrapper/lib"), join(dir, "lib"), { recursive: true });
  chmodSync(join(dir, "bin/mcp-contract.js"), 0o755);
  await bundleApi(join(dir, "dist"));
  await declarations(join(dir, "dist/types"), scratch);
  writeJson(join(dir, "package.json"), wrapperManifest(version));
  copyDocs(dir, readFileSync(join(ROOT, "npm/wrapper/README.md"), "utf8"));
}

export function stagePlatform(dir: string, target: Target, binary: string, version = VERSION): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "bin"), { recursive: true });
  const exe = join(dir, "bin", exeName(target));
  copyFileSync(binary, exe);
  chmodSync(exe, 0o755);
  writeJson(join(dir, "package.json"), platformManifest(target, version));
  const platform = `${target.os} ${target.cpu}${target.libc ? ` (${target.libc})` : ""}`;
  copyDocs(
    dir,
    readFileSync(join(ROOT, "npm/platform/README.md"), "utf8")
      .replaceAll("{{name}}", platformPackageName(target))
      .replaceAll("{{platform}}", platform),
  );
}

/** Take one target's binary out of its release archive (tar or unzip, as the release runner has). */
async function binaryFromRelease(
  releaseDir: string,
  target: Target,
  scratch: string,
  version: string,
): Promise<string> {
  const archive = join(releaseDir, archiveName(version, target));
  const into = join(scratch, "extract", target.name);
  mkdirSync(into, { recursive: true });
  if (archive.endsWith(".zip")) await run(["unzip", "-q", "-o", archive, "-d", into]);
  else await run(["tar", "-xzf", archive, "-C", into]);
  return join(into, archiveStem(version, target), exeName(target));
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

async function main(): Promise<void> {
  const outDir = resolve(option("--out") ?? "dist/npm");
  const releaseDir = option("--release");
  const version = VERSION;
  mkdirSync(outDir, { recursive: true });
  const scratch = join(outDir, ".staging");
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    const packed: string[] = [];
    const wrapperDir = join(scratch, "wrapper");
    await stageWrapper(wrapperDir, scratch, version);
    packed.push(await npmPack(wrapperDir, outDir));

    let platforms: { target: Target; binary: string }[];
    if (releaseDir) {
      platforms = [];
      for (const target of NPM_TARGETS) {
        platforms.push({ target, binary: await binaryFromRelease(releaseDir, target, scratch, version) });
      }
    } else {
      const target = hostTarget();
      let binary = option("--binary");
      if (!binary) {
        binary = join(scratch, "host", exeName(target));
        await compile(binary);
      }
      platforms = [{ target, binary }];
    }
    for (const { target, binary } of platforms) {
      const dir = join(scratch, target.name);
      stagePlatform(dir, target, binary, version);
      packed.push(await npmPack(dir, outDir));
    }
    for (const file of packed) console.log(`packed ${relative(process.cwd(), file)}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const stale = readdirSync(outDir).filter((f) => f.endsWith(".tgz") && !f.includes(`-${version}.tgz`));
  if (stale.length) console.log(`note: ${outDir} also holds older tarballs: ${stale.join(", ")}`);
}

if (import.meta.main) await main();
