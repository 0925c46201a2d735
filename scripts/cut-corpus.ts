/**
 * Cut a captured lockfile down to what the security rules read, for the benign corpus
 * (tests/fixtures/benign*, docs/lint-survey.md): names, titles, descriptions, annotations,
 * and schemas reduced to their structure (types, properties, items, unions, references) with
 * their descriptions, titles, `enum` and `const`. Minified. The security findings on the cut
 * file are those on the full capture; the script checks that before it writes.
 *
 *   bun scripts/cut-corpus.ts FULL.contract.json CUT.contract.json
 */
import { readFileSync, writeFileSync } from "node:fs";
import { isJsonObject, type Json, type JsonObject } from "../src/contract/model.ts";
import { lintContract } from "../src/lint/lint.ts";
import { LINT_RULES } from "../src/rules/registry.ts";

const SCHEMA_KEYS = new Set([
  "type",
  "description",
  "title",
  "properties",
  "additionalProperties",
  "items",
  "prefixItems",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "$ref",
  "$defs",
  "definitions",
]);
/** Keys whose value is a map of names to schemas. */
const SCHEMA_MAPS = new Set(["properties", "$defs", "definitions"]);
const ITEM_KEYS: Record<string, readonly string[]> = {
  tools: ["name", "title", "description", "inputSchema", "outputSchema", "annotations"],
  prompts: ["name", "title", "description", "arguments"],
  resources: ["uri", "name", "title", "description", "mimeType"],
  resourceTemplates: ["uriTemplate", "name", "title", "description", "mimeType"],
};

function cutSchema(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(cutSchema);
  if (!isJsonObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!SCHEMA_KEYS.has(key)) continue;
    if (key === "enum" || key === "const" || key === "description" || key === "title" || key === "type")
      out[key] = value;
    else if (SCHEMA_MAPS.has(key) && isJsonObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, cutSchema(sub)]));
    else out[key] = cutSchema(value);
  }
  return out;
}

export function cutContract(full: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(full)) {
    const keep = ITEM_KEYS[key];
    if (keep === undefined) {
      out[key] = value;
      continue;
    }
    out[key] = (Array.isArray(value) ? value : []).map((item) => {
      const cut: JsonObject = {};
      for (const field of keep) {
        const v = (item as JsonObject)[field];
        if (v === undefined) continue;
        cut[field] = field === "inputSchema" || field === "outputSchema" ? cutSchema(v) : v;
      }
      return cut;
    });
  }
  return out;
}

const securityKeys = (contract: JsonObject) =>
  lintContract(contract as never)
    .filter((f) => LINT_RULES.find((r) => r.id === f.rule)?.group === "security")
    .map((f) => `${f.rule}|${f.level}|${f.target.kind}|${f.target.name}|${f.path}|${f.message}`)
    .sort();

if (import.meta.main) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) {
    console.error("usage: bun scripts/cut-corpus.ts FULL.contract.json CUT.contract.json");
    process.exit(2);
  }
  const full = JSON.parse(readFileSync(input, "utf8")) as JsonObject;
  const cut = cutContract(full);
  const before = securityKeys(full);
  const after = securityKeys(cut);
  if (JSON.stringify(before) !== JSON.stringify(after)) {
    console.error(`${input}: the cut file lints differently from the capture; not written`);
    process.exit(1);
  }
  writeFileSync(output, `${JSON.stringify(cut)}\n`);
}
