/**
 * The tools of two surfaces as the tool diff compares them, with what differs only in how
 * each protocol era encodes one fact taken out (one surface model for both eras):
 *
 * - Task support: when it moved between 2025-11-25's `tasks` capability with per-tool
 *   `execution.taskSupport` and 2026-07-28's tasks extension (see extensions.ts), the 2026
 *   encoding has no per-tool value, so `execution.taskSupport` is compared on neither side.
 * - Non-object outputSchemas (SEP-2106): from 2026-07-28 on an outputSchema may have any
 *   root, and a dual-era server gives its 2025 clients the same tool with the schema wrapped
 *   as `{"type": "object", "properties": {"result": <schema>}, "required": ["result"]}` (the
 *   official SDK's projection, with its `$ref`s rewritten under `#/properties/result`). When
 *   one surface is legacy and the other modern, and the modern outputSchema has a non-object
 *   root, the legacy one is unwrapped before they are compared.
 *
 * Tools are returned as they are when nothing applies, so a same-era diff is untouched. Pure.
 */
import { type Contract, eraOf, isJsonObject, type Json, type JsonObject, type Tool } from "../contract/model.ts";
import { SCHEMA_MAP } from "../schema/subschemas.ts";
import { taskEncodingMoved, withoutTaskSupport } from "./extensions.ts";

export function alignTools(oldC: Contract, newC: Contract): [Tool[], Tool[]] {
  let before = oldC.tools;
  let after = newC.tools;
  if (taskEncodingMoved(oldC.capabilities, newC.capabilities)) {
    before = before.map(withoutTaskSupport);
    after = after.map(withoutTaskSupport);
  }
  const oldEra = eraOf(oldC.protocolVersion);
  if (oldEra !== eraOf(newC.protocolVersion)) {
    if (oldEra === "legacy") before = unwrapLegacyOutputs(before, after);
    else after = unwrapLegacyOutputs(after, before);
  }
  return [before, after];
}

/** The legacy tools, each outputSchema unwrapped where the modern tool of that name has a non-object root. */
function unwrapLegacyOutputs(legacy: Tool[], modern: readonly Tool[]): Tool[] {
  const natural = new Map<string, Json>();
  for (const tool of modern) {
    const schema = tool.outputSchema;
    if (isJsonObject(schema) && schema.type !== "object" && !natural.has(tool.name)) natural.set(tool.name, schema);
  }
  if (natural.size === 0) return legacy;
  return legacy.map((tool) => {
    if (!natural.has(tool.name)) return tool;
    const inner = wrapped(tool.outputSchema);
    return inner === undefined ? tool : { ...tool, outputSchema: inner };
  });
}

const WRAP_KEYS = new Set(["$schema", "type", "properties", "required"]);
const RESULT = "#/properties/result";

/** The schema inside a SEP-2106 wrap, its `$ref`s pointed back at its own root; undefined when `schema` is no wrap. */
function wrapped(schema: Json | undefined): Json | undefined {
  if (!isJsonObject(schema) || schema.type !== "object") return undefined;
  if (!Object.keys(schema).every((key) => WRAP_KEYS.has(key))) return undefined;
  const { properties, required } = schema;
  if (!isJsonObject(properties) || Object.keys(properties).length !== 1 || !isJsonObject(properties.result)) {
    return undefined;
  }
  if (!Array.isArray(required) || required.length !== 1 || required[0] !== "result") return undefined;
  const inner = properties.result;
  return establishesBase(inner.$id) ? inner : unrewrite(inner, false);
}

/** Keywords whose values are data, not subschemas: a `$ref` inside is a literal. */
const DATA_KEYS = new Set(["const", "enum", "default", "examples"]);
/** Keywords whose values map names to subschemas. */
const NAME_MAPS = new Set(SCHEMA_MAP);

/** The SDK's rewrite in reverse: `#/properties/result…` → `#…`, position-aware and `$id`-scoped as it is. */
function unrewrite(node: Json, inNameMap: boolean): Json {
  if (Array.isArray(node)) return node.map((item) => unrewrite(item, false));
  if (!isJsonObject(node)) return node;
  if (!inNameMap && establishesBase(node.$id)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (inNameMap) out[key] = unrewrite(value, false);
    else if ((key === "$ref" || key === "$dynamicRef") && typeof value === "string") out[key] = pointBack(value);
    else if (DATA_KEYS.has(key)) out[key] = value;
    else out[key] = unrewrite(value, NAME_MAPS.has(key));
  }
  return out;
}

function pointBack(ref: string): string {
  if (ref === RESULT) return "#";
  return ref.startsWith(`${RESULT}/`) ? `#${ref.slice(RESULT.length)}` : ref;
}

/** A `$id` that sets a new base URI (a fragment-only one, draft-07's anchor, does not). */
function establishesBase(id: Json | undefined): boolean {
  return id !== undefined && !(typeof id === "string" && id.startsWith("#"));
}
