/**
 * Coming over from mcp-covenant and mcp-query: their files read as baselines, `import`, and
 * their command lines, run as CI would run them, against real servers (the published
 * server-everything and server-filesystem, and the HTTP fixture server). The peer files are
 * written from our own captures by tests/fixtures/peers/peer-files.ts, field for field as the
 * peers' capture code writes them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { toCovenant, toMcpQuery } from "../fixtures/peers/peer-files.ts";
import { cliCommand, ROOT, runCli, runShell, shellQuote, startHttpFixture, tempDir } from "../helpers/cli.ts";
import { RICH } from "./e2e-helpers.ts";

const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const FILESYSTEM = join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
const PEERS = join(ROOT, "tests/fixtures/peers");
const PUBLISHED = join(ROOT, "tests/fixtures/published");

const dir = tempDir("mcp-contract-peers-");
const FS_ROOT = tempDir("mcp-contract-peers-fs-");
const file = (name: string) => join(dir, name);
const read = (path: string) => readFileSync(path, "utf8");

interface JsonReport {
  changes: { rule: string; severity: string; target: { kind: string; name: string }; path: string }[];
  notices: string[];
}
const breaking = (report: JsonReport) =>
  report.changes
    .filter((c) => c.severity === "breaking")
    .map((c) => `${c.rule} ${c.target.kind}:${c.target.name} ${c.path}`)
    .sort();

/** Run check (or verify) with a JSON report beside the text one: exit code, text, and the changes as lines. */
async function checkWithJson(args: string[], options: { cwd?: string } = {}) {
  const out = join(tempDir("mcp-contract-peers-out-"), "r.json");
  // Before `--`: what follows it is the server's command line.
  const end = args.includes("--") ? args.indexOf("--") : args.length;
  const formats = ["--format", "text", "--format", `json=${out}`];
  const r = await runCli([...args.slice(0, end), ...formats, ...args.slice(end)], options);
  const json = JSON.parse(read(out)) as JsonReport;
  const changes = json.changes.map((c) => `${c.severity} ${c.rule} ${c.target.kind}:${c.target.name} ${c.path}`);
  return { ...r, json, changes };
}

/** The notice that says what a peer format could not hold. */
const PEER_NOTICE = /is an mcp-(covenant \S+ lockfile|query contract)/g;

/** What our own lockfile of the same capture gives against the same server: the reference for every peer baseline. */
let oursEverything: string[] = [];

/** The CI line mcp-query's README gives for snapshot, with our binary: captured once for the tests below. */
beforeAll(async () => {
  const snap = await runCli([
    "snapshot",
    "--command",
    "node",
    "--args",
    `${EVERYTHING} stdio`,
    "--out",
    file("everything.json"),
  ]);
  expect(snap.stderr).toContain("captured 13 tools, 7 resources, 2 templates, 4 prompts");
  expect(snap.code).toBe(0);
  const lock = JSON.parse(read(file("everything.json")));
  writeFileSync(file("mcp-covenant.lock"), toCovenant(lock));
  writeFileSync(file("everything.mcp-query.json"), toMcpQuery(lock));
  const ours = await checkWithJson(["check", "--baseline", file("everything.json"), "--", "node", EVERYTHING, "stdio"]);
  expect(ours.code).toBe(0);
  // No change that counts: at most equivalent rewrites (patch).
  expect(ours.changes.filter((c) => !c.startsWith("patch"))).toEqual([]);
  oursEverything = ours.changes;
});

/** A peer baseline's run: exit 0, our own lockfile's changes exactly, "no changes" when ours has none, the notice once. */
function expectSameAsOurs(r: Awaited<ReturnType<typeof checkWithJson>>, ours: string[]) {
  expect({ code: r.code, changes: r.changes }).toEqual({ code: 0, changes: ours });
  if (ours.length === 0) expect(r.stdout).toContain("no changes: the surfaces are identical");
  expect(r.stdout.match(PEER_NOTICE)).toHaveLength(1);
  expect(r.json.notices.join("\n").match(PEER_NOTICE)).toHaveLength(1);
}

