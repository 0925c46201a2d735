/**
 * `mcp-contract check`, run as CI runs it: a committed baseline against a live server
 * (stdio and Streamable HTTP) or against a second lockfile, with exit codes, --fail-on,
 * text and JSON reports, --output, --update, bad baselines and failing servers.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/cli.ts";
import {
  BASE_TOOLS,
  baseTool,
  checkFixture,
  lockfile,
  objectSchema,
  parseReport,
  section,
  snapshotBaseline,
  type ToolDef,
  tool,
  verdicts,
  withTool,
  writeFile,
  writePair,
} from "./contract-builders.ts";
import {
  expectCleanFailure,
  fixtureTarget,
  type Lockfile,
  listDir,
  readPids,
  runCli,
  startHttpFixture,
  stderrLines,
  tempDir,
} from "./e2e-helpers.ts";

const BASE = { tools: BASE_TOOLS };

/** `search` with a new required property `region` (required-added, breaking) and a new optional one `units` (property-added). */
function requiredAdded(): ToolDef[] {
  const search = baseTool("search");
  const properties = search.inputSchema.properties as Record<string, object>;
  search.inputSchema = objectSchema({ ...properties, region: { type: "string" }, units: { type: "string" } }, [
    "q",
    "region",
  ]);
  return withTool(search);
}

/** Compatible changes only: an optional property on `fetch`, and a new tool. */
function compatible(): ToolDef[] {
  const fetch = baseTool("fetch");
  const properties = fetch.inputSchema.properties as Record<string, object>;
  fetch.inputSchema = objectSchema({ ...properties, fields: { type: "array", items: { type: "string" } } }, ["id"]);
  return [...withTool(fetch), tool("lookup")];
}

/** One capture of BASE, shared by the tests that only read it. */
let shared: string;
beforeAll(async () => {
  shared = await snapshotBaseline(BASE, tempDir());
});

/** A private copy of the shared baseline, DIR/baseline.json, for tests that write or list DIR. */
function ownBaseline(): { dir: string; baseline: string } {
  const dir = tempDir();
  const baseline = join(dir, "baseline.json");
  copyFileSync(shared, baseline);
  return { dir, baseline };
}

const SUMMARY_BREAKING = "1 breaking, 1 minor, 0 patch · requires a MAJOR version bump (to 2.0.0)";
const REQUIRED_LINE = '  ✖ tool "search": property "region" added, and required at inputSchema [required-added]';
/** The break, and the witness that proves it: arguments the old schema accepted, without "region". */
const REQUIRED_LINES = [
  REQUIRED_LINE,
  '      witness: {"q":""}  (arguments the old schema accepted and the new one rejects)',
];

