import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { UsageError } from "../../../src/errors.ts";
import { assertDistinct, parseManifest } from "../../../src/replay/consumers.ts";
import { renderReplay } from "../../../src/report/replay/render.ts";
import { buildReplayReport, buildSection, type CallOutcome } from "../../../src/report/replay-model.ts";
import { sarifSchemaValidator } from "../../helpers/sarif.ts";

const kept: CallOutcome = {
  at: "a.jsonl:1",
  method: "tools/call",
  target: "forecast",
  status: "kept",
  findings: [],
  ms: 3,
};
const broken: CallOutcome = {
  at: "a.jsonl:2",
  method: "tools/call",
  target: "forecast",
  status: "broken",
  findings: [
    {
      kind: "replay-type-changed",
      path: "/structuredContent/highC",
      before: "number",
      after: "string",
      message: "/structuredContent/highC was number when recorded and is now string.",
    },
  ],
};
const skipped: CallOutcome = {
  at: "a.jsonl:3",
  method: "tools/call",
  target: "wipe",
  status: "skipped",
  reason: "not read-only <&>",
  findings: [],
};
const report = buildReplayReport(
  "replay",
  "live `node server.js`",
  [buildSection("weather-app", ["a.jsonl"], [kept, broken, skipped]), buildSection("bot", ["b.jsonl"], [kept])],
  { offline: false, exact: false },
);

describe("replay report", () => {
  test("the verdict: a consumer with a broken call fails; the others pass", () => {
    expect(report.result).toBe("fail");
    expect(report.sections.map((s) => s.result)).toEqual(["fail", "pass"]);
    expect(report.summary).toEqual({ consumers: 2, failing: 1, kept: 2, broken: 1, skipped: 1 });
  });

  test("JUnit: one suite per consumer, one test case per call; broken fails, skipped is skipped", () => {
    const xml = renderReplay(report, "junit", false);
    expect(xml.match(/<testsuite /g)?.length).toBe(2);
    expect(xml.match(/<testcase /g)?.length).toBe(4);
    expect(xml).toContain('<testsuites name="replay" tests="4" failures="1" errors="0" skipped="1">');
    expect(xml).toContain('type="replay-type-changed"');
    expect(xml).toContain("not read-only &lt;&amp;&gt;");
  });

  test("SARIF: one result per finding, at the recording's line", () => {
    const sarif = JSON.parse(renderReplay(report, "sarif", false));
    expect(sarifSchemaValidator()(sarif)).toBe("");
    const [result] = sarif.runs[0].results;
    expect(sarif.runs[0].results.length).toBe(1);
    expect(result.ruleId).toBe("replay-type-changed");
    expect(result.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: "a.jsonl" },
      region: { startLine: 2 },
    });
    expect(sarif.runs[0].tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(["replay-type-changed"]);
  });

  test("github, markdown, text and JSON each carry the consumer, the path and both types", () => {
    const github = renderReplay(report, "github", false);
    // A recording inside the repository is annotated at the call's line.
    expect(github).toContain(
      "::error file=a.jsonl,line=2,title=weather-app%3A tools/call forecast (a.jsonl%3A2)::replay-type-changed",
    );
    expect(github).toContain("::warning");
    for (const format of ["markdown", "text"] as const) {
      const text = renderReplay(report, format, false);
      expect(text).toContain("weather-app");
      expect(text).toContain("highC was number when recorded and is now string");
    }
    const json = JSON.parse(renderReplay(report, "json", false));
    expect(json.reportVersion).toBe(1);
    const ajv = new Ajv2020({ strict: false });
    const schema = JSON.parse(readFileSync(join(import.meta.dir, "../../../docs/replay-report.schema.json"), "utf8"));
    expect(ajv.validate(schema, json) ? "" : ajv.errorsText(ajv.errors)).toBe("");
    expect(json.sections[0].calls[1].findings[0].after).toBe("string");
  });
});

test("can-i-deploy: a call a counted schema change reaches is broken, even when its replay kept it", () => {
  const hit = {
    rule: "enum-value-removed",
    severity: "breaking",
    path: "/inputSchema/properties/units/enum",
    message: "imperial gone",
  };
  const section = buildSection("app", ["a.jsonl"], [{ ...kept, schema: [hit] }]);
  expect(section.summary).toMatchObject({ kept: 0, broken: 1 });
  expect(section.result).toBe("fail");
  const deploy = buildReplayReport("can-i-deploy", "live x", [section], {
    offline: false,
    exact: false,
    environment: "production",
  });
  const xml = renderReplay(deploy, "junit", false);
  expect(xml).toContain('type="enum-value-removed"');
  expect(renderReplay(deploy, "text", false)).toContain("no: 1 of 1 consumer in production would break.");
});

describe("server text in replay reports", () => {
  test("JSON and SARIF write control and bidi characters from an answer as \\u escapes, the same value once parsed", () => {
    const hostile = "evil\u202e}txt.exe\u0007";
    const call: CallOutcome = {
      ...broken,
      findings: [{ kind: "replay-value-changed", path: "/structuredContent/name", message: `now ${hostile}` }],
    };
    const withText = buildReplayReport("replay", "live", [buildSection("app", ["a.jsonl"], [call])], {
      offline: false,
      exact: true,
    });
    for (const format of ["json", "sarif"] as const) {
      const text = renderReplay(withText, format, false);
      expect({ format, raw: text.includes("\u202e") || text.includes("\u0007") }).toEqual({ format, raw: false });
      expect(text).toContain("\\u202e");
      expect(JSON.stringify(JSON.parse(text))).toContain("\u202e");
    }
  });
});

describe("consumer manifests", () => {
  test("a manifest names the consumer (default: its folder) and its environments", () => {
    expect(parseManifest('{"environments":["production"]}', "x/consumer.json", "x")).toEqual({
      name: "x",
      environments: ["production"],
    });
  });

  test("mistakes are usage errors that say what is wrong", () => {
    const bad: [string, string][] = [
      ["{", "not valid JSON"],
      ["[]", "must be a JSON object"],
      ['{"name":"a","enviroments":["p"]}', 'unknown key "enviroments"'],
      ['{"name":"a","environments":[]}', '"environments" must be a non-empty array'],
      ['{"name":"a","environments":"production"}', '"environments" must be a non-empty array'],
      ['{"name":"","environments":["p"]}', '"name" must be'],
    ];
    for (const [text, message] of bad) {
      expect(() => parseManifest(text, "c/consumer.json", "c")).toThrow(UsageError);
      expect(() => parseManifest(text, "c/consumer.json", "c")).toThrow(message);
    }
    const same = { name: "a", environments: ["p"] };
    expect(() =>
      assertDistinct([
        { manifest: same, path: "x/consumer.json" },
        { manifest: same, path: "y/consumer.json" },
      ]),
    ).toThrow("both name the consumer");
  });
});
