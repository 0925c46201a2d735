/** The schema rules' table: its case shape and the builders every family of cases uses. */
import type { Json, JsonObject } from "../../../../src/contract/model.ts";
import { compareSchemas } from "../../../../src/schema/compare/index.ts";

export const B = "breaking" as const;
export const M = "minor" as const;
export const P = "patch" as const;

/** An MCP tool inputSchema: `city` is always there and required, plus the given properties. */
export function tool(properties: JsonObject = {}, extra: JsonObject = {}): JsonObject {
  return {
    type: "object",
    properties: { city: { type: "string", description: "City name" }, ...properties },
    required: ["city"],
    ...extra,
  };
}

/** A tool with one interesting property `p`, so that changes land at /properties/p/... */
export const withP = (p: Json, extra: JsonObject = {}): JsonObject => tool({ p }, extra);

export const ref = (name: string, where = "$defs"): JsonObject => ({ $ref: `#/${where}/${name}` });

/** "rule@path" for every change, sorted: the exact set of what was emitted. */
export function emitted(oldSchema: Json, newSchema: Json): string[] {
  return compareSchemas(oldSchema, newSchema)
    .map((c) => `${c.rule}@${c.path}`)
    .sort();
}

export const at = (rule: string, path: string): string => `${rule}@${path}`;

export interface Case {
  name: string;
  old: Json;
  new: Json;
  /** Exactly what compareSchemas(old, new) emits. */
  expect: string[];
  /** Exactly what compareSchemas(new, old) emits, when the swap is worth pinning. */
  reverse?: string[];
}
