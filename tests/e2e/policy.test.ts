/**
 * The CI-integration policy of check and diff, end to end: consumer-driven scoping (--used,
 * --used-by), the policy file (severity overrides, ignores, expiry, failOn), break-glass,
 * --enforce-semver, and --baseline-ref reading the baseline from git. Every comparison is
 * lockfile against lockfile (check --against), so no server is started.
 */
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type JsonReport, lockfile, objectSchema, parseReport, tool, writeFile } from "./contract-builders.ts";
import { expectCleanFailure, type Lockfile, runCli, tempDir } from "./e2e-helpers.ts";

// ---------------------------------------------------------------- the two surfaces

const OLD_TOOLS = [
  tool("get_forecast", {
    inputSchema: objectSchema({ city: { type: "string" }, units: { type: "string" } }, ["city"]),
  }),
  tool("set_alert", { description: "Set a weather alert" }),
  tool("legacy_lookup"),
];
/** get_forecast: units now required (breaking); set_alert: description (patch); legacy_lookup removed (breaking). */
const NEW_TOOLS = [
  tool("get_forecast", {
    inputSchema: objectSchema({ city: { type: "string" }, units: { type: "string" } }, ["city", "units"]),
  }),
  tool("set_alert", { description: "Set a weather alert for a city" }),
];
const TEMPLATE = { uriTemplate: "weather://city/{city}/today", name: "today" };

function surfaces(versions: [string, string] = ["1.4.2", "1.4.3"], keepTemplate = false) {
  return {
    old: lockfile({
      server: { name: "weather", version: versions[0] },
      tools: OLD_TOOLS as Lockfile["tools"],
      resourceTemplates: [TEMPLATE],
      capabilities: { tools: {}, resources: {} },
    }),
    new: lockfile({
      server: { name: "weather", version: versions[1] },
      tools: NEW_TOOLS as Lockfile["tools"],
      resourceTemplates: keepTemplate ? [TEMPLATE] : [],
      capabilities: { tools: {}, resources: {} },
    }),
  };
}

interface Setup {
  dir: string;
  baseline: string;
  current: string;
}

/** DIR/baseline.json and DIR/current.json, and optionally DIR/mcp-contract.config.json. */
function setup(options: { policy?: object | string; versions?: [string, string]; keepTemplate?: boolean } = {}): Setup {
  const dir = tempDir("mcp-contract-policy-");
  const { old, new: current } = surfaces(options.versions, options.keepTemplate);
  if (options.policy !== undefined) writeFile(dir, "mcp-contract.config.json", options.policy);
  return { dir, baseline: writeFile(dir, "baseline.json", old), current: writeFile(dir, "current.json", current) };
}

/** The JSON report with the policy's additions: notices, and exempt on changes. */
type PolicyReport = Omit<JsonReport, "changes"> & {
  notices?: string[];
  changes: (JsonReport["changes"][number] & { exempt?: { kind: string; reason: string } })[];
};

async function checkJson(s: Setup, extra: string[] = [], env: Record<string, string | undefined> = {}) {
  const result = await runCli(
    ["check", "--baseline", s.baseline, "--against", s.current, "--format", "json", "--no-witness", ...extra],
    { env, cwd: s.dir },
  );
  return { result, report: result.stdout ? (parseReport(result.stdout) as PolicyReport) : undefined };
}

/** rule:target → exempt kind ("-" when it counts). */
function exemptions(report: PolicyReport | undefined): Record<string, string> {
  return Object.fromEntries(
    (report?.changes ?? []).map((c) => [`${c.rule}:${c.target.name}`, c.exempt ? c.exempt.kind : "-"]),
  );
}

const ALL_COUNT = {
  "required-added:get_forecast": "-",
  "tool-removed:legacy_lookup": "-",
  "template-removed:weather://city/{city}/today": "-",
  "description-changed:set_alert": "-",
  "server-info-changed:": "-",
};

describe("the unscoped comparison", () => {
  test.concurrent("three breaking changes fail the check", async () => {
    const { result, report } = await checkJson(setup());
    expect(result.code).toBe(1);
    expect(exemptions(report)).toEqual(ALL_COUNT);
    expect(report?.notices ?? []).toEqual([]);
  });
});

