/**
 * Every host rule, pinned by a table: a surface taken from a real rejection (the issue or
 * vendor page that shows it is cited on the row) is reported, with the path and the fix, and
 * its nearest accepted neighbour is not. Plus the rules' metadata: host, impact, level and
 * sources with the date they were checked.
 */
import { describe, expect, test } from "bun:test";
import type { Contract, JsonObject, Tool } from "../../../../src/contract/model.ts";
import { checkHosts } from "../../../../src/lint/hosts/check.ts";
import {
  HOST_IDS,
  HOST_PROFILES,
  HOST_RULE_ROWS,
  hostOfRule,
  parseHostNames,
} from "../../../../src/lint/hosts/profiles.ts";
import { levelOf } from "../../../../src/lint/hosts/rule.ts";
import { findRule } from "../../../../src/rules/registry.ts";
import { contract } from "../../diff/helpers.ts";

interface Row {
  rule: (typeof HOST_RULE_ROWS)[number]["id"];
  /** Where the rejected surface comes from. */
  cite: string;
  rejected: Partial<Contract>;
  accepted: Partial<Contract>;
  path: string;
  /** A substring of the finding's message (the fix, usually). */
  message: string;
}

const tool = (name: string, inputSchema: JsonObject = { type: "object" }, extra: JsonObject = {}): Tool => ({
  name,
  inputSchema,
  ...extra,
});
const one = (schema: JsonObject, name = "t") => ({ tools: [tool(name, schema)] });
const named = (name: string) => ({ tools: [tool(name)] });
const many = (n: number) => ({ tools: Array.from({ length: n }, (_, i) => tool(`tool_${i}`)) });
const object = (properties: JsonObject, extra: JsonObject = {}): JsonObject => ({
  type: "object",
  properties,
  ...extra,
});

/** filesystem's edit_file items, as obsidian-smart-composer#455 quotes Gemini rejecting them. */
const edits = (closed: boolean) =>
  object({
    edits: {
      type: "array",
      items: object(
        { oldText: { type: "string" }, newText: { type: "string" } },
        closed
          ? { required: ["oldText", "newText"], additionalProperties: false }
          : { required: ["oldText", "newText"] },
      ),
    },
  });

