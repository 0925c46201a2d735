/**
 * Client config files end to end, against real fixture servers: `--server` found by walking
 * up, `snapshot --all` (two stdio servers and one Streamable HTTP server → three lockfiles),
 * `check --all` (one section per server; a changed server fails the run; an unreachable one
 * exits 3 while the others are still checked), and the names of the environment variables
 * and headers a capture was given, with the note when a check's names differ.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseReport } from "./contract-builders.ts";
import { BUN, expectCleanFailure, FIXTURE_SERVER, listDir, runCli, startHttpFixture, tempDir } from "./e2e-helpers.ts";

const TOKEN = "web-s3cret-token";
const tool = (name: string, required: string[] = []) => ({
  name,
  description: `The ${name} tool`,
  inputSchema: { type: "object", properties: { q: { type: "string" }, n: { type: "integer" } }, required },
});

let web: { url: string; stop: () => Promise<void> };
let root: string;
let work: string;
let alphaFile: string;

/** The fixture's config for the stdio server "alpha", read at each start: tests change it. */
function setAlpha(tools: object[]): void {
  writeFileSync(alphaFile, JSON.stringify({ tools, serverInfo: { name: "alpha", version: "1.0.0" } }));
}

beforeAll(async () => {
  web = await startHttpFixture({
    tools: [tool("browse")],
    bearer: TOKEN,
    serverInfo: { name: "web", version: "2.0.0" },
  });
  root = tempDir("mcp-contract-configs-");
  work = join(root, "packages", "app");
  mkdirSync(work, { recursive: true });
  alphaFile = join(root, "alpha.json");
  setAlpha([tool("search"), tool("fetch")]);
  const stdio = (env: Record<string, string>) => ({ command: BUN, args: [FIXTURE_SERVER], env });
  // A server given by a path relative to the project: it starts in the workspace, from any subfolder.
  writeFileSync(join(root, "server.ts"), `import ${JSON.stringify(FIXTURE_SERVER)};\n`);
  // The config sits two folders above where the commands run: found by walking up.
  writeFileSync(
    join(root, ".mcp.json"),
    JSON.stringify({
      mcpServers: {
        alpha: stdio({ FIXTURE_FILE: "${workspaceFolder}/alpha.json" }),
        "beta/tools": {
          command: BUN,
          args: ["server.ts"],
          env: { FIXTURE: JSON.stringify({ tools: [tool("lookup")] }) },
        },
        web: { type: "http", url: `${web.url}/mcp`, headers: { Authorization: "Bearer ${WEB_TOKEN}" } },
      },
    }),
  );
});

afterAll(async () => {
  await web?.stop();
});

const env = { WEB_TOKEN: TOKEN };
const LOCKFILES = ["alpha.contract.json", "beta-tools.contract.json", "web.contract.json"];