// ---------------------------------------------------------------- consumer-driven scoping

describe("--used", () => {
  test.concurrent("a used tool with a breaking change fails; the rest is listed but out of scope", async () => {
    const { result, report } = await checkJson(setup(), ["--used", "get_forecast"]);
    expect(result.code).toBe(1);
    expect(exemptions(report)).toEqual({
      ...ALL_COUNT,
      "tool-removed:legacy_lookup": "out-of-scope",
      "template-removed:weather://city/{city}/today": "out-of-scope",
      "description-changed:set_alert": "out-of-scope",
    });
    const legacy = report?.changes.find((c) => c.target.name === "legacy_lookup");
    expect(legacy?.exempt).toEqual({ kind: "out-of-scope", reason: "not used by the consumer (--used get_forecast)" });
  });

  test.concurrent("globs and lists: using only set_* passes; the JSON report lists the resolved scope", async () => {
    const { result, report } = await checkJson(setup(), ["--used", "set_*,set_alert", "--used", "set_?lert"]);
    expect(result.code).toBe(0);
    expect(report?.result).toBe("pass");
    expect(report?.summary.total).toBe(5);
    expect(report?.changes.find((c) => c.target.name === "legacy_lookup")?.exempt?.reason).toBe(
      "not used by the consumer (--used set_*,set_alert,set_?lert)",
    );
    expect((report as unknown as { scope: unknown }).scope).toEqual({
      given: "--used set_*,set_alert,set_?lert",
      used: ["set_*", "set_alert", "set_?lert"],
      usedBy: [],
      items: [{ kind: "tool", name: "set_alert" }],
    });
  });

  test.concurrent("a --used name that matches nothing on either side exits 2 with the closest names", async () => {
    const s = setup();
    const [typo, nothing, diff] = await Promise.all([
      runCli(["check", "--baseline", s.baseline, "--against", s.current, "--used", "get_forcast,set_alert"]),
      runCli(["check", "--baseline", s.baseline, "--against", s.current, "--used", "nonexistent_tool"]),
      runCli(["diff", s.baseline, s.current, "--used", "legacy_lookupp"]),
    ]);
    for (const result of [typo, nothing, diff]) expectCleanFailure(result, 2);
    expect(typo.stderr).toContain(
      '--used "get_forcast" matches no tool, prompt, resource or template on either side. Did you mean "get_forecast"?',
    );
    expect(typo.stderr).toContain("would mark every change out of scope and pass the run");
    expect(nothing.stderr).toContain('--used "nonexistent_tool" matches no tool');
    expect(nothing.stderr).not.toContain("Did you mean");
    // A name only the old side has still counts: the consumer used it.
    expect(diff.stderr).toContain('Did you mean "legacy_lookup"?');
  });

  test.concurrent("a concrete URI selects the template it fits", async () => {
    const { result, report } = await checkJson(setup(), ["--used", "weather://city/paris/today"]);
    expect(result.code).toBe(1);
    expect(exemptions(report)["template-removed:weather://city/{city}/today"]).toBe("-");
  });

  test.concurrent("diff takes --used too", async () => {
    const s = setup();
    const result = await runCli(["diff", s.baseline, s.current, "--used", "set_alert", "--fail-on", "breaking"]);
    expect(result.code).toBe(0);
    const failing = await runCli(["diff", s.baseline, s.current, "--used", "legacy_*", "--fail-on", "breaking"]);
    expect(failing.code).toBe(1);
  });

  test.concurrent("--used with no names is a usage error", async () => {
    const s = setup();
    const result = await runCli(["check", "--baseline", s.baseline, "--against", s.current, "--used", " , "]);
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain("--used needs at least one name or glob");
  });
});

