/**
 * Canonical form of a Contract: the same surface always serializes to the same bytes,
 * whatever order the server sent keys or items in. Pure; no I/O.
 */
import { type Contract, isJsonObject, type Json, type JsonObject, SURFACE_LISTS } from "./model.ts";

const TOP_LEVEL_ORDER = [
  "lockfileVersion",
  "server",
  "protocolVersion",
  "capabilities",
  "instructions",
  "capture",
  "tools",
  "resources",
  "resourceTemplates",
  "prompts",
];
/** The item's identity, then the human-facing fields, first in every item; the rest alphabetically. */
const ITEM_ORDER = ["name", "uri", "uriTemplate", "title", "description", "mimeType"];
const SCHEMA_KEYS = new Set(["inputSchema", "outputSchema"]);
/** Inside these schema keywords values are data, not schemas. */
const SCHEMA_DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function orderKeys(keys: string[], preferred: readonly string[]): string[] {
  const rank = (k: string) => {
    const i = preferred.indexOf(k);
    return i === -1 ? preferred.length : i;
  };
  return [...keys].sort((a, b) => rank(a) - rank(b) || compareStrings(a, b));
}

/**
 * Recursively sort object keys. Arrays keep their order (it can carry meaning), except
 * `required` inside a JSON Schema, which is a set and which servers emit in varying order.
 */
function canonicalValue(value: Json, inSchema: boolean, preferred: readonly string[] = []): Json {
  if (Array.isArray(value)) {
    return value.map((v) => canonicalValue(v, inSchema));
  }
  if (!isJsonObject(value)) return value;
  const entries: [string, Json][] = [];
  for (const key of orderKeys(Object.keys(value), preferred)) {
    const child = value[key] as Json;
    const childInSchema = (inSchema && !SCHEMA_DATA_KEYWORDS.has(key)) || SCHEMA_KEYS.has(key);
    let out = canonicalValue(child, childInSchema);
    if (inSchema && key === "required" && Array.isArray(out) && out.every((v) => typeof v === "string")) {
      out = [...(out as string[])].sort(compareStrings);
    }
    entries.push([key, out]);
  }
  // fromEntries defines own data properties, so a key named "__proto__" stays data.
  return Object.fromEntries(entries);
}

/** Stable JSON text of any value with sorted keys; used for tie-breaks and fingerprints. */
export function stableStringify(value: Json): string {
  return JSON.stringify(canonicalValue(value, false));
}

function sortItems(items: JsonObject[], id: string): JsonObject[] {
  const keyed = items.map((item) => {
    const canonical = canonicalValue(item, false, [id, ...ITEM_ORDER.filter((k) => k !== id)]) as JsonObject;
    const identity = item[id];
    return { canonical, identity: typeof identity === "string" ? identity : "", text: JSON.stringify(canonical) };
  });
  keyed.sort((a, b) => compareStrings(a.identity, b.identity) || compareStrings(a.text, b.text));
  return keyed.map((k) => k.canonical);
}

export function canonicalContract(contract: Contract): Contract {
  const out: JsonObject = {};
  const source = contract as unknown as JsonObject;
  for (const key of orderKeys(Object.keys(source), TOP_LEVEL_ORDER)) {
    const list = SURFACE_LISTS.find((l) => l.key === key);
    const value = source[key];
    if (value === undefined) continue;
    if (list) {
      out[key] = sortItems(value as JsonObject[], list.id);
    } else if (key === "capture") {
      const capture = contract.capture;
      out[key] = { ...capture, clientCapabilities: [...capture.clientCapabilities].sort(compareStrings) };
    } else {
      out[key] = canonicalValue(value, false);
    }
  }
  return out as unknown as Contract;
}

/** The lockfile bytes: canonical, 2-space indented, one trailing newline. */
export function serializeContract(contract: Contract): string {
  return `${JSON.stringify(canonicalContract(contract), null, 2)}\n`;
}
