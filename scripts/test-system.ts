/**
 * The system tier (tests/system): the tests that need programs outside Node.js and npm —
 * shellcheck, the shells the completions and install.sh target, Ruby for the Homebrew formula,
 * the download and archive tools install.sh uses. Run against the built binary.
 *
 * Outside CI, a missing program skips the tier with one line naming the install command, so a
 * fresh clone's `npm test` stays green with only Node.js and npm. In CI (CI is set) a missing
 * program fails the run: .ci/run installs them all first.
 *
 *   bun scripts/test-system.ts [bun test options…]
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
/** Each program the tier needs, and the Debian package that brings it. */
export const SYSTEM_TOOLS: Record<string, string> = {
  shellcheck: "shellcheck",
  bash: "bash",
  zsh: "zsh",
  fish: "fish",
  dash: "dash",
  ruby: "ruby",
  curl: "curl",
  wget: "wget",
  unzip: "unzip",
  tar: "tar",
  sha256sum: "coreutils",
};

const missing = Object.keys(SYSTEM_TOOLS).filter((tool) => !Bun.which(tool));
if (missing.length > 0) {
  const packages = [...new Set(missing.map((tool) => SYSTEM_TOOLS[tool]))].join(" ");
  const install = `sudo apt-get install -y ${packages}`;
  if (process.env.CI) {
    console.error(`system tier: ${missing.join(", ")} not installed; CI needs them all (${install}).`);
    process.exit(1);
  }
  console.log(`skipped the system tier (tests/system): ${missing.join(", ")} not installed; to run it: ${install}`);
  process.exit(0);
}

const bin = join(ROOT, "dist", process.platform === "win32" ? "mcp-contract.exe" : "mcp-contract");
if (!existsSync(bin)) {
  const build = Bun.spawnSync(["bun", "scripts/build.ts"], { cwd: ROOT, stdio: ["inherit", "inherit", "inherit"] });
  if (build.exitCode !== 0) process.exit(build.exitCode ?? 1);
}
const run = Bun.spawnSync(["bun", "test", "--timeout", "60000", ...process.argv.slice(2), "tests/system"], {
  cwd: ROOT,
  env: { ...process.env, MCP_CONTRACT_BIN: "dist/mcp-contract" },
  stdio: ["inherit", "inherit", "inherit"],
});
process.exit(run.exitCode ?? 1);
