/**
 * `mcp-contract diff OLD NEW`, run as a user runs it: exit codes and --fail-on, verdicts
 * that depend on the direction values flow, behaviour hints judged by their effective
 * values, rename hints, byte-stable reports, and colour only where it belongs.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ANSI,
  BASE_TOOLS,
  baseTool,
  lockfile,
  objectSchema,
  parseReport,
  section,
  tool,
  verdicts,
  withTool,
  writeFile,
  writePair,
} from "./contract-builders.ts";
import { BIN, BUN, expectCleanFailure, type Lockfile, listDir, ROOT, runCli, tempDir } from "./e2e-helpers.ts";

const ENUM_BEFORE = { type: "string", enum: ["sunny", "rain"] };
const ENUM_AFTER = { type: "string", enum: ["sunny", "rain", "snow"] };

/** A pair of lockfiles with one breaking (a new required property) and one compatible (a new optional one) change to `search`. */
function breakingPair() {
  const search = baseTool("search");
  const properties = search.inputSchema.properties as Record<string, object>;
  search.inputSchema = objectSchema({ ...properties, region: { type: "string" }, units: { type: "string" } }, [
    "q",
    "region",
  ]);
  return writePair(BASE_TOOLS, withTool(search));
}

async function diffJson(before: string, after: string, extra: string[] = []) {
  const result = await runCli(["diff", before, after, "--format", "json", ...extra]);
  expect(result.stderr).toBe("");
  return { code: result.code, report: parseReport(result.stdout) };
}