describe("a peer baseline against a capture of the same surface: no change", () => {
  test.concurrent("mcp-covenant's CI line: check --baseline mcp-covenant.lock -- cmd", async () => {
    const r = await checkWithJson([
      "check",
      "--baseline",
      file("mcp-covenant.lock"),
      "--",
      "node",
      EVERYTHING,
      "stdio",
    ]);
    expect(r.stderr).toBe("");
    expectSameAsOurs(r, oursEverything);
    // What the covenant format could not hold (everything-server has templates and instructions).
    expect(r.stdout).toContain(
      "is an mcp-covenant 0.1.1 lockfile, which does not record capabilities, instructions or resource templates",
    );
  });

  test.concurrent("mcp-query's CI line: verify --contract FILE --command … --args …", async () => {
    const r = await checkWithJson([
      "verify",
      "--contract",
      file("everything.mcp-query.json"),
      "--command",
      "node",
      "--args",
      `${EVERYTHING} stdio`,
    ]);
    expectSameAsOurs(r, oursEverything);
    expect(r.stdout).toContain("is an mcp-query contract (version 1)");
  });

  test.concurrent("mcp-covenant's README line as is: check --fail-on breaking -- cmd reads ./mcp-covenant.lock", async () => {
    const cwd = tempDir("mcp-contract-peers-cwd-");
    writeFileSync(join(cwd, "mcp-covenant.lock"), read(file("mcp-covenant.lock")));
    const r = await checkWithJson(["check", "--fail-on", "breaking", "--", "node", EVERYTHING, "stdio"], { cwd });
    expect(r.stdout).toContain("mcp-contract check  mcp-covenant.lock (mcp-servers/everything");
    expectSameAsOurs(r, oursEverything);
  });

  test.concurrent("a published server-filesystem release, both formats, in every report format", async () => {
    const run = async (baseline: string) => {
      const out = tempDir("mcp-contract-peers-out-");
      const r = await runCli([
        "check",
        "--baseline",
        baseline,
        "--format",
        `json=${join(out, "r.json")}`,
        "--format",
        `markdown=${join(out, "r.md")}`,
        "--format",
        `sarif=${join(out, "r.sarif")}`,
        "--",
        "node",
        FILESYSTEM,
        FS_ROOT,
      ]);
      const json = JSON.parse(read(join(out, "r.json"))) as JsonReport;
      const changes = json.changes.map((c) => `${c.severity} ${c.rule} ${c.target.kind}:${c.target.name} ${c.path}`);
      return { code: r.code, changes, json, markdown: read(join(out, "r.md")), sarif: read(join(out, "r.sarif")) };
    };
    // What our own lockfile of that release gives (no breaking change; at most equivalent rewrites).
    const ours = await run(join(PUBLISHED, "filesystem-2026.8.31.contract.json"));
    expect(ours.code).toBe(0);
    expect(ours.changes.filter((c) => !c.startsWith("patch"))).toEqual([]);
    for (const name of ["filesystem-2026.8.31.mcp-covenant.lock", "filesystem-2026.8.31.mcp-query.contract.json"]) {
      const peer = await run(join(PEERS, name));
      // Equivalent rewrites explain lines of our own lockfile; a converted baseline has none to explain.
      const real = ours.changes.filter((c) => !c.includes(" equivalent-rewrite "));
      expect({ name, code: peer.code, changes: peer.changes }).toEqual({ name, code: 0, changes: real });
      expect(peer.json.notices.join("\n").match(PEER_NOTICE)).toHaveLength(1);
      expect(peer.markdown.match(PEER_NOTICE)).toHaveLength(1);
      expect(peer.sarif).toMatch(PEER_NOTICE);
    }
  });
});

