/**
 * `check --calls FILE`: a consumer's recorded calls as its contract (consumer-driven, as Pact
 * does for REST). A change counts when it invalidates a recorded call: the tool, prompt or
 * resource it called is gone or changed in a way the call depends on; for a tool's input, the
 * recorded arguments are validated against the new inputSchema, so a newly required argument
 * the call lacks, or a value it sent that is no longer accepted, fails, while a narrowing no
 * recorded call runs into (an enum value never sent) does not. A change that no recorded call
 * touches is out of scope, as with --used. Pure: the CLI reads the files.
 */
import { type Contract, isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import { UsageError } from "../errors.ts";
import type { ReportChange } from "../report/model.ts";
import { uriFitsTemplate } from "./uri-template-match.ts";

export interface RecordedCall {
  method: string;
  params: JsonObject;
  /** The answer the consumer received, when the file recorded it (`mock --record`). */
  result?: JsonObject;
  /** The error the consumer received instead (replay only: `check --calls` leaves such calls out). */
  error?: JsonObject;
  /** The protocol era the exchange was recorded in, when the file says. */
  era?: string;
  /** Where the call is in its file: the line (JSON lines) or the entry (a JSON array), from 1. */
  line?: number;
}

export interface ConsumerCalls {
  calls: RecordedCall[];
  /** `--calls calls.jsonl`: how the calls were given, for exemption reasons. */
  description: string;
}

const CALL_METHODS = new Set(["tools/call", "prompts/get", "resources/read"]);

/**
 * A calls file: the JSON lines `mock --record` writes, or a JSON array of `{method, params}`.
 * Notifications, requests that were refused with an error, and methods other than tools/call,
 * prompts/get and resources/read are not calls a change can break. With `replay`, refused calls
 * are kept with their error, and each call says its era and line.
 */
export function parseCalls(text: string, path: string, options: { replay?: boolean } = {}): RecordedCall[] {
  const trimmed = text.trim();
  let entries: unknown[];
  // Entry index -> line in the file, for JSON lines.
  const lines = new Map<number, number>();
  let counted = 0;
  if (trimmed.startsWith("[")) {
    try {
      entries = JSON.parse(trimmed) as unknown[];
    } catch (error) {
      throw new UsageError(`--calls ${path} is not valid JSON: ${(error as Error).message}`);
    }
  } else {
    // Numbered as in the file (a leading blank line is line 1), not as trimmed.
    const skipped = text.slice(0, text.length - text.trimStart().length).split("\n").length - 1;
    entries = trimmed
      .split("\n")
      .map((line, i) => {
        if (line.trim() === "") return undefined;
        lines.set(counted++, skipped + i + 1);
        try {
          return JSON.parse(line) as unknown;
        } catch (error) {
          throw new UsageError(
            `--calls ${path}, line ${skipped + i + 1}, is not valid JSON (${(error as Error).message}); give the JSON lines \`mcp-contract mock --record\` writes, or a JSON array of {"method", "params"}.`,
          );
        }
      })
      .filter((entry) => entry !== undefined);
  }
  const calls: RecordedCall[] = [];
  entries.forEach((entry, i) => {
    if (!isJsonObject(entry) || typeof entry.method !== "string") {
      throw new UsageError(`--calls ${path}: entry ${i + 1} is not an object with a string "method".`);
    }
    if (entry.notification === true || !CALL_METHODS.has(entry.method)) return;
    if (entry.error !== undefined && !(options.replay && isJsonObject(entry.error))) return;
    const call: RecordedCall = { method: entry.method, params: isJsonObject(entry.params) ? entry.params : {} };
    if (isJsonObject(entry.result)) call.result = entry.result;
    // Replay also judges what failed when recorded, speaks the recorded era and names the line.
    if (options.replay) {
      if (isJsonObject(entry.error)) call.error = entry.error;
      if (typeof entry.era === "string") call.era = entry.era;
      call.line = lines.get(i) ?? i + 1;
    }
    calls.push(call);
  });
  return calls;
}

type Valid = (schema: Json, value: Json) => boolean | undefined;

/** The recorded calls that reach a change's target. */
export function callsOf(change: ReportChange, calls: readonly RecordedCall[]): RecordedCall[] {
  const { kind, name } = change.target;
  return calls.filter((call) => {
    const { params } = call;
    if (kind === "tool") return call.method === "tools/call" && params.name === name;
    if (kind === "prompt") return call.method === "prompts/get" && params.name === name;
    if (kind === "resource") return call.method === "resources/read" && params.uri === name;
    if (kind === "resourceTemplate") {
      return call.method === "resources/read" && typeof params.uri === "string" && uriFitsTemplate(name, params.uri);
    }
    return false;
  });
}

/** Whether every recorded call to a prompt still fits its new arguments (all required sent, none unknown). */
function promptCallsFit(prompt: JsonObject, calls: readonly RecordedCall[]): boolean {
  const declared = Array.isArray(prompt.arguments) ? prompt.arguments.filter(isJsonObject) : [];
  const names = new Set(declared.map((a) => a.name));
  return calls.every((call) => {
    const args = isJsonObject(call.params.arguments) ? call.params.arguments : {};
    return (
      declared.every((a) => a.required !== true || typeof a.name !== "string" || a.name in args) &&
      Object.keys(args).every((k) => names.has(k))
    );
  });
}

/**
 * Mark the changes no recorded call depends on as exempt (out of scope). Server-level changes
 * and changes already exempt are left alone; so is every change to what a call reached unless
 * the calls are shown to be unaffected (tool input: the recorded arguments still validate;
 * prompt arguments: the recorded arguments still fit).
 */
export async function applyCalls(
  changes: readonly ReportChange[],
  consumer: ConsumerCalls,
  after: Contract,
): Promise<ReportChange[]> {
  const { validatorFor } = await import("../schema/witness/validators.ts");
  const valid: Valid = (schema, value) => validatorFor(schema)?.(value);
  const exempt = (change: ReportChange, reason: string): ReportChange => ({
    ...change,
    exempt: { kind: "out-of-scope", reason: `${reason} (${consumer.description})` },
  });
  return changes.map((change) => {
    if (change.exempt || change.target.kind === "server") return change;
    const calls = callsOf(change, consumer.calls);
    const { kind, name } = change.target;
    if (calls.length === 0) return exempt(change, `no recorded call reaches this ${kindWord(kind)}`);
    // "the 1 recorded call … still validates", "the 3 recorded calls … still validate".
    const one = calls.length === 1;
    const plural = one ? "recorded call" : `${calls.length} recorded calls`;
    const verb = (singular: string, many: string) => (one ? singular : many);
    if (kind === "tool" && change.direction === "input") {
      const tool = after.tools.find((t) => t.name === name);
      if (!tool || tool.inputSchema === undefined) return change;
      const schema = tool.inputSchema as Json;
      const allValid = calls.every((call) => valid(schema, call.params.arguments ?? {}) === true);
      return allValid
        ? exempt(change, `the ${plural} to ${name} still ${verb("validates", "validate")} against the new inputSchema`)
        : change;
    }
    if (kind === "tool" && change.direction === "output") {
      const fields = outputFields(change);
      if (!fields || !calls.every((call) => isJsonObject(call.result))) return change;
      const received = calls.some((call) =>
        fields.some((field) => holds((call.result as JsonObject).structuredContent, field)),
      );
      const shown = fields.map((f) => `/${f.join("/")}`).join(", ");
      return received ? change : exempt(change, `no recorded result of ${name} held ${shown}`);
    }
    if (kind === "prompt" && change.path.startsWith("/arguments")) {
      const prompt = after.prompts.find((p) => p.name === name);
      if (!prompt) return change;
      return promptCallsFit(prompt, calls)
        ? exempt(change, `the ${plural} to ${name} still ${verb("fits", "fit")} its arguments`)
        : change;
    }
    return change;
  });
}

/** Keywords that constrain the value at a schema's own place (the last segment of a change's path). */
const VALUE_KEYWORDS = new Set([
  "type",
  "enum",
  "const",
  "format",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "uniqueItems",
  "nullable",
]);

/**
 * The result fields an output change is about, as paths into structuredContent ("*": any array
 * item): the value a keyword constrains, or the properties `required` no longer promises.
 * Undefined when the change is not that simple (a $ref, a combinator, the whole result): it counts.
 */
function outputFields(change: ReportChange): string[][] | undefined {
  const segments = change.path
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (segments[0] !== "outputSchema") return undefined;
  const base: string[] = [];
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i] as string;
    const last = i === segments.length - 1;
    if (segment === "properties" && i + 1 < segments.length) {
      base.push(segments[++i] as string);
    } else if (segment === "items" && !last) {
      base.push("*");
    } else if (last && segment === "required") {
      const before = Array.isArray(change.before) ? change.before : [];
      const after = new Set(Array.isArray(change.after) ? change.after : []);
      const dropped = before.filter((name): name is string => typeof name === "string" && !after.has(name));
      return dropped.length > 0 ? dropped.map((name) => [...base, name]) : undefined;
    } else if (last && VALUE_KEYWORDS.has(segment)) {
      return base.length > 0 ? [base] : undefined;
    } else return undefined;
  }
  // The path ends at a property itself (added, removed, changed as a whole).
  return base.length > 0 ? [base] : undefined;
}

/** Whether a value holds something at this path ("*": in any array item). */
function holds(value: Json | undefined, path: readonly string[]): boolean {
  if (value === undefined) return false;
  if (path.length === 0) return true;
  const [head, ...rest] = path;
  if (head === "*") return Array.isArray(value) && value.some((item) => holds(item, rest));
  return isJsonObject(value) && head !== undefined && head in value && holds(value[head], rest);
}

function kindWord(kind: string): string {
  return kind === "resourceTemplate" ? "resource template" : kind;
}