describe("--used-by", () => {
  function consumer(files: Record<string, string>): string {
    const dir = tempDir("mcp-contract-consumer-");
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, ".."), { recursive: true });
      writeFile(dir, name, text);
    }
    return dir;
  }

  test.concurrent("a consumer that calls get_forecast is broken by get_forecast's change only", async () => {
    const src = consumer({
      "src/forecast.ts":
        'export const forecast = (city: string) => client.callTool({ name: "get_forecast", arguments: { city } });\n',
      "node_modules/dep/index.js": 'call("legacy_lookup")\n',
    });
    const { result, report } = await checkJson(setup(), ["--used-by", join(src, "src"), "--used-by", src]);
    expect(result.code).toBe(1);
    expect(exemptions(report)).toEqual({
      ...ALL_COUNT,
      "tool-removed:legacy_lookup": "out-of-scope",
      "template-removed:weather://city/{city}/today": "out-of-scope",
      "description-changed:set_alert": "out-of-scope",
    });
    expect(report?.changes.find((c) => c.target.name === "legacy_lookup")?.exempt?.reason).toBe(
      `not used by the consumer (--used-by ${join(src, "src")} ${src})`,
    );
  });

  test.concurrent("a Python consumer of set_alert and of a URI the template fits", async () => {
    const src = consumer({
      "client.py": "await s.call_tool('set_alert', {})\nawait s.read_resource(f'weather://city/{city}/today')\n",
    });
    const { result, report } = await checkJson(setup(), ["--used-by", src]);
    expect(result.code).toBe(1);
    expect(exemptions(report)["template-removed:weather://city/{city}/today"]).toBe("-");
    expect(exemptions(report)["required-added:get_forecast"]).toBe("out-of-scope");
  });

  test.concurrent("a consumer of set_alert alone passes, and the scope is on stderr nowhere", async () => {
    const src = consumer({ "main.go": 'res, _ := c.CallTool(ctx, "set_alert", nil)\n' });
    const { result } = await checkJson(setup(), ["--used-by", src]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
  });

  test.concurrent("a consumer that names nothing of the server: a warning, a notice, and only server changes count", async () => {
    const empty = consumer({ "README.md": "# nothing here\n" });
    const none = consumer({});
    const [names, files] = await Promise.all([
      checkJson(setup(), ["--used-by", empty]),
      checkJson(setup(), ["--used-by", none]),
    ]);
    const expected = `--used-by ${empty} mentions none of the tools, prompts, resources or templates of either side in its string literals (1 files scanned), so only server-level changes count.`;
    expect(names.result.stderr).toBe(`warning: ${expected}\n`);
    expect(names.report?.notices).toEqual([expected]);
    expect(names.result.code).toBe(0);
    const scope = (names.report as unknown as { scope: { fromUsedBy: number; items: unknown[] } }).scope;
    expect(scope).toMatchObject({ usedBy: [empty], items: [], fromUsedBy: 0 });
    const noFiles = `--used-by ${none} holds no source files to scan, so only server-level changes count.`;
    expect(files.result.stderr).toBe(`warning: ${noFiles}\n`);
    expect(files.report?.notices).toEqual([noFiles]);
  });

  test.concurrent("a path that does not exist exits 2", async () => {
    const s = setup();
    const missing = join(s.dir, "no-such-src");
    const result = await runCli(["check", "--baseline", s.baseline, "--against", s.current, "--used-by", missing]);
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain(`--used-by ${missing}: no such file or directory`);
  });
});

// ---------------------------------------------------------------- the policy file

