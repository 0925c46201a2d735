/**
 * The GitHub Action (action.yml + scripts/action/*.sh): it parses, every input reaches the
 * scripts as an environment variable and never as an expression inside a script, the scripts
 * are shellcheck-clean, and hostile input strings (quotes, $(…), backticks, newlines) arrive at
 * mcp-contract as plain words and execute nothing. Plus the sticky pull-request comment, the
 * break-glass label, the outputs, and a real check through the CLI.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { cleanupTempDirs, ROOT, run, tempDir, writeExecutable } from "./ship-helpers.ts";

afterAll(cleanupTempDirs);

const ACTION = Bun.YAML.parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as {
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: { id?: string; run?: string; env?: Record<string, string>; uses?: string }[] };
};
const CHECK_SH = join(ROOT, "scripts/action/check.sh");

/** A `mcp-contract` in `dir` that runs the binary under test (MCP_CONTRACT_BIN), or the sources. */
function realCli(dir: string): string {
  const cli = join(dir, "mcp-contract");
  writeExecutable(
    cli,
    process.env.MCP_CONTRACT_BIN
      ? `#!/bin/sh\nexec '${resolve(ROOT, process.env.MCP_CONTRACT_BIN)}' "$@"\n`
      : `#!/bin/sh\nexec '${process.execPath}' '${join(ROOT, "main.ts")}' "$@"\n`,
  );
  return cli;
}

/** The example weather contract, and a copy whose `units` enum lost "imperial" (a breaking change). */
function narrowedWeather(): { baseline: string; changed: unknown } {
  const baseline = readFileSync(join(ROOT, "examples/weather.contract.json"), "utf8");
  const changed = JSON.parse(baseline);
  changed.tools[0].inputSchema.properties.units.enum = ["metric"];
  return { baseline, changed };
}

