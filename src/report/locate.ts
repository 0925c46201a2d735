/**
 * Where a change is in the lockfiles: the file, line and column of the affected item and
 * path, for formatters that annotate files (sarif, github). Pure; no I/O (the texts come in
 * the ReportContext).
 *
 * The item is found by its identity (tools and prompts by name, resources by uri, templates
 * by uriTemplate; server changes from the top of the file), then the change's path is
 * followed as far as it exists in the text. A `$ref` segment (the change is inside the
 * referenced definition) cannot be followed textually: the location stops at the node that
 * holds the `$ref`.
 *
 * Which file: the NEW lockfile, the one a pull request changes (the current side when it is
 * a file, else the working-tree copy `check --baseline-ref` reads beside the revision),
 * wherever the item exists there. The OLD lockfile only for what exists only there (removals),
 * and only when it is the working tree's own file inside the repository: never a temporary
 * copy (`diff /tmp/main.json mcp.contract.json`) nor a git revision's text, whose lines are
 * not the working tree's; then the NEW file's item list. With only the baseline file (`check`
 * against a live server), that file. A lint finding is located the same way, in the linted
 * lockfile: lint's only, current, side.
 *
 * Paths are relative to the repository root when the context names one (GitHub and SARIF
 * resolve them from there), else to the working directory; a NEW file outside the repository
 * keeps its absolute path (SARIF: a file: URI), an OLD one there is not annotated.
 */