describe("the policy file", () => {
  test.concurrent("overrides, off and ignores, found beside the baseline", async () => {
    const s = setup({
      policy: {
        version: 1,
        rules: { "tool-removed": "minor", "description-changed": "off" },
        ignore: [
          {
            rule: "template-removed",
            target: "template:weather://city/*",
            reason: "the template moved to weather://v2",
            expires: "2999-12-31",
          },
        ],
      },
    });
    const { result, report } = await checkJson(s);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 1, stderr: "" });
    expect(exemptions(report)).toEqual({
      "required-added:get_forecast": "-",
      "tool-removed:legacy_lookup": "-",
      "template-removed:weather://city/{city}/today": "ignored",
      "server-info-changed:": "-",
    });
    expect(report?.changes.find((c) => c.rule === "tool-removed")?.severity).toBe("minor");
    expect(report?.changes.find((c) => c.rule === "template-removed")?.exempt?.reason).toBe(
      "the template moved to weather://v2",
    );
  });

  test.concurrent("everything breaking ignored or downgraded: the check passes", async () => {
    const s = setup({
      policy: {
        version: 1,
        rules: { "required-added": { input: "minor" }, "tool-removed": "patch" },
        ignore: [{ target: "weather://*", reason: "templates are internal" }],
      },
    });
    const { result, report } = await checkJson(s);
    expect(result.code).toBe(0);
    expect(report?.changes.find((c) => c.rule === "required-added")?.severity).toBe("minor");
  });

  test.concurrent("an ignore by fingerprint", async () => {
    const s = setup();
    const first = await checkJson(s);
    const fingerprint = first.report?.changes.find((c) => c.rule === "tool-removed")?.fingerprint;
    writeFile(s.dir, "mcp-contract.config.json", {
      version: 1,
      ignore: [{ fingerprint, reason: "approved in review #12" }],
    });
    const { report } = await checkJson(s);
    expect(exemptions(report)["tool-removed:legacy_lookup"]).toBe("ignored");
  });

  test.concurrent("an expired ignore no longer applies and says so; an unused one says so too", async () => {
    const s = setup({
      policy: {
        version: 1,
        ignore: [
          { rule: "tool-removed", target: "tool:legacy_lookup", reason: "grace period", expires: "2020-01-01" },
          { rule: "tool-removed", target: "tool:never_existed", reason: "stale entry" },
        ],
      },
    });
    const { result, report } = await checkJson(s);
    expect(result.code).toBe(1);
    expect(exemptions(report)["tool-removed:legacy_lookup"]).toBe("-");
    const policyFile = join(s.dir, "mcp-contract.config.json");
    expect(report?.notices).toEqual([
      `ignore for rule tool-removed on tool:legacy_lookup expired on 2020-01-01 (grace period): it no longer applies. Remove it from ${policyFile} ($.ignore[0]), or move its "expires" date if it is still needed.`,
      `unused ignore for rule tool-removed on tool:never_existed (stale entry): it matched no change. Remove it from ${policyFile} ($.ignore[1]) if it is no longer needed.`,
    ]);
  });

  test.concurrent("failOn from the policy, unless --fail-on is given", async () => {
    const s = setup({ policy: { version: 1, failOn: "never" } });
    const [fromPolicy, fromFlag] = await Promise.all([checkJson(s), checkJson(s, ["--fail-on", "breaking"])]);
    expect(fromPolicy.result.code).toBe(0);
    expect(fromPolicy.report?.failOn).toBe("never");
    expect(fromFlag.result.code).toBe(1);
  });

  test.concurrent("diff reads the policy beside OLD, but keeps reporting only", async () => {
    const s = setup({ policy: { version: 1, failOn: "breaking", rules: { "tool-removed": "off" } } });
    const result = await runCli(["diff", s.baseline, s.current, "--format", "json"]);
    expect(result.code).toBe(0);
    const report = parseReport(result.stdout);
    expect(report.changes.some((c) => c.rule === "tool-removed")).toBe(false);
  });

  test.concurrent("--policy FILE elsewhere, and --no-policy", async () => {
    const s = setup({ policy: { version: 1, rules: { "tool-removed": "off" } } });
    const other = writeFile(tempDir(), "strict.json", { version: 1, rules: { "required-added": "off" } });
    const [explicit, none] = await Promise.all([checkJson(s, ["--policy", other]), checkJson(s, ["--no-policy"])]);
    expect(Object.keys(exemptions(explicit.report))).not.toContain("required-added:get_forecast");
    expect(Object.keys(exemptions(explicit.report))).toContain("tool-removed:legacy_lookup");
    expect(exemptions(none.report)).toEqual(ALL_COUNT);
  });

  test.concurrent("the policy file in the current directory when there is none beside the baseline", async () => {
    const s = setup();
    const cwd = tempDir();
    writeFile(cwd, "mcp-contract.config.json", { version: 1, rules: { "tool-removed": "off" } });
    const result = await runCli(
      ["check", "--baseline", s.baseline, "--against", s.current, "--format", "json", "--no-witness"],
      { cwd },
    );
    expect(parseReport(result.stdout).changes.some((c) => c.rule === "tool-removed")).toBe(false);
  });
});

