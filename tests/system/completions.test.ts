/**
 * `mcp-contract completions SHELL`, loaded into the real shells (bash, zsh, fish): each script
 * loads without a message (twice, as a re-sourced rc file does) and completes a command, a
 * flag's value and a rule id by calling the shipped binary. zsh is driven through its line
 * editor in a pseudo-terminal (zpty), fish through `complete -C`, bash through its
 * completion variables. PowerShell is not packaged for Debian, so its script is checked as text
 * (tests/unit/cli/completions.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { binaryOnPath, cleanupTempDirs, requireTool, run, shippedBinary, tempDir } from "../e2e/ship-helpers.ts";

afterAll(cleanupTempDirs);

let pathDir: string;
let scripts: Record<"bash" | "zsh" | "fish", string>;

beforeAll(async () => {
  pathDir = await binaryOnPath();
  const dir = tempDir();
  const bin = await shippedBinary();
  scripts = {
    bash: join(dir, "mcp-contract.bash"),
    zsh: join(dir, "_mcp-contract"),
    fish: join(dir, "mcp-contract.fish"),
  };
  for (const shell of ["bash", "zsh", "fish"] as const) {
    const result = await run([bin, "completions", shell]);
    expect(result.code).toBe(0);
    writeFileSync(scripts[shell], result.stdout);
  }
}, 120_000);

const env = () => ({ PATH: `${pathDir}:${process.env.PATH}`, HOME: tempDir() });

describe("bash", () => {
  test("loads (twice) and completes commands, values after = and rule ids", async () => {
    requireTool("bash");
    const script = `
source "${scripts.bash}" && source "${scripts.bash}" || exit 9
complete -p mcp-contract
c() { COMP_WORDS=("$@"); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 )); COMP_LINE="$*"; COMP_POINT=\${#COMP_LINE}; COMPREPLY=(); _mcp_contract; echo "\${COMPREPLY[*]}"; }
c mcp-contract sn
c mcp-contract check --fail-on =
c mcp-contract check --fail-on = mi
c mcp-contract rules enum-value-ad
c mcp-contract diff "${scripts.bash.slice(0, -3)}"
`;
    const result = await run(["bash", "--norc", "--noprofile", "-c", script], { env: env() });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")).toEqual([
      "complete -F _mcp_contract mcp-contract",
      "snapshot",
      "breaking minor patch never",
      "minor",
      "enum-value-added",
      scripts.bash,
      "",
    ]);
  });
});

describe("zsh", () => {
  test("loads after compinit and completes in the line editor", async () => {
    requireTool("zsh");
    const out = join(tempDir(), "buffers");
    // An interactive zsh in a pseudo-terminal; a widget on ^X appends the edited line to `out`.
    const driver = `
zmodload zsh/zpty || exit 9
zpty z zsh -f -i
zpty -w z 'PS1=""; RPS1=""; autoload -U compinit; compinit -u -D; source "${scripts.zsh}"; source "${scripts.zsh}"; zstyle ":completion:*" menu no'
zpty -w z 'dump() { print -r -- "$BUFFER" >> "${out}"; BUFFER=""; }; zle -N dump; bindkey "^X" dump; print RE""ADY'
zpty -r z line '*READY*'
n=0
for text in "$@"; do
  zpty -n -w z "$text"$'\\t'
  sleep 0.3
  zpty -n -w z $'\\x18'
  (( n++ ))
  for i in {1..100}; do
    [[ -f "${out}" && $(wc -l < "${out}") -ge $n ]] && break
    sleep 0.1
  done
done
zpty -d z
`;
    const lines = [
      "mcp-contract sn",
      "mcp-contract check --fail-on=mi",
      "mcp-contract rules enum-value-ad",
      "mcp-contract comp",
    ];
    const result = await run(["zsh", "-f", "-c", driver, "zsh", ...lines], { env: env(), timeoutMs: 60_000 });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect((await Bun.file(out).text()).split("\n")).toEqual([
      "mcp-contract snapshot ",
      "mcp-contract check --fail-on=minor ",
      "mcp-contract rules enum-value-added ",
      "mcp-contract completions ",
      "",
    ]);
  }, 60_000);

  test("says what to do when compinit was not run", async () => {
    requireTool("zsh");
    const result = await run(["zsh", "-f", "-c", `source "${scripts.zsh}"`], { env: env() });
    expect(result.stderr).toContain("run 'autoload -U compinit && compinit' before loading them");
  });
});

describe("fish", () => {
  test("loads (twice) and completes commands, values and rule ids", async () => {
    requireTool("fish");
    const script = `
source "${scripts.fish}"; source "${scripts.fish}"
complete -C "mcp-contract sn"
complete -C "mcp-contract check --fail-on "
complete -C "mcp-contract lint --fail-on=w"
complete -C "mcp-contract rules enum-value-ad"
`;
    const result = await run(["fish", "--no-config", "-c", script], { env: env() });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")).toEqual([
      "snapshot\tcapture a server's surface into a contract lockfile",
      "breaking",
      "minor",
      "never",
      "patch",
      "--fail-on=warning",
      "enum-value-added\ta value was added to an enum",
      "",
    ]);
  });
});
