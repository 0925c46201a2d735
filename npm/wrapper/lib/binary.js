// Where the mcp-contract binary of this platform is: inside the optional dependency
// @mcp-contract/<os>-<cpu>[-musl] that npm installed beside this package (the pattern
// esbuild, Biome and Bun use, so nothing is downloaded at install time).
import { accessSync, chmodSync, constants, existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The scope of the platform packages. */
export const SCOPE = "@mcp-contract";

function isMusl() {
  if (process.platform !== "linux") return false;
  for (const dir of ["/lib", "/usr/lib"]) {
    try {
      if (readdirSync(dir).some((f) => f.startsWith("ld-musl-"))) return true;
    } catch {
      // no such directory
    }
  }
  const report = process.report?.getReport?.();
  return report ? !report.header?.glibcVersionRuntime : false;
}

/** The platform package for this machine, e.g. @mcp-contract/linux-x64-musl. */
export function platformPackage() {
  return `${SCOPE}/${process.platform}-${process.arch}${isMusl() ? "-musl" : ""}`;
}

/** The absolute path of the binary; MCP_CONTRACT_BINARY overrides it. Throws a message that says what to do. */
export function binaryPath() {
  const override = process.env.MCP_CONTRACT_BINARY;
  if (override) {
    if (!existsSync(override)) throw new Error(`MCP_CONTRACT_BINARY=${override}: no such file`);
    return override;
  }
  const pkg = platformPackage();
  const exe = process.platform === "win32" ? "mcp-contract.exe" : "mcp-contract";
  let path;
  try {
    path = require.resolve(`${pkg}/bin/${exe}`);
  } catch {
    throw new Error(
      `the mcp-contract binary for this platform (${process.platform} ${process.arch}) is missing: its package ${pkg} was not installed. ` +
        "It is an optional dependency of mcp-contract, so an install with --no-optional or --omit=optional leaves it out, " +
        "and a lockfile made on another platform may lack it: reinstall (npm install mcp-contract), " +
        "or install the binary directly (see the install section of the README).",
    );
  }
  if (process.platform !== "win32") {
    try {
      accessSync(path, constants.X_OK);
    } catch {
      // Some package managers drop the executable bit; put it back.
      chmodSync(path, 0o755);
    }
  }
  return path;
}
