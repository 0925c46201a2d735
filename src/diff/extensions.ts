/**
 * Server extensions (`capabilities.extensions`, SEP-2133) and task support across encodings.
 *
 * An extension is present unless absent, false or null, as a capability is; its value is its
 * settings object (a bare `true` counts as one with no settings). Extensions are reported by
 * their identifier: removed (breaking), added (minor); their settings like sub-capabilities:
 * a setting added (minor), removed (breaking), or changed in value (breaking: what a value
 * means is the extension's business, so a person reviews it). Lists are compared as sets.
 *
 * Task support is one fact in two encodings: 2025-11-25 declares `capabilities.tasks`
 * (`requests.tools.call`) with a per-tool `execution.taskSupport`; 2026-07-28 moved tasks
 * into the extension `io.modelcontextprotocol/tasks`, declared once for the server, and
 * deleted both. A server that moves from one encoding to the other and still supports tasks
 * for tools/call has not changed that fact: neither the capabilities nor the tools' task
 * support are compared then. Pure.
 */
import { jsonEqual } from "../contract/json-equal.ts";
import { isJsonObject, type Json, type JsonObject, type Tool } from "../contract/model.ts";
import { pointer, pointerToDotted } from "../contract/pointer.ts";
import type { DiffRuleId } from "../rules/registry.ts";
import { type ChangeSpec, describeFieldChange, show, sortedUnionKeys } from "./change.ts";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
const BASE = "/capabilities/extensions";

/**
 * The capability changes of two surfaces: everything but `extensions` through the generic
 * capability diff (`diffCapabilities`, src/diff/server.ts), extensions by the rules here,
 * with the two task encodings taken as one.
 */
export function diffServerCapabilities(
  oldCapabilities: JsonObject,
  newCapabilities: JsonObject,
  diffCapabilities: (oldValue: JsonObject, newValue: JsonObject) => ChangeSpec[],
): ChangeSpec[] {
  const [before, after] = alignTaskCapabilities(oldCapabilities, newCapabilities);
  const { extensions: oldExtensions, ...oldRest } = before;
  const { extensions: newExtensions, ...newRest } = after;
  return [...diffCapabilities(oldRest, newRest), ...diffExtensions(oldExtensions, newExtensions)];
}

/** Whether one side supports tasks for tools/call in the 2025 encoding and the other in the 2026 one. */
export function taskEncodingMoved(oldCapabilities: JsonObject, newCapabilities: JsonObject): boolean {
  const legacy = (c: JsonObject) => legacyTasks(c) && !extensionTasks(c);
  const modern = (c: JsonObject) => extensionTasks(c) && !legacyTasks(c);
  return (legacy(oldCapabilities) && modern(newCapabilities)) || (modern(oldCapabilities) && legacy(newCapabilities));
}

function legacyTasks(capabilities: JsonObject): boolean {
  const tasks = capabilities.tasks;
  if (!isJsonObject(tasks) || !isJsonObject(tasks.requests)) return false;
  const tools = tasks.requests.tools;
  return isJsonObject(tools) && isPresent(tools.call);
}

function extensionTasks(capabilities: JsonObject): boolean {
  return isJsonObject(capabilities.extensions) && isPresent(capabilities.extensions[TASKS_EXTENSION]);
}

function alignTaskCapabilities(before: JsonObject, after: JsonObject): [JsonObject, JsonObject] {
  if (!taskEncodingMoved(before, after)) return [before, after];
  return [withoutTaskEncodings(before), withoutTaskEncodings(after)];
}

/** Capabilities without `tasks` and without the tasks extension (and an `extensions` left empty by that). */
function withoutTaskEncodings(capabilities: JsonObject): JsonObject {
  const { tasks: _tasks, ...rest } = capabilities;
  if (isJsonObject(rest.extensions) && Object.hasOwn(rest.extensions, TASKS_EXTENSION)) {
    const { [TASKS_EXTENSION]: _extension, ...others } = rest.extensions;
    if (Object.keys(others).length > 0) rest.extensions = others;
    else delete rest.extensions;
  }
  return rest;
}

