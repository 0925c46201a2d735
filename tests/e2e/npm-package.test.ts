/**
 * The npm route, as a user gets it: `npm run pack:npm` writes the wrapper and this platform's
 * package as tarballs; installed into a fresh directory (offline: the tarballs are all it
 * has), they give a working `npx mcp-contract` (--version, diff, a stdio snapshot of the
 * example server) under the Node.js the README names (20+), and the programmatic API works
 * from a plain Node script and type-checks from TypeScript. Without its platform package
 * the wrapper says what is missing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hostTarget } from "../../scripts/release-config.ts";
import { cleanupTempDirs, ROOT, read, requireTool, run, shippedBinary, tempDir, VERSION } from "./ship-helpers.ts";

afterAll(cleanupTempDirs);

const WEATHER = join(ROOT, "examples/weather.contract.json");
let tarballs: string;
let project: string;

/** npm, offline: no registry is needed or reachable in these tests. */
const npmEnv = {
  npm_config_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
};

function freshProject(): string {
  const dir = tempDir("mcp-contract-npm-");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  return dir;
}

beforeAll(async () => {
  requireTool("node", "nodejs");
  requireTool("npm");
  tarballs = tempDir("mcp-contract-tarballs-");
  const pack = await run(
    [process.execPath, "scripts/pack-npm.ts", "--binary", await shippedBinary(), "--out", tarballs],
    {
      timeoutMs: 170_000,
    },
  );
  expect(pack.stderr).toBe("");
  // No spurious note about type errors: the declarations compile clean (issue #29).
  expect(pack.stdout).not.toContain("note:");
  expect(pack.code).toBe(0);
  project = freshProject();
  const files = readdirSync(tarballs).map((f) => join(tarballs, f));
  const install = await run(["npm", "install", "--no-save", ...files], {
    cwd: project,
    env: npmEnv,
    timeoutMs: 120_000,
  });
  expect(install.stderr).not.toContain("ERR!");
  expect(install.code).toBe(0);
}, 300_000);

/** As the README says it: `npx mcp-contract …` (offline, so it can only run what is installed). */
const npx = (args: string[], cwd = project) => run(["npx", "mcp-contract", ...args], { cwd, env: npmEnv });

describe("npm run pack:npm", () => {
  test("writes the wrapper and this platform's package, with os/cpu/libc and the optional dependencies", async () => {
    const target = hostTarget();
    const platformName = `${target.os}-${target.cpu}${target.libc === "musl" ? "-musl" : ""}`;
    expect(readdirSync(tarballs).sort()).toEqual([
      `mcp-contract-${VERSION}.tgz`,
      `mcp-contract-${platformName}-${VERSION}.tgz`,
    ]);
    const wrapper = JSON.parse(read(join(project, "node_modules/mcp-contract/package.json")));
    expect(wrapper.bin).toEqual({ "mcp-contract": "bin/mcp-contract.js" });
    expect(wrapper.engines).toEqual({ node: ">=20.16" });
    expect(Object.keys(wrapper.optionalDependencies).sort()).toEqual(
      ["darwin-arm64", "darwin-x64", "linux-arm64", "linux-arm64-musl", "linux-x64", "linux-x64-musl", "win32-x64"].map(
        (p) => `@mcp-contract/${p}`,
      ),
    );
    expect(Object.values(wrapper.optionalDependencies)).toEqual(Array(7).fill(VERSION));
    expect(wrapper.dependencies).toBeUndefined();
    const platform = JSON.parse(read(join(project, `node_modules/@mcp-contract/${platformName}/package.json`)));
    expect(platform.os).toEqual([target.os]);
    expect(platform.cpu).toEqual([target.cpu]);
    if (target.libc) expect(platform.libc).toEqual([target.libc]);
  });
});