describe("a bad policy file exits 2 with the file and the place, no stack trace", () => {
  const FILE = "mcp-contract.config.json";
  test.concurrent.each([
    [
      "bad JSON",
      '{\n  "version": 1,\n  "rules": {\n    "tool-removed": "off",\n  }\n}\n',
      ':5:3: not valid JSON: unexpected "}", expected a property name in double quotes',
    ],
    [
      "an unknown rule",
      { version: 1, rules: { "tool-remove": "off" } },
      ` is not a valid policy file: at $.rules["tool-remove"], unknown rule id "tool-remove". Did you mean "tool-removed"`,
    ],
    [
      "a missing reason",
      { version: 1, ignore: [{ rule: "tool-removed", target: "tool:legacy_lookup" }] },
      ` is not a valid policy file: at $.ignore[0], missing "reason"`,
    ],
    [
      "a bad date",
      { version: 1, ignore: [{ rule: "tool-removed", reason: "r", expires: "2026-13-01" }] },
      ' is not a valid policy file: at $.ignore[0].expires, expected a date YYYY-MM-DD, found "2026-13-01"',
    ],
    [
      "a wrong type",
      { version: 1, ignore: [{ rule: "tool-removed", reason: ["r"] }] },
      ' is not a valid policy file: at $.ignore[0].reason, expected a non-empty string, found ["r"]',
    ],
    [
      "a wrong level",
      { version: 1, rules: { "tool-added": true } },
      ' is not a valid policy file: at $.rules["tool-added"], expected "breaking"',
    ],
    ["no version", { rules: {} }, ' is not a valid policy file: at $, missing "version"'],
    [
      "an unknown field",
      { version: 1, failon: "minor" },
      ' is not a valid policy file: at $.failon, unknown field "failon". Did you mean "failOn"?',
    ],
  ])("%s", async (_, content, expected) => {
    const s = setup({ policy: content });
    const [check, diff] = await Promise.all([
      runCli(["check", "--baseline", s.baseline, "--against", s.current], { cwd: s.dir }),
      runCli(["diff", "baseline.json", "current.json"], { cwd: s.dir }),
    ]);
    // check finds the file beside --baseline; diff beside OLD (here, in the current directory).
    expectCleanFailure(check, 2);
    expect(check.stderr).toStartWith(`error: ${join(s.dir, FILE)}${expected}`);
    expectCleanFailure(diff, 2);
    expect(diff.stderr).toStartWith(`error: ${FILE}${expected}`);
  });

  test.concurrent("--policy naming a missing file", async () => {
    const s = setup();
    const missing = join(s.dir, "nope.json");
    const result = await runCli(["check", "--baseline", s.baseline, "--against", s.current, "--policy", missing]);
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain(`no policy file at ${missing} (--policy)`);
  });
});

// ---------------------------------------------------------------- break-glass