describe("a peer baseline against a changed surface: our own lockfile's breaking changes", () => {
  test.concurrent("server-filesystem 2025.8.21 baselines (ours, covenant, mcp-query) against today's server", async () => {
    const run = async (baseline: string) => {
      const out = join(tempDir("mcp-contract-peers-out-"), "r.json");
      const r = await runCli([
        "check",
        "--baseline",
        baseline,
        "--format",
        `json=${out}`,
        "--",
        "node",
        FILESYSTEM,
        FS_ROOT,
      ]);
      return { code: r.code, breaking: breaking(JSON.parse(read(out))) };
    };
    const ours = await run(join(PUBLISHED, "filesystem-2025.8.21.contract.json"));
    expect(ours.code).toBe(1);
    expect(ours.breaking).toEqual(["min-items-raised tool:read_multiple_files /inputSchema/properties/paths/minItems"]);
    expect(await run(join(PEERS, "filesystem-2025.8.21.mcp-covenant.lock"))).toEqual(ours);
    expect(await run(join(PEERS, "filesystem-2025.8.21.mcp-query.contract.json"))).toEqual(ours);
  });

  test.concurrent("offline: check --baseline v1.lock --against v2.lock, diff and lint --from", async () => {
    const v1 = join(PEERS, "filesystem-2025.8.21.mcp-covenant.lock");
    const v2 = join(PEERS, "filesystem-2026.8.31.mcp-covenant.lock");
    const check = await runCli(["check", "--baseline", v1, "--against", v2]);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('tool "read_multiple_files": minItems raised from 0 to 1');
    expect(check.stdout).toContain("the current side");
    const diff = await runCli([
      "diff",
      join(PEERS, "filesystem-2025.8.21.mcp-query.contract.json"),
      join(PEERS, "filesystem-2026.8.31.mcp-query.contract.json"),
      "--fail-on",
      "breaking",
    ]);
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain("[min-items-raised]");
    // mcp-query's offline verify (a second contract file as the candidate), with covenant's "human" format name.
    const verify = await runCli([
      "verify",
      "--contract",
      join(PEERS, "filesystem-2025.8.21.mcp-query.contract.json"),
      join(PEERS, "filesystem-2026.8.31.mcp-query.contract.json"),
      "--format",
      "human",
    ]);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toContain("[min-items-raised]");
    const lint = await runCli(["lint", "--from", v2]);
    expect(lint.code).toBe(0);
    expect(lint.stdout).toContain("the linted file");
  });

  test.concurrent("over HTTP with --http URL: a removed tool and a new required argument", async () => {
    const before = await startHttpFixture(RICH);
    const changed = structuredClone(RICH);
    changed.tools = changed.tools.filter((t) => t.name !== "alpha");
    const mid = changed.tools.find((t) => t.name === "Mid")?.inputSchema as {
      required: string[];
      properties: Record<string, unknown>;
    };
    mid.required = ["n", "extra"];
    mid.properties.extra = { type: "string" };
    const after = await startHttpFixture(changed);
    try {
      const ours = file("rich.json");
      const snap = await runCli(["snapshot", "--http", `${before.url}/mcp`, "--out", ours]);
      expect(snap.code).toBe(0);
      const covenant = file("rich.mcp-covenant.lock");
      writeFileSync(covenant, toCovenant(JSON.parse(read(ours))));
      const oursSame = await checkWithJson(["check", "--baseline", ours, "--http", `${before.url}/mcp`]);
      const same = await checkWithJson(["check", "--baseline", covenant, "--http", `${before.url}/mcp`]);
      expectSameAsOurs(same, oursSame.changes);
      const run = async (baseline: string) => {
        const out = join(tempDir("mcp-contract-peers-out-"), "r.json");
        const r = await runCli([
          "check",
          "--baseline",
          baseline,
          "--http",
          `${after.url}/mcp`,
          "--format",
          `json=${out}`,
        ]);
        return { code: r.code, breaking: breaking(JSON.parse(read(out))) };
      };
      const expected = await run(ours);
      expect(expected.code).toBe(1);
      expect(expected.breaking.some((b) => b.startsWith("tool-removed tool:alpha"))).toBe(true);
      expect(expected.breaking.some((b) => b.includes("tool:Mid /inputSchema"))).toBe(true);
      expect(await run(covenant)).toEqual(expected);
    } finally {
      await Promise.all([before.stop(), after.stop()]);
    }
  });
});

