/**
 * `--fixtures FILE`: canned answers for the mock, checked against the contract at start-up.
 *
 *   {
 *     "tools": {
 *       "get_forecast": [
 *         { "arguments": { "city": "Paris" }, "structuredContent": { ... } },
 *         { "result": { "content": [{ "type": "text", "text": "..." }], "isError": true } }
 *       ]
 *     },
 *     "resources": { "weather://stations": { "text": "[]", "mimeType": "application/json" } },
 *     "prompts": { "packing_list": { "messages": [ ... ] } }
 *   }
 *
 * A tool's entries are tried in order; one with `arguments` matches a call whose arguments hold
 * every key given, equal (deeply); one without matches any call. An entry gives a whole
 * CallToolResult (`result`), or `structuredContent` and/or `text` to build one from. A resource
 * gives a ReadResourceResult (`contents`) or one `text`/`blob` (and `mimeType`); a prompt a
 * GetPromptResult (`messages`) or one `text`.
 */

import { stableStringify } from "../contract/canonical.ts";
import { type Contract, isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import { UsageError } from "../errors.ts";
import { fitsTemplate } from "./uri-template.ts";
import { describeProblem, validatorOf } from "./validate.ts";

interface ToolFixture {
  arguments?: JsonObject;
  result: JsonObject;
}

export class Fixtures {
  constructor(
    private readonly tools: Map<string, ToolFixture[]>,
    private readonly resources: Map<string, JsonObject>,
    private readonly prompts: Map<string, JsonObject>,
  ) {}

  toolResult(name: string, args: Json): JsonObject | undefined {
    for (const entry of this.tools.get(name) ?? []) {
      if (entry.arguments === undefined || (isJsonObject(args) && contains(args, entry.arguments))) return entry.result;
    }
    return undefined;
  }

  /** Whether an entry without `arguments` answers every call to the tool (nothing is generated for it). */
  answersEveryCall(name: string): boolean {
    return (this.tools.get(name) ?? []).some((entry) => entry.arguments === undefined);
  }

  resourceResult(uri: string): JsonObject | undefined {
    return this.resources.get(uri);
  }

  promptResult(name: string, _args: JsonObject): JsonObject | undefined {
    return this.prompts.get(name);
  }
}

function contains(args: JsonObject, wanted: JsonObject): boolean {
  return Object.entries(wanted).every(([k, v]) => k in args && stableStringify(args[k] as Json) === stableStringify(v));
}

/** Parse and check a fixtures file against the contract; every problem is a UsageError (exit 2). */
export function parseFixtures(text: string, path: string, contract: Contract): Fixtures {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the fixtures file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  const bad = (what: string): never => {
    throw new UsageError(`the fixtures file ${path}: ${what}`);
  };
  if (!isJsonObject(raw)) return bad('it must hold a JSON object with "tools", "resources" and/or "prompts".');
  for (const key of Object.keys(raw)) {
    if (!["tools", "resources", "prompts", "$schema", "$comment"].includes(key)) {
      bad(`unknown key "${key}"; a fixtures file has "tools", "resources" and "prompts".`);
    }
  }
  const section = (key: string): JsonObject => {
    const value = (raw as JsonObject)[key];
    if (value === undefined) return {};
    return isJsonObject(value) ? value : bad(`"${key}" must be an object keyed by name (or URI).`);
  };

  const tools = new Map<string, ToolFixture[]>();
  for (const [name, value] of Object.entries(section("tools"))) {
    const tool = contract.tools.find((t) => t.name === name);
    if (!tool)
      bad(
        `tools.${name}: the contract has no tool "${name}" (it has ${contract.tools.map((t) => t.name).join(", ") || "none"}).`,
      );
    const entries = Array.isArray(value) ? value : [value];
    tools.set(
      name,
      entries.map((entry, i) => {
        const where = `tools.${name}[${i}]`;
        if (!isJsonObject(entry)) return bad(`${where} must be an object.`);
        const result = toolResultOf(entry, where, bad);
        if (entry.arguments !== undefined) {
          if (!isJsonObject(entry.arguments)) bad(`${where}.arguments must be an object.`);
        }
        const output = tool?.outputSchema;
        if (isJsonObject(output) && result.isError !== true) {
          if (result.structuredContent === undefined) {
            bad(`${where}: the tool "${name}" has an outputSchema, so its result needs structuredContent.`);
          }
          const problem = validatorOf(output)(result.structuredContent);
          if (problem)
            bad(`${where}: structuredContent violates the tool's outputSchema: ${describeProblem(problem)}.`);
        }
        const fixture: ToolFixture = { result };
        if (isJsonObject(entry.arguments)) fixture.arguments = entry.arguments;
        return fixture;
      }),
    );
  }

  const resources = new Map<string, JsonObject>();
  for (const [uri, value] of Object.entries(section("resources"))) {
    const where = `resources[${JSON.stringify(uri)}]`;
    const known =
      contract.resources.some((r) => r.uri === uri) ||
      contract.resourceTemplates.some((t) => fitsTemplate(t.uriTemplate, uri));
    if (!known) bad(`${where}: the contract lists no resource with this URI and no template matches it.`);
    if (!isJsonObject(value)) return bad(`${where} must be an object.`);
    if (Array.isArray(value.contents)) resources.set(uri, value);
    else if (typeof value.text === "string" || typeof value.blob === "string") {
      const content: JsonObject = { uri, ...value };
      resources.set(uri, { contents: [content] });
    } else bad(`${where} needs "contents" (a ReadResourceResult), or a "text" or "blob".`);
  }

  const prompts = new Map<string, JsonObject>();
  for (const [name, value] of Object.entries(section("prompts"))) {
    const where = `prompts.${name}`;
    if (!contract.prompts.some((p) => p.name === name)) bad(`${where}: the contract has no prompt "${name}".`);
    if (!isJsonObject(value)) return bad(`${where} must be an object.`);
    if (Array.isArray(value.messages)) prompts.set(name, value);
    else if (typeof value.text === "string") {
      prompts.set(name, { messages: [{ role: "user", content: { type: "text", text: value.text } }] });
    } else bad(`${where} needs "messages" (a GetPromptResult) or a "text".`);
  }
  return new Fixtures(tools, resources, prompts);
}

function toolResultOf(entry: JsonObject, where: string, bad: (what: string) => never): JsonObject {
  if (entry.result !== undefined) {
    if (!isJsonObject(entry.result) || !Array.isArray(entry.result.content)) {
      bad(`${where}.result must be a CallToolResult (an object with a "content" array).`);
    }
    return entry.result as JsonObject;
  }
  if (entry.structuredContent === undefined && typeof entry.text !== "string") {
    bad(`${where} needs "result" (a CallToolResult), or "structuredContent" and/or "text".`);
  }
  const text = typeof entry.text === "string" ? entry.text : JSON.stringify(entry.structuredContent);
  const result: JsonObject = { content: [{ type: "text", text }] };
  if (entry.structuredContent !== undefined) result.structuredContent = entry.structuredContent;
  if (entry.isError === true) result.isError = true;
  return result;
}