import { isAbsolute, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { isJsonObject, type Json, SKILLS_LIST } from "../contract/model.ts";
import { peerLayout } from "../contract/peers/layout.ts";
import { pointerSegments } from "../contract/pointer.ts";
import { LIST_OF } from "../contract/surface.ts";
import type { Change } from "../diff/model.ts";
import { diffRulesWith } from "../rules/registry.ts";
import { NAME_CONTAINERS } from "../schema/keywords.ts";
import type { ReportContext, ReportFile } from "./context.ts";
import { JsonLocator } from "./json-locations.ts";
import type { AnyReport } from "./model.ts";

/** The SARIF base the relative URIs are resolved against: the repository root (or the working directory). */
export const SRCROOT = "%SRCROOT%";

export interface ChangeLocation {
  /** Which lockfile. */
  side: "baseline" | "current";
  /** The file's path relative to the repository root (or the working directory), with forward slashes; absolute when it cannot be relative. */
  file: string;
  /** The same as a URI reference: relative and percent-encoded (then `uriBaseId` is %SRCROOT%), or a file: URI. */
  uri: string;
  uriBaseId?: typeof SRCROOT;
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

/** Whether `path` (relative to `cwd`, or absolute) is inside the directory `dir`. */
export function isInside(path: string, dir: string, cwd: string): boolean {
  const rel = relative(resolve(dir), resolve(cwd, path));
  return rel !== "" && !isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`);
}

/** A display path as a URI reference: segments percent-encoded, or a file: URI when absolute. */
export function pathToUri(path: string): string {
  if (isAbsolute(path) || /^[A-Za-z]:\//.test(path)) return pathToFileURL(path).href;
  return path
    .split("/")
    .map((segment) => encodeURIComponent(segment))
    .join("/");
}

/** A directory as the absolute URI SARIF's originalUriBaseIds give it (with the trailing slash). */
export function directoryUri(dir: string): string {
  const href = pathToFileURL(resolve(dir)).href;
  return href.endsWith("/") ? href : `${href}/`;
}

/** What the locator needs of a change; a lint finding has the same three fields. */
export type LocatedItem = Pick<Change, "target" | "path"> & { rule: string };

interface Side {
  name: "baseline" | "current";
  file?: ReportFile;
  locator?: JsonLocator;
  document?: Json;
  /** A peer tool's file (mcp-covenant, mcp-query): our path segments as the file's. */
  fileSegments?: (segments: readonly string[]) => string[];
  /** Whether changes may be placed in this file. */
  annotatable: boolean;
}

/** Rules that report one more copy of an identity: located on its last copy, not on the first. */
const DUPLICATE_RULES = diffRulesWith("duplicate");

export class ChangeLocator {
  private readonly oldSide: Side;
  private readonly newSide: Side;
  private readonly cwd: string;
  /** Where paths are relative to: the repository root, or the working directory. */
  readonly base: string;
  /** A repository root was given: files outside it are not annotated. */
  private readonly strict: boolean;
  private readonly currentDocument: Json | undefined;
  /** A template whose uriTemplate changed is reported under its old identity: old → new. */
  private readonly renamedTemplates = new Map<string, string>();

  /** `report` tells the locator which templates changed their uriTemplate (to find them in the new file). */
  constructor(context: ReportContext, report?: AnyReport) {
    this.cwd = context.cwd ?? process.cwd();
    this.base = context.root ?? this.cwd;
    this.strict = context.root !== undefined;
    // The new file is annotated wherever it is (outside the repository, with its absolute path);
    // the old one only when it is in the repository: never a temporary copy of another revision.
    const side = (name: Side["name"], file: ReportFile | undefined, anywhere: boolean): Side => ({
      name,
      annotatable:
        file !== undefined &&
        file.revision === undefined &&
        (anywhere || !this.strict || isInside(file.path, this.base, this.cwd)),
      ...(file && { file, locator: new JsonLocator(file.text), ...documentOf(file.text) }),
    });
    this.oldSide = side("baseline", context.baseline, false);
    this.newSide = side("current", context.current ?? context.worktree, true);
    this.currentDocument = this.newSide.document ?? (context.currentContract as unknown as Json | undefined);
    if (report && report.command !== "lint") {
      for (const c of report.changes) {
        if (c.target.kind === "resourceTemplate" && c.path === "/uriTemplate" && typeof c.after === "string") {
          this.renamedTemplates.set(c.target.name, c.after);
        }
      }
    }
  }

  /** Where a change (or anything with a target, path and rule: a lint finding) is in the lockfiles. */
  locate(change: LocatedItem): ChangeLocation | undefined {
    const { oldSide, newSide } = this;
    const full = pointerSegments(change.path).length;
    if (change.target.kind === "server") {
      const segments = textualSegments(change.path);
      const complete = segments.length === full;
      return this.at(newSide, segments, complete) ?? this.at(oldSide, segments, complete);
    }
    // Skills sit outside the four lists, found the same way: by URI in $.skills.
    const { key, id } = change.target.kind === "skill" ? SKILLS_LIST : LIST_OF[change.target.kind];
    const name = change.target.name;
    const last = DUPLICATE_RULES.has(change.rule);
    // The new file, wherever the item exists there.
    const newName = change.target.kind === "resourceTemplate" ? (this.renamedTemplates.get(name) ?? name) : name;
    const newIndex = itemIndex(newSide.document, key, id, newName, last);
    if (newSide.annotatable && newIndex !== undefined) {
      const path = change.rule === "prompt-argument-removed" ? ["arguments"] : textualSegments(change.path);
      return this.at(newSide, [key, String(newIndex), ...path], path.length === full);
    }
    // What only the old file has (a removal), when that file is the working tree's.
    const oldIndex = itemIndex(oldSide.document, key, id, name, last);
    if (oldSide.annotatable && oldIndex !== undefined) {
      const path = this.baselinePath(change, oldIndex);
      return this.at(oldSide, [key, String(oldIndex), ...path], path.length === full);
    }
    // Else the item's list: in the new file, else in the old one.
    return this.at(newSide, [key], false) ?? this.at(oldSide, [key], false);
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
    const baselinePrompt = listAt(this.oldSide.document, "prompts")?.[index];
    const baselineArgs = isJsonObject(baselinePrompt) ? baselinePrompt.arguments : undefined;
    const baselineIndex =
      argName === undefined || !Array.isArray(baselineArgs)
        ? -1
        : baselineArgs.findIndex((a) => isJsonObject(a) && a.name === argName);
    return baselineIndex === -1 ? ["arguments"] : ["arguments", String(baselineIndex), ...segments.slice(2)];
  }

  private at(side: Side, segments: string[], complete: boolean): ChangeLocation | undefined {
    if (!side.annotatable || !side.file || !side.locator) return undefined;
    const found = side.locator.locate(side.fileSegments ? side.fileSegments(segments) : segments);
    if (!found) return undefined;
    const start = found.key ?? found.start;
    const absolute = resolve(this.cwd, side.file.path);
    // Inside the repository: from its root. Outside (a new file elsewhere): the absolute path, never "../../tmp/…".
    const file =
      this.strict && !isInside(absolute, this.base, this.cwd)
        ? absolute.split(sep).join("/")
        : displayPath(absolute, this.base);
    const relativeUri = !isAbsolute(file) && !/^[A-Za-z]:\//.test(file) && file !== ".." && !file.startsWith("../");
    return {
      side: side.name,
      file,
      uri: pathToUri(file),
      ...(relativeUri && { uriBaseId: SRCROOT }),
      line: start.line,
      column: start.column,
      endLine: found.end.line,
      endColumn: found.end.column,
      pointer: found.pointer,
      exact: complete && found.exact,
    };
  }
}

/** The file's document, seen in our layout when it is a peer tool's file. */
function documentOf(text: string): Pick<Side, "document" | "fileSegments"> {
  const document = parseOrUndefined(text);
  const peer = peerLayout(document);
  return peer ? { document: peer.document, fileSegments: peer.fileSegments } : { document };
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

/** Per document and list: identity → indexes of its items, first to last (the diff pairs the first). Built once. */
const INDEXES = new WeakMap<object, Map<string, Map<string, number[]>>>();

/** The index of the item with this identity: its first copy, or with `last` its last one. */
function itemIndex(
  document: Json | undefined,
  key: string,
  id: string,
  name: string,
  last = false,
): number | undefined {
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
      if (typeof identity !== "string") continue;
      const indexes = byId.get(identity);
      if (indexes) indexes.push(i);
      else byId.set(identity, [i]);
    }
    lists.set(id, byId);
  }
  const indexes = byId.get(name);
  return indexes === undefined ? undefined : last ? indexes.at(-1) : indexes[0];
}

function nameAt(prompt: Json | undefined, index: string): string | undefined {
  const args = isJsonObject(prompt) ? prompt.arguments : undefined;
  const arg = Array.isArray(args) ? args[Number(index)] : undefined;
  return isJsonObject(arg) && typeof arg.name === "string" ? arg.name : undefined;
}