describe("client configs", () => {
  test("snapshot --all, then check --all: pass, a changed server fails, an unreachable one exits 3", async () => {
    // snapshot --all: three lockfiles named after the servers, a line per server.
    const snap = await runCli(["snapshot", "--all"], { cwd: work, env });
    expect(snap.stderr).toContain("3 of 3 servers captured into mcp-contracts");
    expect(snap.code).toBe(0);
    expect(listDir(join(work, "mcp-contracts"))).toEqual(LOCKFILES);
    for (const name of ["alpha", "beta/tools", "web"]) expect(snap.stderr).toContain(`✔ ${name}: captured`);
    const lock = (file: string) => JSON.parse(readFileSync(join(work, "mcp-contracts", file), "utf8"));
    expect(lock("alpha.contract.json").tools.map((t: { name: string }) => t.name)).toEqual(["fetch", "search"]);
    expect(lock("web.contract.json").server).toEqual({ name: "web", version: "2.0.0" });
    // The names a capture was given, never their values.
    expect(lock("alpha.contract.json").capture).toEqual({ clientCapabilities: [], env: ["FIXTURE_FILE"] });
    expect(lock("beta-tools.contract.json").capture).toEqual({ clientCapabilities: [], env: ["FIXTURE"] });
    expect(lock("web.contract.json").capture).toEqual({ clientCapabilities: [], headers: ["Authorization"] });
    for (const file of LOCKFILES) expect(readFileSync(join(work, "mcp-contracts", file), "utf8")).not.toContain(TOKEN);

    // check --all: one section per server, all pass.
    const pass = await runCli(["check", "--all"], { cwd: work, env });
    expect(pass.stderr).toBe("");
    expect(pass.code).toBe(0);
    for (const name of ["alpha", "beta/tools", "web"]) {
      expect(pass.stdout).toContain(`server ${name}  (../../.mcp.json → mcp-contracts/`);
      expect(pass.stdout).toContain(`  ✔ ${name}: pass`);
    }
    expect(pass.stdout.match(/✔ no changes: the surfaces are identical/g)).toHaveLength(3);
    expect(pass.stdout).toContain("mcp-contract check --all: 3 servers: 3 passed, 0 failed");

    // alpha loses a tool: its section lists the break, the others still pass, exit 1.
    setAlpha([tool("search")]);
    const reports = join(root, "reports");
    const [fail, json, others] = await Promise.all([
      runCli(["check", "--all"], { cwd: work, env }),
      runCli(["check", "--all", "--format", "json"], { cwd: work, env }),
      runCli(
        [
          "check",
          "--all",
          "--format",
          `sarif=${reports}/r.sarif`,
          "--format",
          `junit=${reports}/r.xml`,
          "--format",
          `markdown=${reports}/r.md`,
          "--format",
          "github",
        ],
        { cwd: work, env: { ...env, GITHUB_WORKSPACE: root } },
      ),
    ]);
    // The other formats: a SARIF run and a JUnit suite per server, every server in Markdown, annotations on the lockfile.
    expect(others.code).toBe(1);
    const sarif = JSON.parse(readFileSync(join(reports, "r.sarif"), "utf8"));
    expect(sarif.runs.map((r: { automationDetails: { id: string } }) => r.automationDetails.id)).toEqual([
      "mcp-contract/alpha/",
      "mcp-contract/beta/tools/",
      "mcp-contract/web/",
    ]);
    expect(sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toEqual(["tool-removed"]);
    const junit = readFileSync(join(reports, "r.xml"), "utf8");
    expect(junit.match(/<testsuite /g)).toHaveLength(3);
    expect(junit).toContain('<testsuite name="mcp-contract: alpha"');
    expect(junit).toMatch(/<testsuites name="mcp-contract check --all" tests="\d+" failures="1" errors="0"/);
    const markdown = readFileSync(join(reports, "r.md"), "utf8");
    for (const name of ["alpha", "beta/tools", "web"]) expect(markdown).toContain(`**server \`${name}\`**`);
    expect(others.stdout).toMatch(/^::error file=packages\/app\/mcp-contracts\/alpha\.contract\.json,line=\d+/m);
    expect(fail.code).toBe(1);
    const alphaSection = fail.stdout.slice(
      fail.stdout.indexOf("server alpha"),
      fail.stdout.indexOf("server beta/tools"),
    );
    expect(alphaSection).toContain('✖ tool "fetch": removed [tool-removed]');
    expect(fail.stdout).toContain("  ✖ alpha: FAIL (1 at or above breaking)");
    expect(fail.stdout).toContain("  ✔ web: pass");
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ command: "check", all: true, result: "fail", exitCode: 1 });
    expect(report.servers.map((s: { name: string; status: string }) => [s.name, s.status])).toEqual([
      ["alpha", "fail"],
      ["beta/tools", "pass"],
      ["web", "pass"],
    ]);
    expect(report.servers[0].report.changes.map((c: { rule: string }) => c.rule)).toEqual(["tool-removed"]);
    // Each server's report is the one `check --format json` writes.
    for (const server of report.servers) parseReport(JSON.stringify(server.report));
    expect(report.servers[0].lockfile).toBe(join("mcp-contracts", "alpha.contract.json"));

    // The HTTP server cannot be reached (no token): exit 3, and the others were still checked.
    const unreachable = await runCli(["check", "--all"], { cwd: work, env: { WEB_TOKEN: "wrong" } });
    expect(unreachable.code).toBe(3);
    expect(unreachable.stdout).toContain("  ✖ web: not checked (exit 3)");
    expect(unreachable.stdout).toContain("  ✖ alpha: FAIL");
    expect(unreachable.stdout).toContain("  ✔ beta/tools: pass");
    expect(unreachable.stderr).toContain("error: web: ");
    expect(unreachable.stderr).toContain("401");
    expect(unreachable.stderr + unreachable.stdout).not.toContain("wrong");
    setAlpha([tool("search"), tool("fetch")]);
  });

  test("a server without a lockfile: exit 2 with the command that creates it; --dir DIR", async () => {
    const dir = join(root, "empty-contracts");
    const result = await runCli(["check", "--all", "--dir", dir], { cwd: work, env });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain(`✖ alpha: no lockfile at ${join(dir, "alpha.contract.json")} (exit 2)`);
    expect(result.stderr).toContain(`mcp-contract snapshot --server alpha -o ${join(dir, "alpha.contract.json")}`);
    const snap = await runCli(["snapshot", "--all", "--dir", dir], { cwd: work, env: { WEB_TOKEN: "wrong" } });
    expect(snap.code).toBe(3);
    expect(snap.stderr).toContain("2 of 3 servers captured");
    expect(listDir(dir)).toEqual(["alpha.contract.json", "beta-tools.contract.json"]);
    // Flags that name one server or one lockfile are refused with --all, and --dir needs --all.
    const refused = await Promise.all([
      runCli(["snapshot", "--dir", dir], { cwd: work }),
      runCli(["snapshot", "--all", "-o", "x.json"], { cwd: work }),
      runCli(["check", "--all", "--env", "A=1"], { cwd: work }),
      runCli(["check", "--all", "--baseline", "x.json"], { cwd: work }),
      runCli(["check", "--all", "--format", "changelog"], { cwd: work }),
    ]);
    for (const r of refused) expectCleanFailure(r, 2);
    expect(refused.map((r) => r.stderr.split(":")[1]?.trim())).toEqual([
      "--dir applies with --all only; for one server, name its lockfile with -o FILE.",
      "--output names one lockfile, and --all uses one per server",
      "--env cannot be combined with --all",
      "--baseline names one lockfile, and --all uses one per server",
      "--format changelog describes one surface, so check --all cannot write it; choose from text, json, markdown, sarif, github, junit, or check one server with --server NAME.",
    ]);
  });

  test("--server by walking up; --verbose names the file; the differing env names are noted", async () => {
    const baseline = join(root, "alpha-baseline.json");
    const snap = await runCli(["snapshot", "-v", "--server", "alpha", "-o", baseline], { cwd: work });
    expect(snap.code).toBe(0);
    expect(snap.stderr).toContain("--server alpha: from ../../.mcp.json");
    // The same server given one more variable: same surface, but the names differ.
    const [text, json] = await Promise.all([
      runCli(["check", "--baseline", baseline, "--server", "alpha", "--env", "EXTRA_KEY=1"], { cwd: work }),
      runCli(["check", "--baseline", baseline, "--server", "alpha", "--env", "EXTRA_KEY=1", "--format", "json"], {
        cwd: work,
      }),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      "✔ PASS: nothing at or above breaking (--fail-on breaking)\nnote: the baseline was captured with env FIXTURE_FILE; this capture had env EXTRA_KEY, FIXTURE_FILE — the surface may depend on them.",
    );
    // The field is in docs/report.schema.json, as are the sides' names.
    const checked = parseReport(json.stdout) as unknown as Record<string, { given?: unknown }>;
    expect(checked.baseline?.given).toEqual({ env: ["FIXTURE_FILE"] });
    expect(JSON.parse(json.stdout).environment).toEqual({
      baseline: { env: ["FIXTURE_FILE"], headers: [] },
      current: { env: ["EXTRA_KEY", "FIXTURE_FILE"], headers: [] },
      message: expect.stringContaining("the surface may depend on them"),
    });
    // Same names: no note.
    const same = await runCli(["check", "--baseline", baseline, "--server", "alpha"], { cwd: work });
    expect(same.stdout).not.toContain("note:");
  });

  test("VS Code's ${input:} is refused (exit 2), and an unknown name gets a did-you-mean across files", async () => {
    const dir = tempDir("mcp-contract-vscode-");
    mkdirSync(join(dir, ".vscode"));
    writeFileSync(
      join(dir, ".vscode", "mcp.json"),
      '{\n  // VS Code writes JSONC\n  "inputs": [{ "id": "key", "type": "promptString" }],\n  "servers": { "remote": { "type": "http", "url": "http://127.0.0.1:9/mcp", "headers": { "X-Key": "${input:key}" } } },\n}\n',
    );
    writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { github: { command: "gh-mcp" } } }));
    const refused = await runCli(["snapshot", "--server", "remote"], { cwd: dir });
    expectCleanFailure(refused, 2);
    expect(refused.stderr).toContain(".vscode/mcp.json uses ${input:key}");
    const unknown = await runCli(["snapshot", "--server", "remot"], { cwd: dir });
    expectCleanFailure(unknown, 2);
    expect(unknown.stderr).toContain(
      '.mcp.json, .vscode/mcp.json define no server named "remot"; they define: github, remote. Did you mean "remote"?',
    );
    expect(listDir(dir)).toEqual([".mcp.json", ".vscode"]);
  });

  test("two lockfiles with different names: diff notes it; a mistyped capture.env is refused (exit 2)", async () => {
    const dir = tempDir("mcp-contract-names-");
    const base = {
      lockfileVersion: 1,
      server: { name: "s", version: "1.0.0" },
      protocolVersion: "2025-11-25",
      capabilities: {},
      tools: [],
      resources: [],
      resourceTemplates: [],
      prompts: [],
    };
    const write = (name: string, capture: object) => {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify({ ...base, capture: { clientCapabilities: [], ...capture } }));
      return path;
    };
    const old = write("old.json", { headers: ["X-Api-Key"] });
    const changed = write("new.json", {});
    const result = await runCli(["diff", old, changed]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `note: the baseline was captured with header X-Api-Key; ${changed} had none — the surface may depend on them.`,
    );
    const bad = await runCli(["diff", write("bad.json", { env: "TOKEN" }), changed]);
    expectCleanFailure(bad, 2);
    expect(bad.stderr).toContain("at $.capture.env, expected an array of names");
  });
});