const ROWS: Row[] = [
  {
    rule: "gemini-parameters-name-invalid",
    cite: "https://github.com/mcp-router/mcp-router/issues/176",
    rejected: named("123-tool"),
    accepted: named("tool-123"),
    path: "/name",
    message: 'rename it to "_123-tool"',
  },
  {
    rule: "gemini-parameters-keyword-unsupported",
    cite: "https://github.com/glowingjade/obsidian-smart-composer/issues/455",
    rejected: one(edits(true)),
    accepted: one(edits(false)),
    path: "/inputSchema/properties/edits/items/additionalProperties",
    message: 'fix: drop "additionalProperties", or declare the tool with parametersJsonSchema',
  },
  {
    rule: "gemini-parameters-keyword-unsupported",
    cite: "https://github.com/zed-industries/zed/issues/44875",
    rejected: one(
      object({
        mode: {
          anyOf: [
            { type: "string", const: "fast" },
            { type: "string", const: "slow" },
          ],
        },
      }),
    ),
    accepted: one(
      object({
        mode: {
          anyOf: [
            { type: "string", enum: ["fast"] },
            { type: "string", enum: ["slow"] },
          ],
        },
      }),
    ),
    path: "/inputSchema/properties/mode/anyOf/0/const",
    message: 'write "enum": [value] instead',
  },
  {
    rule: "gemini-parameters-keyword-unsupported",
    cite: "https://github.com/google-gemini/gemini-cli/issues/13326",
    rejected: one({
      type: "object",
      $defs: { Issue: object({ id: { type: "string" } }) },
      properties: { target: { $ref: "#/$defs/Issue" } },
    }),
    accepted: one(object({ target: object({ id: { type: "string" } }) })),
    path: "/inputSchema/$defs",
    message:
      'drop "$defs" once every $ref to it is inlined; also at inputSchema.properties.target.$ref: inline it (2 places)',
  },
  {
    rule: "gemini-parameters-keyword-unsupported",
    cite: "https://github.com/DEEIX-AI/DEEIX-Chat/issues/546",
    rejected: one(
      object({ headers: { type: "object" }, actions: { type: "array", items: { $ref: "#/properties/headers" } } }),
    ),
    accepted: one(object({ headers: { type: "object" }, actions: { type: "array", items: { type: "object" } } })),
    path: "/inputSchema/properties/actions/items/$ref",
    message: "inline this $ref (copy the definition it points at here)",
  },
  {
    rule: "gemini-parameters-type-list",
    cite: "https://github.com/zed-industries/zed/issues/53919",
    rejected: one(object({ limit: { type: ["integer", "null"] } })),
    accepted: one(object({ limit: { type: "integer", nullable: true } })),
    path: "/inputSchema/properties/limit/type",
    message: 'write "type": "integer" with "nullable": true',
  },
  {
    rule: "gemini-parameters-enum-not-string",
    cite: "https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Schema",
    rejected: one(object({ level: { type: "integer", enum: [1, 2, 3] } })),
    accepted: one(object({ level: { type: "string", format: "enum", enum: ["1", "2", "3"] } })),
    path: "/inputSchema/properties/level/enum",
    message: 'write them as strings (["1","2","3"])',
  },
  {
    rule: "gemini-parameters-property-name-invalid",
    cite: "https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/FunctionDeclaration",
    rejected: one(object({ "dry-run": { type: "boolean" } })),
    accepted: one(object({ dry_run: { type: "boolean" } })),
    path: "/inputSchema/properties/dry-run",
    message: 'rename it to "dry_run"',
  },
  {
    rule: "gemini-json-schema-name-invalid",
    cite: "https://github.com/mcp-router/mcp-router/issues/176",
    rejected: named("my@tool"),
    accepted: named("my:tool"),
    path: "/name",
    message: 'rename it to "my_tool"',
  },
  {
    rule: "gemini-json-schema-ref-with-siblings",
    cite: "https://github.com/anomalyco/opencode/issues/12295",
    rejected: one({
      type: "object",
      $defs: { QuestionOption: object({ label: { type: "string" } }) },
      properties: { options: { type: "array", items: { $ref: "#/$defs/QuestionOption", type: "object" } } },
    }),
    accepted: one({
      type: "object",
      $defs: { QuestionOption: object({ label: { type: "string" } }) },
      properties: { options: { type: "array", items: { $ref: "#/$defs/QuestionOption", description: "an option" } } },
    }),
    path: "/inputSchema/properties/options/items/type",
    message: "move it into the definition the $ref points at, or inline the $ref",
  },
  {
    rule: "openai-name-invalid",
    cite: "https://github.com/modelcontextprotocol/csharp-sdk/issues/679",
    rejected: named("local.netcore server getMacroList"),
    accepted: named("local-netcore_server_getMacroList"),
    path: "/name",
    message: 'rename it to "local_netcore_server_getMacroList"',
  },
  {
    rule: "openai-name-invalid",
    cite: "https://github.com/Lucassssss/eechat/issues/52",
    rejected: named(`a${"b".repeat(64)}`),
    accepted: named("b".repeat(64)),
    path: "/name",
    message: "is 65 characters, over 64",
  },
  {
    rule: "openai-too-many-tools",
    cite: "https://github.com/zed-industries/zed/issues/32946",
    rejected: many(158),
    accepted: many(128),
    path: "/tools",
    message: "the server lists 158 tools, over the 128",
  },
  {
    rule: "openai-strict-name-invalid",
    cite: "https://github.com/Lucassssss/eechat/issues/52",
    rejected: named("fs.read"),
    accepted: named("fs_read"),
    path: "/name",
    message: 'rename it to "fs_read"',
  },
  {
    rule: "openai-strict-too-many-tools",
    cite: "https://github.com/musistudio/claude-code-router/issues/686",
    rejected: many(129),
    accepted: many(128),
    path: "/tools",
    message: "129 tools",
  },
  {
    rule: "openai-strict-object-open",
    cite: "https://github.com/lastmile-ai/openai-agents-mcp/issues/2",
    rejected: one(
      object(
        { permissions: object({ read: { type: "boolean" } }, { required: ["read"] }) },
        { required: ["permissions"], additionalProperties: false },
      ),
    ),
    accepted: one(
      object(
        { permissions: object({ read: { type: "boolean" } }, { required: ["read"], additionalProperties: false }) },
        { required: ["permissions"], additionalProperties: false },
      ),
    ),
    path: "/inputSchema/properties/permissions",
    message: 'fix: add "additionalProperties": false here',
  },
  {
    rule: "openai-strict-property-optional",
    cite: "https://platform.openai.com/docs/guides/structured-outputs/supported-schemas",
    rejected: one(
      object(
        { path: { type: "string" }, recursive: { type: "boolean" } },
        { required: ["path"], additionalProperties: false },
      ),
    ),
    accepted: one(
      object(
        { path: { type: "string" }, recursive: { type: ["boolean", "null"] } },
        { required: ["path", "recursive"], additionalProperties: false },
      ),
    ),
    path: "/inputSchema/required",
    message: 'property "recursive" of inputSchema is not required',
  },
  {
    rule: "openai-strict-keyword-unsupported",
    cite: "https://platform.openai.com/docs/guides/structured-outputs/supported-schemas",
    rejected: one({
      type: "object",
      allOf: [object({ a: { type: "string" } }, { required: ["a"], additionalProperties: false })],
      additionalProperties: false,
    }),
    accepted: one(object({ a: { type: "string" } }, { required: ["a"], additionalProperties: false })),
    path: "/inputSchema/allOf",
    message: "merge the allOf branches into this schema",
  },
  {
    rule: "anthropic-name-invalid",
    cite: "https://github.com/whoz-oss/coday/pull/1239",
    rejected: named("devserver.stop"),
    accepted: named("devserver_stop"),
    path: "/name",
    message: 'rename it to "devserver_stop"',
  },
  {
    rule: "anthropic-name-invalid",
    cite: "https://github.com/anthropics/claude-code/issues/96152",
    rejected: named("x".repeat(129)),
    accepted: named("x".repeat(128)),
    path: "/name",
    message: "is 129 characters, over 128",
  },
  {
    rule: "anthropic-property-key-invalid",
    cite: "https://github.com/dimagi/open-chat-studio/issues/4027",
    rejected: one(object({ "score (1-5)": { type: "integer" } })),
    accepted: one(object({ "score_1-5": { type: "integer" } })),
    path: "/inputSchema/properties/score (1-5)",
    message: 'rename it to "score__1-5_"',
  },
  {
    rule: "vscode-too-many-tools",
    cite: "https://github.com/microsoft/vscode-copilot-release/issues/9375",
    rejected: many(158),
    accepted: many(128),
    path: "/tools",
    message: "every request fails",
  },
  {
    rule: "claude-code-description-truncated",
    cite: "https://github.com/anthropics/claude-code/issues/41593",
    rejected: { tools: [tool("code_executor", { type: "object" }, { description: "f".repeat(9336) })] },
    accepted: { tools: [tool("code_executor", { type: "object" }, { description: "f".repeat(2048) })] },
    path: "/description",
    message: "the model never reads the last 7288",
  },
  {
    rule: "claude-code-instructions-truncated",
    cite: "https://github.com/RedHatInsights/insights-mcp/issues/340",
    rejected: { instructions: "i".repeat(3277) },
    accepted: { instructions: "i".repeat(2048) },
    path: "/instructions",
    message: "shorten it to 2048 characters or fewer",
  },
  {
    rule: "cursor-too-many-tools",
    cite: "https://github.com/modelcontextprotocol/.github/discussions/360",
    rejected: many(41),
    accepted: many(40),
    path: "/tools",
    message: "over the 40 tools Cursor gives its agent",
  },
  {
    rule: "cursor-name-invalid",
    cite: "https://github.com/webstudio-is/webstudio/issues/5960",
    rejected: named("meta.index"),
    accepted: named("meta-index"),
    path: "/name",
    message: 'Cursor drops the tool; fix: rename it to "meta_index"',
  },
  {
    rule: "gemini-cli-name-rewritten",
    cite: "https://github.com/google-gemini/gemini-cli/pull/20987",
    rejected: named("search repos"),
    accepted: named("search_repos"),
    path: "/name",
    message: 'Gemini CLI sends it as "search_repos"',
  },
];

