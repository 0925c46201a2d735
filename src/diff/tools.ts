/**
 * Tools, matched by name: schemas (through the schema engine, with direction), behaviour
 * hints judged by their effective values, task support, texts and metadata. Pure.
 */

import { stableStringify } from "../contract/canonical.ts";
import type { Json, JsonObject, Tool } from "../contract/model.ts";
import { pointer, pointerToDotted } from "../contract/pointer.ts";
import { type DiffRuleId, diffRule, diffRulesWith } from "../rules/registry.ts";
import { compareSchemas, type SchemaChange } from "../schema/compare/index.ts";
import { NAME_CONTAINERS } from "../schema/keywords.ts";
import { diffToolMeta } from "./apps.ts";
import {
  asObject,
  type ChangeSpec,
  diffById,
  diffFields,
  jsonEqual,
  show,
  type TouchedItem,
  textOrMetadata,
} from "./change.ts";
import { withMcpHeaders } from "./mcp-header.ts";
import { type Direction, severityRank } from "./model.ts";
import type { RenameCandidate } from "./rename.ts";
import { explainRest } from "./rewrites.ts";

type SchemaField = "inputSchema" | "outputSchema";

/** Top-level tool fields compared by dedicated rules rather than as plain metadata. */
const HANDLED = new Set(["name", "inputSchema", "outputSchema", "annotations", "execution", "_meta"]);
const HINTS = new Set(["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]);
const TASK_SUPPORT_DEFAULT = "forbidden";

export function diffTools(oldTools: readonly Tool[], newTools: readonly Tool[], touched?: TouchedItem[]): ChangeSpec[] {
  return diffById({
    kind: "tool",
    id: "name",
    removedRule: "tool-removed",
    addedRule: "tool-added",
    duplicateRule: "tool-duplicate-added",
    before: oldTools,
    after: newTools,
    renameCandidate: (_, tool) => renameCandidate(tool),
    diffItem: diffTool,
    ...(touched !== undefined && { touched }),
  });
}

/**
 * An identical inputSchema marks a likely rename, but only a schema that declares
 * properties: many unrelated tools share an empty `{"type": "object"}`.
 */
function renameCandidate(tool: Tool): RenameCandidate {
  const schema = asObject(tool.inputSchema);
  const properties = asObject(schema.properties);
  const candidate: RenameCandidate = { id: tool.name, text: tool.name };
  // Wrapping under "inputSchema" lets stableStringify treat `required` as the set it is.
  if (Object.keys(properties).length > 0) candidate.signature = stableStringify({ inputSchema: schema });
  return candidate;
}

function diffTool(name: string, oldTool: Tool, newTool: Tool): ChangeSpec[] {
  const specs: ChangeSpec[] = [];
  specs.push(...diffFields("tool", name, oldTool, newTool, "", HANDLED, textOrMetadata("tool-metadata-changed")));
  specs.push(...diffToolMeta(name, oldTool._meta, newTool._meta));
  const inputSpecs = diffSchema(name, "inputSchema", "input", oldTool.inputSchema, newTool.inputSchema);
  specs.push(...withMcpHeaders(name, oldTool.inputSchema, newTool.inputSchema, inputSpecs));

  const oldOutput = oldTool.outputSchema;
  const newOutput = newTool.outputSchema;
  if (oldOutput !== undefined && newOutput !== undefined) {
    specs.push(...diffSchema(name, "outputSchema", "output", oldOutput, newOutput));
  } else if (oldOutput !== undefined) {
    specs.push({
      rule: "output-schema-removed",
      kind: "tool",
      name,
      path: "/outputSchema",
      message: "outputSchema removed",
    });
  } else if (newOutput !== undefined) {
    specs.push({
      rule: "output-schema-added",
      kind: "tool",
      name,
      path: "/outputSchema",
      message: "outputSchema added",
    });
  }

  const oldAnnotations = asObject(oldTool.annotations);
  const newAnnotations = asObject(newTool.annotations);
  const hints = diffHints(name, oldAnnotations, newAnnotations);
  specs.push(...hints.specs);
  specs.push(
    ...diffFields("tool", name, oldAnnotations, newAnnotations, "/annotations", HINTS, () => "tool-metadata-changed"),
  );

  const oldExecution = asObject(oldTool.execution);
  const newExecution = asObject(newTool.execution);
  specs.push(...diffTaskSupport(name, oldExecution, newExecution));
  const taskSupportOnly = new Set(["taskSupport"]);
  specs.push(
    ...diffFields(
      "tool",
      name,
      oldExecution,
      newExecution,
      "/execution",
      taskSupportOnly,
      () => "tool-metadata-changed",
    ),
  );
  specs.push(...explainRest("tool", name, oldTool, newTool, specs, hints.covered));
  return specs;
}

function diffSchema(
  name: string,
  field: SchemaField,
  direction: Direction,
  oldSchema: Json | undefined,
  newSchema: Json | undefined,
): ChangeSpec[] {
  // compareSchemas answers equal schemas with no change after one walk of its own.
  return mapSchemaChanges(name, field, direction, compareSchemas(oldSchema, newSchema));
}

/**
 * Schema rules that fire once per value at one path (each enum value, each required name):
 * the value is part of the change's identity, so it goes into the fingerprint, which then
 * stays the same whatever else changed at that path.
 */
const VALUE_IDENTIFIED = diffRulesWith("value-identified");

/**
 * Schema engine findings → tool changes. The engine's message says what changed at its node
 * ("enum value \"imperial\" removed"); this adds where, from the tool's point of view
 * ("… at inputSchema.properties.units").
 */
export function mapSchemaChanges(
  name: string,
  field: SchemaField,
  direction: Direction,
  changes: readonly SchemaChange[],
): ChangeSpec[] {
  return changes.map((change) => {
    const sc = stronger(change, direction);
    const path = `/${field}${sc.path}`;
    const witness = "witness" in sc ? (sc.witness as Json | undefined) : undefined;
    const other = change.also === undefined ? undefined : sc === change ? change.also : change;
    const explained = [
      ...new Set([
        path,
        ...[other?.path, ...(sc.explains ?? [])].flatMap((p) => (p === undefined ? [] : `/${field}${p}`)),
      ]),
    ].sort();
    return {
      rule: sc.rule,
      kind: "tool",
      name,
      direction,
      path,
      ...(sc.before !== undefined && { before: sc.before }),
      ...(sc.after !== undefined && { after: sc.after }),
      message: `${absentWording(sc.message, sc.before, sc.after)} at ${schemaLocation(path)}`,
      ...(sc.note !== undefined && { note: sc.note }),
      ...(witness !== undefined && { witness }),
      ...(VALUE_IDENTIFIED.has(sc.rule) && { discriminator: stableStringify(sc.before ?? sc.after ?? null) }),
      ...(explained.length > 1 && { explains: explained }),
    };
  });
}

/** Of one edit that two rules see (SchemaChange.also), the one whose verdict is the stronger in `direction`. */
function stronger(change: SchemaChange, direction: Direction): Omit<SchemaChange, "also"> {
  const { also } = change;
  if (also === undefined) return change;
  const severity = (rule: DiffRuleId) =>
    severityRank(direction === "output" ? diffRule(rule).output : diffRule(rule).input);
  // SEVERITIES run from the strongest: a lower rank is a stronger verdict.
  return severity(also.rule) < severity(change.rule) ? also : change;
}

/**
 * A missing keyword in words people use: "absent", never JavaScript's "undefined" ("dialect
 * changed from undefined to …"), and an absent upper bound as "absent (no limit)" rather than
 * "none" ("maxLength raised from 50 to none").
 */
export function absentWording(message: string, before: Json | undefined, after: Json | undefined): string {
  const none = /^max/.test(message) ? "absent (no limit)" : "absent";
  let out = message;
  if (before === undefined)
    out = out.replace(/\bfrom undefined\b/, "from absent").replace(/\bfrom none\b/, `from ${none}`);
  if (after === undefined) out = out.replace(/\bto undefined\b/, "to absent").replace(/\bto none\b/, `to ${none}`);
  return out;
}

/** Keywords that hold a value, not subschemas: a path ending in one names its schema node. */
const LEAF_KEYWORDS = new Set([
  "type",
  "nullable",
  "enum",
  "const",
  "required",
  "pattern",
  "format",
  "multipleOf",
  "contains",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "uniqueItems",
  "patternProperties",
  "if",
  "allOf",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$schema",
  "title",
  "description",
  "examples",
]);

/**
 * Where a schema change is, for a message: the schema node, without the keyword the
 * engine's message already names ("value \"imperial\" no longer allowed at inputSchema.properties.units").
 */
export function schemaLocation(path: string): string {
  const segments = path.split("/");
  const last = segments.at(-1) ?? "";
  const parent = segments.at(-2) ?? "";
  const trimmed =
    segments.length > 2 && LEAF_KEYWORDS.has(last) && !NAME_CONTAINERS.has(parent) ? segments.slice(0, -1) : segments;
  return pointerToDotted(trimmed.join("/"));
}

// ---------------------------------------------------------------------------------------------
// Behaviour hints. The spec's defaults: readOnlyHint false, destructiveHint true,
// idempotentHint false, openWorldHint true. destructiveHint and idempotentHint mean something
// only for a tool that is not read-only, so the rules compare effective values: an absent hint
// equals its default, and a read-only tool is non-destructive and trivially idempotent.
// A hint that is not a boolean is treated as absent (lint reports it).

const DEFAULTS: Record<string, boolean> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

function hint(annotations: JsonObject, key: string): boolean {
  const value = annotations[key];
  return typeof value === "boolean" ? value : DEFAULTS[key]!;
}

interface HintRule {
  key: string;
  /** The raw hints the effective value depends on. */
  inputs: readonly string[];
  effective: (a: JsonObject) => boolean;
  becameTrue: [rule: DiffRuleId, text: string];
  becameFalse: [rule: DiffRuleId, text: string];
}

const readOnly = (a: JsonObject) => hint(a, "readOnlyHint");

const HINT_RULES: readonly HintRule[] = [
  {
    key: "readOnlyHint",
    inputs: ["readOnlyHint"],
    effective: readOnly,
    becameTrue: ["tool-now-read-only", "now read-only"],
    becameFalse: ["tool-no-longer-read-only", "no longer read-only"],
  },
  {
    key: "destructiveHint",
    inputs: ["readOnlyHint", "destructiveHint"],
    effective: (a) => !readOnly(a) && hint(a, "destructiveHint"),
    becameTrue: ["tool-now-destructive", "may now perform destructive updates"],
    becameFalse: ["tool-no-longer-destructive", "no longer performs destructive updates"],
  },
  {
    key: "idempotentHint",
    inputs: ["readOnlyHint", "idempotentHint"],
    effective: (a) => readOnly(a) || hint(a, "idempotentHint"),
    becameTrue: ["tool-now-idempotent", "now idempotent"],
    becameFalse: ["tool-no-longer-idempotent", "no longer idempotent"],
  },
  {
    key: "openWorldHint",
    inputs: ["openWorldHint"],
    effective: (a) => hint(a, "openWorldHint"),
    becameTrue: ["tool-now-open-world", "now reaches an open world of external entities"],
    becameFalse: ["tool-no-longer-open-world", "no longer reaches an open world of external entities"],
  },
];

/** One hint's edit as its lockfile line reads: "destructiveHint false → true". */
function hintEdit(key: string, oldAnnotations: JsonObject, newAnnotations: JsonObject): string {
  return `${key} ${show(oldAnnotations[key])} → ${show(newAnnotations[key])}`;
}

function diffHints(
  name: string,
  oldAnnotations: JsonObject,
  newAnnotations: JsonObject,
): { specs: ChangeSpec[]; covered: string[] } {
  const specs: ChangeSpec[] = [];
  for (const rule of HINT_RULES) {
    const before = rule.effective(oldAnnotations);
    const after = rule.effective(newAnnotations);
    if (before === after) continue;
    const [id, text] = after ? rule.becameTrue : rule.becameFalse;
    const changed = rule.inputs.filter((key) => !jsonEqual(oldAnnotations[key], newAnnotations[key]));
    const causes = changed.map((key) => hintEdit(key, oldAnnotations, newAnnotations));
    const defaults = rule.inputs
      .filter((key) => typeof newAnnotations[key] !== "boolean")
      .map((key) => `${key} is absent, which means ${DEFAULTS[key]}`);
    specs.push({
      rule: id,
      kind: "tool",
      name,
      path: pointer("/annotations", rule.key),
      before,
      after,
      message: causes.length > 0 ? `${text} (${causes.join("; ")})` : text,
      ...(defaults.length > 0 && { note: `${defaults.join("; ")}.` }),
      ...(changed.length > 1 && { explains: changed.map((key) => pointer("/annotations", key)).sort() }),
    });
  }
  return foldReadOnlyConsequences(specs, oldAnnotations, newAnnotations);
}

/**
 * When readOnlyHint flips, the destructive and idempotent verdicts flip with it: the spec
 * gives those hints meaning only when readOnlyHint is false, so on the read-only side they
 * say nothing, whatever they are set to. Say so once, in the read-only finding's note,
 * instead of three findings for one edit; the hint lines folded are `covered` by it.
 */
const CONSEQUENCE: Partial<Record<DiffRuleId, string>> = {
  "tool-now-destructive": "may now perform destructive updates",
  "tool-no-longer-destructive": "no longer performs destructive updates",
  "tool-now-idempotent": "is now idempotent",
  "tool-no-longer-idempotent": "is no longer idempotent",
};

function foldReadOnlyConsequences(
  specs: ChangeSpec[],
  oldAnnotations: JsonObject,
  newAnnotations: JsonObject,
): { specs: ChangeSpec[]; covered: string[] } {
  const readOnlySpec = specs.find((s) => s.path === "/annotations/readOnlyHint");
  if (!readOnlySpec) return { specs, covered: [] };
  const consequences: string[] = [];
  const covered: string[] = [];
  const kept = specs.filter((spec) => {
    const key = spec.path.split("/").pop() as string;
    const derived = key === "destructiveHint" || key === "idempotentHint";
    if (derived) {
      const text = CONSEQUENCE[spec.rule] ?? spec.message;
      const why = typeof newAnnotations[key] === "boolean" ? "" : ` (${key} is absent, which means ${DEFAULTS[key]})`;
      consequences.push(`${text}${why}`);
    }
    return !derived;
  });
  // Hint lines that changed beside the flip mean nothing on the read-only side: the flip explains
  // them, and says so in its message and its list of fields.
  const edits: string[] = [];
  for (const key of ["destructiveHint", "idempotentHint"]) {
    if (jsonEqual(oldAnnotations[key], newAnnotations[key])) continue;
    covered.push(`/annotations/${key}`);
    edits.push(hintEdit(key, oldAnnotations, newAnnotations));
  }
  if (edits.length > 0) {
    readOnlySpec.message = readOnlySpec.message.replace(/\)$/, `; ${edits.join("; ")})`);
    readOnlySpec.explains = [readOnlySpec.path, ...covered].sort();
  }
  if (consequences.length > 0) {
    readOnlySpec.note = `So it ${consequences.join(" and ")}.`;
  }
  return { specs: kept, covered };
}

// ---------------------------------------------------------------------------------------------
// execution.taskSupport: "required" | "optional" | "forbidden" (the default). Moving to
// "optional" keeps every way of calling the tool that worked; any other move drops one.

function taskSupport(execution: JsonObject): string {
  const value = execution.taskSupport;
  return typeof value === "string" ? value : TASK_SUPPORT_DEFAULT;
}

function diffTaskSupport(name: string, oldExecution: JsonObject, newExecution: JsonObject): ChangeSpec[] {
  const before = taskSupport(oldExecution);
  const after = taskSupport(newExecution);
  if (before === after) return [];
  const relaxed = after === "optional" && (before === "forbidden" || before === "required");
  const absent = typeof oldExecution.taskSupport !== "string" || typeof newExecution.taskSupport !== "string";
  return [
    {
      rule: relaxed ? "tool-task-support-relaxed" : "tool-task-support-changed",
      kind: "tool",
      name,
      path: "/execution/taskSupport",
      before,
      after,
      message: `execution.taskSupport changed from ${show(before)} to ${show(after)}`,
      ...(absent && { note: `An absent taskSupport means "${TASK_SUPPORT_DEFAULT}".` }),
    },
  ];
}

/**
 * The behaviour-hint rules, in the order a summary names them, each as the word it adds to
 * "now …" (or, for what a tool no longer is, to "no longer …").
 */
const HINT_WORDS: readonly [rule: DiffRuleId, word: string, no: boolean][] = [
  ["tool-now-read-only", "read-only", false],
  ["tool-no-longer-read-only", "read-only", true],
  ["tool-now-destructive", "destructive", false],
  ["tool-no-longer-destructive", "non-destructive", false],
  ["tool-now-idempotent", "idempotent", false],
  ["tool-no-longer-idempotent", "idempotent", true],
  ["tool-now-open-world", "open-world", false],
  ["tool-no-longer-open-world", "closed-world", false],
];

export const HINT_RULES_IN_ORDER: readonly DiffRuleId[] = HINT_WORDS.map(([rule]) => rule);

/** Whether a rule reports a behaviour-hint change (tool-now-read-only …). */
export function isHintRule(rule: string): boolean {
  return HINT_WORDS.some(([id]) => id === rule);
}

/**
 * One line for all the hint changes of one tool: "now read-only, non-destructive, idempotent,
 * closed-world", "no longer read-only or idempotent; now destructive".
 */
export function hintSummary(rules: readonly string[]): string {
  const words = HINT_WORDS.filter(([id]) => rules.includes(id));
  const now = words.filter(([, , no]) => !no).map(([, word]) => word);
  const no = words.filter(([, , no]) => no).map(([, word]) => word);
  return [no.length ? `no longer ${no.join(" or ")}` : "", now.length ? `now ${now.join(", ")}` : ""]
    .filter(Boolean)
    .join("; ");
}