describe("exit codes", () => {
  test.concurrent("breaking changes: exit 0 by default (reporting only), 1 with --fail-on breaking", async () => {
    const { before, after } = breakingPair();
    const [plain, failing] = await Promise.all([
      runCli(["diff", before, after]),
      runCli(["diff", before, after, "--fail-on", "breaking"]),
    ]);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toBe("");
    expect(section(plain.stdout, "BREAKING").join("\n")).toContain("[required-added]");
    expect(plain.stdout).toContain("1 breaking, 1 minor, 0 patch · requires a MAJOR version bump");
    expect(plain.stdout).toContain("(--fail-on never: reporting only)");
    expect(plain.stdout).not.toContain("FAIL");

    expect(failing.code).toBe(1);
    expect(failing.stderr).toBe("");
    expect(failing.stdout).toContain("✖ FAIL: 1 change at or above breaking (--fail-on breaking)");
  });

  test.concurrent("--fail-on minor and patch count every change at or above them", async () => {
    const minor = writePair(BASE_TOOLS, [...BASE_TOOLS, tool("lookup")]);
    const fetch = baseTool("fetch");
    fetch.description = "Fetch one item by id";
    const patch = writePair(BASE_TOOLS, withTool(fetch));
    const runs = await Promise.all([
      runCli(["diff", minor.before, minor.after, "--fail-on", "breaking"]),
      runCli(["diff", minor.before, minor.after, "--fail-on", "minor"]),
      runCli(["diff", patch.before, patch.after, "--fail-on", "minor"]),
      runCli(["diff", patch.before, patch.after, "--fail-on", "patch"]),
    ]);
    expect(runs.map((r) => r.code)).toEqual([0, 1, 0, 1]);
    expect(runs[0]?.stdout).toContain("✔ PASS: nothing at or above breaking (--fail-on breaking)");
    expect(runs[1]?.stdout).toContain("✖ FAIL: 1 change at or above minor (--fail-on minor)");
    expect(runs[2]?.stdout).toContain("0 breaking, 0 minor, 1 patch · requires a PATCH version bump");
    expect(section(runs[3]?.stdout ?? "", "PATCH").join("\n")).toContain('tool "fetch"');
  });

  test.concurrent("identical files: no changes, exit 0 even with --fail-on patch", async () => {
    const { before } = writePair(BASE_TOOLS, BASE_TOOLS);
    const result = await runCli(["diff", before, before, "--fail-on", "patch"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("✔ no changes: the surfaces are identical");
  });

  test.concurrent("a missing file or an unknown --fail-on exits 2", async () => {
    const { dir, before } = writePair(BASE_TOOLS, BASE_TOOLS);
    const missing = join(dir, "nope.json");
    const [noFile, badLevel] = await Promise.all([
      runCli(["diff", before, missing]),
      runCli(["diff", before, before, "--fail-on", "major"]),
    ]);
    expectCleanFailure(noFile, 2);
    expect(noFile.stderr).toContain(`no new lockfile at ${missing}`);
    // diff names its files by position: no flag to point to.
    expect(noFile.stderr).not.toContain("flag");
    expect(badLevel.code).toBe(2);
    expect(badLevel.stdout).toBe("");
    expect(badLevel.stderr).toContain("breaking, minor, patch, never");
  });
});

describe("verdicts follow the direction values flow", () => {
  test.concurrent("an enum gaining a value: breaking in an outputSchema, minor in an inputSchema", async () => {
    const outBefore = tool("forecast", { outputSchema: objectSchema({ sky: ENUM_BEFORE }) });
    const outAfter = tool("forecast", { outputSchema: objectSchema({ sky: ENUM_AFTER }) });
    const inBefore = tool("forecast", { inputSchema: objectSchema({ sky: ENUM_BEFORE }) });
    const inAfter = tool("forecast", { inputSchema: objectSchema({ sky: ENUM_AFTER }) });
    const output = writePair([outBefore], [outAfter]);
    const input = writePair([inBefore], [inAfter]);

    const [outJson, inJson, outText, inText] = await Promise.all([
      diffJson(output.before, output.after),
      diffJson(input.before, input.after),
      runCli(["diff", output.before, output.after, "--fail-on", "breaking"]),
      runCli(["diff", input.before, input.after, "--fail-on", "breaking"]),
    ]);
    // The same edit, opposite verdicts.
    expect(outJson.report.changes).toHaveLength(1);
    expect(outJson.report.changes[0]).toMatchObject({
      rule: "enum-value-added",
      severity: "breaking",
      direction: "output",
      path: "/outputSchema/properties/sky/enum",
      after: "snow",
    });
    expect(outJson.report.requiredBump).toBe("major");
    expect(inJson.report.changes).toHaveLength(1);
    expect(inJson.report.changes[0]).toMatchObject({
      rule: "enum-value-added",
      severity: "minor",
      direction: "input",
      path: "/inputSchema/properties/sky/enum",
      after: "snow",
    });
    expect(inJson.report.requiredBump).toBe("minor");

    expect(outText.code).toBe(1);
    expect(section(outText.stdout, "BREAKING")[0]).toBe(
      '  ✖ tool "forecast": value "snow" now allowed at outputSchema.properties.sky [enum-value-added]',
    );
    expect(inText.code).toBe(0);
    expect(section(inText.stdout, "BREAKING")).toEqual([]);
    expect(section(inText.stdout, "MINOR")[0]).toBe(
      '  ▲ tool "forecast": value "snow" now allowed at inputSchema.properties.sky [enum-value-added]',
    );
  });

  test.concurrent("the reverse edit (a value removed) flips both verdicts back", async () => {
    const output = writePair(
      [tool("forecast", { outputSchema: objectSchema({ sky: ENUM_AFTER }) })],
      [tool("forecast", { outputSchema: objectSchema({ sky: ENUM_BEFORE }) })],
    );
    const input = writePair(
      [tool("forecast", { inputSchema: objectSchema({ sky: ENUM_AFTER }) })],
      [tool("forecast", { inputSchema: objectSchema({ sky: ENUM_BEFORE }) })],
    );
    const [out, inp] = await Promise.all([diffJson(output.before, output.after), diffJson(input.before, input.after)]);
    expect(verdicts(out.report)).toEqual(["enum-value-removed:minor:forecast"]);
    expect(verdicts(inp.report)).toEqual(["enum-value-removed:breaking:forecast"]);
  });

  test.concurrent("a required property added: breaking on input, minor on output", async () => {
    const input = writePair(
      [tool("t", { inputSchema: objectSchema({ a: { type: "string" }, b: { type: "string" } }, ["a"]) })],
      [tool("t", { inputSchema: objectSchema({ a: { type: "string" }, b: { type: "string" } }, ["a", "b"]) })],
    );
    const output = writePair(
      [tool("t", { outputSchema: objectSchema({ a: { type: "string" }, b: { type: "string" } }, ["a"]) })],
      [tool("t", { outputSchema: objectSchema({ a: { type: "string" }, b: { type: "string" } }, ["a", "b"]) })],
    );
    const [inp, out] = await Promise.all([diffJson(input.before, input.after), diffJson(output.before, output.after)]);
    expect(verdicts(inp.report)).toEqual(["required-added:breaking:t"]);
    expect(verdicts(out.report)).toEqual(["required-added:minor:t"]);
  });
});

describe("behaviour hints compare effective values", () => {
  test.concurrent("readOnlyHint true → absent is breaking (tool-no-longer-read-only)", async () => {
    const { before, after } = writePair(
      [tool("lookup", { annotations: { readOnlyHint: true } })],
      [tool("lookup", {})],
    );
    const [json, text] = await Promise.all([
      diffJson(before, after),
      runCli(["diff", before, after, "--fail-on", "breaking"]),
    ]);
    expect(json.report.changes).toHaveLength(1);
    expect(json.report.changes[0]).toMatchObject({
      rule: "tool-no-longer-read-only",
      severity: "breaking",
      target: { kind: "tool", name: "lookup" },
      path: "/annotations/readOnlyHint",
    });
    expect(text.code).toBe(1);
    expect(section(text.stdout, "BREAKING")[0]).toBe(
      '  ✖ tool "lookup": no longer read-only (readOnlyHint true → absent) [tool-no-longer-read-only]',
    );
    // The note explains what the absent hints now mean.
    expect(text.stdout).toContain("destructiveHint is absent, which means true");
  });

  // Every lockfile line is explained (issue #12): the defaults spelled out are one patch entry.
  test.concurrent("an absent destructiveHint and an explicit destructiveHint: true are the same: patch", async () => {
    const plain = tool("delete_file", {});
    const emptyAnnotations = tool("delete_file", { annotations: {} });
    const explicit = tool("delete_file", { annotations: { destructiveHint: true } });
    const explicitDefaults = tool("delete_file", {
      annotations: { destructiveHint: true, readOnlyHint: false, idempotentHint: false, openWorldHint: true },
    });
    const pairs = [
      writePair([plain], [explicit]),
      writePair([explicit], [plain]),
      writePair([emptyAnnotations], [explicit]),
      writePair([plain], [explicitDefaults]),
    ];
    const results = await Promise.all(
      pairs.map((p) => runCli(["diff", p.before, p.after, "--fail-on", "minor", "--format", "json"])),
    );
    for (const result of results) {
      expect(result.code).toBe(0);
      const report = parseReport(result.stdout);
      expect(report.changes.map((c) => [c.rule, c.severity])).toEqual([["equivalent-rewrite", "patch"]]);
      // An equivalent rewrite needs no release (issue #26).
      expect(report.requiredBump).toBe("none");
    }
    const text = await runCli(["diff", pairs[0]?.before ?? "", pairs[0]?.after ?? ""]);
    expect(text.stdout).toContain("equivalent rewrite, no effect: annotations.destructiveHint absent → true");
  });

  test.concurrent("destructiveHint true → false is reported, false → absent is breaking", async () => {
    const safer = writePair(
      [tool("rm", { annotations: { destructiveHint: true } })],
      [tool("rm", { annotations: { destructiveHint: false } })],
    );
    const riskier = writePair(
      [tool("rm", { annotations: { destructiveHint: false } })],
      [tool("rm", { annotations: {} })],
    );
    const [a, b] = await Promise.all([diffJson(safer.before, safer.after), diffJson(riskier.before, riskier.after)]);
    expect(a.report.changes.map((c) => c.rule)).toEqual(["tool-no-longer-destructive"]);
    expect(verdicts(b.report)).toEqual(["tool-now-destructive:breaking:rm"]);
  });
});

describe("renames", () => {
  test.concurrent("a removed tool with a similar new name gets a rename hint; the removal still breaks", async () => {
    const { before, after } = writePair(
      [tool("get_forecast"), tool("stay")],
      [tool("get_forecasts", { inputSchema: { type: "object" } }), tool("stay")],
    );
    const [text, json] = await Promise.all([
      runCli(["diff", before, after, "--fail-on", "breaking"]),
      diffJson(before, after),
    ]);
    expect(text.code).toBe(1);
    expect(section(text.stdout, "BREAKING")).toEqual([
      '  ✖ tool "get_forecast": removed (renamed to "get_forecasts"?) [tool-removed]',
      '      hint: possibly renamed to "get_forecasts" (the removal still breaks callers of the old name)',
    ]);
    expect(section(text.stdout, "MINOR")).toEqual(['  ▲ tool "get_forecasts": added [tool-added]']);
    const removed = json.report.changes.find((c) => c.rule === "tool-removed");
    expect(removed).toMatchObject({ severity: "breaking", renamedTo: "get_forecasts" });
  });

  test.concurrent("an identical input schema under a new name gets a hint too", async () => {
    const schema = objectSchema({ city: { type: "string" }, days: { type: "integer" } }, ["city"]);
    const { before, after } = writePair(
      [tool("lookup_city", { inputSchema: schema })],
      [tool("find_town", { inputSchema: structuredClone(schema) })],
    );
    const json = await diffJson(before, after);
    expect(json.report.changes.find((c) => c.rule === "tool-removed")?.renamedTo).toBe("find_town");
  });

  test.concurrent("an unrelated name with a different schema gets no hint", async () => {
    const { before, after } = writePair(
      [tool("get_forecast")],
      [tool("send_email", { inputSchema: { type: "object" } })],
    );
    const json = await diffJson(before, after);
    expect(json.report.changes.find((c) => c.rule === "tool-removed")?.renamedTo).toBeUndefined();
    const text = await runCli(["diff", before, after]);
    expect(text.stdout).not.toContain("hint:");
  });
});

describe("every kind of item", () => {
  test.concurrent("a report touching tools, resources, templates, prompts and the server matches the schema", async () => {
    const dir = tempDir();
    const before = writeFile(
      dir,
      "a.json",
      lockfile({
        server: { name: "srv", version: "1.0.0", title: "Old" },
        protocolVersion: "2025-06-18",
        capabilities: { tools: {}, resources: {}, prompts: {}, logging: {} },
        instructions: "old",
        tools: [tool("t", { outputSchema: objectSchema({ n: { type: "integer" } }, ["n"]) })] as Lockfile["tools"],
        resources: [
          { uri: "res://a", name: "a", mimeType: "text/plain" },
          { uri: "res://gone", name: "gone" },
        ],
        resourceTemplates: [{ uriTemplate: "tpl://{x}", name: "x" }],
        prompts: [{ name: "p", arguments: [{ name: "a", required: false }] }],
      }),
    );
    const after = writeFile(
      dir,
      "b.json",
      lockfile({
        server: { name: "srv", version: "2.0.0", title: "New" },
        protocolVersion: "2025-11-25",
        capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
        instructions: "new",
        tools: [tool("t", { outputSchema: objectSchema({ n: { type: "number" } }, ["n"]) })] as Lockfile["tools"],
        resources: [
          { uri: "res://a", name: "a", mimeType: "application/json" },
          { uri: "res://new", name: "new" },
        ],
        resourceTemplates: [{ uriTemplate: "tpl://{x}/{y}", name: "x" }],
        prompts: [{ name: "p", arguments: [{ name: "a", required: true }] }],
      }),
    );
    const { code, report } = await diffJson(before, after, ["--fail-on", "breaking"]);
    expect(code).toBe(1);
    expect(report.changes.map((c) => `${c.severity} ${c.rule} ${c.target.kind}:${c.target.name}`)).toEqual([
      "breaking type-widened tool:t",
      "breaking resource-mime-type-changed resource:res://a",
      "breaking resource-removed resource:res://gone",
      "breaking template-variable-added resourceTemplate:tpl://{x}",
      "breaking prompt-argument-now-required prompt:p",
      "breaking capability-removed server:",
      "minor resource-added resource:res://new",
      "minor capability-added server:",
      "minor protocol-version-changed server:",
      "patch instructions-changed server:",
      "patch server-info-changed server:",
      "patch server-info-changed server:",
    ]);
    expect(report.summary as Record<string, number>).toEqual({
      breaking: 6,
      minor: 3,
      patch: 3,
      security: 0,
      total: 12,
    });
    expect(report).toMatchObject({
      baseline: { server: { name: "srv", version: "1.0.0" }, protocolVersion: "2025-06-18" },
      current: { server: { name: "srv", version: "2.0.0" }, protocolVersion: "2025-11-25" },
    });
  });
});

describe("report destinations", () => {
  test.concurrent("bad --format / --output combinations exit 2", async () => {
    const { dir, before, after } = breakingPair();
    const [yaml, unknownExtension, twoStdout, sameFile, emptyFile] = await Promise.all([
      runCli(["diff", before, after, "--format", "yaml"]),
      runCli(["diff", before, after, "--output", join(dir, "r.out")]),
      runCli(["diff", before, after, "--format", "json", "--format", "text"]),
      runCli([
        "diff",
        before,
        after,
        "--format",
        `json=${join(dir, "r.json")}`,
        "--format",
        `sarif=${join(dir, "r.json")}`,
      ]),
      runCli(["diff", before, after, "--format", "sarif="]),
    ]);
    for (const result of [yaml, unknownExtension, twoStdout, sameFile, emptyFile]) expectCleanFailure(result, 2);
    expect(yaml.stderr).toContain(
      'unknown --format "yaml"; choose from text, json, sarif, markdown, junit, github, changelog.',
    );
    expect(unknownExtension.stderr).toContain(
      `--output ${join(dir, "r.out")}: which format? Its extension names none; give it as --format FORMAT=${join(dir, "r.out")}`,
    );
    expect(twoStdout.stderr).toContain("only one report can go to stdout");
    expect(sameFile.stderr).toContain(`two reports (json and sarif) would be written to ${join(dir, "r.json")}`);
    expect(emptyFile.stderr).toContain("--format sarif= names no file");
    expect(listDir(dir)).toEqual(["new.json", "old.json"]);
  });

  test.concurrent("--format F=FILE; --output alone takes the format of its extension; missing directories are created", async () => {
    const { dir, before, after } = breakingPair();
    const result = await runCli([
      "diff",
      before,
      after,
      "--format",
      `sarif=${join(dir, "out", "r.sarif")}`,
      "--output",
      join(dir, "out", "deep", "r.json"),
      "--output",
      join(dir, "r.md"),
      "--format",
      "github",
    ]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^::error .*title=required-added::/m);
    expect(JSON.parse(readFileSync(join(dir, "out", "r.sarif"), "utf8")).version).toBe("2.1.0");
    expect(parseReport(readFileSync(join(dir, "out", "deep", "r.json"), "utf8")).summary.total).toBe(2);
    expect(readFileSync(join(dir, "r.md"), "utf8")).toStartWith(
      "## ⚠️ mcp-contract diff: 1 breaking change, reporting only",
    );
  });

  test.concurrent("--output - is stdout; text and JSON files hold the same report", async () => {
    const { dir, before, after } = breakingPair();
    const [both, plain] = await Promise.all([
      runCli([
        "diff",
        before,
        after,
        "--format",
        "json",
        "--output",
        join(dir, "r.json"),
        "--format",
        "text",
        "--output",
        "-",
      ]),
      runCli(["diff", before, after]),
    ]);
    expect(both.code).toBe(0);
    expect(both.stdout).toBe(plain.stdout);
    expect(parseReport(readFileSync(join(dir, "r.json"), "utf8")).summary as Record<string, number>).toEqual({
      breaking: 1,
      minor: 1,
      patch: 0,
      security: 0,
      total: 2,
    });
  });
});

describe("determinism", () => {
  /** Every object's keys in reverse order, and the item lists reversed: same contract, other bytes. */
  function reorder(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(reorder);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reorder(v)]),
    );
  }
  function reordered(contract: Lockfile): unknown {
    const out = reorder(contract) as Lockfile;
    out.tools = [...out.tools].reverse();
    return out;
  }

  const OLD = lockfile({
    tools: [
      tool("a_tool", { outputSchema: objectSchema({ sky: ENUM_BEFORE }), annotations: { readOnlyHint: true } }),
      tool("b_tool", {
        inputSchema: objectSchema({ x: { type: "integer", minimum: 0 }, y: { type: "string" } }, ["x"]),
      }),
      tool("c_tool"),
      tool("old_name"),
    ] as Lockfile["tools"],
  });
  const NEW = lockfile({
    tools: [
      tool("a_tool", { outputSchema: objectSchema({ sky: ENUM_AFTER }) }),
      tool("b_tool", {
        inputSchema: objectSchema({ x: { type: "number", minimum: 1 }, z: { type: "string" } }, ["x", "z"]),
      }),
      tool("c_tool", { description: "changed" }),
      tool("old_names"),
    ] as Lockfile["tools"],
  });

  test.concurrent("the same diff twice gives the same bytes, in text and in JSON", async () => {
    const dir = tempDir();
    const before = writeFile(dir, "old.json", OLD);
    const after = writeFile(dir, "new.json", NEW);
    const runs = await Promise.all([
      runCli(["diff", before, after]),
      runCli(["diff", before, after]),
      runCli(["diff", before, after, "--format", "json"]),
      runCli(["diff", before, after, "--format", "json"]),
    ]);
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(runs[0]?.stdout).toBe(runs[1]?.stdout ?? "");
    expect(runs[2]?.stdout).toBe(runs[3]?.stdout ?? "");
    const report = parseReport(runs[2]?.stdout ?? "");
    expect(report.summary.total).toBeGreaterThanOrEqual(8);
    // Sorted by severity first.
    const ranks = report.changes.map((c) => ["breaking", "minor", "patch"].indexOf(c.severity));
    expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
    // Fingerprints are distinct.
    expect(new Set(report.changes.map((c) => c.fingerprint)).size).toBe(report.changes.length);
  });

  test.concurrent("key and item order inside the files does not change the report", async () => {
    const [dirA, dirB] = [tempDir(), tempDir()];
    writeFile(dirA, "old.json", OLD);
    writeFile(dirA, "new.json", NEW);
    writeFile(dirB, "old.json", reordered(OLD) as object);
    writeFile(dirB, "new.json", reordered(NEW) as object);
    expect(readFileSync(join(dirA, "new.json"), "utf8")).not.toBe(readFileSync(join(dirB, "new.json"), "utf8"));
    const runs = await Promise.all(
      [dirA, dirB].flatMap((cwd) => [
        runCli(["diff", "old.json", "new.json"], { cwd }),
        runCli(["diff", "old.json", "new.json", "--format", "json"], { cwd }),
      ]),
    );
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(runs[2]?.stdout).toBe(runs[0]?.stdout ?? "");
    expect(runs[3]?.stdout).toBe(runs[1]?.stdout ?? "");
  });
});