describe("action.yml", () => {
  test("is a composite action whose scripts get every input through env, never spliced into a script", () => {
    expect(ACTION.runs.using).toBe("composite");
    const envs = ACTION.runs.steps.map((s) => Object.values(s.env ?? {}).join("\n")).join("\n");
    for (const input of Object.keys(ACTION.inputs)) {
      if (input === "working-directory" || input === "sarif-category") continue; // step keys, not script text
      expect({ input, passed: envs.includes(`inputs.${input} }}`) }).toEqual({ input, passed: true });
    }
    for (const step of ACTION.runs.steps) {
      if (step.run !== undefined) expect(step.run).not.toContain("${{");
    }
    // No Node or Bun set-up in the user's job.
    expect(ACTION.runs.steps.map((s) => s.uses ?? "")).not.toContain(expect.stringMatching(/setup-(node|bun)/));
  });

  test("declares the outputs the check step writes", () => {
    const written = [...readFileSync(CHECK_SH, "utf8").matchAll(/output ([a-z-]+) /g)].map((m) => m[1]);
    for (const [name, output] of Object.entries(ACTION.outputs)) {
      if (name === "version") continue;
      expect(output.value).toBe(`\${{ steps.check.outputs.${name} }}`);
      expect(written).toContain(name);
    }
    expect(Object.keys(ACTION.outputs)).toEqual(
      expect.arrayContaining(["result", "required-bump", "breaking", "minor", "patch", "exit-code"]),
    );
  });

  test("the README's example and input table name real inputs and outputs", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("### GitHub Action"), readme.indexOf("### npm"));
    const example = Bun.YAML.parse(/```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? "") as {
      jobs: { contract: { steps: { uses?: string; with?: Record<string, unknown> }[] } };
    };
    const step = example.jobs.contract.steps.find((s) => s.uses?.startsWith("mcp-contract/mcp-contract@"));
    for (const input of Object.keys(step?.with ?? {})) expect(Object.keys(ACTION.inputs)).toContain(input);
    const table = section.slice(section.indexOf("| input |"), section.indexOf("Outputs:"));
    const named = [...table.matchAll(/^\| ([^|]+) \|/gm)].flatMap((m) =>
      [...(m[1] as string).matchAll(/`([a-z-]+)`/g)].map((x) => x[1]),
    );
    expect(named.length).toBeGreaterThan(15);
    expect(Object.keys(ACTION.inputs).sort()).toEqual([...new Set(named)].sort() as string[]);
    const outputs = section.slice(section.indexOf("Outputs:"), section.indexOf("Inputs reach"));
    const listed = [...outputs.matchAll(/`([a-z-]+)`/g)]
      .map((m) => m[1])
      .filter((n) => !["pass", "fail", "error"].includes(n as string));
    expect(listed.sort()).toEqual(Object.keys(ACTION.outputs).sort());
  });
});

/** A stand-in mcp-contract: records its argv (NUL-separated) and environment, writes the reports it was asked for. */
function stubBinary(dir: string): string {
  const path = join(dir, "mcp-contract-stub");
  writeExecutable(
    path,
    `#!/bin/sh
printf '%s\\0' "$@" > "${dir}/argv"
env > "${dir}/env"
n=0
while [ $# -gt 0 ]; do
  if [ "$1" = --output ]; then
    n=$((n + 1))
    case $n in
      1) printf '{\\n  "command": "check",\\n  "result": "fail",\\n  "changeLevel": "major",\n  "requiredBump": "major",\\n  "summary": {\\n    "breaking": 2,\\n    "minor": 1,\\n    "patch": 0,\\n    "total": 3\\n  },\\n  "changes": []\\n}\\n' > "$2" ;;
      2) printf '## mcp-contract check: 2 breaking\\n' > "$2" ;;
    esac
  fi
  shift
done
exit "\${STUB_EXIT:-1}"
`,
  );
  return path;
}

/** A stand-in gh: logs each call; lists STUB_GH_ID as the existing comment; keeps the body it was sent. */
function stubGh(dir: string): string {
  const bin = join(dir, "gh-bin");
  mkdirSync(bin, { recursive: true });
  writeExecutable(
    join(bin, "gh"),
    `#!/bin/sh
printf '%s\\n' "$*" >> "${dir}/gh.log"
for a in "$@"; do case $a in body=@*) cp "\${a#body=@}" "${dir}/body.md" ;; esac; done
case "$*" in *--paginate*) [ -n "$STUB_GH_ID" ] && echo "$STUB_GH_ID"; echo "marker=$MARKER" >> "${dir}/gh.log" ;; esac
exit "\${STUB_GH_EXIT:-0}"
`,
  );
  return bin;
}

function argvOf(dir: string): string[] {
  return readFileSync(join(dir, "argv"), "utf8").split("\0").slice(0, -1);
}

function outputsOf(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
}

async function runCheck(dir: string, env: Record<string, string | undefined>) {
  const cwd = join(dir, "work");
  mkdirSync(cwd, { recursive: true });
  const result = await run(["bash", CHECK_SH], {
    cwd,
    env: {
      PATH: `${join(dir, "gh-bin")}:${process.env.PATH}`,
      RUNNER_TEMP: dir,
      GITHUB_OUTPUT: join(dir, "outputs"),
      GITHUB_STEP_SUMMARY: join(dir, "summary.md"),
      GITHUB_REPOSITORY: "acme/weather",
      GITHUB_BASE_REF: undefined,
      MCP_CONTRACT_ALLOW_BREAKING: undefined,
      MCP_CONTRACT_BEARER: undefined,
      ...env,
    },
  });
  return { ...result, cwd };
}

describe("scripts/action/check.sh", () => {
  test("hostile inputs are passed as plain words and execute nothing", async () => {
    const dir = tempDir();
    const pwned = join(dir, "PWNED");
    const hostile = (tag: string) =>
      `${tag} $(touch ${pwned}) \`touch ${pwned}\` '; touch ${pwned}; ' "; touch ${pwned}; " \${IFS}touch\${IFS}${pwned}`;
    const bin = stubBinary(dir);
    stubGh(dir);
    const common = {
      MCP_CONTRACT_BIN: bin,
      INPUT_BASELINE: hostile("baseline"),
      INPUT_BASELINE_REF: hostile("ref"),
      INPUT_FAIL_ON: hostile("fail-on"),
      INPUT_FORMATS: `junit=${hostile("junit")}.xml\ntext=$(touch ${pwned})`,
      INPUT_ARGS: `${hostile("arg1")}\n--used\n$(touch ${pwned})`,
      INPUT_COMMENT_ID: hostile("id"),
      INPUT_SKIP_LABEL: hostile("label"),
      SKIP_LABELLED: "true",
      PR_NUMBER: "7",
      PR_HEAD_REPO: "acme/weather",
    };
    const url = await runCheck(dir, {
      ...common,
      INPUT_URL: `http://127.0.0.1:1/mcp?q=$(touch ${pwned})`,
      INPUT_HEADERS: `X-One: ${hostile("h1")}\nX-Two: \`touch ${pwned}\`\r\n\n`,
      INPUT_BEARER: hostile("bearer"),
    });
    expect(url.stderr).toBe("");
    const reports = (args: string[]) => args.slice(args.indexOf("--format"));
    const argv = argvOf(dir);
    expect(argv.slice(0, argv.indexOf("--format"))).toEqual([
      "check",
      "--baseline",
      hostile("baseline"),
      "--baseline-ref",
      hostile("ref"),
      "--fail-on",
      hostile("fail-on"),
    ]);
    expect(reports(argv)).toEqual([
      "--format",
      "json",
      "--output",
      expect.stringMatching(/report\.json$/),
      "--format",
      "markdown",
      "--output",
      expect.stringMatching(/report\.md$/),
      "--format",
      "junit",
      "--output",
      `${hostile("junit")}.xml`,
      "--format",
      "text",
      "--output",
      `$(touch ${pwned})`,
      "--format",
      "github",
      hostile("arg1"),
      "--used",
      `$(touch ${pwned})`,
      "--url",
      `http://127.0.0.1:1/mcp?q=$(touch ${pwned})`,
      "--header",
      `X-One: ${hostile("h1")}`,
      "--header",
      `X-Two: \`touch ${pwned}\``,
    ]);
    const stubEnv = readFileSync(join(dir, "env"), "utf8");
    expect(stubEnv).toContain(`MCP_CONTRACT_BEARER=${hostile("bearer")}`);
    expect(stubEnv).toContain("MCP_CONTRACT_ALLOW_BREAKING=1\n");
    expect(stubEnv).toContain(`MCP_CONTRACT_ALLOW_BREAKING_REASON=pull request #7 is labelled '${hostile("label")}'`);
    expect(readFileSync(join(dir, "gh.log"), "utf8")).toContain(
      `marker=<!-- mcp-contract comment: ${hostile("id")} -->`,
    );

    await runCheck(dir, { ...common, INPUT_SERVER: hostile("server"), INPUT_CONFIG: hostile("config") });
    expect(argvOf(dir).slice(-4)).toEqual(["--server", hostile("server"), "--config", hostile("config")]);
    // No config input: the CLI's own lookup (the nearest .mcp.json, .vscode/mcp.json, .cursor/mcp.json).
    await runCheck(dir, { ...common, INPUT_SERVER: "github", INPUT_CONFIG: "" });
    expect(argvOf(dir).slice(-2)).toEqual(["--server", "github"]);
    expect(argvOf(dir)).not.toContain("--config");
    await runCheck(dir, { ...common, INPUT_AGAINST: hostile("against") });
    expect(argvOf(dir).slice(-2)).toEqual(["--against", hostile("against")]);
    // The server command is a shell command line by design: it reaches `sh -c` whole, untouched.
    await runCheck(dir, { ...common, INPUT_COMMAND: `node server.js --name "$(echo x)"` });
    expect(argvOf(dir).slice(-4)).toEqual(["--", "sh", "-c", `node server.js --name "$(echo x)"`]);

    expect(existsSync(pwned)).toBe(false);
  });

  test("outputs come from the JSON report, and the step exits with check's code", async () => {
    const dir = tempDir();
    stubGh(dir);
    const result = await runCheck(dir, {
      MCP_CONTRACT_BIN: stubBinary(dir),
      INPUT_AGAINST: "new.json",
      STUB_EXIT: "1",
    });
    expect(result.code).toBe(1);
    expect(outputsOf(join(dir, "outputs"))).toEqual({
      result: "fail",
      "required-bump": "major",
      "change-level": "major",
      breaking: "2",
      minor: "1",
      patch: "0",
      "exit-code": "1",
      report: expect.stringMatching(/report\.json$/),
    });
    // Without jq the same values are read from the report's fixed layout.
    const noJq = tempDir();
    stubGh(noJq);
    const tools = join(noJq, "tools");
    mkdirSync(tools);
    for (const tool of ["bash", "sed", "grep", "head", "mktemp", "env", "cp", "cat", "printf"]) {
      const path = Bun.which(tool);
      if (path) writeExecutable(join(tools, tool), `#!/bin/sh\nexec ${path} "$@"\n`);
    }
    await run(["bash", CHECK_SH], {
      cwd: noJq,
      env: {
        PATH: `${join(noJq, "gh-bin")}:${tools}`,
        RUNNER_TEMP: noJq,
        GITHUB_OUTPUT: join(noJq, "outputs"),
        MCP_CONTRACT_BIN: stubBinary(noJq),
        INPUT_AGAINST: "new.json",
      },
    });
    expect(outputsOf(join(noJq, "outputs"))).toMatchObject({ result: "fail", "required-bump": "major", breaking: "2" });
    // A server failure (3) is an error, whatever the report says.
    const failed = await runCheck(tempDir(), { MCP_CONTRACT_BIN: stubBinary(dir), INPUT_AGAINST: "x", STUB_EXIT: "3" });
    expect(failed.code).toBe(3);
  });

  test("keeps one sticky comment: created once, then edited; forks and read-only tokens fall back to the summary", async () => {
    const dir = tempDir();
    stubGh(dir);
    const env = {
      MCP_CONTRACT_BIN: stubBinary(dir),
      INPUT_AGAINST: "new.json",
      PR_NUMBER: "12",
      PR_HEAD_REPO: "acme/weather",
    };
    await runCheck(dir, env);
    let log = readFileSync(join(dir, "gh.log"), "utf8");
    expect(log).toContain("api --paginate repos/acme/weather/issues/12/comments --jq");
    expect(log).toContain("-X POST repos/acme/weather/issues/12/comments -F body=@");
    expect(readFileSync(join(dir, "body.md"), "utf8")).toBe(
      "<!-- mcp-contract comment: default -->\n## mcp-contract check: 2 breaking\n",
    );
    writeFileSync(join(dir, "gh.log"), "");
    await runCheck(dir, { ...env, STUB_GH_ID: "4242" });
    log = readFileSync(join(dir, "gh.log"), "utf8");
    expect(log).toContain("-X PATCH repos/acme/weather/issues/comments/4242 -F body=@");
    expect(log).not.toContain("POST");

    writeFileSync(join(dir, "gh.log"), "");
    const fork = await runCheck(dir, { ...env, PR_HEAD_REPO: "someone/weather" });
    expect(fork.stdout).toContain("::notice::pull request from a fork");
    expect(readFileSync(join(dir, "gh.log"), "utf8")).toBe("");

    const denied = await runCheck(dir, { ...env, STUB_GH_EXIT: "1" });
    expect(denied.stdout).toContain("::warning::could not write the pull-request comment");
    expect(denied.code).toBe(1); // check's own verdict, not the comment's failure

    writeFileSync(join(dir, "gh.log"), "");
    await runCheck(dir, { ...env, INPUT_COMMENT: "false" });
    await runCheck(dir, { ...env, PR_NUMBER: "" });
    expect(readFileSync(join(dir, "gh.log"), "utf8")).toBe("");
  });

  test("can-i-deploy-to: the consumers of that environment are judged on the same target; outputs, comment, exit code", async () => {
    const dir = tempDir();
    stubGh(dir);
    const cli = realCli(dir);
    const { baseline, changed } = narrowedWeather();
    const work = join(dir, "work");
    const consumer = (name: string, env: string, call: object) => {
      mkdirSync(join(work, "consumers", name), { recursive: true });
      writeFileSync(join(work, "consumers", name, "consumer.json"), JSON.stringify({ name, environments: [env] }));
      writeFileSync(
        join(work, "consumers", name, "calls.jsonl"),
        `${JSON.stringify({ ...call, result: { content: [] } })}\n`,
      );
    };
    consumer("app", "production", {
      method: "tools/call",
      params: { name: "get_forecast", arguments: { city: "Oslo", units: "imperial" } },
    });
    consumer("bot", "staging", { method: "tools/call", params: { name: "set_alert", arguments: { city: "Oslo" } } });
    writeFileSync(join(work, "mcp.contract.json"), baseline);
    writeFileSync(join(work, "new.json"), JSON.stringify(changed, null, 2));
    // check passes (scoped to set_alert); can-i-deploy decides.
    const env = {
      MCP_CONTRACT_BIN: cli,
      INPUT_AGAINST: "new.json",
      INPUT_ARGS: "--used\nset_alert",
      INPUT_CONSUMERS: "consumers",
      PR_NUMBER: "3",
      PR_HEAD_REPO: "acme/weather",
    };
    const staging = await runCheck(dir, { ...env, INPUT_CAN_I_DEPLOY_TO: "staging" });
    expect(staging.code).toBe(0);
    expect(outputsOf(join(dir, "outputs"))).toMatchObject({
      result: "pass",
      "can-i-deploy": "yes",
      "can-i-deploy-exit-code": "0",
    });
    const production = await runCheck(dir, { ...env, INPUT_CAN_I_DEPLOY_TO: "production" });
    expect(production.code).toBe(1);
    expect(outputsOf(join(dir, "outputs"))).toMatchObject({
      result: "pass",
      "can-i-deploy": "no",
      "can-i-deploy-exit-code": "1",
    });
    expect(production.stdout).toContain("::error file=consumers/app/calls.jsonl,line=1,title=app");
    expect(readFileSync(join(dir, "body.md"), "utf8")).toContain("## can-i-deploy to production: no");
    // Without the input, nothing of can-i-deploy runs.
    writeFileSync(join(dir, "outputs"), "");
    await runCheck(dir, env);
    expect(outputsOf(join(dir, "outputs"))["can-i-deploy"]).toBeUndefined();
  }, 60_000);

  test("asks for exactly one target", async () => {
    const dir = tempDir();
    const none = await runCheck(dir, { MCP_CONTRACT_BIN: stubBinary(dir) });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("give exactly one of the inputs command, url, server or against (got 0)");
    const two = await runCheck(dir, { MCP_CONTRACT_BIN: stubBinary(dir), INPUT_URL: "http://x", INPUT_AGAINST: "a" });
    expect(two.stderr).toContain("(got 2)");
    expect(outputsOf(join(dir, "outputs")).result).toBe("error");
  });

  test("runs a real check: the summary, the outputs, and a breaking verdict", async () => {
    const dir = tempDir();
    stubGh(dir);
    const cli = realCli(dir);
    const { baseline, changed } = narrowedWeather();
    const work = join(dir, "work");
    mkdirSync(work);
    writeFileSync(join(work, "mcp.contract.json"), baseline);
    writeFileSync(join(work, "new.json"), JSON.stringify(changed, null, 2));
    const result = await runCheck(dir, {
      MCP_CONTRACT_BIN: cli,
      INPUT_AGAINST: "new.json",
      INPUT_FORMATS: "junit=contract.xml",
      GITHUB_BASE_REF: "main",
      INPUT_BASELINE_REF: "none",
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("::error");
    expect(outputsOf(join(dir, "outputs"))).toMatchObject({ result: "fail", "required-bump": "major", breaking: "1" });
    expect(readFileSync(join(dir, "summary.md"), "utf8")).toContain("mcp-contract check");
    expect(readFileSync(join(work, "contract.xml"), "utf8")).toContain("<testsuite");

    const hostile = await runCheck(dir, {
      MCP_CONTRACT_BIN: cli,
      INPUT_AGAINST: "new.json",
      INPUT_FAIL_ON: "$(touch PWNED)",
    });
    expect(hostile.code).toBe(2);
    expect(outputsOf(join(dir, "outputs")).result).toBe("error");
    expect(existsSync(join(work, "PWNED"))).toBe(false);
  }, 60_000);
});
