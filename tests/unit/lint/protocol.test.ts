/**
 * Protocol lint rules, pinned by a table: every rule has at least one row that produces a
 * finding (target, path, message) and one that produces none. Then the real captures.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Contract, JsonObject, Skill } from "../../../src/contract/model.ts";
import { DEFAULT_LINT_OPTIONS } from "../../../src/lint/model.ts";
import { uriTemplateProblem } from "../../../src/lint/uri-template-syntax.ts";
import { contract, prompt, resource, template, tool } from "../diff/helpers.ts";
import {
  type CheckedRule,
  checkedRules,
  expectCompleteMetadata,
  expectFindings,
  expectPositiveAndNegativeRows,
} from "./rule-table.ts";

const PROTOCOL_RULES = checkedRules("protocol");
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
  /** Empty: the rule must find nothing. */
  expected: Expected[];
}

const withInput = (inputSchema: JsonObject | boolean | string) => ({
  tools: [{ name: "t", inputSchema } as unknown as ReturnType<typeof tool>],
});
const withOutput = (outputSchema: JsonObject | boolean) => ({ tools: [tool("t", { outputSchema })] });
const draft07 = "http://json-schema.org/draft-07/schema#";

const ROWS: Row[] = [
  // tool-name-invalid
  {
    rule: "tool-name-invalid",
    title: "space",
    contract: { tools: [tool("get weather")] },
    expected: [{ name: "get weather", path: "/name", message: '" " (U+0020); only A–Z a–z 0–9 _ - . are allowed' }],
  },
  {
    rule: "tool-name-invalid",
    title: "slash and zero-width space made visible",
    contract: { tools: [tool("fs/read\u200b")] },
    expected: [
      {
        path: "/name",
        message: '"fs/read<U+200B ZERO WIDTH SPACE>" contains "/" (U+002F), "<U+200B ZERO WIDTH SPACE>"; only',
      },
    ],
  },
  {
    rule: "tool-name-invalid",
    title: "too long",
    contract: { tools: [tool("a".repeat(129))] },
    expected: [{ path: "/name", message: "is 129 characters long (must be 1–128)" }],
  },
  {
    rule: "tool-name-invalid",
    title: "empty",
    contract: { tools: [tool("")] },
    expected: [{ path: "/name", message: "tool name is empty" }],
  },
  {
    rule: "tool-name-invalid",
    title: "valid names in every allowed character",
    contract: {
      tools: [tool("get_forecast"), tool("admin.tools-list"), tool("DATA_EXPORT_v2"), tool("a".repeat(128))],
    },
    expected: [],
  },
  // duplicates
  {
    rule: "tool-name-duplicate",
    title: "two tools named search",
    contract: { tools: [tool("search"), tool("other"), tool("search")] },
    expected: [{ kind: "tool", name: "search", path: "/name", message: '"search" appears 2 times in tools/list' }],
  },
  {
    rule: "tool-name-duplicate",
    title: "names differ in case only (case-sensitive)",
    contract: { tools: [tool("search"), tool("Search")] },
    expected: [],
  },
  {
    rule: "prompt-name-duplicate",
    title: "two prompts",
    contract: { prompts: [prompt("p"), prompt("p")] },
    expected: [{ kind: "prompt", name: "p", path: "/name", message: '"p" appears 2 times in prompts/list' }],
  },
  { rule: "prompt-name-duplicate", title: "distinct", contract: { prompts: [prompt("p"), prompt("q")] }, expected: [] },
  {
    rule: "resource-uri-duplicate",
    title: "two resources",
    contract: { resources: [resource("file:///a"), resource("file:///a")] },
    expected: [{ kind: "resource", name: "file:///a", path: "/uri", message: "appears 2 times in resources/list" }],
  },
  {
    rule: "resource-uri-duplicate",
    title: "distinct",
    contract: { resources: [resource("file:///a"), resource("file:///b")] },
    expected: [],
  },
  {
    rule: "resource-template-duplicate",
    title: "two templates",
    contract: { resourceTemplates: [template("r://{id}", "a"), template("r://{id}", "b")] },
    expected: [
      {
        kind: "resourceTemplate",
        name: "r://{id}",
        path: "/uriTemplate",
        message: "appears 2 times in resources/templates/list",
      },
    ],
  },
  {
    rule: "resource-template-duplicate",
    title: "distinct",
    contract: { resourceTemplates: [template("r://{id}", "a"), template("r://{id}/x", "b")] },
    expected: [],
  },
  // schema shape
  {
    rule: "input-schema-missing",
    title: "absent",
    contract: { tools: [{ name: "ping" }] },
    expected: [{ name: "ping", path: "/inputSchema", message: 'tool "ping" has no inputSchema' }],
  },
  { rule: "input-schema-missing", title: "present", contract: { tools: [tool("ping")] }, expected: [] },
  {
    rule: "input-schema-not-object",
    title: "type string",
    contract: withInput({ type: "string" }),
    expected: [{ path: "/inputSchema/type", message: 'inputSchema has type "string" (must be "object")' }],
  },
  {
    rule: "input-schema-not-object",
    title: "type list",
    contract: withInput({ type: ["object", "null"] }),
    expected: [{ path: "/inputSchema/type", message: 'has type ["object","null"] (must be "object")' }],
  },
  {
    rule: "input-schema-not-object",
    title: "no type",
    contract: withInput({ properties: {} }),
    expected: [{ path: "/inputSchema", message: 'inputSchema has no "type"' }],
  },
  {
    rule: "input-schema-not-object",
    title: "boolean schema",
    contract: withInput(true),
    expected: [{ path: "/inputSchema", message: "inputSchema is a boolean, not a JSON Schema object" }],
  },
  {
    rule: "input-schema-not-object",
    title: "object",
    contract: withInput({ type: "object", properties: {} }),
    expected: [],
  },
  {
    rule: "output-schema-not-object",
    title: "array",
    contract: withOutput({ type: "array", items: { type: "string" } }),
    expected: [{ path: "/outputSchema/type", message: 'outputSchema has type "array" (must be "object")' }],
  },
  {
    rule: "output-schema-not-object",
    title: "object, or absent",
    contract: { tools: [tool("t", { outputSchema: { type: "object" } }), tool("u")] },
    expected: [],
  },
  {
    rule: "output-schema-not-object",
    title: "2026-07-28: an array, a string or a typeless root is fine (structuredContent may be any JSON value)",
    contract: {
      protocolVersion: "2026-07-28",
      tools: [
        tool("a", { outputSchema: { type: "array", items: { type: "string" } } }),
        tool("b", { outputSchema: { type: "string" } }),
        tool("c", { outputSchema: { anyOf: [{ type: "number" }, { type: "null" }] } }),
      ],
    },
    expected: [],
  },
  {
    rule: "output-schema-not-object",
    title: "2026-07-28: a boolean schema is still no schema object",
    contract: { protocolVersion: "2026-07-28", tools: [tool("t", { outputSchema: true })] },
    expected: [{ path: "/outputSchema", message: 'tool "t": outputSchema is a boolean, not a JSON Schema object' }],
  },
  {
    rule: "output-schema-not-object",
    title: "2025-11-25: an array root is still an error",
    contract: { protocolVersion: "2025-11-25", ...withOutput({ type: "array" }) },
    expected: [{ path: "/outputSchema/type", message: 'outputSchema has type "array" (must be "object")' }],
  },
  // mcp-header-invalid
  {
    rule: "mcp-header-invalid",
    title: "valid declarations, nested through properties, unique ignoring case",
    contract: withInput({
      type: "object",
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        page: { type: "integer", "x-mcp-header": "Page" },
        dry: { type: "boolean", "x-mcp-header": "Dry-Run" },
        scope: { type: "object", properties: { tenant: { type: "string", "x-mcp-header": "Tenant_ID.v2" } } },
        note: { type: "string", default: { "x-mcp-header": "not a declaration: data" } },
      },
    }),
    expected: [],
  },
  {
    rule: "mcp-header-invalid",
    title: "every constraint of the specification, one finding each",
    contract: withInput({
      type: "object",
      "x-mcp-header": "Root",
      properties: {
        a: { type: "string", "x-mcp-header": "" },
        b: { type: "string", "x-mcp-header": "Tenant ID" },
        c: { type: "string", "x-mcp-header": "X\r\nInjected: 1" },
        d: { type: "number", "x-mcp-header": "Limit" },
        e: { type: ["string", "null"], "x-mcp-header": "Maybe" },
        f: { type: "string", "x-mcp-header": 7 },
        g: { type: "string", "x-mcp-header": "Region" },
        h: { type: "string", "x-mcp-header": "REGION" },
        list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } },
      },
      anyOf: [{ properties: { z: { type: "string", "x-mcp-header": "Branch" } } }],
    }),
    expected: [
      { path: "/inputSchema/x-mcp-header", message: "it is on the schema root, not on a property" },
      {
        path: "/inputSchema/anyOf/0/properties/z/x-mcp-header",
        message: "is not on a property reachable from the schema root through `properties` alone",
      },
      {
        path: "/inputSchema/properties/a/x-mcp-header",
        message: 'x-mcp-header "" on property "a" is invalid: its value is empty',
      },
      {
        path: "/inputSchema/properties/b/x-mcp-header",
        message: "it contains U+0020; clients on Streamable HTTP drop the tool",
      },
      {
        path: "/inputSchema/properties/c/x-mcp-header",
        message: 'U+000D, U+000A, ":" (U+003A), U+0020 (a line break there would inject headers',
      },
      {
        path: "/inputSchema/properties/d/x-mcp-header",
        message: 'the property has type "number"; only string, integer and boolean',
      },
      { path: "/inputSchema/properties/e/x-mcp-header", message: 'the property has type ["string","null"]' },
      {
        path: "/inputSchema/properties/f/x-mcp-header",
        message: 'x-mcp-header 7 on property "f" is invalid: its value is a number, not a string',
      },
      {
        path: "/inputSchema/properties/h/x-mcp-header",
        message: '"REGION" is already declared by property "g" ("Region")',
      },
      { path: "/inputSchema/properties/list/items/x-mcp-header", message: "is not on a property reachable" },
    ],
  },
  // schema-invalid
  {
    rule: "schema-invalid",
    title: "unknown type name (2020-12 by default)",
    contract: withInput({ type: "object", properties: { city: { type: "text" } } }),
    expected: [
      {
        path: "/inputSchema/properties/city/type",
        message:
          "inputSchema is not valid JSON Schema 2020-12 at /properties/city/type: must be equal to one of the allowed values",
      },
    ],
  },
  {
    rule: "schema-invalid",
    title: "required not an array (draft-07 declared)",
    contract: withInput({ $schema: draft07, type: "object", required: "city" }),
    expected: [
      { path: "/inputSchema/required", message: "not valid JSON Schema draft-07 at /required: must be array" },
    ],
  },
  {
    rule: "schema-invalid",
    title: "outputSchema with a negative minLength",
    contract: withOutput({ type: "object", properties: { s: { type: "string", minLength: -1 } } }),
    expected: [
      { path: "/outputSchema/properties/s/minLength", message: "outputSchema is not valid JSON Schema 2020-12" },
    ],
  },
  {
    rule: "schema-invalid",
    title: "a pattern that is not a regular expression",
    contract: withInput({ type: "object", properties: { s: { type: "string", pattern: "(" } } }),
    expected: [
      {
        path: "/inputSchema/properties/s/pattern",
        message: 'inputSchema has pattern "(", which is not a valid regular expression',
      },
    ],
  },
  {
    rule: "schema-invalid",
    title: "a patternProperties key that is not a regular expression",
    contract: withOutput({ type: "object", patternProperties: { "[a-": { type: "string" } } }),
    expected: [
      {
        path: "/outputSchema/patternProperties/[a-",
        message: 'has pattern "[a-", which is not a valid regular expression',
      },
    ],
  },
  {
    rule: "schema-invalid",
    title: "valid 2020-12, draft-07 and draft-06 schemas",
    contract: {
      tools: [
        tool("a", { inputSchema: { type: "object", properties: { x: { type: "string", pattern: "^[\\w-]+$" } } } }),
        tool("b", { inputSchema: { $schema: draft07, type: "object", definitions: { p: { type: "integer" } } } }),
        tool("c", { inputSchema: { $schema: "http://json-schema.org/draft-06/schema#", type: "object" } }),
        tool("d", { inputSchema: { $schema: "https://json-schema.org/draft/2019-09/schema", type: "object" } }),
      ],
    },
    expected: [],
  },
  {
    rule: "schema-invalid",
    title: "draft-04 schemas are skipped, not judged by a later meta-schema",
    contract: withInput({
      $schema: "http://json-schema.org/draft-04/schema#",
      type: "object",
      properties: { n: { type: "number", minimum: 0, exclusiveMinimum: true } },
    }),
    expected: [],
  },
  {
    rule: "schema-dialect-unsupported",
    title: "draft-04",
    contract: withInput({ $schema: "http://json-schema.org/draft-04/schema#", type: "object" }),
    expected: [{ path: "/inputSchema/$schema", message: 'declares $schema "http://json-schema.org/draft-04/schema#"' }],
  },
  {
    rule: "schema-dialect-unsupported",
    title: "known dialects and none",
    contract: {
      tools: [tool("a"), tool("b", { inputSchema: { $schema: draft07, type: "object" } })],
    },
    expected: [],
  },
  // required-not-declared
  {
    rule: "required-not-declared",
    title: "typo in required",
    contract: withInput({ type: "object", properties: { city: { type: "string" } }, required: ["city", "cty"] }),
    expected: [
      { path: "/inputSchema/required/1", message: 'required property "cty" is not declared in properties so it has' },
    ],
  },
  {
    rule: "required-not-declared",
    title: "closed object makes it unsatisfiable (nested in an output)",
    contract: withOutput({
      type: "object",
      properties: { item: { type: "object", additionalProperties: false, required: ["id"] } },
    }),
    expected: [
      {
        path: "/outputSchema/properties/item/required/0",
        message: "additionalProperties is false, so no value can satisfy",
      },
    ],
  },
  {
    rule: "required-not-declared",
    title: "declared, in allOf, by patternProperties, behind $ref, or no properties at all",
    contract: {
      tools: [
        tool("a", { inputSchema: { type: "object", properties: { x: {} }, required: ["x"] } }),
        tool("b", {
          inputSchema: { type: "object", properties: { x: {} }, allOf: [{ properties: { y: {} } }], required: ["y"] },
        }),
        tool("c", {
          inputSchema: { type: "object", properties: { x: {} }, patternProperties: { "^y_": {} }, required: ["y_1"] },
        }),
        tool("d", {
          inputSchema: { type: "object", properties: { x: {} }, allOf: [{ $ref: "#/$defs/d" }], required: ["z"] },
        }),
        tool("e", { inputSchema: { type: "object", required: ["anything"] } }),
      ],
    },
    expected: [],
  },
  // refs
  {
    rule: "ref-unresolvable",
    title: "missing $defs entry",
    contract: withInput({
      type: "object",
      $defs: { Point: { type: "object" } },
      properties: { p: { $ref: "#/$defs/Pointt" } },
    }),
    expected: [
      {
        path: "/inputSchema/properties/p/$ref",
        message: '$ref "#/$defs/Pointt" does not resolve: nothing is at that JSON Pointer',
      },
    ],
  },
  {
    rule: "ref-unresolvable",
    title: "missing anchor",
    contract: withInput({ type: "object", properties: { p: { $ref: "#point" } } }),
    expected: [{ path: "/inputSchema/properties/p/$ref", message: 'no $anchor "point" is defined' }],
  },
  {
    rule: "ref-unresolvable",
    title: "relative reference without a base",
    contract: withInput({ type: "object", properties: { p: { $ref: "point.json" } } }),
    expected: [
      { path: "/inputSchema/properties/p/$ref", message: "relative reference and the schema has no base URI" },
    ],
  },
  {
    rule: "ref-unresolvable",
    title: "pointer, escaped pointer, root, anchor, draft-07 definitions, embedded $id",
    contract: {
      tools: [
        tool("a", {
          inputSchema: {
            type: "object",
            $defs: { "a/b": { type: "string" }, P: { $anchor: "pt", type: "object" } },
            properties: {
              x: { $ref: "#/$defs/a~1b" },
              y: { $ref: "#pt" },
              z: { $ref: "#" },
              w: { $ref: "#/properties/x" },
              v: { $ref: "https://example.com/inner#/$defs/q" },
            },
            $comment: "inner resource below",
            allOf: [{ $id: "https://example.com/inner", $defs: { q: { type: "integer" } } }],
          },
        }),
        tool("b", {
          inputSchema: {
            $schema: draft07,
            type: "object",
            definitions: { n: { type: "number" } },
            properties: { n: { $ref: "#/definitions/n" } },
          },
        }),
      ],
    },
    expected: [],
  },
  {
    rule: "ref-remote",
    title: "absolute URL outside the schema",
    contract: withInput({ type: "object", properties: { p: { $ref: "https://example.com/point.json" } } }),
    expected: [{ path: "/inputSchema/properties/p/$ref", message: "is remote and cannot be checked offline" }],
  },
  {
    rule: "ref-remote",
    title: "local refs are not remote",
    contract: withInput({ type: "object", $defs: { P: {} }, properties: { p: { $ref: "#/$defs/P" } } }),
    expected: [],
  },
  // templates
  {
    rule: "template-uri-invalid",
    title: "unclosed brace",
    contract: { resourceTemplates: [template("file:///{path", "f")] },
    expected: [
      {
        kind: "resourceTemplate",
        name: "file:///{path",
        path: "/uriTemplate",
        message: '"{" at column 9 is never closed',
      },
    ],
  },
  {
    rule: "template-uri-invalid",
    title: "reserved operator",
    contract: { resourceTemplates: [template("r://{=id}", "r")] },
    expected: [{ path: "/uriTemplate", message: 'operator "=" is reserved' }],
  },
  {
    rule: "template-uri-invalid",
    title: "hyphen in a variable name",
    contract: { resourceTemplates: [template("r://{user-id}", "r")] },
    expected: [{ path: "/uriTemplate", message: 'variable name "user-id" is invalid' }],
  },
  {
    rule: "template-uri-invalid",
    title: "prefix of zero",
    contract: { resourceTemplates: [template("r://{id:0}", "r")] },
    expected: [{ path: "/uriTemplate", message: 'prefix modifier ":0" must be :1 to :9999' }],
  },
  {
    rule: "template-uri-invalid",
    title: "space in a literal",
    contract: { resourceTemplates: [template("r://a b/{id}", "r")] },
    expected: [{ path: "/uriTemplate", message: '" " at column 6 is not allowed' }],
  },
  {
    rule: "template-uri-invalid",
    title: "every level 1–4 form",
    contract: {
      resourceTemplates: [
        template("weather://city/{city}/today", "a"),
        template("file://{+path}{#frag}{.ext}{/seg*}{;p,q}{?x,y:3}{&z}", "b"),
        template("r://{var.name}/{v%20x}/{list*}/{id:9999}", "c"),
        template("r://caf%C3%A9/é", "d"),
      ],
    },
    expected: [],
  },
  // prompts
  {
    rule: "prompt-argument-duplicate",
    title: "two city arguments",
    contract: { prompts: [prompt("p", { arguments: [{ name: "city" }, { name: "days" }, { name: "city" }] })] },
    expected: [{ kind: "prompt", name: "p", path: "/arguments/2/name", message: 'argument "city" is declared twice' }],
  },
  {
    rule: "prompt-argument-duplicate",
    title: "distinct arguments",
    contract: { prompts: [prompt("p", { arguments: [{ name: "city" }, { name: "days" }] })] },
    expected: [],
  },
  // annotations
  {
    rule: "annotation-hint-not-boolean",
    title: 'string "true"',
    contract: { tools: [tool("t", { annotations: { readOnlyHint: "true", destructiveHint: false } })] },
    expected: [{ path: "/annotations/readOnlyHint", message: 'readOnlyHint is a string ("true"), not a boolean' }],
  },
  {
    rule: "annotation-hint-not-boolean",
    title: "booleans and a title",
    contract: { tools: [tool("t", { annotations: { title: "T", readOnlyHint: true, openWorldHint: false } })] },
    expected: [],
  },
  // skills (SEP-2640)
  {
    rule: "skill-entry-invalid",
    title: "a digest that is not sha256 hex, a size that is no byte count, SKILL.md not in the manifest",
    contract: {
      skills: [skillEntry("forecast", [{ uri: "skill://forecast/GUIDE.md", digest: "md5:9b20f1", size: -1 }])],
    },
    expected: [
      {
        kind: "skill",
        name: "skill://forecast/SKILL.md",
        path: "/resources",
        message: "does not list its own SKILL.md",
      },
      { path: "/resources/0/digest", message: 'has digest "md5:9b20f1", not "sha256:" and 64 lowercase hex digits' },
      { path: "/resources/0/size", message: "has size a number, not a byte count" },
    ],
  },
  {
    rule: "skill-entry-invalid",
    title: "no description",
    contract: { skills: [{ ...skillEntry("forecast"), frontmatter: { name: "forecast" } }] },
    expected: [{ path: "/frontmatter/description", message: "the frontmatter has no description" }],
  },
  {
    rule: "skill-entry-invalid",
    title: 'a well-formed entry, and "dynamic" files',
    contract: { skills: [skillEntry("forecast"), { ...skillEntry("alerts"), resources: "dynamic" }] },
    expected: [],
  },
  {
    rule: "skill-name-invalid",
    title: "capitals and underscores; a name that is not its folder's",
    contract: {
      skills: [
        { ...skillEntry("forecast"), frontmatter: { name: "Trip_Forecast", description: "Plan a trip." } },
        { ...skillEntry("alerts"), frontmatter: { name: "weather-alerts", description: "Set alerts." } },
      ],
    },
    expected: [
      { path: "/frontmatter/name", message: 'name "Trip_Forecast" breaks the Agent Skills naming rules' },
      { path: "/frontmatter/name", message: 'name "weather-alerts" does not match its folder "alerts"' },
    ],
  },
  {
    rule: "skill-name-invalid",
    title: "lowercase with single hyphens, the folder's name",
    contract: { skills: [skillEntry("trip-forecast")] },
    expected: [],
  },
];