describe("check against a live stdio server", () => {
  test.concurrent("an unchanged server: exit 0, no changes, nothing on stderr", async () => {
    const { dir, baseline } = ownBaseline();
    const before = readFileSync(baseline, "utf8");
    // The same surface with keys and items in a random order is still the same surface.
    const [same, shuffled] = await Promise.all([
      checkFixture(baseline, BASE),
      checkFixture(baseline, { ...BASE, shuffle: true }),
    ]);
    for (const result of [same, shuffled]) {
      expect(result.code).toBe(0);
      expect(result.stderr).toBe("");
      const lines = result.stdout.split("\n");
      expect(lines[0]).toMatch(
        new RegExp(
          `^mcp-contract check  ${baseline.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(fixture 1\\.0\\.0\\) → live .*fixture-server\\.ts.* \\(fixture 1\\.0\\.0\\)$`,
        ),
      );
      expect(result.stdout).toContain("✔ no changes: the surfaces are identical");
    }
    // check never touches the baseline without --update.
    expect(readFileSync(baseline, "utf8")).toBe(before);
    expect(listDir(dir)).toEqual(["baseline.json"]);
  });

  test.concurrent("a tool gained a required property: exit 1, listed under BREAKING, MAJOR", async () => {
    const baseline = shared;
    const result = await checkFixture(baseline, { tools: requiredAdded() });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("");
    expect(section(result.stdout, "BREAKING")).toEqual(REQUIRED_LINES);
    expect(section(result.stdout, "MINOR")).toEqual([
      '  ▲ tool "search": property "units" added at inputSchema.properties.units [property-added]',
    ]);
    expect(result.stdout).toContain(
      `${SUMMARY_BREAKING}\n✖ FAIL: 1 change at or above breaking (--fail-on breaking)\n`,
    );
  });

  test.concurrent("compatible changes pass at --fail-on breaking and fail at --fail-on minor", async () => {
    const baseline = shared;
    const config = { tools: compatible() };
    const [byDefault, breaking, minor] = await Promise.all([
      checkFixture(baseline, config),
      checkFixture(baseline, config, ["--fail-on", "breaking"]),
      checkFixture(baseline, config, ["--fail-on", "minor"]),
    ]);
    expect([byDefault.code, breaking.code, minor.code]).toEqual([0, 0, 1]);
    expect(byDefault.stdout).toBe(breaking.stdout);
    expect(section(breaking.stdout, "BREAKING")).toEqual([]);
    expect(section(breaking.stdout, "MINOR")).toEqual([
      '  ▲ tool "fetch": property "fields" added at inputSchema.properties.fields [property-added]',
      '  ▲ tool "lookup": added [tool-added]',
    ]);
    expect(breaking.stdout).toContain("0 breaking, 2 minor, 0 patch · requires a MINOR version bump");
    expect(breaking.stdout).toContain("✔ PASS: nothing at or above breaking (--fail-on breaking)");
    expect(minor.stdout).toContain("✖ FAIL: 2 changes at or above minor (--fail-on minor)");
  });

  test.concurrent("--fail-on never: exit 0 even with breaking changes, still reported", async () => {
    const baseline = shared;
    const result = await checkFixture(baseline, { tools: requiredAdded() }, ["--fail-on", "never"]);
    expect(result.code).toBe(0);
    expect(section(result.stdout, "BREAKING")).toEqual(REQUIRED_LINES);
    expect(result.stdout).toContain(`${SUMMARY_BREAKING}\n(--fail-on never: reporting only)\n`);
  });

  test.concurrent("--format json matches docs/report.schema.json and gives the verdict", async () => {
    const baseline = shared;
    const [breaking, clean] = await Promise.all([
      checkFixture(baseline, { tools: requiredAdded() }, ["--format", "json"]),
      checkFixture(baseline, BASE, ["--format", "json"]),
    ]);
    expect(breaking.code).toBe(1);
    expect(breaking.stderr).toBe("");
    const report = parseReport(breaking.stdout);
    expect(report).toMatchObject({
      reportVersion: 1,
      tool: { name: "mcp-contract" },
      command: "check",
      failOn: "breaking",
      result: "fail",
      requiredBump: "major",
      summary: { breaking: 1, minor: 1, patch: 0, total: 2 },
    });
    expect(report.baseline).toMatchObject({ source: baseline, server: { name: "fixture", version: "1.0.0" } });
    expect(report.current.source).toStartWith("live ");
    expect(report.current.protocolVersion).toBe(report.baseline.protocolVersion);
    expect(verdicts(report)).toEqual(["required-added:breaking:search", "property-added:minor:search"]);
    expect(report.changes[0]).toMatchObject({
      target: { kind: "tool", name: "search" },
      direction: "input",
      path: "/inputSchema/required",
      message: 'tool "search": property "region" added, and required at inputSchema',
    });

    expect(clean.code).toBe(0);
    expect(parseReport(clean.stdout)).toMatchObject({
      result: "pass",
      requiredBump: "none",
      summary: { breaking: 0, minor: 0, patch: 0, total: 0 },
      changes: [],
    });
  });

  test.concurrent("--format json --output FILE --format text: JSON to the file, text to stdout", async () => {
    const { dir, baseline } = ownBaseline();
    const file = join(dir, "report.json");
    const result = await checkFixture(baseline, { tools: requiredAdded() }, [
      "--format",
      "json",
      "--output",
      file,
      "--format",
      "text",
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout.startsWith("mcp-contract check  ")).toBe(true);
    expect(section(result.stdout, "BREAKING")).toEqual(REQUIRED_LINES);
    const report = parseReport(readFileSync(file, "utf8"));
    expect(report.result).toBe("fail");
    expect(verdicts(report)).toEqual(["required-added:breaking:search", "property-added:minor:search"]);
  });

  test.concurrent("two reports to stdout exit 2 before the server starts", async () => {
    const { dir, baseline } = ownBaseline();
    const pidFile = join(dir, "pids");
    const result = await checkFixture(baseline, { ...BASE, pidFile }, ["--format", "json", "--format", "text"]);
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain("only one report can go to stdout");
    expect(readPids(pidFile)).toEqual([]);
  });

  test.concurrent("--update reports, rewrites the baseline with the current surface and exits 0", async () => {
    const { dir, baseline } = ownBaseline();
    const changed = { tools: requiredAdded() };
    const [update, expected] = await Promise.all([
      checkFixture(baseline, changed, ["--update"]),
      snapshotBaseline(changed, dir, "expected.json"),
    ]);
    expect(update.code).toBe(0);
    expect(section(update.stdout, "BREAKING")).toEqual(REQUIRED_LINES);
    // Said once, by the text report's last line (issue #29), not again on stderr.
    expect(stderrLines(update)).toEqual([]);
    expect(update.stdout).toContain(`✔ accepted 1 breaking and 1 minor changes into ${baseline} (--update)`);
    // Byte for byte what snapshot writes for that server.
    expect(readFileSync(baseline, "utf8")).toBe(readFileSync(expected, "utf8"));

    const after = await checkFixture(baseline, changed);
    expect(after.code).toBe(0);
    expect(after.stdout).toContain("✔ no changes");
  });

  test.concurrent("a missing baseline exits 2, suggests `mcp-contract snapshot`, and starts no server", async () => {
    const dir = tempDir();
    const pidFile = join(dir, "pids");
    const missing = join(dir, "contracts", "missing.json");
    const [explicit, byDefault] = await Promise.all([
      checkFixture(missing, { pidFile }),
      runCli(["check", ...fixtureTarget({ pidFile })], { cwd: dir }),
    ]);
    expectCleanFailure(explicit, 2);
    expect(explicit.stderr).toContain(`no baseline lockfile at ${missing}`);
    expect(explicit.stderr).toContain(`mcp-contract snapshot -o ${missing}`);
    expectCleanFailure(byDefault, 2);
    expect(byDefault.stderr).toContain("no baseline lockfile at mcp.contract.json");
    expect(byDefault.stderr).toContain("mcp-contract snapshot");
    // The flag that names another baseline, by name.
    expect(byDefault.stderr).toContain("or name another with --baseline FILE.");
    expect(readPids(pidFile)).toEqual([]);
    expect(existsSync(join(dir, "mcp.contract.json"))).toBe(false);
  });

  test.concurrent("a truncated baseline exits 2 with file:line:col; lockfileVersion 99 exits 2 saying newer", async () => {
    const dir = tempDir();
    const good = readFileSync(shared, "utf8");
    const cut = good.indexOf('"tools": [') + '"tools": ['.length;
    const truncated = writeFile(dir, "truncated.json", good.slice(0, cut));
    const lines = good.slice(0, cut).split("\n");
    const where = `${lines.length}:${(lines.at(-1) ?? "").length + 1}`;
    const future = writeFile(dir, "future.json", good.replace('"lockfileVersion": 1', '"lockfileVersion": 99'));

    const [bad, newer] = await Promise.all([checkFixture(truncated, BASE), checkFixture(future, BASE)]);
    expectCleanFailure(bad, 2);
    expect(bad.stderr).toStartWith(`error: ${truncated}:${where}: not valid JSON: unexpected end of file`);
    expect(bad.stderr).toContain("truncated");
    expectCleanFailure(newer, 2);
    expect(newer.stderr).toContain(`${future} uses lockfile version 99`);
    expect(newer.stderr).toContain("newer mcp-contract");
    expect(newer.stderr).toContain("Upgrade");
  });

  test.concurrent("the baseline's client capabilities are declared again: no roots-only removal", async () => {
    const dir = tempDir();
    const config = { rootsTool: true };
    const baseline = await snapshotBaseline(config, dir, "roots.json", ["--client-capabilities", "roots"]);
    expect((JSON.parse(readFileSync(baseline, "utf8")) as Lockfile).tools.map((t) => t.name)).toContain("roots-only");
    const [reused, overridden] = await Promise.all([
      checkFixture(baseline, config),
      checkFixture(baseline, config, ["--client-capabilities", "sampling"]),
    ]);
    expect(reused.code).toBe(0);
    expect(reused.stdout).toContain("✔ no changes");
    expect(reused.stdout).not.toContain("roots-only");
    // An explicit flag wins over the recorded set, and then the tool is gone.
    expect(overridden.code).toBe(1);
    expect(section(overridden.stdout, "BREAKING")).toContain('  ✖ tool "roots-only": removed [tool-removed]');
  });

  test.concurrent("a server that crashes or hangs exits 3 with the server's words, and no report", async () => {
    const { dir, baseline } = ownBaseline();
    const [onList, beforeInit, hang] = await Promise.all([
      checkFixture(baseline, { ...BASE, mode: "crash-on-list" }),
      checkFixture(baseline, { ...BASE, mode: "crash-before-init" }),
      checkFixture(baseline, { ...BASE, mode: "hang-on-list" }, ["--timeout", "2"]),
    ]);
    expectCleanFailure(hang, 3);
    // tools/list normally; initialize when a loaded machine starts the fixture slowly.
    expect(hang.stderr).toMatch(/^error: no answer to (tools\/list|initialize) after 2 s/);
    expectCleanFailure(onList, 3);
    expect(onList.stderr).toContain("exited with code 5 during tools/list");
    expect(onList.stderr).toContain("fixture: crashed while listing tools");
    expectCleanFailure(beforeInit, 3);
    expect(beforeInit.stderr).toContain("fixture: fatal: cannot open database");
    expect(listDir(dir)).toEqual(["baseline.json"]);
  });

  test.concurrent("over Streamable HTTP: the same surface passes, a breaking one fails", async () => {
    const baseline = shared;
    const [same, changed] = await Promise.all([startHttpFixture(BASE), startHttpFixture({ tools: requiredAdded() })]);
    try {
      const withPassword = same.url.replace("http://", "http://user:pw-5ecret-77@");
      const [ok, broken, credentials] = await Promise.all([
        runCli(["check", "--baseline", baseline, "--url", `${same.url}/mcp`]),
        runCli(["check", "--baseline", baseline, "--url", `${changed.url}/mcp`, "--format", "json"]),
        runCli(["check", "--baseline", baseline, "--url", `${withPassword}/mcp`, "--format", "json"]),
      ]);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toContain(`→ live ${same.url}/mcp (fixture 1.0.0)`);
      expect(ok.stdout).toContain("✔ no changes");
      // A password in the URL never reaches the report.
      expect(credentials.code).toBe(0);
      expect(credentials.stdout + credentials.stderr).not.toContain("pw-5ecret-77");
      expect(parseReport(credentials.stdout).current.source).toBe(
        `live ${same.url.replace("http://", "http://user:***@")}/mcp`,
      );
      expect(broken.code).toBe(1);
      const report = parseReport(broken.stdout);
      expect(report.current.source).toBe(`live ${changed.url}/mcp`);
      expect(verdicts(report)).toEqual(["required-added:breaking:search", "property-added:minor:search"]);
    } finally {
      await Promise.all([same.stop(), changed.stop()]);
    }
  });
});

describe("check --baseline A --against B", () => {
  function files(newTools: ToolDef[]) {
    return writePair(BASE_TOOLS, newTools, ["baseline.json", "current.json"]);
  }

  test.concurrent("exit codes follow --fail-on, as for a live server", async () => {
    const same = files(BASE_TOOLS);
    const breaking = files(requiredAdded());
    const minor = files(compatible());
    const against = (p: { before: string; after: string }, extra: string[] = []) =>
      runCli(["check", "--baseline", p.before, "--against", p.after, ...extra]);
    const runs = await Promise.all([
      against(same),
      against(same, ["--fail-on", "patch"]),
      against(breaking),
      against(breaking, ["--fail-on", "never"]),
      against(minor),
      against(minor, ["--fail-on", "minor"]),
    ]);
    expect(runs.map((r) => r.code)).toEqual([0, 0, 1, 0, 0, 1]);
    for (const run of runs) expect(run.stderr).toBe("");
    expect(runs[0]?.stdout).toContain("✔ no changes");
    expect(section(runs[2]?.stdout ?? "", "BREAKING")).toEqual(REQUIRED_LINES);
    expect(runs[2]?.stdout).toContain(SUMMARY_BREAKING);
    expect(runs[2]?.stdout.split("\n")[0]).toBe(
      `mcp-contract check  ${breaking.before} (fixture 1.0.0) → ${breaking.after} (fixture 1.0.0)`,
    );
  });

  test.concurrent("--format json names both files as sources", async () => {
    const { before, after } = files(requiredAdded());
    const result = await runCli(["check", "--baseline", before, "--against", after, "--format", "json"]);
    expect(result.code).toBe(1);
    const report = parseReport(result.stdout);
    expect(report.baseline.source).toBe(before);
    expect(report.current.source).toBe(after);
    expect(report).toMatchObject({ command: "check", result: "fail", requiredBump: "major" });
  });

  test.concurrent("--against with a live server too exits 2 and starts nothing", async () => {
    const { dir, before, after } = files(BASE_TOOLS);
    const pidFile = join(dir, "pids");
    const [withCommand, withUrl] = await Promise.all([
      runCli(["check", "--baseline", before, "--against", after, ...fixtureTarget({ pidFile })]),
      runCli(["check", "--baseline", before, "--against", after, "--url", "http://127.0.0.1:1/mcp"]),
    ]);
    for (const result of [withCommand, withUrl]) {
      expectCleanFailure(result, 2);
      expect(result.stderr).toContain("give either --against FILE or a live server");
      expect(result.stderr).toContain("not both");
    }
    expect(readPids(pidFile)).toEqual([]);
  });

  test.concurrent("a missing or invalid --against file exits 2 naming it", async () => {
    const { dir, before } = files(BASE_TOOLS);
    const missing = join(dir, "nope.json");
    const invalid = writeFile(dir, "invalid.json", { ...lockfile(), tools: [{ title: "no name" }] });
    const [noFile, badFile] = await Promise.all([
      runCli(["check", "--baseline", before, "--against", missing]),
      runCli(["check", "--baseline", before, "--against", invalid]),
    ]);
    expectCleanFailure(noFile, 2);
    expect(noFile.stderr).toContain(`no --against lockfile at ${missing}`);
    expectCleanFailure(badFile, 2);
    expect(badFile.stderr).toContain(
      `${invalid} is not a valid mcp-contract lockfile: at $.tools[0].name, expected a string`,
    );
  });

  test.concurrent("--update takes the second file's surface into the baseline", async () => {
    const { before, after } = files(requiredAdded());
    const update = await runCli(["check", "--baseline", before, "--against", after, "--update"]);
    expect(update.code).toBe(0);
    expect(section(update.stdout, "BREAKING")).toEqual(REQUIRED_LINES);
    const [again, reverse] = await Promise.all([
      runCli(["check", "--baseline", before, "--against", after, "--fail-on", "patch"]),
      runCli(["diff", after, before, "--format", "json"]),
    ]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("✔ no changes");
    expect(parseReport(reverse.stdout).changes).toEqual([]);
  });
});

describe("check --against rejects live-only flags", () => {
  test("--timeout and --env with --against exit 2 and name the flags", async () => {
    const dir = tempDir();
    const lockfile = join(dir, "a.json");
    writeFileSync(lockfile, readFileSync(join(ROOT, "examples/weather.contract.json"), "utf8"));
    const result = await runCli([
      "check",
      "--baseline",
      lockfile,
      "--against",
      lockfile,
      "--timeout",
      "3",
      "--env",
      "A=1",
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "--env, --timeout apply only when a live server is captured; with --against FILE nothing is",
    );
  });
});
