/**
 * Quality lint rules: what makes a surface easy or hard for a model to use well —
 * descriptions, consistent names, honest annotations, the size of the tool list. None of
 * these break a client; they are warnings and infos. Pure.
 */

import { jsonEqual } from "../contract/json-equal.ts";
import { type Contract, isJsonObject, type Json, type JsonObject, type Tool } from "../contract/model.ts";
import { pointer } from "../contract/pointer.ts";
import { MAX_DESCRIPTION, MIN_DESCRIPTION } from "../rules/lint/index.ts";
import type { LintRuleId } from "../rules/registry.ts";
import { thousands } from "../util/text.ts";
import { type Found, found, perToolSchema, resolvePointer, SCHEMA_KEYS, type SchemaFound, show } from "./found.ts";
import type { LintCheck } from "./model.ts";
import type { SchemaVisitor } from "./schema-pass.ts";
import { indexShapes } from "./shapes.ts";

function text(value: Json | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** Characters as code points (`[...value].length`), counted without building the array. */
function length(value: string): number {
  let n = value.length;
  for (let i = 0; i < value.length - 1; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

// ── descriptions ───────────────────────────────────────────────────────────────────────

function checkToolDescriptionMissing(contract: Contract): Found[] {
  const out: Found[] = [];
  for (const tool of contract.tools) {
    const description = text(tool.description);
    if (description !== undefined && description.trim() !== "") continue;
    const what =
      tool.description === undefined
        ? "has no description"
        : description === undefined
          ? "has a description that is not a string"
          : "has an empty description";
    out.push(found("tool", tool.name, "/description", `tool ${show(tool.name)} ${what}`, tool.description));
  }
  return out;
}

/** Words that carry no meaning of their own in a short description. */
const FILLER = new Set([
  "a",
  "an",
  "the",
  "to",
  "of",
  "for",
  "and",
  "or",
  "in",
  "on",
  "with",
  "by",
  "from",
  "this",
  "it",
]);

/** "runs" matches "run", "closes" matches "close": the same word up to a short ending. */
function sameWord(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return long.startsWith(short) && long.length - short.length <= 3 && short.length >= 3;
}

/**
 * A short description is useless when it says nothing the name does not: one word, or only
 * the name's own words ("Runs query" for run_query). "Close the page" for browser_close adds
 * what is closed, so it passes: length alone flagged too many adequate descriptions of
 * self-explanatory tools in published servers.
 */
function restatesName(description: string, name: string): boolean {
  const words = nameWords(description).filter((w) => !FILLER.has(w));
  if (words.length <= 1) return true;
  const own = nameWords(name);
  return words.every((w) => own.some((n) => n === w || sameWord(n, w)));
}

/**
 * The routing texts the description rules judge: every tool's description, and every skill's
 * frontmatter description (SEP-2640), which a host shows the model to choose the skill by.
 */
interface RoutingText {
  kind: "tool" | "skill";
  /** The target's identity: a tool's name, a skill's SKILL.md URI. */
  id: string;
  /** The name the description should say more than. */
  name: Json | undefined;
  path: string;
  value: Json | undefined;
}

function routingDescriptions(contract: Contract): RoutingText[] {
  const out: RoutingText[] = contract.tools.map((tool) => ({
    kind: "tool",
    id: tool.name,
    name: tool.name,
    path: "/description",
    value: tool.description,
  }));
  for (const skill of contract.skills ?? []) {
    const front = isJsonObject(skill.frontmatter) ? skill.frontmatter : {};
    out.push({
      kind: "skill",
      id: skill.uri,
      name: front.name,
      path: "/frontmatter/description",
      value: front.description,
    });
  }
  return out;
}

function checkToolDescriptionShort(contract: Contract): Found[] {
  const out: Found[] = [];
  for (const item of routingDescriptions(contract)) {
    const description = text(item.value)?.trim();
    // At least half as many code points as code units: a long enough text needs no count.
    if (!description || description.length >= 2 * MIN_DESCRIPTION || length(description) >= MIN_DESCRIPTION) continue;
    if (typeof item.name === "string" && !restatesName(description, item.name)) continue;
    out.push(
      found(
        item.kind,
        item.id,
        item.path,
        `${item.kind} ${show(item.id)}: description ${show(description)} is only ${length(description)} characters (under ${MIN_DESCRIPTION}) and says nothing the name does not`,
        description,
      ),
    );
  }
  return out;
}

function checkToolDescriptionLong(contract: Contract): Found[] {
  const out: Found[] = [];
  for (const item of routingDescriptions(contract)) {
    const description = text(item.value);
    // Never more code points than code units.
    if (description === undefined || description.length <= MAX_DESCRIPTION || length(description) <= MAX_DESCRIPTION) {
      continue;
    }
    out.push(
      found(
        item.kind,
        item.id,
        item.path,
        `${item.kind} ${show(item.id)}: description is ${length(description)} characters (over ${thousands(MAX_DESCRIPTION)})`,
        length(description),
      ),
    );
  }
  return out;
}

/**
 * Whether a text holds more than white space (what a trim that leaves something says), without
 * trimming when it starts with a printable ASCII character other than the space, as most do.
 */
export function holdsText(value: string | undefined): boolean {
  if (value === undefined || value.length === 0) return false;
  const first = value.charCodeAt(0);
  return (first > 0x20 && first < 0x7f) || value.trim() !== "";
}

/** Whether a property schema carries a description, itself or through a local $ref. */
function hasDescription(root: JsonObject, property: Json): boolean {
  if (!isJsonObject(property)) return false;
  if (holdsText(text(property.description))) return true;
  const ref = property.$ref;
  if (typeof ref === "string" && ref.startsWith("#/")) {
    let decoded = ref.slice(1);
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      return false;
    }
    const target = resolvePointer(root, decoded);
    return isJsonObject(target) && holdsText(text(target.description));
  }
  return false;
}

function checkParameterDescriptions(contract: Contract): Found[] {
  return perToolSchema(contract, ["inputSchema"], (schema) => {
    if (!isJsonObject(schema) || !isJsonObject(schema.properties)) return NO_SCHEMA_FINDINGS;
    const properties = schema.properties;
    // for...in gives the names in Object.keys' order: no list of every name, nor a closure, per schema.
    let count = 0;
    let bare: string[] | undefined;
    for (const name in properties) {
      count++;
      if (hasDescription(schema, properties[name]!)) continue;
      bare ??= [];
      bare.push(name);
    }
    if (bare === undefined) return NO_SCHEMA_FINDINGS;
    return [
      {
        path: "/inputSchema/properties",
        message: `${bare.length} of ${count} parameters have no description: ${bare.map((n) => show(n)).join(", ")}`,
        evidence: bare,
      },
    ];
  });
}

/** A schema check's answer when it finds nothing (never added to). */
const NO_SCHEMA_FINDINGS: SchemaFound[] = [];

function checkPromptDescriptions(contract: Contract): Found[] {
  return contract.prompts
    .filter((prompt) => !text(prompt.description)?.trim())
    .map((prompt) => found("prompt", prompt.name, "/description", `prompt ${show(prompt.name)} has no description`));
}

// ── names ──────────────────────────────────────────────────────────────────────────────

export type NameStyle =
  | "snake_case"
  | "kebab-case"
  | "camelCase"
  | "PascalCase"
  | "dot.case"
  | "SCREAMING_SNAKE_CASE"
  | "mixed";

const STYLES: [NameStyle, RegExp][] = [
  ["snake_case", /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/],
  ["kebab-case", /^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/],
  ["dot.case", /^[a-z][a-z0-9]*(?:\.[a-z0-9]+)+$/],
  ["camelCase", /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/],
  ["PascalCase", /^[A-Z][a-z0-9]*(?:[A-Z][a-z0-9]*)*$/],
  ["SCREAMING_SNAKE_CASE", /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/],
];

/**
 * The naming style of a name; undefined for a single lowercase word ("search"), which fits
 * snake, kebab, camel and dot case alike. "mixed" for names that combine conventions.
 */
export function nameStyle(name: string): NameStyle | undefined {
  if (/^[a-z][a-z0-9]*$/.test(name)) return undefined;
  for (const [style, pattern] of STYLES) if (pattern.test(name)) return style;
  return "mixed";
}

/** The lowercase words of a name in any style: "deleteFile", "delete_file", "HTTPGet" → …. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== "")
    .map((word) => word.toLowerCase());
}

function checkNamingStyle(contract: Contract): Found[] {
  const styles = new Map<string, NameStyle>();
  const counts = new Map<NameStyle, number>();
  for (const tool of contract.tools) {
    if (typeof tool.name !== "string") continue;
    const style = nameStyle(tool.name);
    if (!style) continue;
    styles.set(tool.name, style);
    counts.set(style, (counts.get(style) ?? 0) + 1);
  }
  if (counts.size < 2) return [];
  let majority: NameStyle | undefined;
  for (const [style, count] of counts) if (!majority || count > counts.get(majority)!) majority = style;
  const outliers = [...styles].filter(([, style]) => style !== majority);
  const evidence: JsonObject = Object.fromEntries(outliers);
  const listed = outliers.map(([name, style]) => `${show(name)} (${style})`).join(", ");
  return [
    found(
      "server",
      "",
      "",
      `tool names mix naming styles: most are ${majority} (${counts.get(majority!)} of ${styles.size}); outliers: ${listed}`,
      { majority: majority!, outliers: evidence },
    ),
  ];
}

export const MUTATING_WORDS = new Set([
  "delete",
  "remove",
  "drop",
  "destroy",
  "purge",
  "erase",
  "write",
  "update",
  "create",
  "set",
  "move",
  "rename",
  "kill",
  "reset",
  "truncate",
  "overwrite",
  "send",
  "post",
  "put",
  "patch",
  // Beyond the usual list: verbs that as plainly change state.
  "edit",
  "modify",
  "insert",
  "append",
  "replace",
  "upload",
]);

function declaresSafety(tool: Tool): boolean {
  const annotations = tool.annotations;
  if (!isJsonObject(annotations)) return false;
  return typeof annotations.destructiveHint === "boolean" || typeof annotations.readOnlyHint === "boolean";
}

function checkMutationHints(contract: Contract): Found[] {
  const out: Found[] = [];
  for (const tool of contract.tools) {
    if (typeof tool.name !== "string" || declaresSafety(tool)) continue;
    const verbs = nameWords(tool.name).filter((word) => MUTATING_WORDS.has(word));
    if (verbs.length === 0) continue;
    out.push(
      found(
        "tool",
        tool.name,
        "/annotations",
        `tool ${show(tool.name)} sounds state-changing (${verbs.map((v) => show(v)).join(", ")}) but declares neither readOnlyHint nor destructiveHint`,
        verbs,
      ),
    );
  }
  return out;
}

// ── schemas ────────────────────────────────────────────────────────────────────────────

/**
 * The first index before `j` whose value equals `values[j]` as JSON, or -1. A loop rather than
 * findIndex: a closure per value of every enum of every schema; a scalar is equal only to itself.
 */
function firstEqual(values: readonly Json[], j: number): number {
  const value = values[j];
  if (value === null || typeof value !== "object") {
    for (let k = 0; k < j; k++) if (values[k] === value) return k;
    return -1;
  }
  for (let k = 0; k < j; k++) if (jsonEqual(values[k], value)) return k;
  return -1;
}

const enumDuplicates: SchemaVisitor = {
  keys: SCHEMA_KEYS,
  on: ["enum"],
  visit(node, _root, _key, out) {
    const values = node.schema.enum;
    if (!Array.isArray(values)) return;
    for (let j = 1; j < values.length; j++) {
      const i = firstEqual(values, j);
      if (i === -1) continue;
      out.push({
        path: pointer(node.path, "enum", j),
        message: `enum value ${JSON.stringify(values[j])} is listed twice (items ${i} and ${j})`,
        evidence: values[j],
      });
    }
  },
};

// ── size of the tool list ──────────────────────────────────────────────────────────────

/** Estimated tokens of a JSON value: ceil(characters of its compact JSON / 4). */
export function estimateTokens(value: Json): number {
  return Math.ceil(JSON.stringify(value).length / 4);
}

const n = thousands;

/**
 * The estimated size of the whole tool list in a model's context: ceil(characters of the
 * compact tools/list JSON / 4). Every lint report carries it (a number to watch, not a
 * finding, so that `--fail-on info` does not fail on every server); tool-list-too-large
 * warns over the budget. The tools are measured once per lint run (src/lint/shapes.ts):
 * `{"tools":[` + each tool's JSON, comma-separated, + `]}`.
 */
export function toolListSize(contract: Contract): { tools: number; characters: number; tokens: number } {
  const lengths = indexShapes(contract).toolLengths;
  let characters = '{"tools":[]}'.length + Math.max(0, lengths.length - 1);
  for (const length of lengths) characters += length;
  return { tools: contract.tools.length, characters, tokens: Math.ceil(characters / 4) };
}

/**
 * The `count` tools with the most tokens, most first, ties in list order: what a stable sort of
 * every tool by tokens would begin with, without an object per tool and the sort (10,000 tools).
 */
export function largestTools(
  tools: readonly Tool[],
  lengths: readonly number[],
  count: number,
): { name: string; tokens: number }[] {
  const top: { name: string; tokens: number }[] = [];
  for (let i = 0; i < tools.length; i++) {
    const tokens = Math.ceil(lengths[i]! / 4);
    if (top.length === count && tokens <= top[count - 1]!.tokens) continue;
    // After every tool with as many tokens or more: a tie keeps list order.
    let at = top.length;
    while (at > 0 && top[at - 1]!.tokens < tokens) at--;
    top.splice(at, 0, { name: String(tools[i]!.name), tokens });
    if (top.length > count) top.pop();
  }
  return top;
}

function checkTokenBudget(contract: Contract, options: { tokenBudget: number }): Found[] {
  const { characters, tokens } = toolListSize(contract);
  if (tokens <= options.tokenBudget) return [];
  const lengths = indexShapes(contract).toolLengths;
  const largest = largestTools(contract.tools, lengths, 3);
  const top = largest.map((t) => `${show(t.name)} (${n(t.tokens)})`).join(", ");
  return [
    found(
      "server",
      "",
      "",
      `tools/list is about ${n(tokens)} tokens, over the budget of ${n(options.tokenBudget)} (estimated as ceil(${n(characters)} characters / 4)); largest tools: ${top}`,
      { tokens, budget: options.tokenBudget, largest },
    ),
  ];
}

// ── each rule's check, by its id in src/rules/lint/ ───────────────────────────────────

export const QUALITY_CHECKS = {
  "tool-description-missing": checkToolDescriptionMissing,
  "tool-description-too-short": checkToolDescriptionShort,
  "description-too-long": checkToolDescriptionLong,
  "parameter-description-missing": checkParameterDescriptions,
  "prompt-description-missing": checkPromptDescriptions,
  "naming-style-inconsistent": checkNamingStyle,
  "mutation-without-hints": checkMutationHints,
  "tool-list-too-large": checkTokenBudget,
} satisfies Partial<Record<LintRuleId, LintCheck>>;

/** The schema rules that read every node, walked once for all of them (schema-pass.ts). */
export const QUALITY_SCHEMA_VISITORS = {
  "enum-duplicate-values": enumDuplicates,
} satisfies Partial<Record<LintRuleId, SchemaVisitor>>;