/** A well-formed skill entry at skill://NAME/SKILL.md; `files` replaces its manifest. */
function skillEntry(name: string, files?: JsonObject[]): Skill {
  const uri = `skill://${name}/SKILL.md`;
  return {
    uri,
    frontmatter: { name, description: `Plan a trip around the weather with ${name}.` },
    resources: files ?? [{ uri, digest: `sha256:${"0".repeat(64)}`, size: 120 }],
  };
}

const BY_ID = new Map<string, CheckedRule>(PROTOCOL_RULES.map((rule) => [rule.id, rule]));

function run(rule: CheckedRule, overrides: Partial<Contract>) {
  return rule.check(contract(overrides), DEFAULT_LINT_OPTIONS);
}

describe("protocol rules", () => {
  for (const row of ROWS) {
    test(`${row.rule}: ${row.title}`, () => {
      const rule = BY_ID.get(row.rule);
      expect(rule).toBeDefined();
      const findings = run(rule!, row.contract);
      expectFindings(findings, row.expected);
    });
  }

  test("every rule has a positive and a negative row", () => {
    expectPositiveAndNegativeRows(PROTOCOL_RULES, ROWS);
  });

  test("rule metadata is complete, ids are kebab-case and unique", () => {
    expectCompleteMetadata(PROTOCOL_RULES, "protocol");
  });

  test("uriTemplateProblem names the problem", () => {
    expect(uriTemplateProblem("a}b")).toBe('"}" at column 2 closes no expression');
    expect(uriTemplateProblem("{a{b}}")).toBe('"{" at column 3 opens inside the expression at column 1');
    expect(uriTemplateProblem("x{}")).toBe('expression "{}" at column 2: empty expression');
    expect(uriTemplateProblem("{a,}")).toContain("empty variable name");
    expect(uriTemplateProblem("{a..b}")).toContain('variable name "a..b" is invalid');
    expect(uriTemplateProblem("{a:10000}")).toContain('":10000" must be :1 to :9999');
    expect(uriTemplateProblem("100%")).toBe('"%" at column 4 is not a %XX escape');
    expect(uriTemplateProblem("{x}")).toBeUndefined();
  });
});

describe("real captures", () => {
  const files = ["examples/weather.contract.json", "tests/fixtures/published/filesystem-2026.8.31.contract.json"];
  for (const file of files) {
    test(`${file}: no protocol errors`, () => {
      const captured = JSON.parse(readFileSync(file, "utf8")) as Contract;
      const all = [...PROTOCOL_RULES, ...QUALITY_RULES].flatMap((rule) =>
        rule.check(captured, DEFAULT_LINT_OPTIONS).map((f) => ({ rule: rule.id, level: rule.level, ...f })),
      );
      console.log(
        `${file}:\n${all.map((f) => `  ${f.level} ${f.rule} ${f.target.kind} ${f.target.name} ${f.path}: ${f.message}`).join("\n")}`,
      );
      const protocolErrors = all.filter((f) => BY_ID.has(f.rule) && f.level === "error");
      expect(protocolErrors).toEqual([]);
    });
  }
});