describe("import", () => {
  test.concurrent("round-trips: imported, checked against the same server, read again, completed by check --update", async () => {
    const out = tempDir("mcp-contract-peers-import-");
    const imported = join(out, "mcp.contract.json");
    const r = await runCli(["import", file("mcp-covenant.lock"), "--out", imported]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("imported the mcp-covenant 0.1.1 lockfile");
    expect(r.stderr).toContain("(13 tools, 7 resources, 0 templates, 4 prompts)");
    const text = read(imported);
    expect(JSON.parse(text).capture.importedFrom.format).toBe("mcp-covenant");
    // Reading it again is identical: a second import of the same file writes the same bytes.
    const again = await runCli(["import", file("mcp-covenant.lock"), "-o", "-"]);
    expect(again.stdout).toBe(text);
    const check = await checkWithJson(["check", "--baseline", imported, "--", "node", EVERYTHING, "stdio"]);
    expectSameAsOurs(check, oursEverything);
    // The next check --update records the whole surface: the capture's bytes, no caveat left.
    const update = await runCli(["check", "--update", "--baseline", imported, "--", "node", EVERYTHING, "stdio"]);
    expect(update.code).toBe(0);
    expect(read(imported)).toBe(read(file("everything.json")));
    const refused = await runCli(["import", imported, "-o", "-"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("is already an mcp-contract lockfile");
    // The default output is never overwritten unasked: here it is our lockfile now.
    const kept = await runCli(["import", file("mcp-covenant.lock")], { cwd: out });
    expect(kept.code).toBe(2);
    expect(kept.stderr).toContain("mcp.contract.json exists already");
    expect(read(imported)).toBe(read(file("everything.json")));
  });

  test.concurrent("an mcp-query contract converts in place, as mcp.contract.json", async () => {
    const cwd = tempDir("mcp-contract-peers-inplace-");
    writeFileSync(join(cwd, "mcp.contract.json"), read(file("everything.mcp-query.json")));
    const r = await runCli(["import", "mcp.contract.json"], { cwd });
    expect(r.code).toBe(0);
    const lock = JSON.parse(read(join(cwd, "mcp.contract.json")));
    expect(lock.lockfileVersion).toBe(1);
    expect(lock.resourceTemplates).toHaveLength(2);
    // mcp-query's `verify --contract mcp.contract.json` is our default baseline anyway.
    const check = await checkWithJson(["verify", "--command", "node", "--args", `${EVERYTHING} stdio`], { cwd });
    expectSameAsOurs(check, oursEverything);
  });

  test.concurrent("mock --contract serves a peer file", async () => {
    const out = file("mocked.json");
    const r = await runCli([
      "snapshot",
      "-o",
      out,
      "--",
      ...cliCommand(),
      "mock",
      "--contract",
      file("mcp-covenant.lock"),
    ]);
    expect(r.code).toBe(0);
    const mocked = JSON.parse(read(out));
    const original = JSON.parse(read(file("everything.json")));
    expect(mocked.tools.map((t: { name: string }) => t.name)).toEqual(
      original.tools.map((t: { name: string }) => t.name),
    );
    expect(mocked.prompts.map((p: { name: string }) => p.name)).toEqual(
      original.prompts.map((p: { name: string }) => p.name),
    );
  });
});

describe("the aliases", () => {
  test.concurrent("--args is split as a shell would: quotes keep a directory name with spaces", async () => {
    const spaced = join(tempDir("mcp-contract-peers-"), "my files");
    const r = await runShell(
      `mkdir -p ${shellQuote([spaced])} && cli snapshot -o - --command node --args ${shellQuote([`${FILESYSTEM} '${spaced}'`])}`,
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("captured 14 tools");
  });

  test.concurrent("both spellings of one flag, or half of one, are usage errors (exit 2)", async () => {
    const cases: [string[], string][] = [
      [
        ["snapshot", "--http", "http://127.0.0.1:1/mcp", "--url", "http://127.0.0.1:1/mcp"],
        "--http is another spelling of --url",
      ],
      [["snapshot", "--args", "a b"], "--args gives the arguments of the server that --command starts"],
      [["snapshot", "--command", "node", "--", "node"], "give the stdio server once"],
      [["snapshot", "--command", "node", "--args", "'open"], "--args has an unterminated single quote"],
      [["snapshot", "--out", "a.json", "-o", "b.json", "--", "node"], "--out is another spelling of -o/--output"],
      [
        ["check", "--contract", "a.json", "--baseline", "b.json", "--", "node"],
        "--contract is another spelling of --baseline",
      ],
      [["check", "--against", "x.json", "--command", "node"], "not both"],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args, { cwd: dir });
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toContain(message);
      expect(r.stderr).not.toContain("    at ");
    }
  });

  test.concurrent("--help lists them under Compatibility; mock keeps --http a switch", async () => {
    const check = await runCli(["check", "--help"]);
    expect(check.stdout).toContain("check|verify");
    expect(check.stdout).toMatch(/Compatibility[^\n]*:\n(\s+--\S+[^\n]*\n(\s{20,}[^\n]*\n)*)*/);
    for (const flag of ["--http <url>", "--command <cmd>", "--args <string>", "--contract <file>"]) {
      expect(check.stdout).toContain(flag);
    }
    const snapshot = await runCli(["snapshot", "--help"]);
    expect(snapshot.stdout).toContain("--out <file>");
    const root = await runCli(["--help"]);
    expect(root.stdout).toContain("import");
    // Completion comes from the same tree: import and the aliases are offered.
    const commands = await runCli(["__complete", "--", ""]);
    expect(commands.stdout.split("\n").map((line) => line.split("\t")[0])).toContain("import");
    const flags = await runCli(["__complete", "--", "verify", "--con"]);
    expect(flags.stdout).toContain("--contract\t");
    const mock = await runCli(["mock", "--help"]);
    expect(mock.stdout).not.toContain("--http <url>");
    expect(mock.stdout).toContain("--http");
  });
});

afterAll(() => {
  // Temp directories are left to the OS: tests run concurrently and some outlive others.
});