function hostOf(rule: string): string {
  const profile = hostOfRule(rule);
  if (!profile) throw new Error(`no profile has ${rule}`);
  return profile.id;
}

describe("host rules: the rejected surface is reported, its nearest accepted neighbour is not", () => {
  test.each(ROWS.map((row) => [`${row.rule} (${row.cite})`, row] as const))("%s", (_title, row) => {
    const host = hostOf(row.rule);
    const rejected = checkHosts(contract(row.rejected), [host]).filter((f) => f.rule === row.rule);
    expect(rejected.map((f) => f.path)).toContain(row.path);
    const hit = rejected.find((f) => f.path === row.path);
    expect(hit?.message).toContain(row.message);
    expect(hit?.message).toContain("fix:");
    expect(checkHosts(contract(row.accepted), [host]).filter((f) => f.rule === row.rule)).toEqual([]);
  });

  test("every host rule has a row", () => {
    const pinned = new Set(ROWS.map((row) => row.rule));
    expect(HOST_RULE_ROWS.map((r) => r.id).filter((id) => !pinned.has(id))).toEqual([]);
  });
});

describe("host rule metadata", () => {
  test("each rule is in the registry (lint, group hosts), in its host's profile, with sources and the day checked", () => {
    for (const row of HOST_RULE_ROWS) {
      const rule = findRule(row.id);
      expect(rule?.catalog).toBe("lint");
      expect(rule?.group).toBe("hosts");
      expect(HOST_IDS).toContain(row.host);
      expect(hostOfRule(row.id)?.id).toBe(row.host);
      expect(row.id.startsWith(`${row.host}-`)).toBe(true);
      expect(row.level).toBe(levelOf(row.impact));
      expect(row.sources.length).toBeGreaterThan(0);
      for (const url of row.sources) expect(url).toMatch(/^https:\/\/[^\s]+$/);
      expect(row.checked).toBe("2026-12-02");
    }
  });

  test("every profile has rules, and profile names parse (all, any case, repeated, unknown with the list)", () => {
    for (const profile of HOST_PROFILES) expect(profile.rules.length).toBeGreaterThan(0);
    expect(parseHostNames(["all"])).toEqual({ hosts: [...HOST_IDS] });
    expect(parseHostNames(["OpenAI,gemini-parameters", "openai"])).toEqual({ hosts: ["gemini-parameters", "openai"] });
    const unknown = parseHostNames(["gemini-parameter"]);
    expect("error" in unknown && unknown.error).toContain("Did you mean gemini-parameters");
  });

  test("one walk per schema shape: tools that share a schema get the same findings, each under its own name", () => {
    const schema = object({ limit: { type: ["integer", "null"] } });
    const found = checkHosts(contract({ tools: [tool("a", schema), tool("b", structuredClone(schema))] }), [
      "gemini-parameters",
    ]);
    expect(found.map((f) => [f.target.name, f.path])).toEqual([
      ["a", "/inputSchema/properties/limit/type"],
      ["b", "/inputSchema/properties/limit/type"],
    ]);
  });
});

describe("malformed surfaces", () => {
  test("wrong-typed names, schemas and keywords are checked without throwing", () => {
    const junk: JsonObject[] = [
      { name: 42 },
      { name: "a", inputSchema: "object" },
      { name: "b", inputSchema: { type: "object", properties: [1, 2], required: "x", enum: "e" } },
      { name: "c", inputSchema: { type: ["object", 3], properties: { p: null, q: true, r: { $ref: 7 } } } },
      { name: "d", description: 12, inputSchema: { anyOf: "no", items: [null, { const: 1 }], $defs: [] } },
      { name: "", inputSchema: { type: "object", additionalProperties: { type: "string" } } },
    ];
    const surface = contract({ tools: junk as unknown as Tool[], instructions: 5 as unknown as string });
    const found = checkHosts(surface, HOST_IDS);
    expect(found.length).toBeGreaterThan(0);
    for (const f of found) expect(typeof f.message).toBe("string");
    expect(
      found.some((f) => f.rule === "openai-name-invalid" && f.target.name === "" && f.message.includes("is empty")),
    ).toBe(true);
  });
});
