/**
 * Quality lint rules, pinned by a table: every rule has at least one row that produces a
 * finding (target, path, message) and one that produces none.
 */
import { describe, expect, test } from "bun:test";
import type { Contract } from "../../../src/contract/model.ts";
import { DEFAULT_LINT_OPTIONS, type LintOptions } from "../../../src/lint/model.ts";
import { nameStyle, nameWords, toolListSize } from "../../../src/lint/rules-quality.ts";
import { contract, prompt, tool } from "../diff/helpers.ts";
import {
  type CheckedRule,
  checkedRules,
  expectCompleteMetadata,
  expectFindings,
  expectPositiveAndNegativeRows,
} from "./rule-table.ts";

const QUALITY_RULES = checkedRules("quality");

interface Expected {
  kind?: string;
  name?: string;
  path: string;
  /** Substring of the message. */
  message: string;
}

interface Row {
  rule: string;
  title: string;
  contract: Partial<Contract>;
  options?: LintOptions;
  /** Empty: the rule must find nothing. */
  expected: Expected[];
}

const GOOD = "Get the daily weather forecast for a city.";
const described = (name: string, extra = {}) => tool(name, { description: GOOD, ...extra });
const names = (...list: string[]) => ({ tools: list.map((name) => described(name)) });

const ROWS: Row[] = [
  // descriptions
  {
    rule: "tool-description-missing",
    title: "absent",
    contract: { tools: [tool("sync")] },
    expected: [{ kind: "tool", name: "sync", path: "/description", message: 'tool "sync" has no description' }],
  },
  {
    rule: "tool-description-missing",
    title: "whitespace only",
    contract: { tools: [tool("sync", { description: "  \n" })] },
    expected: [{ path: "/description", message: 'tool "sync" has an empty description' }],
  },
  {
    rule: "tool-description-missing",
    title: "not a string",
    contract: { tools: [tool("sync", { description: 42 })] },
    expected: [{ path: "/description", message: "has a description that is not a string" }],
  },
  { rule: "tool-description-missing", title: "present", contract: names("sync"), expected: [] },
  {
    rule: "tool-description-too-short",
    title: "only the name's words",
    contract: { tools: [tool("run_query", { description: " Runs a query " })] },
    expected: [
      {
        path: "/description",
        message: 'description "Runs a query" is only 12 characters (under 20) and says nothing the name does not',
      },
    ],
  },
  {
    rule: "tool-description-too-short",
    title: "one word",
    contract: { tools: [tool("lookup", { description: "Search." })] },
    expected: [{ path: "/description", message: 'description "Search." is only 7 characters' }],
  },
  {
    rule: "tool-description-too-short",
    title: "short but adds what the name does not (browser_close: Close the page)",
    contract: {
      tools: [
        tool("browser_close", { description: "Close the page" }),
        tool("browser_navigate", { description: "Navigate to a URL" }),
      ],
    },
    expected: [],
  },
  {
    rule: "tool-description-too-short",
    title: "exactly 20 characters, or missing (another rule)",
    contract: { tools: [tool("q", { description: "x".repeat(20) }), tool("r")] },
    expected: [],
  },
  {
    rule: "description-too-long",
    title: "1,025 characters",
    contract: { tools: [tool("q", { description: "x".repeat(1025) })] },
    expected: [{ path: "/description", message: "description is 1025 characters (over 1,024)" }],
  },
  {
    rule: "description-too-long",
    title: "1,024 characters (astral characters count once)",
    contract: { tools: [tool("q", { description: `${"x".repeat(1020)}😀😀😀😀` })] },
    expected: [],
  },
  {
    rule: "parameter-description-missing",
    title: "two bare parameters listed in one finding",
    contract: {
      tools: [
        described("t", {
          inputSchema: {
            type: "object",
            properties: { path: { type: "string" }, mode: { type: "string", description: "r or w" }, n: true },
          },
        }),
      ],
    },
    expected: [{ path: "/inputSchema/properties", message: '2 of 3 parameters have no description: "path", "n"' }],
  },
  {
    rule: "parameter-description-missing",
    title: "described directly or through a local $ref; nested properties are not counted",
    contract: {
      tools: [
        described("t", {
          inputSchema: {
            type: "object",
            $defs: { P: { type: "string", description: "A path" } },
            properties: {
              p: { $ref: "#/$defs/P" },
              o: { type: "object", description: "Options", properties: { bare: { type: "string" } } },
            },
          },
        }),
      ],
    },
    expected: [],
  },
  {
    rule: "prompt-description-missing",
    title: "absent",
    contract: { prompts: [prompt("review")] },
    expected: [{ kind: "prompt", name: "review", path: "/description", message: 'prompt "review" has no description' }],
  },
  {
    rule: "prompt-description-missing",
    title: "present",
    contract: { prompts: [prompt("review", { description: "Review a diff" })] },
    expected: [],
  },
  // names
  {
    rule: "naming-style-inconsistent",
    title: "snake_case majority with camelCase and kebab-case outliers",
    contract: names("get_forecast", "set_alert", "list_stations", "getUser", "delete-item", "search"),
    expected: [
      {
        kind: "server",
        name: "",
        path: "",
        message:
          'tool names mix naming styles: most are snake_case (3 of 5); outliers: "getUser" (camelCase), "delete-item" (kebab-case)',
      },
    ],
  },
  {
    rule: "naming-style-inconsistent",
    title: "one style, with single words that fit any style",
    contract: names("getForecast", "setAlert", "search", "ping"),
    expected: [],
  },
  {
    rule: "mutation-without-hints",
    title: "delete in snake_case, camelCase and kebab-case",
    contract: {
      tools: [
        described("delete_file"),
        described("updateRecord", { annotations: { idempotentHint: true } }),
        described("edit-file"),
      ],
    },
    expected: [
      { name: "delete_file", path: "/annotations", message: 'tool "delete_file" sounds state-changing ("delete")' },
      { name: "updateRecord", path: "/annotations", message: 'sounds state-changing ("update") but declares neither' },
      { name: "edit-file", path: "/annotations", message: 'tool "edit-file" sounds state-changing ("edit")' },
    ],
  },
  {
    rule: "mutation-without-hints",
    title: "hints declared, or words that only contain a verb",
    contract: {
      tools: [
        described("delete_file", { annotations: { destructiveHint: true } }),
        described("create-issue", { annotations: { readOnlyHint: false } }),
        described("get_settings"),
        described("list_posts"),
        described("reader"),
      ],
    },
    expected: [],
  },
  // schemas
  {
    rule: "enum-duplicate-values",
    title: "a repeated string, and a repeated object deep in an outputSchema",
    contract: {
      tools: [
        described("t", {
          inputSchema: { type: "object", properties: { units: { enum: ["metric", "imperial", "metric"] } } },
          outputSchema: {
            type: "object",
            properties: {
              xs: {
                type: "array",
                items: {
                  enum: [
                    { a: 1, b: 2 },
                    { b: 2, a: 1 },
                  ],
                },
              },
            },
          },
        }),
      ],
    },
    expected: [
      {
        path: "/inputSchema/properties/units/enum/2",
        message: 'enum value "metric" is listed twice (items 0 and 2)',
      },
      { path: "/outputSchema/properties/xs/items/enum/1", message: "is listed twice (items 0 and 1)" },
    ],
  },
  {
    rule: "enum-duplicate-values",
    title: "distinct values (1 and 1.5, strings and numbers)",
    contract: {
      tools: [described("t", { inputSchema: { type: "object", properties: { x: { enum: [1, "1", 1.5, null] } } } })],
    },
    expected: [],
  },
  // size
  {
    rule: "tool-list-too-large",
    title: "over a small budget, naming the largest tools",
    contract: { tools: [tool("small"), tool("big", { description: "x".repeat(400) })] },
    options: { tokenBudget: 50 },
    expected: [
      {
        path: "",
        message:
          'over the budget of 50 (estimated as ceil(524 characters / 4)); largest tools: "big" (116), "small" (12)',
      },
    ],
  },
  {
    rule: "tool-list-too-large",
    title: "within the default budget",
    contract: { tools: [tool("small")] },
    expected: [],
  },
];

