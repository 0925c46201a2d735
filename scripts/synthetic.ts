/**
 * Synthetic lockfiles for benchmarks: N tools with nested input and output schemas, and a
 * second version where a given share of the tools changed. Deterministic (seeded).
 */
import type { Contract, Json, JsonObject, Tool } from "../src/contract/model.ts";
import { prng } from "../src/util/random.ts";

const rng = prng;

/**
 * `tag` makes every schema its own: a tool's numbers, enum values, pattern and descriptions carry
 * it, so no two tools share a schema shape (real surfaces rarely repeat one). Without a tag the
 * file repeats a dozen shapes, which flatters every cache keyed by shape.
 */
function nested(random: () => number, depth: number, tag = ""): JsonObject {
  const n = tag === "" ? 0 : Number.parseInt(tag, 10) + depth;
  const properties: JsonObject = {
    id: {
      type: "string",
      minLength: 1,
      maxLength: 64 + n,
      pattern: `^[a-z0-9-]+${tag}$`,
      description: `Identifier${tag && ` of record ${tag}`}`,
    },
    count: { type: "integer", minimum: 0, maximum: 1000 + n, default: 10 },
    mode: {
      type: "string",
      enum: ["fast", "safe", `thorough${tag}`],
      description: `How to run${tag && ` step ${tag}`}`,
    },
    tags: { type: "array", items: { type: "string" }, maxItems: 20 + n, uniqueItems: true },
    note: { type: ["string", "null"], description: `Free text${tag && ` for ${tag}`}` },
  };
  if (depth > 0) {
    properties.child = nested(random, depth - 1, tag);
    if (random() < 0.5) properties.options = { anyOf: [{ type: "string" }, { $ref: "#/$defs/Options" }] };
  }
  return { type: "object", properties, required: ["id"], additionalProperties: false };
}

export function syntheticTool(index: number, random: () => number, distinct = false): Tool {
  const tag = distinct ? String(index) : "";
  const input = nested(random, 3, tag);
  // Both schemas get $defs: nested() may put a $ref to #/$defs/Options in either (lint's
  // ref-unresolvable found the output side missing it).
  const defs = () => ({
    Options: {
      type: "object",
      properties: { verbose: { type: "boolean" }, level: { type: "integer", enum: [1, 2, 3] } },
    },
  });
  input.$defs = defs();
  return {
    name: `tool_${String(index).padStart(5, "0")}`,
    title: `Tool ${index}`,
    description: `Synthetic tool number ${index}, used to measure diff speed and memory on large surfaces.`,
    inputSchema: input,
    outputSchema: {
      type: "object",
      properties: { result: nested(random, 2, tag), status: { enum: ["ok", "partial"] } },
      required: ["result"],
      $defs: defs(),
    },
    annotations: { readOnlyHint: index % 3 === 0, openWorldHint: false },
  };
}

/** A change that some real release would make; five kinds, cycled. */
function mutate(tool: Tool, kind: number): void {
  const input = tool.inputSchema as { properties: Record<string, JsonObject>; required: string[] };
  const output = tool.outputSchema as { properties: Record<string, JsonObject> };
  switch (kind % 5) {
    case 0:
      (input.properties.mode as { enum: string[] }).enum.pop(); // enum value removed (input: breaking)
      break;
    case 1:
      input.required.push("count"); // newly required (input: breaking)
      break;
    case 2:
      (output.properties.status as { enum: string[] }).enum.push("failed"); // output enum widened (breaking)
      break;
    case 3:
      input.properties.extra = { type: "string", description: "new optional" } as JsonObject; // minor
      break;
    default:
      tool.description = `${tool.description as string} Now with more words.`; // patch
  }
}

export function syntheticPair(tools: number, changedShare = 0.05, seed = 7, distinct = false): [Contract, Contract] {
  const base = (list: Tool[]): Contract => ({
    lockfileVersion: 1,
    server: { name: "synthetic", version: "1.0.0" },
    protocolVersion: "2025-11-25",
    capabilities: { tools: { listChanged: true } },
    capture: { clientCapabilities: [] },
    tools: list,
    resources: [],
    resourceTemplates: [],
    prompts: [],
  });
  const random = rng(seed);
  const before = Array.from({ length: tools }, (_, i) => syntheticTool(i, random, distinct));
  const after = structuredClone(before) as Tool[];
  const every = Math.max(1, Math.round(1 / changedShare));
  for (let i = 0; i < tools; i += every) mutate(after[i] as Tool, i / every);
  return [base(before), base(after)];
}

export type { Json };
