/**
 * Where a change is in the lockfiles: the file, line and column of the affected item and
 * path, for formatters that annotate files (sarif, github). Pure; no I/O (the texts come in
 * the ReportContext).
 *
 * The item is found by its identity (tools and prompts by name, resources by uri, templates
 * by uriTemplate; server changes from the top of the file), then the change's path is
 * followed as far as it exists in the text. A `$ref` segment (the change is inside the
 * referenced definition) cannot be followed textually: the location stops at the node that
 * holds the `$ref`. The baseline (the committed file) is preferred; an item only the current
 * side has is located in the current file when it is one, else at the baseline's list. A lint
 * finding is located the same way, in the linted lockfile: lint's only, current, side.
 */

import { isAbsolute, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { isJsonObject, type Json } from "../contract/model.ts";
import { pointerSegments } from "../contract/pointer.ts";
import { LIST_OF } from "../contract/surface.ts";
import type { Change } from "../diff/model.ts";
import { NAME_CONTAINERS } from "../schema/keywords.ts";
import type { ReportContext, ReportFile } from "./context.ts";
import { JsonLocator } from "./json-locations.ts";

export interface ChangeLocation {
  /** Which lockfile. */
  side: "baseline" | "current";
  /** The file's path relative to the working directory, with forward slashes (absolute when it cannot be relative). */
  file: string;
  /** The same as a URI reference: relative and percent-encoded, or a file: URI. */
  uri: string;
  line: number;
  column: number;
  /** Where the located value ends (exclusive). */
  endLine: number;
  endColumn: number;
  /** The JSON Pointer in the lockfile that was located (the item, or a node inside it). */
  pointer: string;
  /** Whether the whole path of the change was found (false: an enclosing node is shown). */
  exact: boolean;
}

/** The path's segments up to (not including) the first `$ref` that means "follow the reference". */
export function textualSegments(path: string): string[] {
  const segments = pointerSegments(path);
  const out: string[] = [];
  for (const segment of segments) {
    if (segment === "$ref" && !NAME_CONTAINERS.has(out.at(-1) ?? "")) break;
    out.push(segment);
  }
  return out;
}

/** `path` relative to `cwd`, with forward slashes; absolute when it cannot be made relative. */
export function displayPath(path: string, cwd: string): string {
  const absolute = resolve(cwd, path);
  const rel = relative(cwd, absolute);
  if (rel === "" || isAbsolute(rel)) return absolute.split(sep).join("/");
  return rel.split(sep).join("/");
}

/** A display path as a URI reference: segments percent-encoded, or a file: URI when absolute. */
export function pathToUri(path: string): string {
  if (isAbsolute(path) || /^[A-Za-z]:\//.test(path)) return pathToFileURL(path).href;
  return path
    .split("/")
    .map((segment) => encodeURIComponent(segment))
    .join("/");
}

/** What the locator needs of a change; a lint finding has the same three fields. */
export type LocatedItem = Pick<Change, "target" | "path"> & { rule: string };

interface Side {
  name: "baseline" | "current";
  file?: ReportFile;
  locator?: JsonLocator;
  document?: Json;
}

export class ChangeLocator {
  private readonly sides: Side[];
  private readonly cwd: string;
  private readonly currentDocument: Json | undefined;

  constructor(context: ReportContext) {
    this.cwd = context.cwd ?? process.cwd();
    this.sides = (["baseline", "current"] as const).map((name) => {
      const file = context[name];
      return {
        name,
        ...(file && { file, locator: new JsonLocator(file.text), document: parseOrUndefined(file.text) }),
      };
    });
    const current = this.sides[1] as Side;
    this.currentDocument = current.document ?? (context.currentContract as unknown as Json | undefined);
  }

  /** Where a change (or anything with a target, path and rule: a lint finding) is in the lockfiles. */
  locate(change: LocatedItem): ChangeLocation | undefined {
    const [baseline, current] = this.sides as [Side, Side];
    const full = pointerSegments(change.path).length;
    if (change.target.kind === "server") {
      const segments = textualSegments(change.path);
      const complete = segments.length === full;
      return this.at(baseline, segments, complete) ?? this.at(current, segments, complete);
    }
    const { key, id } = LIST_OF[change.target.kind];
    const name = change.target.name;
    for (const side of [baseline, current]) {
      const index = itemIndex(side.document, key, id, name);
      if (index === undefined) continue;
      const path = side.name === "baseline" ? this.baselinePath(change, index) : textualSegments(change.path);
      return this.at(side, [key, String(index), ...path], path.length === full);
    }
    // Only the current side has the item, and it is not a file: point at the baseline's list.
    return this.at(baseline, [key], false) ?? this.at(current, [key], false);
  }

  /**
   * The change's path, valid in the baseline's copy of the item. Prompt argument indexes
   * name the current side's argument (except for removals); they are mapped by name.
   */
  private baselinePath(change: LocatedItem, index: number): string[] {
    const segments = textualSegments(change.path);
    if (
      change.target.kind !== "prompt" ||
      segments[0] !== "arguments" ||
      segments.length < 2 ||
      change.rule === "prompt-argument-removed"
    ) {
      return segments;
    }
    const currentIndex = itemIndex(this.currentDocument, "prompts", "name", change.target.name);
    const argName =
      currentIndex === undefined
        ? undefined
        : nameAt(listAt(this.currentDocument, "prompts")?.[currentIndex], segments[1] as string);
    const baselinePrompt = listAt((this.sides[0] as Side).document, "prompts")?.[index];
    const baselineArgs = isJsonObject(baselinePrompt) ? baselinePrompt.arguments : undefined;
    const baselineIndex =
      argName === undefined || !Array.isArray(baselineArgs)
        ? -1
        : baselineArgs.findIndex((a) => isJsonObject(a) && a.name === argName);
    return baselineIndex === -1 ? ["arguments"] : ["arguments", String(baselineIndex), ...segments.slice(2)];
  }

  private at(side: Side, segments: string[], complete: boolean): ChangeLocation | undefined {
    if (!side.file || !side.locator) return undefined;
    const found = side.locator.locate(segments);
    if (!found) return undefined;
    const start = found.key ?? found.start;
    const file = displayPath(side.file.path, this.cwd);
    return {
      side: side.name,
      file,
      uri: pathToUri(file),
      line: start.line,
      column: start.column,
      endLine: found.end.line,
      endColumn: found.end.column,
      pointer: found.pointer,
      exact: complete && found.exact,
    };
  }
}

export function parseOrUndefined(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

function listAt(document: Json | undefined, key: string): Json[] | undefined {
  const list = isJsonObject(document) ? document[key] : undefined;
  return Array.isArray(list) ? list : undefined;
}

/** Per document and list: identity → index of its first item (as the diff pairs items). Built once. */
const INDEXES = new WeakMap<object, Map<string, Map<string, number>>>();

function itemIndex(document: Json | undefined, key: string, id: string, name: string): number | undefined {
  const list = listAt(document, key);
  if (!list) return undefined;
  let lists = INDEXES.get(list);
  if (!lists) {
    lists = new Map();
    INDEXES.set(list, lists);
  }
  let byId = lists.get(id);
  if (!byId) {
    byId = new Map();
    for (const [i, item] of list.entries()) {
      const identity = isJsonObject(item) ? item[id] : undefined;
      if (typeof identity === "string" && !byId.has(identity)) byId.set(identity, i);
    }
    lists.set(id, byId);
  }
  return byId.get(name);
}

function nameAt(prompt: Json | undefined, index: string): string | undefined {
  const args = isJsonObject(prompt) ? prompt.arguments : undefined;
  const arg = Array.isArray(args) ? args[Number(index)] : undefined;
  return isJsonObject(arg) && typeof arg.name === "string" ? arg.name : undefined;
}