const BY_ID = new Map<string, CheckedRule>(QUALITY_RULES.map((rule) => [rule.id, rule]));

describe("quality rules", () => {
  for (const row of ROWS) {
    test(`${row.rule}: ${row.title}`, () => {
      const rule = BY_ID.get(row.rule);
      expect(rule).toBeDefined();
      const findings = rule!.check(contract(row.contract), row.options ?? DEFAULT_LINT_OPTIONS);
      expectFindings(findings, row.expected);
    });
  }

  test("toolListSize estimates ceil(characters / 4), even for an empty list", () => {
    expect(toolListSize(contract())).toEqual({ tools: 0, characters: 12, tokens: 3 });
    // {"tools":[{"name":"a","inputSchema":{"type":"object"}}]} is 56 characters.
    expect(toolListSize(contract({ tools: [tool("a")] }))).toEqual({ tools: 1, characters: 56, tokens: 14 });
  });

  test("every rule has a positive and a negative row", () => {
    expectPositiveAndNegativeRows(QUALITY_RULES, ROWS);
  });

  test("rule metadata is complete, ids are kebab-case and unique", () => {
    expectCompleteMetadata(QUALITY_RULES, "quality");
    for (const rule of QUALITY_RULES) expect(rule.level).not.toBe("error");
  });

  test.each([
    ["get_forecast", "snake_case", ["get", "forecast"]],
    ["get-forecast", "kebab-case", ["get", "forecast"]],
    ["getForecast", "camelCase", ["get", "forecast"]],
    ["GetForecast", "PascalCase", ["get", "forecast"]],
    ["weather.get", "dot.case", ["weather", "get"]],
    ["DATA_EXPORT", "SCREAMING_SNAKE_CASE", ["data", "export"]],
    ["github.create_issue", "mixed", ["github", "create", "issue"]],
    ["deleteHTTPRoute", "camelCase", ["delete", "http", "route"]],
    ["search", undefined, ["search"]],
  ] as const)("%s is %s", (name, style, words) => {
    expect(nameStyle(name)).toBe(style);
    expect(nameWords(name)).toEqual([...words]);
  });
});