describe("npx mcp-contract", () => {
  test("runs under Node.js 20 or later", async () => {
    const node = await run(["node", "--version"]);
    expect(Number(/^v(\d+)/.exec(node.stdout)?.[1])).toBeGreaterThanOrEqual(20);
    const version = await npx(["--version"]);
    expect(version.stderr).toBe("");
    expect(version.stdout.trim()).toBe(VERSION);
    expect(version.code).toBe(0);
  });

  test("diff: the verdict and its exit code come through", async () => {
    const changed = JSON.parse(read(WEATHER));
    changed.tools[0].inputSchema.properties.units.enum = ["metric"];
    writeFileSync(join(project, "changed.json"), JSON.stringify(changed, null, 2));
    const result = await npx(["diff", WEATHER, "changed.json", "--fail-on", "breaking"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("enum-value-removed");
    expect((await npx(["diff", WEATHER, WEATHER])).code).toBe(0);
    expect((await npx(["diff", "missing.json", WEATHER])).code).toBe(2);
  });

  test("snapshot of a stdio server writes the lockfile byte for byte", async () => {
    const result = await npx([
      "snapshot",
      "-o",
      "weather.json",
      "--",
      "node",
      join(ROOT, "examples/weather-server.mjs"),
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("captured 2 tools");
    expect(read(join(project, "weather.json"))).toBe(read(WEATHER));
  });

  test("without its platform package, says what is missing", async () => {
    const bare = freshProject();
    const wrapper = join(tarballs, `mcp-contract-${VERSION}.tgz`);
    expect(
      (await run(["npm", "install", "--no-save", "--omit=optional", wrapper], { cwd: bare, env: npmEnv })).code,
    ).toBe(0);
    const result = await npx(["--version"], bare);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("the mcp-contract binary for this platform");
    expect(result.stderr).toContain("was not installed");
  }, 60_000);
});

describe("the programmatic API", () => {
  test("is imported and used from a Node script", async () => {
    const script = `
import { readFileSync } from "node:fs";
import { capture, contentHash, diffContracts, diffSchema, formatReport, lint, parseContract, serializeContract, serveMock, UsageError, version } from "mcp-contract";
import { binaryPath } from "mcp-contract/binary";
const text = readFileSync(${JSON.stringify(WEATHER)}, "utf8");
const before = parseContract(text);
const after = structuredClone(before);
after.tools[0].inputSchema.properties.units.enum = ["metric"];
const report = await diffContracts(before, after);
const input = await diffSchema({ type: "string", enum: ["a", "b"] }, { type: "string", enum: ["a"] }, "input");
const output = await diffSchema({ type: "string", enum: ["a", "b"] }, { type: "string", enum: ["a"] }, "output");
const live = await capture({ command: ["node", ${JSON.stringify(join(ROOT, "examples/weather-server.mjs"))}] });
const mock = await serveMock(text);
const viaMock = await capture({ url: mock.url });
await mock.close();
let invalid;
try { parseContract("{}"); } catch (error) { invalid = error instanceof UsageError && [error.name, error.exitCode]; }
console.log(JSON.stringify({
  version,
  binary: binaryPath().includes("@mcp-contract"),
  result: report.result,
  bump: report.requiredBump,
  rules: report.changes.map((c) => c.rule),
  witness: report.changes[0]?.witness,
  input: input.map((c) => [c.rule, c.severity, c.witness]),
  output: output.map((c) => [c.rule, c.severity]),
  lint: lint(text).result,
  markdown: formatReport(report, "markdown").includes("enum-value-removed"),
  roundTrip: serializeContract(live) === text,
  hash: contentHash({ b: [1, 2], a: "x" }),
  mock: JSON.stringify(viaMock.tools) === JSON.stringify(before.tools) && viaMock.server.name === before.server.name,
  invalid,
}));
`;
    writeFileSync(join(project, "use-api.mjs"), script);
    const result = await run(["node", "use-api.mjs"], { cwd: project });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({
      version: VERSION,
      binary: true,
      result: "fail",
      bump: "major",
      rules: ["enum-value-removed"],
      witness: { city: "a", units: "imperial" },
      input: [["enum-value-removed", "breaking", "b"]],
      output: [["enum-value-removed", "minor"]],
      lint: "pass",
      markdown: true,
      roundTrip: true,
      // sha256 of {"a":"x","b":[1,2]} (RFC 8785), computed with node:crypto under Node.
      hash: "sha256:721ef82f2d6c0997bffb7a8ab3f40f8fb45b0b52ce2af3afa6b0f05efbdc317f",
      mock: true,
      invalid: ["UsageError", 2],
    });
  }, 60_000);

  test("the mcp-query family's names work with the call shapes its users wrote (issue #29)", async () => {
    requireTool("node");
    const sdk = (path: string) => JSON.stringify(join(ROOT, "node_modules/@modelcontextprotocol/sdk/dist/esm", path));
    const script = `
import { Client } from ${sdk("client/index.js")};
import { StdioClientTransport } from ${sdk("client/stdio.js")};
import { captureContract, diffContract, diffSchema, formatDiff, mockFromContract, parseContract } from "mcp-contract";
import { readFileSync } from "node:fs";
const client = new Client({ name: "consumer-test", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: "node", args: [${JSON.stringify(join(ROOT, "examples/weather-server.mjs"))}] }));
const live = await captureContract(client);
await client.close();
const pinned = parseContract(readFileSync(${JSON.stringify(WEATHER)}, "utf8"));
const changed = structuredClone(live);
changed.tools[0].inputSchema.properties.units.enum = ["metric"];
const same = diffContract(pinned, live);
const diff = diffContract(live, changed, { used: ["get_forecast"] });
const unused = diffContract(live, changed, { used: ["set_alert"] });
const schema = diffSchema({ type: "string", enum: ["a", "b"] }, { type: "string", enum: ["a"] }, "in");
const mock = await mockFromContract(pinned);
const reachable = mock.url.startsWith("http://127.0.0.1:");
await mock.close();
console.log(JSON.stringify({
  tools: live.tools.map((t) => t.name),
  same: same.changes.length,
  breaking: diff.breaking,
  detail: diff.changes[0]?.detail,
  unused: unused.breaking,
  text: formatDiff(diff).includes("enum-value-removed"),
  schema: schema.map((c) => [c.level, c.rule]),
  reachable,
}));
`;
    writeFileSync(join(project, "use-seed-api.mjs"), script);
    const result = await run(["node", "use-seed-api.mjs"], { cwd: project });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({
      tools: ["get_forecast", "set_alert"],
      same: 0,
      breaking: 1,
      detail: 'tool "get_forecast": value "imperial" no longer allowed at inputSchema.properties.units',
      unused: 0,
      text: true,
      schema: [["breaking", "enum-value-removed"]],
      reachable: true,
    });
  }, 60_000);

  test("keeps the MCP SDK out of what `import` loads: only capture loads it", () => {
    const dist = join(project, "node_modules/mcp-contract/dist");
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/^import\s[^;]*?from\s*"(\.[^"]+)"/gms)) visit(join(file, "..", m[1] as string));
      for (const m of text.matchAll(/^import\s*"(\.[^"]+)"/gm)) visit(join(file, "..", m[1] as string));
    };
    visit(join(dist, "api.js"));
    for (const file of loaded)
      expect({ file, sdk: read(file).includes("node_modules/@modelcontextprotocol/") }).toEqual({ file, sdk: false });
    const all = readdirSync(join(dist, "chunks")).map((f) => read(join(dist, "chunks", f)));
    expect(all.some((text) => text.includes("node_modules/@modelcontextprotocol/sdk"))).toBe(true);
  });

  test("type-checks from TypeScript with the declarations it ships", async () => {
    requireTool("node");
    writeFileSync(
      join(project, "use-api.mts"),
      `import { diffContracts, diffSchema, lint, parseContract, type Report, type SchemaDiffChange } from "mcp-contract";
import { binaryPath } from "mcp-contract/binary";
const contract = parseContract("{}");
const report: Report = await diffContracts(contract, contract, { failOn: "minor", used: ["get_*"] });
const changes: SchemaDiffChange[] = await diffSchema({}, { type: "string" }, "output");
const total: number = lint(contract, { failOn: "warning" }).summary.total;
const path: string = binaryPath();
export const all = [report.requiredBump, changes.length, total, path];
// @ts-expect-error: a direction is input or output
await diffSchema({}, {}, "sideways");
`,
    );
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "nodenext",
          target: "es2022",
          strict: true,
          noEmit: true,
          types: [],
          lib: ["es2023"],
        },
        files: ["use-api.mts"],
      }),
    );
    const result = await run([join(ROOT, "node_modules/.bin/tsc"), "-p", project], { cwd: project });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.code).toBe(0);
  }, 60_000);
});
