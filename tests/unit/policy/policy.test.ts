import { describe, expect, test } from "bun:test";
import { UsageError } from "../../../src/errors.ts";
import { parsePolicy, parseTargetSelector, pathKey } from "../../../src/policy/policy.ts";
import { suggest } from "../../../src/util/text.ts";

const FILE = "mcp-contract.config.json";

function problem(text: string): string {
  try {
    parsePolicy(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a UsageError");
}

const policy = (body: object) => JSON.stringify({ version: 1, ...body }, null, 2);

describe("a valid policy file", () => {
  test("the smallest one", () => {
    const p = parsePolicy('{"version": 1}', FILE);
    expect(p.rules.size).toBe(0);
    expect(p.ignore).toEqual([]);
    expect(p.failOn).toBeUndefined();
    expect(p.source).toBe(FILE);
  });

  test("every field", () => {
    const p = parsePolicy(
      policy({
        $schema: "https://example.com/schema.json",
        rules: { "description-changed": "off", "enum-value-added": { output: "minor" }, "tool-added": "patch" },
        ignore: [
          { rule: "tool-removed", target: "tool:legacy_*", reason: " planned removal ", expires: "2026-06-30" },
          { fingerprint: "3f2a9c0d1e4b5a67", reason: "known" },
          { target: "weather://*", reason: "any kind" },
          { target: "server:", reason: "server" },
          { target: "template:weather://city/{city}/today", reason: "template alias" },
        ],
        failOn: "minor",
      }),
      FILE,
    );
    expect([...p.rules]).toEqual([
      ["description-changed", { all: "off" }],
      ["enum-value-added", { output: "minor" }],
      ["tool-added", { all: "patch" }],
    ]);
    expect(p.ignore).toEqual([
      {
        index: 0,
        rule: "tool-removed",
        target: { kind: "tool", glob: "legacy_*", text: "tool:legacy_*" },
        reason: "planned removal",
        expires: "2026-06-30",
      },
      { index: 1, fingerprint: "3f2a9c0d1e4b5a67", reason: "known" },
      { index: 2, target: { glob: "weather://*", text: "weather://*" }, reason: "any kind" },
      { index: 3, target: { kind: "server", glob: "", text: "server:" }, reason: "server" },
      {
        index: 4,
        target: {
          kind: "resourceTemplate",
          glob: "weather://city/{city}/today",
          text: "template:weather://city/{city}/today",
        },
        reason: "template alias",
      },
    ]);
    expect(p.failOn).toBe("minor");
  });

  test("allowHosts: host names and IPv4 addresses, lowercased, without duplicates", () => {
    expect(parsePolicy('{"version": 1}', FILE).allowHosts).toEqual([]);
    const p = parsePolicy(
      policy({ allowHosts: ["notion.com", "Docs.Firecrawl.dev", "203.0.113.7", "notion.com"] }),
      FILE,
    );
    expect(p.allowHosts).toEqual(["notion.com", "docs.firecrawl.dev", "203.0.113.7"]);
  });
});

describe("a bad policy file exits 2 naming the file and the place", () => {
  test.each([
    ["empty", "", `${FILE} is empty.`],
    ["blank", " \n", `${FILE} is empty.`],
    ["truncated JSON", '{\n  "version": 1,\n  "rules": {', `${FILE}:3:13: not valid JSON: unexpected end of file`],
    [
      "a trailing comma",
      '{\n  "version": 1,\n}',
      `${FILE}:3:1: not valid JSON: unexpected "}", expected a property name`,
    ],
    ["not an object", "[]", `${FILE} is not a valid policy file: at $, expected an object.`],
    ["no version", "{}", `at $, missing "version": add "version": 1.`],
    ["a string version", '{"version": "1"}', 'at $.version, expected 1, found "1".'],
    ["a newer version", '{"version": 2}', "uses policy version 2, but this mcp-contract reads version 1 at most"],
    [
      "an unknown top-level field",
      policy({ ignores: [] }),
      'at $.ignores, unknown field "ignores". Did you mean "ignore"?',
    ],
    ["rules not an object", policy({ rules: [] }), "at $.rules, expected an object of rule id → level, found []."],
    [
      "an unknown rule id",
      policy({ rules: { "enum-value-ad": "off" } }),
      'at $.rules["enum-value-ad"], unknown rule id "enum-value-ad". Did you mean "enum-value-added"',
    ],
    [
      "an unknown rule id, far from any",
      policy({ rules: { zzzzzzzzzzzzzzzzzzzz: "off" } }),
      'unknown rule id "zzzzzzzzzzzzzzzzzzzz". Run `mcp-contract rules` for the list.',
    ],
    [
      "a bad level",
      policy({ rules: { "tool-added": "major" } }),
      'at $.rules["tool-added"], expected "breaking", "minor", "patch", "off" or {"input": …, "output": …}, found "major".',
    ],
    [
      "a bad level for a direction",
      policy({ rules: { "enum-value-added": { output: "none" } } }),
      'at $.rules["enum-value-added"].output, expected "breaking", "minor", "patch" or "off", found "none".',
    ],
    [
      "an unknown direction",
      policy({ rules: { "enum-value-added": { outputs: "minor" } } }),
      'at $.rules["enum-value-added"].outputs, unknown field "outputs". Did you mean "output"?',
    ],
    ["an empty direction object", policy({ rules: { "enum-value-added": {} } }), 'expected "input" and/or "output"'],
    ["ignore not an array", policy({ ignore: {} }), "at $.ignore, expected an array, found {}."],
    [
      "an ignore that is not an object",
      policy({ ignore: ["tool-removed"] }),
      'at $.ignore[0], expected an object, found "tool-removed".',
    ],
    [
      "an ignore with a typo in a field",
      policy({ ignore: [{ rule: "tool-removed", reason: "x", expire: "2026-01-01" }] }),
      'at $.ignore[0].expire, unknown field "expire". Did you mean "expires"?',
    ],
    [
      "an ignore without a reason",
      policy({ ignore: [{ rule: "tool-removed", target: "tool:x" }] }),
      'at $.ignore[0], missing "reason": say why these changes are acceptable',
    ],
    [
      "an ignore with a blank reason",
      policy({ ignore: [{ rule: "tool-removed", reason: "  " }] }),
      'at $.ignore[0].reason, expected a non-empty string, found "  ".',
    ],
    [
      "an ignore with a number for a reason",
      policy({ ignore: [{ rule: "tool-removed", reason: 42 }] }),
      "at $.ignore[0].reason, expected a non-empty string, found 42.",
    ],
    [
      "an ignore that selects nothing",
      policy({ ignore: [{ reason: "x" }] }),
      'at $.ignore[0], expected "rule", "target" or "fingerprint" to say which changes it ignores.',
    ],
    [
      "an ignore with an unknown rule",
      policy({ ignore: [{ rule: "tool-remove", reason: "x" }] }),
      'at $.ignore[0].rule, unknown rule id "tool-remove". Did you mean "tool-removed"',
    ],
    [
      "an ignore with a rule that is not a string",
      policy({ ignore: [{ rule: ["tool-removed"], reason: "x" }] }),
      'at $.ignore[0].rule, expected a rule id, found ["tool-removed"].',
    ],
    [
      "an ignore with a bad date format",
      policy({ ignore: [{ rule: "tool-removed", reason: "x", expires: "01/06/2026" }] }),
      'at $.ignore[0].expires, expected a date YYYY-MM-DD, found "01/06/2026".',
    ],
    [
      "an ignore with a date that does not exist",
      policy({ ignore: [{ rule: "tool-removed", reason: "x", expires: "2026-02-30" }] }),
      'at $.ignore[0].expires, expected a date YYYY-MM-DD, found "2026-02-30".',
    ],
    [
      "an ignore with a short fingerprint",
      policy({ ignore: [{ fingerprint: "3f2a", reason: "x" }] }),
      'at $.ignore[0].fingerprint, expected 16 lowercase hex digits (a change\'s "fingerprint" in the JSON report), found "3f2a".',
    ],
    [
      "an ignore with a target that is not a string",
      policy({ ignore: [{ target: { tool: "x" }, reason: "x" }] }),
      'at $.ignore[0].target, expected a string like "tool:get_forecast" or "get_*", found {"tool":"x"}.',
    ],
    [
      "an ignore with a mistyped kind",
      policy({ ignore: [{ target: "tools:get_*", reason: "x" }] }),
      'at $.ignore[0].target, unknown target kind "tools". Did you mean "tool:get_*"?',
    ],
    [
      "an ignore with an empty name after the kind",
      policy({ ignore: [{ target: "tool:", reason: "x" }] }),
      'at $.ignore[0].target, expected a name or glob after "tool:", found "tool:".',
    ],
    [
      "the second ignore is the bad one",
      policy({ ignore: [{ rule: "tool-removed", reason: "ok" }, { rule: "tool-removed" }] }),
      'at $.ignore[1], missing "reason"',
    ],
    [
      "a bad failOn",
      policy({ failOn: "major" }),
      'at $.failOn, expected one of "breaking", "minor", "patch", "never", found "major".',
    ],
    ["a non-string $schema", policy({ $schema: 1 }), "at $.$schema, expected a string, found 1."],
    [
      "allowHosts not an array",
      policy({ allowHosts: "notion.com" }),
      'at $.allowHosts, expected an array of host names, found "notion.com".',
    ],
    [
      "an allowHosts entry that is not a string",
      policy({ allowHosts: ["notion.com", 7] }),
      'at $.allowHosts[1], expected a host name like "docs.example.com", found 7.',
    ],
    ["an empty allowHosts entry", policy({ allowHosts: [" "] }), "at $.allowHosts[0], expected a host name like"],
    [
      "an allowHosts entry that is a URL",
      policy({ allowHosts: ["https://developers.notion.com/reference"] }),
      'at $.allowHosts[0], expected a host, not a URL: write "developers.notion.com", found "https://developers.notion.com/reference".',
    ],
    [
      "an allowHosts entry with a wildcard",
      policy({ allowHosts: ["*.notion.com"] }),
      'at $.allowHosts[0], write "notion.com": an entry already covers its subdomains, found "*.notion.com".',
    ],
    [
      "an allowHosts entry with a port",
      policy({ allowHosts: ["203.0.113.7:8080"] }),
      'at $.allowHosts[0], expected a bare host name or IPv4 address (no scheme, port or path), found "203.0.113.7:8080".',
    ],
    [
      "an allowHosts entry that is not a host",
      policy({ allowHosts: ["not a host"] }),
      "at $.allowHosts[0], expected a bare host name or IPv4 address",
    ],
    [
      "an allowHosts entry that is a bad IP",
      policy({ allowHosts: ["300.1.2.3"] }),
      "at $.allowHosts[0], expected a host name like",
    ],
    [
      "a typo for allowHosts",
      policy({ allowHost: ["notion.com"] }),
      'at $.allowHost, unknown field "allowHost". Did you mean "allowHosts"?',
    ],
  ])("%s", (_, text, expected) => {
    const message = problem(text);
    expect(message).toContain(expected);
    if (!message.includes("not valid JSON") && !message.includes("is empty") && !message.includes("newer")) {
      expect(message.startsWith(`${FILE} is not a valid policy file: at $`)).toBe(true);
    }
  });
});

describe("pieces", () => {
  test("JSON path segments", () => {
    expect(pathKey("$", "rules")).toBe("$.rules");
    expect(pathKey("$.rules", "enum-value-added")).toBe('$.rules["enum-value-added"]');
    expect(pathKey("$", "$schema")).toBe("$.$schema");
  });

  test("suggestions", () => {
    expect(suggest("ignores", ["$schema", "version", "rules", "ignore", "failOn"])).toEqual(["ignore"]);
    expect(suggest("failon", ["failOn"])).toEqual(["failOn"]);
    expect(suggest("zzz", ["ignore"])).toEqual([]);
  });

  test.each([
    ["tool:get_*", { kind: "tool", glob: "get_*" }],
    ["prompt:echo", { kind: "prompt", glob: "echo" }],
    ["resource:weather://stations", { kind: "resource", glob: "weather://stations" }],
    ["resourceTemplate:w://{x}", { kind: "resourceTemplate", glob: "w://{x}" }],
    ["get_*", { glob: "get_*" }],
    ["weather://stations", { glob: "weather://stations" }],
    ["urn:acme:thing", { glob: "urn:acme:thing" }],
    ["server:", { kind: "server", glob: "" }],
    ["server:*", { kind: "server", glob: "" }],
  ])("target %p", (text, expected) => {
    expect(parseTargetSelector(text)).toEqual({ ...expected, text } as never);
  });

  test("server: takes no name", () => {
    expect(parseTargetSelector("server:x")).toHaveProperty("error");
  });
});

describe("lint rules in the policy file", () => {
  test("a lint rule takes a lint level or off, kept apart from diff overrides", () => {
    const p = parsePolicy(
      policy({ rules: { "embedded-url": "info", "parameter-description-missing": "off", "tool-added": "patch" } }),
      FILE,
    );
    expect([...p.lintRules]).toEqual([
      ["embedded-url", "info"],
      ["parameter-description-missing", "off"],
    ]);
    expect([...p.rules]).toEqual([["tool-added", { all: "patch" }]]);
  });

  test("a diff severity on a lint rule is refused, naming the lint levels", () => {
    const message = problem(policy({ rules: { "embedded-url": "breaking" } }));
    expect(message).toContain('at $.rules["embedded-url"], "embedded-url" is a lint rule');
    expect(message).toContain('expected "error", "warning", "info" or "off", found "breaking"');
  });

  test("a per-direction object on a lint rule is refused", () => {
    expect(problem(policy({ rules: { "hidden-instructions": { input: "warning" } } }))).toContain(
      "is a lint rule: expected",
    );
  });

  test("a lint level on a diff rule is refused", () => {
    expect(problem(policy({ rules: { "tool-removed": "error" } }))).toContain('found "error"');
  });

  test("ignores may name lint rules; unknown ids are suggested from both catalogs", () => {
    const p = parsePolicy(
      policy({ ignore: [{ rule: "embedded-url", target: "tool:docs_*", reason: "docs links" }] }),
      FILE,
    );
    expect(p.ignore[0]?.rule).toBe("embedded-url");
    expect(problem(policy({ rules: { "embeded-url": "off" } }))).toContain('Did you mean "embedded-url"');
  });
});
