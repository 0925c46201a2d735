/** Small shape checks the peer readers share: each problem names the path in the peer's own file. Pure. */
import { type ImportedFrom, isJsonObject, type Json, type JsonObject } from "../model.ts";
import { describeFound } from "../validate.ts";

export type Fail = (path: string, what: string) => Error;

/** The array at `data[key]` (absent: empty, as the peer reads it), every element an object with a string `id`. */
export function itemsAt(data: JsonObject, key: string, path: string, id: string, fail: Fail): JsonObject[] {
  const value = data[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw fail(path, `expected an array, found ${describeFound(value)}`);
  value.forEach((item, i) => {
    if (!isJsonObject(item)) throw fail(`${path}[${i}]`, `expected an object, found ${describeFound(item)}`);
    if (typeof item[id] !== "string") {
      throw fail(
        `${path}[${i}].${id}`,
        `expected a string, found ${item[id] === undefined ? "nothing" : describeFound(item[id])}`,
      );
    }
  });
  return value as JsonObject[];
}

/** The optional string fields of `value` that are strings, copied; a field of another type is refused. */
export function stringFields(value: Json | undefined, keys: readonly string[], path: string, fail: Fail): JsonObject {
  if (value === undefined || value === null) return {};
  if (!isJsonObject(value)) throw fail(path, `expected an object, found ${describeFound(value)}`);
  const out: JsonObject = {};
  for (const key of keys) {
    const field = value[key];
    if (field === undefined || field === null) continue;
    if (typeof field !== "string") throw fail(`${path}.${key}`, `expected a string, found ${describeFound(field)}`);
    out[key] = field;
  }
  return out;
}

/** Capabilities a peer file implies by the lists it holds (it records none itself): for mock and lint, never compared. */
export function impliedCapabilities(lists: { tools: unknown[]; resources: unknown[]; prompts: unknown[] }): JsonObject {
  const caps: JsonObject = {};
  if (lists.tools.length > 0) caps.tools = {};
  if (lists.resources.length > 0) caps.resources = {};
  if (lists.prompts.length > 0) caps.prompts = {};
  return caps;
}

/** The caveat, in the format's own order of fields (the sentence in reports lists them so). */
export function caveat(
  format: string,
  version: string,
  unknown: string[],
  holds: Record<string, string[]>,
): ImportedFrom {
  return { format, version, unknown, holds };
}