/** The tool without `execution.taskSupport` (and an `execution` left empty by that). */
export function withoutTaskSupport(tool: Tool): Tool {
  const execution = tool.execution;
  if (!isJsonObject(execution) || !Object.hasOwn(execution, "taskSupport")) return tool;
  const { taskSupport: _taskSupport, ...rest } = execution;
  const copy: Tool = { ...tool };
  if (Object.keys(rest).length > 0) copy.execution = rest;
  else delete copy.execution;
  return copy;
}

function diffExtensions(oldValue: Json | undefined, newValue: Json | undefined): ChangeSpec[] {
  const before = isJsonObject(oldValue) ? oldValue : {};
  const after = isJsonObject(newValue) ? newValue : {};
  const specs: ChangeSpec[] = [];
  for (const id of sortedUnionKeys(before, after)) {
    const [x, y] = [before[id], after[id]];
    const path = pointer(BASE, id);
    if (isPresent(x) && !isPresent(y)) {
      specs.push({
        ...server("extension-removed", path),
        before: x!,
        ...(y !== undefined && { after: y }),
        message: `extension ${JSON.stringify(id)} removed`,
      });
    } else if (!isPresent(x) && isPresent(y)) {
      specs.push({
        ...server("extension-added", path),
        ...(x !== undefined && { before: x }),
        after: y!,
        message: `extension ${JSON.stringify(id)} added`,
      });
    } else if (isPresent(x) && isPresent(y)) {
      specs.push(...diffSettings(id, x!, y!, path));
    }
  }
  return specs;
}

function diffSettings(id: string, oldValue: Json, newValue: Json, base: string): ChangeSpec[] {
  const before = isJsonObject(oldValue) ? oldValue : {};
  const after = isJsonObject(newValue) ? newValue : {};
  const specs: ChangeSpec[] = [];
  for (const key of sortedUnionKeys(before, after)) {
    const [x, y] = [before[key], after[key]];
    if (jsonEqual(x, y)) continue;
    const path = pointer(base, key);
    const rule = settingRule(x, y);
    if (rule === "recurse") {
      specs.push(...diffSettings(id, x!, y!, path));
      continue;
    }
    if (rule === undefined) continue;
    const label = `setting ${JSON.stringify(pointerToDotted(path.slice(pointer(BASE, id).length)))}`;
    const what =
      Array.isArray(x) && Array.isArray(y)
        ? listChange(label, x, y)
        : describeFieldChange(label, isPresent(x) ? x : undefined, isPresent(y) ? y : undefined);
    specs.push({
      ...server(rule, path),
      ...(x !== undefined && { before: x }),
      ...(y !== undefined && { after: y }),
      message: `extension ${JSON.stringify(id)}: ${what}`,
    });
  }
  return specs;
}

/** What one differing setting is: added, removed, changed, an object to compare key by key, or no change (a reordered list). */
function settingRule(x: Json | undefined, y: Json | undefined): DiffRuleId | "recurse" | undefined {
  if (!isPresent(x)) return "extension-setting-added";
  if (!isPresent(y)) return "extension-setting-removed";
  if (isJsonObject(x) && isJsonObject(y)) return "recurse";
  if (Array.isArray(x) && Array.isArray(y)) {
    const lost = x.some((v) => !y.some((w) => jsonEqual(v, w)));
    const gained = y.some((w) => !x.some((v) => jsonEqual(v, w)));
    if (lost && gained) return "extension-setting-changed";
    if (lost) return "extension-setting-removed";
    return gained ? "extension-setting-added" : undefined;
  }
  return "extension-setting-changed";
}

/** 'setting "mimeTypes": "text/csv" added; "text/plain" removed' */
function listChange(label: string, before: Json[], after: Json[]): string {
  const missing = (from: Json[], to: Json[]) => from.filter((v) => !to.some((w) => jsonEqual(v, w)));
  const parts: string[] = [];
  const gained = missing(after, before);
  const lost = missing(before, after);
  if (gained.length > 0) parts.push(`${gained.map((v) => show(v)).join(", ")} added`);
  if (lost.length > 0) parts.push(`${lost.map((v) => show(v)).join(", ")} removed`);
  return `${label}: ${parts.join("; ")}`;
}

function server(rule: DiffRuleId, path: string) {
  return { rule, kind: "server" as const, name: "", path };
}

function isPresent(value: Json | undefined): boolean {
  return value !== undefined && value !== null && value !== false;
}
