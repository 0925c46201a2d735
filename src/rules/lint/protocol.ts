/** Protocol correctness: what the MCP specification and JSON Schema require of a surface. Pure data; src/rules/lint/index.ts puts the groups in catalog order. */
import type { LintRuleRow } from "../model.ts";

export const PROTOCOL_RULE_ROWS = [
  {
    id: "tool-name-invalid",
    group: "protocol",
    level: "error",
    summary: "a tool name is not 1–128 characters of A–Z a–z 0–9 _ - .",
    rationale:
      "The MCP specification says tool names SHOULD be 1–128 characters using only ASCII letters, digits, underscore, hyphen and dot. Clients and model providers enforce stricter patterns than the spec and reject or silently drop tools whose names contain spaces, slashes or other characters.",
    example: '"name": "get weather" (space)',
  },
  {
    id: "tool-name-duplicate",
    group: "protocol",
    level: "error",
    summary: "two tools share a name",
    rationale:
      "Tool names are unique within a server: tools/call addresses a tool by name, so all but one of the duplicates can never be called, and which one wins depends on the client.",
    example: 'tools/list returns two tools named "search"',
  },
  {
    id: "prompt-name-duplicate",
    group: "protocol",
    level: "error",
    summary: "two prompts share a name",
    rationale: "prompts/get addresses a prompt by name, so all but one of the duplicates are unreachable.",
    example: 'prompts/list returns two prompts named "summarize"',
  },
  {
    id: "resource-uri-duplicate",
    group: "protocol",
    level: "error",
    summary: "two resources share a URI",
    rationale:
      "resources/read addresses a resource by URI; two entries with one URI cannot both be read, and their metadata disagree.",
    example: 'resources/list returns "file:///README.md" twice',
  },
  {
    id: "resource-template-duplicate",
    group: "protocol",
    level: "error",
    summary: "two resource templates share a uriTemplate",
    rationale:
      "Two templates with the same uriTemplate match the same URIs; a client cannot tell which one describes a resource it reads.",
    example: 'resources/templates/list returns "repo://{owner}/{name}" twice',
  },
  {
    id: "input-schema-missing",
    group: "protocol",
    level: "error",
    summary: "a tool has no inputSchema",
    rationale:
      'inputSchema is required on every tool (a tool without parameters uses {"type": "object"}); clients that validate tools/list reject the whole list.',
    example: '{"name": "ping"} without "inputSchema"',
  },
  {
    id: "input-schema-not-object",
    group: "protocol",
    level: "error",
    summary: 'a tool\'s inputSchema is not an object schema with type "object"',
    rationale:
      'Tool arguments are a JSON object, and the specification requires inputSchema to be a JSON Schema object with "type": "object". SDK clients validate exactly that and reject other shapes (a missing type, a type list, a boolean schema).',
    example: '"inputSchema": {"type": "string"}',
  },
  {
    id: "output-schema-not-object",
    group: "protocol",
    level: "error",
    summary:
      'a tool\'s outputSchema is not an object schema with type "object" (from 2026-07-28 on: not a schema object)',
    rationale:
      'Up to protocol 2025-11-25 structuredContent is a JSON object, so the specification requires an outputSchema, when present, to have "type": "object", and clients reject other shapes. From 2026-07-28 on, structuredContent may be any JSON value and outputSchema any JSON Schema object (an array or a string root is fine), so only a schema that is not an object (a boolean schema, a string) is reported. The era is the one the surface was captured in (its protocolVersion): a dual-era server gives its 2025-era clients the same tools, so lint a capture made with `--era legacy` to see what they get.',
    example: '"outputSchema": {"type": "array", "items": {"type": "string"}}',
  },
  {
    id: "schema-invalid",
    group: "protocol",
    level: "error",
    summary: "an inputSchema or outputSchema is not valid against its dialect's meta-schema",
    rationale:
      "Schemas must be valid JSON Schema in their dialect: 2020-12 when $schema is absent (the MCP default), otherwise the declared one (2019-09, draft-07, draft-06). Validating clients fail to compile an invalid schema and then reject every call to the tool, or the whole list. Checked with ajv against the official meta-schemas; the path points at the offending keyword.",
    example: '"properties": {"city": {"type": "text"}}',
  },
  {
    id: "schema-dialect-unsupported",
    group: "protocol",
    level: "info",
    summary: "a schema declares a $schema dialect the linter cannot check",
    rationale:
      "Only 2020-12, 2019-09, draft-07 and draft-06 schemas are checked against their meta-schema; draft-04 (whose keywords differ, e.g. boolean exclusiveMinimum) and custom meta-schemas are skipped, and this says so rather than passing silently. Clients may not support such dialects either.",
    example: '"$schema": "http://json-schema.org/draft-04/schema#"',
  },
  {
    id: "required-not-declared",
    group: "protocol",
    level: "warning",
    summary: "a required property is not declared in properties",
    rationale:
      "JSON Schema allows `required` to name a property that `properties` does not describe: it only demands that the member be present. But when additionalProperties is false such a member is also forbidden, so no value satisfies the schema and the tool cannot be called (or cannot return); and when properties are listed, the missing one is almost always a typo or a rename left half-done, and the model is given no type or description for an argument it must send. A warning, not an error, because the schema is still valid. Properties declared in allOf/anyOf/oneOf/if/then/else branches or matched by patternProperties count as declared; schemas with a $ref branch are skipped.",
    example: '"properties": {"city": {...}}, "required": ["cty"]',
  },
  {
    id: "ref-unresolvable",
    group: "protocol",
    level: "error",
    summary: "a $ref inside a schema does not resolve",
    rationale:
      "Tool schemas travel alone, inline in tools/list: a $ref must point inside the same schema (a JSON Pointer such as #/$defs/Point, an $anchor, or an embedded $id). A dangling reference makes validating clients fail to compile the schema, and leaves the model without the shape it refers to.",
    example: '"$ref": "#/$defs/Point" with no "$defs"',
  },
  {
    id: "ref-remote",
    group: "protocol",
    level: "warning",
    summary: "a $ref inside a schema points outside it",
    rationale:
      "A remote reference cannot be checked offline, and most clients do not fetch remote schemas: they fail to compile the schema or treat the reference as anything-goes. Inline the definition under $defs.",
    example: '"$ref": "https://example.com/schemas/point.json"',
  },
  {
    id: "template-uri-invalid",
    group: "protocol",
    level: "error",
    summary: "a resource template's uriTemplate is not a valid RFC 6570 URI Template",
    rationale:
      "uriTemplate is an RFC 6570 URI Template. Unbalanced braces, unknown or reserved operators (= , ! @ |), invalid variable names, bad :N prefixes (1–9999) and characters not allowed in literals make clients fail to expand or match it, so the resources behind it cannot be read.",
    example: '"uriTemplate": "file:///{path"',
  },
  {
    id: "prompt-argument-duplicate",
    group: "protocol",
    level: "error",
    summary: "a prompt declares two arguments with one name",
    rationale:
      "prompts/get passes arguments as a name→value map, so two arguments with one name cannot both be given; their descriptions and required flags conflict.",
    example: '"arguments": [{"name": "city"}, {"name": "city"}]',
  },
  {
    id: "annotation-hint-not-boolean",
    group: "protocol",
    level: "warning",
    summary: "a tool annotation hint is not a boolean",
    rationale:
      'readOnlyHint, destructiveHint, idempotentHint and openWorldHint are booleans. A string such as "false" is truthy in many clients, so a tool can be shown as read-only or safe when it is not; strict clients reject the tool.',
    example: '"annotations": {"readOnlyHint": "true"}',
  },
  {
    id: "mcp-header-invalid",
    group: "protocol",
    level: "error",
    summary:
      "an x-mcp-header declaration breaks the specification's constraints, so clients on Streamable HTTP drop the tool",
    rationale:
      "MCP 2026-07-28 lets an inputSchema property carry `x-mcp-header` to have its argument mirrored into an `Mcp-Param-{name}` HTTP header that intermediaries route on. The value must be a non-empty HTTP header name (an RFC 9110 token: no spaces, delimiters or control characters; a CR or LF there would inject headers), unique ignoring case within the schema, on a string, integer or boolean property (number is excluded), and on a property reached from the root through `properties` alone (not under items, additionalProperties, anyOf/oneOf/allOf/not, if/then/else or $defs). Clients on Streamable HTTP must exclude a tool with any invalid declaration from tools/list, so the tool silently disappears for them. Reported whatever protocol the capture spoke: the tools a dual-era server lists are the same in both eras.",
    example: '"limit": {"type": "number", "x-mcp-header": "Limit"}',
  },
  {
    id: "skill-entry-invalid",
    group: "protocol",
    level: "error",
    summary:
      "a skill (Skills extension, SEP-2640) breaks the entry shape: a file digest that is not sha256 hex, a size that is not a byte count, its SKILL.md missing from its manifest, no name or description",
    rationale:
      'SEP-2640 addresses a skill by the URI of its `SKILL.md` and lists every file of it with `digest` ("sha256:" and 64 lowercase hex digits of the raw bytes) and `size`; hosts verify each file against its digest before the agent reads it, and the SDKs refuse entries that break the shape. The frontmatter must carry the `name` and `description` Agent Skills requires: the description is all a host shows the model to choose the skill. A file that cannot be verified, or a skill that cannot be routed, is dropped by the host.',
    example: '"resources": [{"uri": "skill://forecast/SKILL.md", "digest": "md5:9b20f1…", "size": 144}]',
  },
  {
    id: "skill-name-invalid",
    group: "protocol",
    level: "warning",
    summary: "a skill's frontmatter name breaks the Agent Skills naming rules or does not match its folder",
    rationale:
      "SEP-2640 delegates the skill format to the Agent Skills specification: a name is 1–64 lowercase letters, digits and hyphens, with no hyphen at either end or twice in a row, and it is the name of the skill's folder (the URI segment before SKILL.md). Hosts that enforce the format skip such a skill, and users invoke skills by these names.",
    example: '"uri": "skill://forecast/SKILL.md", "frontmatter": {"name": "Trip_Forecast", …}',
  },
] as const satisfies readonly LintRuleRow[];
