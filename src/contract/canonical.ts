/**
 * Canonical form of a Contract: the same surface always serializes to the same bytes,
 * whatever order the server sent keys or items in. Pure; no I/O.
 */
import { type Contract, isJsonObject, type Json, type JsonObject, SKILLS_LIST, SURFACE_LISTS } from "./model.ts";

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
  "skills",
  "hashes",
];
const CAPTURE_ORDER = ["clientCapabilities", "era", "supportedVersions", "legacy", "env", "headers", "scopes"];
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
 * Recursive: contracts are bounded by MAX_NESTING_DEPTH (validate.ts) before they get here.
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

/**
 * The item with the arrays the lockfile stores as sets put in its order, everything else as it
 * is (key order too): each JSON Schema's `required`, and a skill's file manifest (by URI).
 * Content hashes are taken over this (src/contract/hashes.ts), so that an item hashes the same
 * as the server sent it, as the lockfile stores it and as the mock serves it. Objects and arrays
 * on no path to a reordered array are shared, not copied: most items come back as they are.
 */
export function withSetsSorted(item: JsonObject, skill = false): JsonObject {
  if (skill) return canonicalSkill(item);
  return setsSorted(item, false) as JsonObject;
}

function setsSorted(value: Json, inSchema: boolean): Json {
  if (Array.isArray(value)) {
    let copy: Json[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const out = setsSorted(value[i] as Json, inSchema);
      if (out !== value[i]) {
        copy ??= value.slice();
        copy[i] = out;
      }
    }
    return copy ?? value;
  }
  if (!isJsonObject(value)) return value;
  let copy: JsonObject | undefined;
  for (const key in value) {
    const child = value[key] as Json;
    const childInSchema = (inSchema && !SCHEMA_DATA_KEYWORDS.has(key)) || SCHEMA_KEYS.has(key);
    let out = setsSorted(child, childInSchema);
    if (inSchema && key === "required" && isSortableSet(out)) out = [...out].sort(compareStrings);
    if (out !== child) {
      copy ??= { ...value };
      // defineProperty: a member named __proto__ stays data.
      Object.defineProperty(copy, key, { value: out, enumerable: true, writable: true, configurable: true });
    }
  }
  return copy ?? value;
}

/** A list of strings not in order already (a sorted one is left as it is, uncopied). */
function isSortableSet(value: Json): value is string[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) {
    if (typeof value[i] !== "string") return false;
  }
  for (let i = 1; i < value.length; i++) {
    if (compareStrings(value[i - 1] as string, value[i] as string) > 0) return true;
  }
  return false;
}

/** Stable JSON text of any value with sorted keys; used for tie-breaks and fingerprints. */
export function stableStringify(value: Json): string {
  return JSON.stringify(canonicalValue(value, false));
}

/**
 * A skill: its URI, frontmatter (name and description first) and file manifest first. The
 * manifest is the set of the skill's files, sorted by URI, so that a server listing them in
 * another order writes the same lockfile.
 */
function canonicalSkill(skill: JsonObject): JsonObject {
  const out = canonicalValue(skill, false, SKILL_ORDER) as JsonObject;
  if (isJsonObject(skill.frontmatter)) out.frontmatter = canonicalValue(skill.frontmatter, false, FRONTMATTER_ORDER);
  if (Array.isArray(skill.resources)) {
    const files = skill.resources.map((file) => {
      const canonical = canonicalValue(file, false, SKILL_FILE_ORDER);
      const uri = isJsonObject(file) && typeof file.uri === "string" ? file.uri : "";
      return { canonical, uri, text: JSON.stringify(canonical) };
    });
    files.sort((a, b) => compareStrings(a.uri, b.uri) || compareStrings(a.text, b.text));
    out.resources = files.map((f) => f.canonical);
  }
  return out;
}
const SKILL_ORDER = ["uri", "frontmatter", "resources"];
const FRONTMATTER_ORDER = ["name", "description"];
const SKILL_FILE_ORDER = ["uri", "digest", "size"];

function sortItems(items: JsonObject[], id: string, skills = false): JsonObject[] {
  const keyed = items.map((item) => {
    const canonical = skills
      ? canonicalSkill(item)
      : (canonicalValue(item, false, [id, ...ITEM_ORDER.filter((k) => k !== id)]) as JsonObject);
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
    } else if (key === SKILLS_LIST.key && Array.isArray(value)) {
      out[key] = sortItems(value as JsonObject[], SKILLS_LIST.id, true);
    } else if (key === "capture") {
      // clientCapabilities is a set; supportedVersions keeps the server's order of preference.
      const capture = contract.capture as unknown as JsonObject;
      const sorted: JsonObject = {
        ...capture,
        clientCapabilities: [...contract.capture.clientCapabilities].sort(compareStrings),
      };
      // The names of the environment variables and headers given are sets too.
      for (const key of ["env", "headers", "scopes"] as const) {
        const names = contract.capture[key];
        if (names) sorted[key] = [...names].sort(compareStrings);
      }
      out[key] = canonicalValue(sorted, false, CAPTURE_ORDER);
    } else {
      out[key] = canonicalValue(value, false);
    }
  }
  return out as unknown as Contract;
}

/**
 * Objects and arrays nested up to this many levels are written one member per line; deeper
 * ones on one line, compact. Indenting every level makes the file grow with the square of
 * its depth (a 330 KB answer nested 9,000 levels would become 811 MB); with this bound the
 * size stays proportional to the content. Real lockfiles nest about 10–45 levels, so they
 * are indented throughout, byte for byte as JSON.stringify(value, null, 2) writes them.
 */
export const INDENTED_LEVELS = 64;

/** The nesting depth of a value (a scalar is 0, `{}` is 1), iteratively. */
function nestingDepth(value: Json): number {
  let deepest = 0;
  const stack: [Json, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [Json, number];
    if (node === null || typeof node !== "object") continue;
    if (depth > deepest) deepest = depth;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

/** JSON.stringify(value, null, 2), except that containers below `INDENTED_LEVELS` go on one line. */
function indentedJson(value: Json, level: number, out: string[]): void {
  if (value === null || typeof value !== "object" || level >= INDENTED_LEVELS) {
    out.push(JSON.stringify(value));
    return;
  }
  // As JSON.stringify does: an undefined member is left out, an undefined element is null.
  const entries: [string | undefined, Json][] = Array.isArray(value)
    ? value.map((v) => [undefined, v === undefined ? null : v])
    : Object.entries(value).filter(([, v]) => v !== undefined);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) {
    out.push(open + close);
    return;
  }
  const inner = `\n${"  ".repeat(level + 1)}`;
  out.push(open);
  entries.forEach(([key, child], i) => {
    out.push(i === 0 ? inner : `,${inner}`);
    if (key !== undefined) out.push(`${JSON.stringify(key)}: `);
    indentedJson(child, level + 1, out);
  });
  out.push(`\n${"  ".repeat(level)}${close}`);
}

/** The lockfile bytes: canonical, 2-space indented (to INDENTED_LEVELS), one trailing newline. */
export function serializeContract(contract: Contract): string {
  const canonical = canonicalContract(contract) as unknown as Json;
  if (nestingDepth(canonical) <= INDENTED_LEVELS) return `${JSON.stringify(canonical, null, 2)}\n`;
  const out: string[] = [];
  indentedJson(canonical, 0, out);
  return `${out.join("")}\n`;
}
