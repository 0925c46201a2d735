/**
 * `mcp-contract snapshot` against the stdio fixture server, run as a user runs it: the
 * lockfile's content and layout, the summary line, -o -, --quiet, pagination,
 * determinism, list_changed during capture, client capabilities and the CLI basics.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { contentHash } from "../../src/contract/hashes.ts";
import {
  expectCleanFailure,
  fixtureTarget,
  listDir,
  RICH,
  RICH_COUNTS,
  ROOT,
  readLockfile,
  readPids,
  runCli,
  snapshotFixture,
  stderrLines,
  summaryPattern,
  tempDir,
} from "./e2e-helpers.ts";

const codeUnitOrder = (names: string[]) => [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe("happy path over stdio", () => {
  test.concurrent("writes a canonical lockfile and prints one summary line", async () => {
    const dir = tempDir();
    const out = join(dir, "fixture.contract.json");
    const result = await snapshotFixture(RICH, out);

    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(stderrLines(result)).toHaveLength(1);
    expect(result.stderr.trimEnd()).toMatch(summaryPattern(RICH_COUNTS, out));
    expect(listDir(dir)).toEqual(["fixture.contract.json"]);

    const text = readFileSync(out, "utf8");
    const lock = readLockfile(out);
    // 2-space JSON, exactly one trailing newline.
    expect(text).toBe(`${JSON.stringify(lock, null, 2)}\n`);
    expect(text.endsWith("}\n")).toBe(true);
    expect(Object.keys(lock)).toEqual([
      "lockfileVersion",
      "server",
      "protocolVersion",
      "capabilities",
      "instructions",
      "capture",
      "tools",
      "resources",
      "resourceTemplates",
      "prompts",
      "hashes",
    ]);
    expect(lock.lockfileVersion).toBe(1);
    expect(lock.server).toEqual({ name: "fixture", version: "1.0.0" });
    expect(lock.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(result.stderr).toContain(`(protocol ${lock.protocolVersion})`);
    expect(lock.capabilities).toEqual({ prompts: {}, resources: {}, tools: { listChanged: true } });
    expect(lock.instructions).toBe(RICH.instructions);
    // The name, never the value, of the --env the fixture was given.
    expect(lock.capture).toEqual({ clientCapabilities: [], env: ["FIXTURE"] });

    // Items sorted by identity (code-unit order), whatever order the server sent.
    expect(lock.tools.map((t) => t.name)).toEqual(["Mid", "alpha", "zeta"]);
    expect(lock.tools.map((t) => t.name)).toEqual(codeUnitOrder(RICH.tools.map((t) => t.name)));
    expect(lock.resources.map((r) => r.uri)).toEqual(["fixture://res/aa", "fixture://res/zz"]);
    expect(lock.resourceTemplates.map((r) => r.uriTemplate)).toEqual(["fixture://tpl/{a}", "fixture://tpl/{z}"]);
    expect(lock.prompts.map((p) => p.name)).toEqual(["explain", "review"]);

    // Everything the server sent about an item is kept, identity first.
    const zeta = lock.tools.find((t) => t.name === "zeta");
    const sent = structuredClone(RICH.tools[0]) as {
      inputSchema: { required: string[]; properties: { nested: { required: string[] } } };
    };
    sent.inputSchema.required.sort();
    sent.inputSchema.properties.nested.required.sort();
    expect(zeta).toEqual(sent as never);
    expect(Object.keys(zeta ?? {})[0]).toBe("name");
    for (const resource of RICH.resources) expect(lock.resources).toContainEqual(resource);
    for (const template of RICH.resourceTemplates) expect(lock.resourceTemplates).toContainEqual(template);
    for (const prompt of RICH.prompts) expect(lock.prompts).toContainEqual(prompt);
    // `required` is a set: sorted; enum values are data: kept in the server's order.
    const schema = zeta?.inputSchema as { properties?: { nested?: Record<string, unknown> } } | undefined;
    const nested = schema?.properties?.nested;
    expect(nested?.required).toEqual(["a", "b"]);
    expect(JSON.stringify(nested?.properties)).toContain('"enum":["y","x"]');
    // A content hash per item, over the item as the server sent it, its `required` a set: the
    // stored item (required sorted) hashes the same, so the mock reproduces the lockfile.
    expect(Object.keys(lock.hashes ?? {})).toEqual(["prompts", "resourceTemplates", "resources", "tools"]);
    expect(lock.hashes?.tools?.zeta).toBe(contentHash(RICH.tools[0] as never));
    expect(lock.hashes?.tools?.zeta).toBe(contentHash(zeta as never));
    // No machine paths or timestamps.
    expect(text).not.toContain(dir);
    expect(text).not.toContain(ROOT);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
  });

  test.concurrent("-o - writes the lockfile to stdout and nothing else; the same bytes as a file", async () => {
    const dir = tempDir();
    const file = join(dir, "a.json");
    const [toStdout, toFile] = await Promise.all([
      runCli(["snapshot", "-o", "-", ...fixtureTarget(RICH)], { cwd: dir }),
      snapshotFixture(RICH, file),
    ]);
    expect(toStdout.code).toBe(0);
    expect(toFile.code).toBe(0);
    expect(toStdout.stdout).toBe(readFileSync(file, "utf8"));
    expect(stderrLines(toStdout)).toHaveLength(1);
    expect(toStdout.stderr.trimEnd()).toMatch(summaryPattern(RICH_COUNTS, "stdout"));
    // Nothing written to the working directory.
    expect(listDir(dir)).toEqual(["a.json"]);
  });

  test.concurrent("without -o it writes mcp.contract.json in the working directory", async () => {
    const dir = tempDir();
    const result = await runCli(["snapshot", ...fixtureTarget({ tools: 2 })], { cwd: dir });
    expect(result.code).toBe(0);
    expect(listDir(dir)).toEqual(["mcp.contract.json"]);
    expect(readLockfile(join(dir, "mcp.contract.json")).tools).toHaveLength(2);
    expect(result.stderr).toContain("→ mcp.contract.json");
  });

  test.concurrent("--quiet prints nothing on success and still writes the file", async () => {
    const dir = tempDir();
    const out = join(dir, "q.json");
    const result = await snapshotFixture({ tools: 1 }, out, ["--quiet"]);
    expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(readLockfile(out).tools.map((t) => t.name)).toEqual(["tool-000"]);
  });

  test.concurrent("a server with no lists advertised gives empty lists", async () => {
    const out = join(tempDir(), "empty.json");
    const result = await snapshotFixture({ tools: 0 }, out);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("captured 0 tools, 0 resources, 0 templates, 0 prompts");
    const lock = readLockfile(out);
    expect(lock.capabilities).toEqual({});
    expect([lock.tools, lock.resources, lock.resourceTemplates, lock.prompts]).toEqual([[], [], [], []]);
  });
});

describe("pagination", () => {
  test.concurrent("pageSize: every page of every list is captured, same bytes as unpaginated", async () => {
    const dir = tempDir();
    const surface = { tools: 7, resources: 5, resourceTemplates: 3, prompts: 4 };
    const [paged, whole] = await Promise.all([
      snapshotFixture({ ...surface, pageSize: 2 }, join(dir, "paged.json")),
      snapshotFixture(surface, join(dir, "whole.json")),
    ]);
    expect(paged.code).toBe(0);
    expect(whole.code).toBe(0);
    expect(paged.stderr).toContain("captured 7 tools, 5 resources, 3 templates, 4 prompts");
    const lock = readLockfile(join(dir, "paged.json"));
    expect(lock.tools.map((t) => t.name)).toEqual(Array.from({ length: 7 }, (_, i) => `tool-00${i}`));
    expect(readFileSync(join(dir, "paged.json"), "utf8")).toBe(readFileSync(join(dir, "whole.json"), "utf8"));
  });

  test.concurrent("a repeated cursor fails with exit 3 and writes nothing", async () => {
    const dir = tempDir();
    const result = await snapshotFixture({ mode: "repeat-cursor", tools: 4, pageSize: 2 }, join(dir, "c.json"));
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("tools/list");
    expect(result.stderr).toContain('cursor "same"');
    expect(result.stderr).toMatch(/loop forever/);
    expect(listDir(dir)).toEqual([]);
  });

  test.concurrent("pages without end fail with exit 3 and write nothing", async () => {
    const dir = tempDir();
    const result = await snapshotFixture({ mode: "endless-pages" }, join(dir, "c.json"));
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain("tools/list");
    expect(result.stderr).toContain("1000 pages");
    expect(result.stderr).toMatch(/never ends/);
    expect(listDir(dir)).toEqual([]);
  });
});

describe("determinism", () => {
  test.concurrent("two captures of the same server give identical bytes", async () => {
    const dir = tempDir();
    const [a, b] = await Promise.all([
      snapshotFixture(RICH, join(dir, "a.json")),
      snapshotFixture(RICH, join(dir, "b.json")),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(readFileSync(join(dir, "a.json"), "utf8")).toBe(readFileSync(join(dir, "b.json"), "utf8"));
  });

  test.concurrent("random key and item order from the server: identical bytes every run", async () => {
    const dir = tempDir();
    const runs = ["s1", "s2", "s3"];
    const results = await Promise.all([
      ...runs.map((name) => snapshotFixture({ ...RICH, shuffle: true }, join(dir, `${name}.json`))),
      snapshotFixture({ ...RICH, shuffle: true, pageSize: 1 }, join(dir, "paged.json")),
      snapshotFixture(RICH, join(dir, "plain.json")),
    ]);
    expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0, 0]);
    const plain = readFileSync(join(dir, "plain.json"), "utf8");
    for (const name of [...runs, "paged"]) expect(readFileSync(join(dir, `${name}.json`), "utf8")).toBe(plain);
  });

  test.concurrent("re-running on an unchanged server leaves the file alone and says so", async () => {
    const dir = tempDir();
    const out = join(dir, "c.json");
    expect((await snapshotFixture(RICH, out)).code).toBe(0);
    const before = statSync(out);
    const bytes = readFileSync(out, "utf8");
    await Bun.sleep(20);

    const again = await snapshotFixture({ ...RICH, shuffle: true }, out);
    expect(again.code).toBe(0);
    expect(again.stderr.trimEnd()).toMatch(summaryPattern(RICH_COUNTS, `${out} (unchanged)`));
    const after = statSync(out);
    expect(readFileSync(out, "utf8")).toBe(bytes);
    expect({ ino: after.ino, mtimeMs: after.mtimeMs }).toEqual({ ino: before.ino, mtimeMs: before.mtimeMs });

    // A changed server rewrites it, and the message does not say unchanged.
    const changed = await snapshotFixture({ ...RICH, tools: 1 }, out);
    expect(changed.code).toBe(0);
    expect(changed.stderr).not.toContain("unchanged");
    expect(readLockfile(out).tools.map((t) => t.name)).toEqual(["tool-000"]);
    expect(listDir(dir)).toEqual(["c.json"]);
  });
});

describe("a live server during capture", () => {
  test.concurrent("list_changed mid-capture: the re-listed tool is in the lockfile", async () => {
    const out = join(tempDir(), "c.json");
    const result = await snapshotFixture({ mode: "list-changed" }, out);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("captured 4 tools");
    expect(readLockfile(out).tools.map((t) => t.name)).toEqual(["late-tool", "tool-000", "tool-001", "tool-002"]);
  });

  test.concurrent("a server that pings and logs during capture is answered", async () => {
    const out = join(tempDir(), "c.json");
    const result = await snapshotFixture({ mode: "ping-during-capture" }, out);
    expect(result.code).toBe(0);
    const lock = readLockfile(out);
    expect(lock.tools).toHaveLength(3);
    expect(lock.capabilities).toEqual({ logging: {}, tools: { listChanged: true } });
  });

  test.concurrent("a slow start fits in the default timeout, and --timeout bounds it", async () => {
    const dir = tempDir();
    const [slow, tooSlow] = await Promise.all([
      snapshotFixture({ mode: "slow-start", slowStartMs: 1500 }, join(dir, "slow.json")),
      snapshotFixture({ mode: "slow-start", slowStartMs: 3000 }, join(dir, "too-slow.json"), ["--timeout", "1"]),
    ]);
    expect(slow.code).toBe(0);
    expect(readLockfile(join(dir, "slow.json")).tools).toHaveLength(3);
    expectCleanFailure(tooSlow, 3);
    // The opening is server/discover, then initialize: a loaded machine may run out in either.
    expect(tooSlow.stderr).toMatch(/no answer to (initialize|server\/discover) after 1 s/);
    expect(listDir(dir)).toEqual(["slow.json"]);
  });
});

describe("client capabilities", () => {
  test.concurrent("tools listed only to clients that declare roots are captured with --client-capabilities roots", async () => {
    const dir = tempDir();
    const [plain, roots, several] = await Promise.all([
      snapshotFixture({ rootsTool: true }, join(dir, "plain.json")),
      snapshotFixture({ rootsTool: true }, join(dir, "roots.json"), ["--client-capabilities", "roots"]),
      snapshotFixture({ rootsTool: true }, join(dir, "several.json"), [
        "--client-capabilities",
        "sampling, roots,elicitation,roots",
      ]),
    ]);
    expect([plain.code, roots.code, several.code]).toEqual([0, 0, 0]);
    const plainLock = readLockfile(join(dir, "plain.json"));
    expect(plainLock.tools.map((t) => t.name)).not.toContain("roots-only");
    expect(plainLock.capture).toEqual({ clientCapabilities: [], env: ["FIXTURE"] });
    const rootsLock = readLockfile(join(dir, "roots.json"));
    expect(rootsLock.tools.map((t) => t.name)).toContain("roots-only");
    expect(rootsLock.capture).toEqual({ clientCapabilities: ["roots"], env: ["FIXTURE"] });
    expect(readFileSync(join(dir, "roots.json"), "utf8")).toContain('"clientCapabilities": [\n      "roots"\n    ]');
    // Sorted and de-duplicated.
    expect(readLockfile(join(dir, "several.json")).capture.clientCapabilities).toEqual([
      "elicitation",
      "roots",
      "sampling",
    ]);
  });

  test.concurrent("an unknown capability exits 2 before the server starts", async () => {
    const dir = tempDir();
    const pidFile = join(dir, "pids");
    const result = await snapshotFixture({ pidFile }, join(dir, "c.json"), [
      "--client-capabilities",
      "roots,telepathy",
    ]);
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain('"telepathy"');
    expect(result.stderr).toContain("elicitation, roots, sampling");
    expect(existsSync(pidFile)).toBe(false);
    expect(listDir(dir)).toEqual([]);
  });
});

describe("CLI basics", () => {
  test.concurrent("--version prints the package version", async () => {
    const result = await runCli(["--version"]);
    expect(result).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
  });

  test.concurrent("snapshot --help shows the flags and examples", async () => {
    const result = await runCli(["snapshot", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage: mcp-contract snapshot");
    expect(result.stdout).toContain("Examples:");
    expect(result.stdout).toContain("$ mcp-contract snapshot -- node dist/server.js");
    for (const flag of ["--output", "--url", "--bearer", "--header", "--timeout", "--client-capabilities", "--era"]) {
      expect(result.stdout).toContain(flag);
    }
  });

  test.concurrent("an unknown flag exits 2 and suggests the right one", async () => {
    const dir = tempDir();
    const result = await runCli(["snapshot", "--ur", "http://127.0.0.1:1/mcp"], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("unknown option '--ur'");
    expect(result.stderr).toContain("Did you mean --url?");
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(listDir(dir)).toEqual([]);
  });

  test.concurrent("no target exits 2 naming -- and --url", async () => {
    const dir = tempDir();
    const result = await runCli(["snapshot"], { cwd: dir });
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain("no server given");
    expect(result.stderr).toContain("`--");
    expect(result.stderr).toContain("--url");
    expect(listDir(dir)).toEqual([]);
  });

  test.concurrent("a command and --url together exit 2", async () => {
    const dir = tempDir();
    const pidFile = join(dir, "pids");
    const result = await runCli(["snapshot", "--url", "http://127.0.0.1:1/mcp", ...fixtureTarget({ pidFile })], {
      cwd: dir,
    });
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain("not both");
    expect(readPids(pidFile)).toEqual([]);
  });

  test.concurrent("a bad --timeout exits 2", async () => {
    const result = await runCli(["snapshot", "--timeout", "0", ...fixtureTarget({})]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("positive number of seconds");
  });

  test.concurrent("MCP_CONTRACT_BEARER in the environment does not break a stdio target", async () => {
    const dir = tempDir();
    const out = join(dir, "c.json");
    const result = await runCli(["snapshot", "-o", out, ...fixtureTarget({})], {
      env: { MCP_CONTRACT_BEARER: "some-token-value" },
    });
    expect(result.code).toBe(0);
    expect(readLockfile(out).tools).toHaveLength(3);
  });
});

describe("capture hygiene: empty tool schemas (issue #26)", () => {
  const EMPTY = {
    tools: [
      { name: "search", inputSchema: { $schema: "http://json-schema.org/draft-07/schema#" } },
      { name: "fetch", inputSchema: {} },
      { name: "ping", inputSchema: { type: "object" } },
    ],
  };

  test.concurrent("snapshot and check warn in one paragraph, name the cause and the fix, and keep the exit code", async () => {
    const dir = tempDir();
    const out = join(dir, "c.json");
    const snapshot = await runCli(["snapshot", "-o", out, ...fixtureTarget(EMPTY)]);
    expect(snapshot.code).toBe(0);
    const warning = snapshot.stderr.split("\n").find((line) => line.includes("empty inputSchema")) ?? "";
    expect(warning).toContain(
      '2 of 3 tools came out with an empty inputSchema ({} or only $schema): "fetch", "search"',
    );
    expect(warning).toContain("zod@^3.25");
    expect(readLockfile(out).tools).toHaveLength(3);
    const check = await runCli(["check", "--baseline", out, ...fixtureTarget(EMPTY)]);
    expect(check.code).toBe(0);
    expect(check.stderr).toContain("empty inputSchema");
    // A server whose tools all declare a schema gets no such warning.
    const clean = await runCli(["snapshot", "-o", join(dir, "d.json"), ...fixtureTarget({})]);
    expect(clean.stderr).not.toContain("empty inputSchema");
  });
});
