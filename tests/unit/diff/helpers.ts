import type { Contract, JsonObject, Prompt, Resource, ResourceTemplate, Tool } from "../../../src/contract/model.ts";
import type { Change, Direction } from "../../../src/diff/model.ts";
import type { Severity } from "../../../src/rules/model.ts";

export function contract(overrides: Partial<Contract> = {}): Contract {
  return {
    lockfileVersion: 1,
    server: { name: "s", version: "1.0.0" },
    protocolVersion: "2025-11-25",
    capabilities: { tools: { listChanged: true } },
    capture: { clientCapabilities: [] },
    tools: [],
    resources: [],
    resourceTemplates: [],
    prompts: [],
    ...overrides,
  };
}

export const tool = (name: string, extra: JsonObject = {}): Tool => ({
  name,
  inputSchema: { type: "object" },
  ...extra,
});
export const resource = (uri: string, extra: JsonObject = {}): Resource => ({ uri, name: uri, ...extra });
export const template = (uriTemplate: string, name: string, extra: JsonObject = {}): ResourceTemplate => ({
  uriTemplate,
  name,
  ...extra,
});
export const prompt = (name: string, extra: JsonObject = {}): Prompt => ({ name, ...extra });

/** What a table row expects of one Change; message is a substring. */
export interface Expected {
  rule: Change["rule"];
  severity: Severity;
  direction?: Direction;
  path: string;
  message: string;
}

export function summary(changes: readonly Change[]) {
  return changes.map((c) => ({ rule: c.rule, severity: c.severity, direction: c.direction, path: c.path }));
}

/** Every object's keys reversed, recursively; arrays keep their order. */
export function reverseKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reverseKeys) as T;
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value).reverse();
  return Object.fromEntries(entries.map(([k, v]) => [k, reverseKeys(v)])) as T;
}
