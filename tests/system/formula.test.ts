/**
 * The Homebrew formula generator: the formula parses (ruby -c), and evaluated with a stand-in
 * for Homebrew's DSL on each of its four platforms it names the right release archive and that
 * archive's checksum from SHA256SUMS, installs the binary and the completions, and has a test.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { FORMULA_PLATFORMS, parseSums, renderFormula } from "../../scripts/formula.ts";
import { archiveName, COMPLETION_FILES, RELEASE_BASE_URL, TARGETS } from "../../scripts/release-config.ts";
import { cleanupTempDirs, requireTool, run, tempDir } from "../e2e/ship-helpers.ts";

afterAll(cleanupTempDirs);

const VERSION = "1.2.3";
const shaOf = (name: string) => new Bun.CryptoHasher("sha256").update(name).digest("hex");
const SUMS = TARGETS.map((t) => `${shaOf(archiveName(VERSION, t))}  ${archiveName(VERSION, t)}`).join("\n");

/** Homebrew's formula DSL, enough to evaluate a formula on one platform and print what it would fetch. */
const STAND_IN = `
$os, $cpu, $path = ARGV
class Formula
  def self.desc(v) = @desc = v
  def self.homepage(v) = nil
  def self.version(v) = @version = v
  def self.license(v) = nil
  def self.url(v) = (@url = v)
  def self.sha256(v) = (@sha = v)
  def self.on_macos = ($os == "macos" ? yield : nil)
  def self.on_linux = ($os == "linux" ? yield : nil)
  def self.on_arm = ($cpu == "arm" ? yield : nil)
  def self.on_intel = ($cpu == "intel" ? yield : nil)
  def self.test(&block) = (@test = block)
  def self.report = puts("#{@url} #{@sha} #{@url[/-([0-9.]+)-[a-z]/, 1]} #{@test ? "test" : "no-test"} #{method_defined?(:install)}")
end
load $path
McpContract.report
`;

describe("the Homebrew formula", () => {
  const formula = renderFormula({ version: VERSION, sums: parseSums(SUMS) });

  test("parses as Ruby", async () => {
    requireTool("ruby");
    const file = join(tempDir(), "mcp-contract.rb");
    writeFileSync(file, formula);
    const result = await run(["ruby", "-c", file]);
    expect(result.stdout.trim()).toBe("Syntax OK");
    expect(result.code).toBe(0);
  });

  test("names, on each platform, the real archive and its checksum from SHA256SUMS", async () => {
    requireTool("ruby");
    const dir = tempDir();
    writeFileSync(join(dir, "mcp-contract.rb"), formula);
    writeFileSync(join(dir, "stand-in.rb"), STAND_IN);
    for (const platform of FORMULA_PLATFORMS) {
      const result = await run([
        "ruby",
        join(dir, "stand-in.rb"),
        platform.os,
        platform.cpu,
        join(dir, "mcp-contract.rb"),
      ]);
      expect(result.stderr).toBe("");
      const target = TARGETS.find((t) => t.name === platform.target)!;
      const name = archiveName(VERSION, target);
      const [url, sha, version, testBlock, install] = result.stdout.trim().split(" ");
      expect({ platform: platform.target, url, sha, version, testBlock, install }).toEqual({
        platform: platform.target,
        url: `${RELEASE_BASE_URL}/v${VERSION}/${name}`,
        sha: shaOf(name),
        version: VERSION,
        testBlock: "test",
        install: "true",
      });
    }
  });

  test("has no version line: Homebrew scans it from the URLs (brew audit --strict calls one redundant)", () => {
    expect(formula).not.toMatch(/^\s*version\s/m);
  });

  test("installs the binary and the completion scripts the archives hold, and has a test block", () => {
    expect(formula).toContain('bin.install "mcp-contract"');
    expect(formula).toContain(`bash_completion.install "completions/${COMPLETION_FILES.bash}" => "mcp-contract"`);
    expect(formula).toContain(`zsh_completion.install "completions/${COMPLETION_FILES.zsh}"`);
    expect(formula).toContain(`fish_completion.install "completions/${COMPLETION_FILES.fish}"`);
    expect(formula).toMatch(
      /test do\n {4}assert_match version\.to_s, shell_output\("#\{bin\}\/mcp-contract --version"\)/,
    );
    expect(formula).toContain('license "MIT"');
  });

  test("MCP_CONTRACT_BASE_URL (or base) moves the downloads, and a missing archive is an error", () => {
    const moved = renderFormula({ version: VERSION, sums: parseSums(SUMS), base: "http://127.0.0.1:9/rel" });
    expect(moved).toContain(`url "http://127.0.0.1:9/rel/v${VERSION}/mcp-contract-${VERSION}-darwin-arm64.tar.gz"`);
    const partial = parseSums(
      SUMS.split("\n")
        .filter((l) => !l.includes("linux-arm64.tar.gz"))
        .join("\n"),
    );
    expect(() => renderFormula({ version: VERSION, sums: partial })).toThrow(
      `SHA256SUMS has no line for mcp-contract-${VERSION}-linux-arm64.tar.gz`,
    );
    expect(() => parseSums("abc  file\n")).toThrow('SHA256SUMS line 1 is not "<sha256>  <file>"');
  });
});