describe("colour", () => {
  test.concurrent("no ANSI escapes with NO_COLOR=1, or when stdout is a pipe; the text is the same", async () => {
    const { before, after } = breakingPair();
    const [noColor, piped] = await Promise.all([
      runCli(["diff", before, after]),
      runCli(["diff", before, after], { env: { NO_COLOR: undefined, FORCE_COLOR: undefined } }),
    ]);
    expect(noColor.stdout).toContain("BREAKING (1)");
    expect(noColor.stdout).not.toMatch(ANSI);
    expect(piped.stdout).not.toMatch(ANSI);
    expect(piped.stdout).toBe(noColor.stdout);
  });

  test.concurrent("--color always colours stdout (before or after the command); stripped, it is the plain text", async () => {
    const { before, after } = breakingPair();
    const [plain, after1, before1, forced] = await Promise.all([
      runCli(["diff", before, after]),
      runCli(["diff", before, after, "--color", "always"]),
      runCli(["--color", "always", "diff", before, after]),
      runCli(["diff", before, after], { env: { NO_COLOR: undefined, FORCE_COLOR: "1" } }),
    ]);
    for (const result of [after1, before1, forced]) {
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(ANSI);
      expect(result.stdout).toContain("\u001b[1;31mBREAKING (1)\u001b[0m");
      expect(result.stdout.replace(/\u001b\[[0-9;]*m/g, "")).toBe(plain.stdout);
    }
  });

  test.concurrent("--color never beats FORCE_COLOR; JSON and report files never get colour", async () => {
    const { dir, before, after } = breakingPair();
    const file = join(dir, "report.txt");
    const [never, json, toFile] = await Promise.all([
      runCli(["diff", before, after, "--color", "never"], { env: { NO_COLOR: undefined, FORCE_COLOR: "1" } }),
      runCli(["diff", before, after, "--color", "always", "--format", "json"]),
      runCli(["diff", before, after, "--color", "always", "--output", file]),
    ]);
    expect(never.stdout).toContain("BREAKING (1)");
    expect(never.stdout).not.toMatch(ANSI);
    expect(json.stdout).not.toMatch(ANSI);
    parseReport(json.stdout);
    expect(toFile).toEqual({ code: 0, stdout: "", stderr: "" });
    const written = readFileSync(file, "utf8");
    expect(written).toContain("BREAKING (1)");
    expect(written).not.toMatch(ANSI);
  });
});

describe("start-up", () => {
  /**
   * Runs the command in-process from source, then counts the MCP SDK modules Bun loaded.
   * With CONTROL set it also imports the SDK module that live HTTP captures load
   * (src/connect/index.ts loads it lazily), to show the count does see the SDK when it is loaded.
   */
  const PROBE = `
const { buildProgram } = await import("./src/cli/program.ts");
if (process.env.PROBE_CONTROL) await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
const argv = ["bun", "mcp-contract", ...JSON.parse(process.env.PROBE_ARGS)];
await (await buildProgram(argv)).parseAsync(argv);
const sdk = Object.keys(require.cache).filter((k) => k.includes("@modelcontextprotocol"));
// ajv's code, not the meta-schema JSON files interpreted.ts reads from its package.
const ajv = Object.keys(require.cache).filter((k) => /node_modules[\\/]ajv[\\/].*\\.js$/.test(k));
process.stderr.write("sdk-modules=" + sdk.length + " ajv-modules=" + ajv.length + "\\n");
`;

  async function probe(
    args: string[],
    control = false,
  ): Promise<{ sdkModules: number; ajvModules: number; stdout: string }> {
    const proc = Bun.spawn([BUN, "-e", PROBE], {
      cwd: ROOT,
      env: {
        ...process.env,
        NO_COLOR: "1",
        PROBE_ARGS: JSON.stringify(args),
        ...(control ? { PROBE_CONTROL: "1" } : {}),
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    const match = /sdk-modules=(\d+) ajv-modules=(\d+)/.exec(stderr);
    if (code !== 0 || !match) throw new Error(`probe failed (${code}): ${stderr}`);
    return { sdkModules: Number(match[1]), ajvModules: Number(match[2]), stdout };
  }

  test.skipIf(BIN !== undefined)("diff, check --against and lint --from never load the MCP SDK", async () => {
    const { before, after } = breakingPair();
    const [diff, json, check, lint, control] = await Promise.all([
      probe(["diff", before, after]),
      probe(["diff", before, after, "--format", "json"]),
      probe(["check", "--baseline", before, "--against", after, "--fail-on", "never"]),
      probe(["lint", "--from", after, "--fail-on", "never"]),
      probe(["diff", before, after], true),
    ]);
    // The commands really ran.
    expect(diff.stdout).toContain("[required-added]");
    expect(parseReport(json.stdout).summary.breaking).toBe(1);
    expect(check.stdout).toContain("mcp-contract check");
    expect(lint.stdout).toContain("mcp-contract lint");
    expect([diff.sdkModules, json.sdkModules, check.sdkModules, lint.sdkModules]).toEqual([0, 0, 0, 0]);
    // The probe can fail: loading what a live capture loads does pull the SDK in.
    expect(control.sdkModules).toBeGreaterThan(0);
  });

  test.skipIf(BIN !== undefined)(
    "ajv is loaded only for schemas the interpreting validator and lint's meta-schema shortcut cannot vouch for",
    async () => {
      const { before, after } = breakingPair();
      // A format added: its witness needs a schema with format, which only ajv checks.
      const [plain, dated] = [{ type: "string" }, { type: "string", format: "date-time" }].map((when) => {
        const search = baseTool("search");
        search.inputSchema = objectSchema({ when }, ["when"]);
        return withTool(search);
      });
      const formatted = writePair(plain ?? [], dated ?? []);
      const [rules, diff, withWitness, lint, witnessFormatted] = await Promise.all([
        probe(["rules", "tool-removed"]),
        probe(["diff", before, after, "--no-witness"]),
        probe(["diff", before, after]),
        probe(["lint", "--from", after, "--fail-on", "never"]),
        probe(["diff", formatted.before, formatted.after]),
      ]);
      expect(diff.stdout).toContain("[required-added]");
      expect(withWitness.stdout).toContain("[required-added]");
      // Plain schemas: witnesses are checked by @cfworker/json-schema, lint's meta-schema check by the shortcut.
      expect([rules.ajvModules, diff.ajvModules, withWitness.ajvModules, lint.ajvModules]).toEqual([0, 0, 0, 0]);
      // The probe sees ajv when it is loaded.
      expect(witnessFormatted.stdout).toContain("[format-added]");
      expect(witnessFormatted.ajvModules).toBeGreaterThan(0);
    },
  );
});

describe("the pair itself", () => {
  test.concurrent("two different servers, and a side captured with fewer client capabilities: notices", async () => {
    const dir = tempDir("mcp-contract-pair-");
    const before = writeFile(
      dir,
      "weather.json",
      lockfile({ server: { name: "weather", version: "1.0.0" }, capture: { clientCapabilities: ["roots"] } }),
    );
    const after = writeFile(dir, "billing.json", lockfile({ server: { name: "billing", version: "" } }));
    const result = await runCli(["diff", before, after]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'notice: the two sides are different servers: "weather" (baseline) and "billing" (current).',
    );
    expect(result.stdout).toContain(
      "notice: the current side was captured declaring fewer client capabilities (none) than the baseline (roots)",
    );
    // An empty server version adds nothing, not a double space.
    expect(result.stdout).toContain(`${after} (billing)`);
  });
});