describe("break-glass", () => {
  const NOTICE =
    "break-glass: 3 breaking changes allowed by --allow-breaking (no reason given; set MCP_CONTRACT_ALLOW_BREAKING_REASON to record one). The run exits 0, but nothing above is hidden or accepted into the baseline.";

  test.concurrent("--allow-breaking: exit 0, a warning on stderr, a notice, every change still listed", async () => {
    const { result, report } = await checkJson(setup(), ["--allow-breaking"], {
      MCP_CONTRACT_ALLOW_BREAKING: undefined,
      MCP_CONTRACT_ALLOW_BREAKING_REASON: undefined,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`warning: ${NOTICE}\n`);
    expect(report?.result).toBe("fail");
    expect(report?.notices).toEqual([NOTICE]);
    expect(exemptions(report)).toEqual(ALL_COUNT);
  });

  test.concurrent("MCP_CONTRACT_ALLOW_BREAKING=1 with a reason", async () => {
    const { result, report } = await checkJson(setup(), [], {
      MCP_CONTRACT_ALLOW_BREAKING: "1",
      MCP_CONTRACT_ALLOW_BREAKING_REASON: "hotfix for INC-42",
    });
    expect(result.code).toBe(0);
    expect(report?.notices?.[0]).toStartWith(
      "break-glass: 3 breaking changes allowed by MCP_CONTRACT_ALLOW_BREAKING=1 (reason: hotfix for INC-42).",
    );
    expect(result.stderr).toContain("warning: break-glass:");
  });

  test.concurrent("a passing run is untouched; an unclear value exits 2", async () => {
    const s = setup();
    const [passing, unclear] = await Promise.all([
      checkJson(s, ["--used", "set_alert", "--allow-breaking"]),
      runCli(["check", "--baseline", s.baseline, "--against", s.current], {
        env: { MCP_CONTRACT_ALLOW_BREAKING: "perhaps" },
      }),
    ]);
    expect(passing.result.code).toBe(0);
    expect(passing.result.stderr).toBe("");
    expect(passing.report?.notices ?? []).toEqual([]);
    expectCleanFailure(unclear, 2);
    expect(unclear.stderr).toContain('MCP_CONTRACT_ALLOW_BREAKING="perhaps" is neither on nor off');
  });

  test.concurrent("diff honours it too; with the text report on stdout the notice is said once, there", async () => {
    const s = setup();
    const [text, json] = await Promise.all([
      runCli(["diff", s.baseline, s.current, "--fail-on", "breaking", "--allow-breaking"]),
      runCli(["diff", s.baseline, s.current, "--fail-on", "breaking", "--allow-breaking", "--format", "json"]),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout.split(NOTICE)).toHaveLength(2);
    expect(text.stderr).toBe("");
    expect(json.code).toBe(0);
    expect(json.stderr).toContain("warning: break-glass: 3 breaking changes allowed by --allow-breaking");
  });
});

// ---------------------------------------------------------------- semver

describe("--enforce-semver", () => {
  test.concurrent("breaking changes in a major release pass and add nothing", async () => {
    const { result, report } = await checkJson(setup({ versions: ["1.4.2", "2.0.0"] }), [
      "--enforce-semver",
      "--fail-on",
      "never",
    ]);
    expect(result.code).toBe(0);
    expect(report?.notices ?? []).toEqual([]);
  });

  test.concurrent("breaking changes in a patch release fail, even with --fail-on never", async () => {
    const { result, report } = await checkJson(setup(), ["--enforce-semver", "--fail-on", "never"]);
    expect(result.code).toBe(1);
    expect(report?.result).toBe("fail");
    expect(report?.notices).toEqual(["semver: breaking changes shipped as 1.4.2 → 1.4.3; requires 2.0.0."]);
  });

  test.concurrent("below 1.0.0, a minor bump may break", async () => {
    const [minor, patch] = await Promise.all([
      checkJson(setup({ versions: ["0.4.2", "0.5.0"] }), ["--enforce-semver", "--fail-on", "never"]),
      checkJson(setup({ versions: ["0.4.2", "0.4.3"] }), ["--enforce-semver", "--fail-on", "never"]),
    ]);
    expect(minor.result.code).toBe(0);
    expect(patch.result.code).toBe(1);
    expect(patch.report?.notices?.[0]).toStartWith("semver: breaking changes shipped as 0.4.2 → 0.4.3; requires 0.5.0");
    // The summary line says the same: the bump that gets to 0.5.0 is a minor one.
    expect((patch.report as unknown as { nextVersion: string }).nextVersion).toBe("0.5.0");
    const s = setup({ versions: ["0.4.2", "0.4.3"] });
    const text = await runCli(["check", "--baseline", s.baseline, "--against", s.current, "--enforce-semver"]);
    expect(text.stdout).toContain("requires a MINOR version bump (to 0.5.0: below 1.0.0 a minor bump may break)");
    expect(text.stdout).not.toContain("MAJOR");
  });

  test.concurrent("a version that is not semver fails with a clear notice", async () => {
    const { result, report } = await checkJson(setup({ versions: ["1.4.2", "nightly"] }), ["--enforce-semver"], {});
    expect(result.code).toBe(1);
    expect(report?.notices).toContain(
      'semver: cannot check the version: the current server version "nightly" is not a semantic version (MAJOR.MINOR.PATCH). --enforce-semver needs a semantic version on both sides.',
    );
  });

  test.concurrent("diff --enforce-semver", async () => {
    const bad = setup();
    const good = setup({ versions: ["1.4.2", "2.0.0"] });
    const [failing, passing] = await Promise.all([
      runCli(["diff", bad.baseline, bad.current, "--enforce-semver"]),
      runCli(["diff", good.baseline, good.current, "--enforce-semver"]),
    ]);
    expect(failing.code).toBe(1);
    expect(passing.code).toBe(0);
  });
});

// ---------------------------------------------------------------- git baseline

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync(
    "git",
    ["-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false", ...args],
    { cwd, encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr}`);
  return result.stdout;
}

/** A repository whose server/mcp.contract.json holds OLD at HEAD~1 and NEW at HEAD; NEW is also current.json. */
function gitRepo(): { repo: string; server: string } {
  const repo = tempDir("mcp-contract-git-");
  const server = join(repo, "server");
  mkdirSync(server);
  const { old, new: current } = surfaces();
  git(repo, "init", "-q", "-b", "main");
  writeFile(server, "mcp.contract.json", old);
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "baseline");
  writeFile(server, "mcp.contract.json", current);
  writeFile(server, "current.json", current);
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "change the surface");
  return { repo, server };
}

describe("--baseline-ref", () => {
  test.concurrent("reads the baseline at a revision, from a subdirectory of the repository", async () => {
    const { server } = gitRepo();
    const result = await runCli(
      ["check", "--baseline-ref", "HEAD~1", "--against", "current.json", "--format", "json", "--no-witness"],
      { cwd: server },
    );
    expect(result.code).toBe(1);
    const report = parseReport(result.stdout);
    expect(report.baseline.source).toBe("mcp.contract.json@HEAD~1");
    expect(report.baseline.server.version).toBe("1.4.2");
    expect(report.summary.breaking).toBe(3);

    const same = await runCli(["check", "--baseline-ref", "main", "--against", "current.json"], { cwd: server });
    expect(same.code).toBe(0);
  });

  test.concurrent("--baseline is a path from the current directory, and the policy file beside it applies", async () => {
    const { repo } = gitRepo();
    writeFile(join(repo, "server"), "mcp-contract.config.json", { version: 1, failOn: "never" });
    const result = await runCli(
      [
        "check",
        "--baseline",
        "server/mcp.contract.json",
        "--baseline-ref",
        "HEAD^",
        "--against",
        "server/current.json",
      ],
      { cwd: repo },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("server/mcp.contract.json@HEAD^");
  });

  test.concurrent("a revision that does not exist suggests fetching it", async () => {
    const { repo, server } = gitRepo();
    git(repo, "remote", "add", "origin", join(repo, "no-such-remote"));
    const result = await runCli(["check", "--baseline-ref", "origin/main", "--against", "current.json"], {
      cwd: server,
    });
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain('the revision "origin/main" does not exist in this repository');
    expect(result.stderr).toContain("`git fetch origin main`");
  });

  test.concurrent("a lockfile that is not at that revision", async () => {
    const { server } = gitRepo();
    const result = await runCli(
      ["check", "--baseline", "other.contract.json", "--baseline-ref", "HEAD", "--against", "current.json"],
      { cwd: server },
    );
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain("server/other.contract.json does not exist at HEAD");
  });

  test.concurrent("not a git repository", async () => {
    const s = setup();
    const result = await runCli(["check", "--baseline-ref", "main", "--against", "current.json"], { cwd: s.dir });
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain("--baseline-ref needs a git repository");
  });

  test.concurrent("git is not installed", async () => {
    const { server } = gitRepo();
    const result = await runCli(["check", "--baseline-ref", "main", "--against", "current.json"], {
      cwd: server,
      env: { PATH: tempDir() },
    });
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain("--baseline-ref needs git, and git was not found on PATH");
  });

  test.concurrent("--update with --baseline-ref is a usage error", async () => {
    const { server } = gitRepo();
    const result = await runCli(["check", "--baseline-ref", "main", "--update", "--against", "current.json"], {
      cwd: server,
    });
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain("--update rewrites the baseline file");
  });
});
