/**
 * "Unknown, not absent": before two surfaces are compared, whatever one side's format could not
 * hold (capture.importedFrom) is taken from the other side, so that a baseline converted from a
 * peer tool's file shows no change in fields it never recorded. Fields it can hold are compared
 * as they are: a tool it records without an outputSchema really had none. Pure.
 */
import type { Contract, ImportedFrom, Json, JsonObject } from "../model.ts";
import { isJsonObject, SURFACE_LISTS } from "../model.ts";

/**
 * Both sides with their unknown fields filled from the other. The current side is filled from
 * the baseline first, then the baseline from that, so a field neither side knows ends up equal.
 */
export function projectUnknownFields(before: Contract, after: Contract): [Contract, Contract] {
  const now = fillUnknown(after, before);
  const was = fillUnknown(before, now);
  return [was, now];
}

/** `partial` with every field its format could not hold taken from `other`; unchanged without a caveat. */
export function fillUnknown(partial: Contract, other: Contract): Contract {
  const imported = partial.capture.importedFrom;
  if (imported === undefined) return partial;
  const out: Contract = { ...partial };
  // No peer format holds skills (SEP-2640): a converted side's are unknown, never absent.
  if (other.skills === undefined) delete out.skills;
  else out.skills = other.skills;
  for (const field of imported.unknown) {
    if (field === "capabilities") out.capabilities = other.capabilities;
    else if (field === "protocolVersion") out.protocolVersion = other.protocolVersion;
    else if (field === "resourceTemplates") out.resourceTemplates = other.resourceTemplates;
    else if (field === "instructions") {
      if (other.instructions === undefined) delete out.instructions;
      else out.instructions = other.instructions;
    }
  }
  const serverHolds = imported.holds.server;
  if (serverHolds) out.server = fillObject(partial.server, other.server, serverHolds);
  for (const list of SURFACE_LISTS) {
    const holds = imported.holds[list.key];
    if (holds === undefined || imported.unknown.includes(list.key)) continue;
    const theirs = byId(other[list.key] as JsonObject[], list.id);
    out[list.key] = (out[list.key] as JsonObject[]).map((item) => {
      const match = theirs.get(item[list.id] as string);
      if (match === undefined) return item;
      const filled = fillObject(item, match, holds);
      return list.key === "prompts" ? fillArguments(filled, match, imported) : filled;
    }) as never;
  }
  return out;
}

/** The fields of `other` that `partial` neither holds by format nor has, added to it. */
function fillObject(partial: JsonObject, other: JsonObject, holds: readonly string[]): JsonObject {
  let out: JsonObject | undefined;
  for (const [key, value] of Object.entries(other)) {
    if (holds.includes(key) || Object.hasOwn(partial, key)) continue;
    out ??= { ...partial };
    out[key] = value;
  }
  return out ?? partial;
}

/** Prompt arguments, matched by name: the fields an argument could not hold. */
function fillArguments(prompt: JsonObject, other: JsonObject, imported: ImportedFrom): JsonObject {
  const holds = imported.holds["prompts.arguments"];
  const mine = prompt.arguments;
  const theirs = other.arguments;
  if (holds === undefined || !Array.isArray(mine) || !Array.isArray(theirs)) return prompt;
  const named = byId(theirs.filter(isJsonObject), "name");
  const args = mine.map((arg: Json) => {
    if (!isJsonObject(arg)) return arg;
    const match = named.get(arg.name as string);
    return match === undefined ? arg : fillObject(arg, match, holds);
  });
  return { ...prompt, arguments: args };
}

/** The first item of each identity (duplicates are the lint's business, not this projection's). */
function byId(items: readonly JsonObject[], id: string): Map<string, JsonObject> {
  const map = new Map<string, JsonObject>();
  for (const item of items) {
    const key = item[id];
    if (typeof key === "string" && !map.has(key)) map.set(key, item);
  }
  return map;
}
