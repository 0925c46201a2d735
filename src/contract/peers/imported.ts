/**
 * The caveat a surface converted from a peer tool's file carries (capture.importedFrom):
 * checking its shape when a lockfile is read, and saying in words what the format could not
 * hold, once per report. Pure.
 */

import { type ImportedFrom, isJsonObject } from "../model.ts";
import { describeFound } from "../validate.ts";

/** The parts `holds` may name, in the order a sentence lists them. */
const PARTS: { key: string; noun: string }[] = [
  { key: "server", noun: "serverInfo" },
  { key: "tools", noun: "tools" },
  { key: "resources", noun: "resources" },
  { key: "resourceTemplates", noun: "resource templates" },
  { key: "prompts", noun: "prompts" },
  { key: "prompts.arguments", noun: "prompt arguments" },
];

const UNKNOWN_NOUNS: Record<string, string> = {
  capabilities: "capabilities",
  instructions: "instructions",
  protocolVersion: "the protocol version",
  resourceTemplates: "resource templates",
};

/** The top-level fields a format may be unable to hold; the projection (project.ts) knows each. */
export const UNKNOWN_FIELDS = Object.keys(UNKNOWN_NOUNS);
export const HOLD_PARTS = PARTS.map((p) => p.key);

/** The first thing wrong with a `capture.importedFrom` value: a path below it and what. */
export function importedFromProblem(value: unknown): { path: string; what: string } | undefined {
  if (!isJsonObject(value)) return { path: "", what: `expected an object, found ${describeFound(value)}` };
  for (const key of ["format", "version"] as const) {
    if (typeof value[key] !== "string")
      return { path: `.${key}`, what: `expected a string, found ${found(value[key])}` };
  }
  const unknown = value.unknown;
  if (!Array.isArray(unknown)) return { path: ".unknown", what: `expected an array, found ${found(unknown)}` };
  for (let i = 0; i < unknown.length; i++) {
    if (!UNKNOWN_FIELDS.includes(unknown[i] as string)) {
      return {
        path: `.unknown[${i}]`,
        what: `expected one of ${UNKNOWN_FIELDS.join(", ")}, found ${found(unknown[i])}`,
      };
    }
  }
  const holds = value.holds;
  if (!isJsonObject(holds)) return { path: ".holds", what: `expected an object, found ${found(holds)}` };
  for (const [part, fields] of Object.entries(holds)) {
    const at = `.holds[${JSON.stringify(part)}]`;
    if (!HOLD_PARTS.includes(part)) return { path: at, what: `expected one of ${HOLD_PARTS.join(", ")}` };
    if (!Array.isArray(fields) || !fields.every((f) => typeof f === "string")) {
      return { path: at, what: `expected an array of field names, found ${found(fields)}` };
    }
  }
  return undefined;
}

function found(value: unknown): string {
  return value === undefined ? "nothing" : describeFound(value);
}

/** "a, b and c" (or "a, b or c"). */
function listing(words: readonly string[], last = "and"): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} ${last} ${words[words.length - 1]}`;
}

/** The format and its version as a reader knows it: "mcp-covenant 0.1.0", "mcp-query contract v1". */
export function formatLabel(imported: ImportedFrom): string {
  return imported.format === "mcp-query"
    ? `mcp-query contract (version ${imported.version})`
    : `${imported.format} ${imported.version} lockfile`;
}

/**
 * What the format does not record, as a clause: "capabilities, instructions or resource
 * templates, and records only name and version of serverInfo; name, title, … of tools; …".
 */
export function describeUnknown(imported: ImportedFrom): string {
  const whole = imported.unknown.map((key) => UNKNOWN_NOUNS[key] ?? key);
  const parts = PARTS.filter((p) => imported.holds[p.key] !== undefined && !imported.unknown.includes(p.key)).map(
    (p) => `${listing(imported.holds[p.key] as string[])} of ${p.noun}`,
  );
  return `${listing(whole, "or")}, and records only ${parts.join("; ")}`;
}

/** The report notice: `role` is "baseline", "current side" or "linted file". */
export function importedNotice(role: string, source: string, imported: ImportedFrom, lint = false): string {
  const taken = lint
    ? "Lint sees none of what it does not record"
    : "What it does not record is unknown, not absent: it is taken from the other side and shows no change";
  return `the ${role} ${source} is an ${formatLabel(imported)}, which does not record ${describeUnknown(imported)}. ${taken}; \`mcp-contract snapshot\` (or \`check --update\`) records the whole surface.`;
}
