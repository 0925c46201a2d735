/**
 * `lint --hosts` in process: the host findings and the host × outcome summary on the published
 * filesystem server's lockfiles (golden, one section per profile), the summary in text,
 * Markdown, JSON (valid against docs/lint-report.schema.json) and SARIF, the policy file's
 * "hosts", and lint without hosts reporting exactly what it did before.
 *
 * Golden files: tests/fixtures/golden/hosts/. After an intended change, regenerate them with
 * `UPDATE_GOLDEN=1 bun test tests/unit/hosts` and review the diff.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import type { Contract, JsonObject, Tool } from "../../../../src/contract/model.ts";
import { parseContract } from "../../../../src/contract/read.ts";
import { HOST_IDS } from "../../../../src/lint/hosts/profiles.ts";
import { judgeLint } from "../../../../src/policy/judge.ts";
import { emptyPolicy, type Policy, parsePolicy } from "../../../../src/policy/policy.ts";
import { renderJson } from "../../../../src/report/json.ts";
import { renderMarkdown } from "../../../../src/report/markdown.ts";
import { renderSarif } from "../../../../src/report/sarif.ts";
import { renderText } from "../../../../src/report/text.ts";
import { LINT_RULES } from "../../../../src/rules/registry.ts";
import { expectGolden } from "../../../helpers/golden.ts";
import { contract } from "../../diff/helpers.ts";

const ROOT = join(import.meta.dir, "../../../..");
const PUBLISHED = ["filesystem-2025.3.28", "filesystem-2025.8.21", "filesystem-2026.8.31"];
const NOT_HOSTS = new Set(LINT_RULES.filter((r) => r.group !== "hosts").map((r) => r.id));

function published(name: string) {
  const file = `tests/fixtures/published/${name}.contract.json`;
  return { file, contract: parseContract(readFileSync(join(ROOT, file), "utf8"), file) };
}

function lint(name: string, hosts: readonly string[] | undefined, options: { policy?: Policy; only?: boolean } = {}) {
  const { file, contract } = published(name);
  return judgeLint({
    contract,
    source: file,
    policy: options.policy ?? emptyPolicy(),
    today: "2026-12-02",
    tokenBudget: 10_000,
    disabled: options.only ? NOT_HOSTS : new Set(),
    failOn: "error",
    ...(hosts && { hosts }),
  });
}

describe("lint --hosts on published servers (golden)", () => {
  for (const name of PUBLISHED) {
    test(`${name}: each profile's findings and outcome`, () => {
      const sections = HOST_IDS.map((host) => {
        const { report } = lint(name, [host], { only: true });
        return `## --hosts ${host}\n\n${renderText(report, { color: false })}`;
      });
      expectGolden(`hosts/${name}.txt`, sections.join("\n"));
    });
  }

  test("the outcomes the README quotes: Gemini's parameters and OpenAI strict reject the filesystem server, the rest accept it", () => {
    const lines = lint("filesystem-2025.8.21", HOST_IDS).report.hosts?.map((h) => h.line);
    expect(lines).toEqual([
      "gemini-parameters: 13 tools rejected, whole list fails",
      "gemini-json-schema: accepted",
      "openai: accepted",
      "openai-strict: 6 tools rejected, whole list fails",
      "anthropic: accepted",
      "vscode: accepted",
      "claude-code: accepted",
      "cursor: accepted",
      "gemini-cli: accepted",
    ]);
  });
});

describe("without --hosts, lint is what it was", () => {
  test("no host finding, no hosts field, the same JSON as with an empty host list", () => {
    const plain = lint("filesystem-2025.8.21", undefined).report;
    const empty = lint("filesystem-2025.8.21", []).report;
    expect(plain.findings.some((f) => f.rule.includes("-name-invalid") && f.rule !== "tool-name-invalid")).toBe(false);
    expect(plain.findings.filter((f) => LINT_RULES.find((r) => r.id === f.rule)?.group === "hosts")).toEqual([]);
    expect(plain.hosts).toBeUndefined();
    expect(renderJson(plain)).toBe(renderJson(empty));
    expect(renderJson(plain)).not.toContain('"hosts"');
    expect(renderText(plain, { color: false })).not.toContain("hosts:");
  });

  test("the host checks riding lint's schema walk find what their own walk finds", () => {
    // With every other rule off there is no schema pass, and the host checker walks each
    // inputSchema itself; with them on, it rides the pass's walk (src/lint/hosts/lint-checks.ts).
    // Notion's schemas use $defs, which some profiles skip and others check.
    const dir = "tests/fixtures/published-pairs";
    for (const name of [
      "notionhq__notion-mcp-server-2.5.2",
      "zereight__mcp-gitlab-2.1.64",
      "mongodb-mcp-server-3.0.4",
    ]) {
      const file = `${dir}/${name}.contract.json`;
      const linted = (disabled: ReadonlySet<string>) =>
        judgeLint({
          contract: parseContract(readFileSync(join(ROOT, file), "utf8"), file),
          source: file,
          policy: emptyPolicy(),
          today: "2026-12-02",
          tokenBudget: 10_000,
          disabled,
          failOn: "error",
          hosts: HOST_IDS,
        }).report;
      const riding = linted(new Set()).findings.filter((f) => !NOT_HOSTS.has(f.rule));
      const alone = linted(NOT_HOSTS).findings;
      expect(riding.length).toBeGreaterThan(0);
      expect(riding).toEqual(alone);
    }
  });

  test("with --hosts, the other rules' findings are unchanged", () => {
    const plain = lint("filesystem-2026.8.31", undefined).report.findings;
    const hosted = lint("filesystem-2026.8.31", HOST_IDS).report.findings;
    expect(hosted.filter((f) => NOT_HOSTS.has(f.rule))).toEqual(plain);
  });
});

describe("the host summary and the host property in every format", () => {
  const { report } = lint("filesystem-2025.8.21", ["gemini-parameters", "cursor"]);

  test("text and Markdown end with one line per host", () => {
    const text = renderText(report, { color: false }).trimEnd().split("\n");
    expect(text.slice(-3)).toEqual([
      "hosts:",
      "  gemini-parameters: 13 tools rejected, whole list fails",
      "  cursor: accepted",
    ]);
    const markdown = renderMarkdown(report);
    expect(markdown).toContain(
      "**Hosts**\n\n- gemini-parameters: 13 tools rejected, whole list fails\n- cursor: accepted\n",
    );
  });

  test("JSON: hosts outcomes, and each host finding's host; valid against docs/lint-report.schema.json", () => {
    const doc = JSON.parse(renderJson(report));
    expect(doc.hosts).toEqual([
      { host: "gemini-parameters", toolsRejected: 13, toolsDropped: 0, toolsAltered: 0, listRejected: true },
      { host: "cursor", toolsRejected: 0, toolsDropped: 0, toolsAltered: 0, listRejected: false },
    ]);
    const hosted = doc.findings.filter((f: { group: string }) => f.group === "hosts");
    expect(hosted.length).toBeGreaterThan(0);
    for (const f of hosted) expect(f.host).toBe("gemini-parameters");
    expect(doc.findings.find((f: { group: string }) => f.group !== "hosts").host).toBeUndefined();
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, "docs/lint-report.schema.json"), "utf8")));
    expect(validate(doc) ? "" : ajv.errorsText(validate.errors)).toBe("");
  });

  test("SARIF: the host is a property of each host result", () => {
    const sarif = JSON.parse(renderSarif(report));
    const results = sarif.runs[0].results.filter((r: { ruleId: string }) => r.ruleId.startsWith("gemini-parameters-"));
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) expect(r.properties.host).toBe("gemini-parameters");
    const rule = sarif.runs[0].tool.driver.rules.find((r: { id: string }) => r.id === "gemini-parameters-type-list");
    expect(rule.properties).toMatchObject({ host: "gemini-parameters", checked: "2026-12-02" });
    expect(rule.properties.sources).toContain("https://github.com/zed-industries/zed/issues/53919");
  });

  test("an ignored host finding does not count in the summary", () => {
    const policy = parsePolicy(
      JSON.stringify({
        version: 1,
        rules: { "gemini-parameters-keyword-unsupported": "off" },
      }),
      "mcp-contract.config.json",
    );
    const lines = lint("filesystem-2025.8.21", ["gemini-parameters"], { policy }).report.hosts?.map((h) => h.line);
    expect(lines).toEqual(["gemini-parameters: accepted"]);
  });
});

describe('the policy file\'s "hosts"', () => {
  test("names profiles (all expands, order and duplicates do not matter)", () => {
    const parse = (hosts: unknown) => parsePolicy(JSON.stringify({ version: 1, hosts }), "mcp-contract.config.json");
    expect(parse(["openai", "gemini-parameters", "openai"]).hosts).toEqual(["gemini-parameters", "openai"]);
    expect(parse(["all"]).hosts).toEqual([...HOST_IDS]);
    expect(parsePolicy('{"version": 1}', "p.json").hosts).toBeUndefined();
  });

  test("a wrong value says where and what the profiles are (exit 2)", () => {
    const parse = (hosts: unknown) => () =>
      parsePolicy(JSON.stringify({ version: 1, hosts }), "mcp-contract.config.json");
    expect(parse("openai")).toThrow('at $.hosts, expected an array of host profile names (or ["all"])');
    expect(parse(["open-ai"])).toThrow('no host profile is named "open-ai". Did you mean openai');
  });
});

describe("the outcome line of each kind of impact", () => {
  const tools = (names: string[], extra: JsonObject = {}): Tool[] =>
    names.map((name) => ({ name, inputSchema: { type: "object" }, ...extra }));
  const outcome = (contract: Contract, hosts: string[]) =>
    judgeLint({
      contract,
      source: "x",
      policy: emptyPolicy(),
      today: "2026-12-02",
      tokenBudget: 1_000_000,
      disabled: NOT_HOSTS,
      failOn: "error",
      hosts,
    }).report.hosts?.map((h) => h.line);

  test("a tool cap drops the tools past it; a dropped name counts once", () => {
    const names = Array.from({ length: 45 }, (_, i) => `tool_${String(i).padStart(2, "0")}`);
    expect(outcome(contract({ tools: tools(names) }), ["cursor", "vscode"])).toEqual([
      "cursor: 5 tools dropped",
      "vscode: accepted",
    ]);
    expect(outcome(contract({ tools: tools(["a.b", "c.d", "e"]) }), ["cursor"])).toEqual(["cursor: 2 tools dropped"]);
  });

  test("cut texts and rewritten names are warnings: the list still works", () => {
    const long = contract({ tools: tools(["t"], { description: "x".repeat(3000) }), instructions: "i".repeat(2049) });
    expect(outcome(long, ["claude-code"])).toEqual(["claude-code: 1 tool rewritten or cut, instructions cut"]);
    expect(outcome(contract({ tools: tools(["search repos", "ok"]) }), ["gemini-cli"])).toEqual([
      "gemini-cli: 1 tool rewritten or cut",
    ]);
  });
});

test('judgeLint falls back to the policy\'s "hosts" (the programmatic API passes a policy, not --hosts)', () => {
  const policy = parsePolicy(JSON.stringify({ version: 1, hosts: ["openai-strict"] }), "p.json");
  expect(lint("filesystem-2025.8.21", undefined, { policy }).report.hosts?.map((h) => h.line)).toEqual([
    "openai-strict: 6 tools rejected, whole list fails",
  ]);
  expect(lint("filesystem-2025.8.21", [], { policy }).report.hosts).toBeUndefined();
});
