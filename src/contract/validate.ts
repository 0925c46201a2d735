/**
 * The contract boundary: what a Contract must satisfy before the engine (schema, diff, lint)
 * sees it, whether it was read from a lockfile (a problem is exit 2) or captured from a
 * server (exit 3). Both sides run the same checks, so mcp-contract never writes a lockfile
 * it would refuse to read. Pure; no I/O.
 *
 * - Nesting depth: no object or array deeper than MAX_NESTING_DEPTH levels, counted from the
 *   top of the lockfile. The engine walks schemas recursively; this bound keeps it far below
 *   any stack limit, and the check itself is iterative, so any depth is refused, not crashed on.
 * - Numbers: finite only. JSON.parse turns `1e999` into Infinity, which JSON cannot represent
 *   (it would be written back as null): refused, never silently changed.
 * - The fields the engine reads: the identity of every item, tool schemas (a JSON Schema: an
 *   object or a boolean), annotations and execution (objects), prompt arguments (an array of
 *   objects with a string name). Anything else is kept verbatim and compared as data; values
 *   inside a schema are the lint rule schema-invalid's business.
 * - Items with the same identity are kept, all of them: nothing here merges or drops items.
 */
import { ServerError } from "../errors.ts";
import { soundLength } from "./compact-length.ts";
import { type Contract, isJsonObject, type Json, SKILLS_LIST, SURFACE_LISTS, type SurfaceList } from "./model.ts";

/**
 * The deepest nesting of objects and arrays a contract may hold, counted from the top of the
 * lockfile (the file itself is level 1, a tool's inputSchema level 4). Real schemas stay
 * within about 40 levels; recursion in the engine costs a few stack frames per level, so 256
 * keeps it two orders of magnitude below a stack overflow (which strikes near 10,000).
 */
export const MAX_NESTING_DEPTH = 256;

type Segment = string | number;

/** What is wrong and where: `path` is a JSON path (`$.tools[3].inputSchema`). */
export interface ContractProblem {
  path: string;
  /** "expected a string, found a number", "nested deeper than 256 levels", … */
  what: string;
  /** The list the problem is in, when it is in one of the four (or the skills). */
  list?: { method: string };
  /** The item it is in ('tool "search"'), when that item has a string identity. */
  item?: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** A path longer than this is shown as its first and last segments (a 256-level path helps no one). */
const SHOWN_SEGMENTS = 16;

function formatSegment(segment: Segment): string {
  if (typeof segment === "number") return `[${segment}]`;
  return IDENTIFIER.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
}

/** ["tools", 3, "inputSchema"] → "$.tools[3].inputSchema"; very long paths are shortened in the middle. */
export function formatJsonPath(segments: readonly Segment[]): string {
  if (segments.length <= SHOWN_SEGMENTS) return `$${segments.map(formatSegment).join("")}`;
  const head = segments.slice(0, SHOWN_SEGMENTS - 4).map(formatSegment);
  const tail = segments.slice(-3).map(formatSegment);
  const skipped = segments.length - head.length - tail.length;
  return `$${head.join("")}…(${skipped} more levels)…${tail.join("")}`;
}

/** "a number (7)", "an array", "null": what a value is, for a message. */
export function describeFound(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "object":
      return "an object";
    case "string": {
      const shown = value.length > 40 ? `${value.slice(0, 39)}…` : value;
      return `a string (${JSON.stringify(shown)})`;
    }
    case "number":
    case "boolean":
      return `a ${typeof value} (${String(value)})`;
    default:
      return String(typeof value);
  }
}

function outOfRange(value: number): string {
  const reads = Number.isNaN(value) ? "NaN" : String(value);
  return `found a number JSON cannot represent (it reads as ${reads}; JSON numbers are finite, up to about ±1.8e308), so it cannot be kept as written`;
}

function tooDeep(limit: number): string {
  return `nested deeper than ${limit} levels of objects and arrays (mcp-contract's limit; real schemas stay within about 40)`;
}

interface Frame {
  node: Json[] | Record<string, Json>;
  keys: string[] | undefined;
  next: number;
  segment: Segment;
}

/**
 * The first object or array nested deeper than `limit` levels (the value itself is level 1),
 * or the first number that is not finite, in document order; undefined when there is none.
 * Iterative, so that no input depth can exhaust the stack. `base` is where `value` sits.
 */
export function findValueProblem(
  value: unknown,
  limit: number = MAX_NESTING_DEPTH,
  base: readonly Segment[] = [],
): ContractProblem | undefined {
  const at = (stack: readonly Frame[], last?: Segment) => {
    const segments = [...base, ...stack.slice(1).map((f) => f.segment)];
    if (last !== undefined) segments.push(last);
    return formatJsonPath(segments);
  };
  // Nearly every value is sound: a recursive walk (never more than `limit` frames deep) says so
  // about three times faster than the walk below, which then runs only to say where it is not.
  if (isSound(value, 1, limit)) return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : { path: at([]), what: outOfRange(value) };
  if (value === null || typeof value !== "object") return undefined;
  if (limit < 1) return { path: at([]), what: tooDeep(limit) };
  const root = value as Frame["node"];
  const stack: Frame[] = [
    { node: root, keys: Array.isArray(root) ? undefined : Object.keys(root), next: 0, segment: "" },
  ];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const length = frame.keys === undefined ? (frame.node as Json[]).length : frame.keys.length;
    if (frame.next >= length) {
      stack.pop();
      continue;
    }
    const index = frame.next++;
    const segment: Segment = frame.keys === undefined ? index : (frame.keys[index] as string);
    const child = (frame.node as Record<Segment, Json>)[segment];
    if (typeof child === "number") {
      if (!Number.isFinite(child)) return { path: at(stack, segment), what: outOfRange(child) };
    } else if (child !== null && typeof child === "object") {
      if (stack.length >= limit) return { path: at(stack, segment), what: tooDeep(limit) };
      stack.push({ node: child, keys: Array.isArray(child) ? undefined : Object.keys(child), next: 0, segment });
    }
  }
  return undefined;
}

/** Whether `value`, at nesting `level`, holds no object deeper than `limit` and no number that is not finite. */
function isSound(value: unknown, level: number, limit: number): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  if (value === null || typeof value !== "object") return true;
  return level <= limit && childrenSound(value, level, limit);
}

/**
 * isSound for the children of the object or array `node` at `level`. Scalars are judged in the
 * loop, without a call each: they are most of a schema's nodes, and this halves the walk.
 */
function childrenSound(node: object, level: number, limit: number): boolean {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const child: unknown = node[i];
      if (typeof child === "object") {
        if (child !== null && (level >= limit || !childrenSound(child, level + 1, limit))) return false;
      } else if (typeof child === "number" && !Number.isFinite(child)) return false;
    }
    return true;
  }
  // for...in visits own keys and inherited enumerable ones (JSON objects have none): never fewer.
  for (const key in node) {
    const child: unknown = (node as Record<string, unknown>)[key];
    if (typeof child === "object") {
      if (child !== null && (level >= limit || !childrenSound(child, level + 1, limit))) return false;
    } else if (typeof child === "number" && !Number.isFinite(child)) return false;
  }
  return true;
}

/**
 * Throws `fail(path, what)` when `value` is nested deeper than `limit` levels or holds a number
 * that is not finite. For a value that is not a whole Contract; a whole one goes through
 * findContractProblem (the reader) or assertCapturedSurface (the capture), which also check it.
 */
export function assertDepth(
  value: unknown,
  limit: number,
  fail: (path: string, what: string) => Error,
  base: readonly Segment[] = [],
): void {
  const problem = findValueProblem(value, limit, base);
  if (problem) throw fail(problem.path, problem.what);
}

const SCHEMA = "a JSON Schema (an object or a boolean)";

/** Checks one field of an item; the message when it is wrong. */
type FieldCheck = (value: Json) => string | undefined;

const optionalSchema: FieldCheck = (value) =>
  typeof value === "boolean" || isJsonObject(value) ? undefined : `expected ${SCHEMA}, found ${describeFound(value)}`;
const optionalObject: FieldCheck = (value) =>
  isJsonObject(value) ? undefined : `expected an object, found ${describeFound(value)}`;

/** Per list: the optional fields the engine reads, and what each must be when present. */
const FIELD_CHECKS: Record<SurfaceList["key"], Record<string, FieldCheck>> = {
  // toolFieldsPass reads these by name: a field added here is added there.
  tools: {
    inputSchema: optionalSchema,
    outputSchema: optionalSchema,
    annotations: optionalObject,
    execution: optionalObject,
  },
  resources: { annotations: optionalObject },
  resourceTemplates: { annotations: optionalObject },
  prompts: {},
};

/** FIELD_CHECKS as lists, made once rather than per item. */
const FIELD_ENTRIES = Object.fromEntries(
  Object.entries(FIELD_CHECKS).map(([key, checks]) => [key, Object.entries(checks)]),
) as Record<SurfaceList["key"], [string, FieldCheck][]>;

const ITEM_NOUN: Record<SurfaceList["key"], string> = {
  tools: "tool",
  resources: "resource",
  resourceTemplates: "resource template",
  prompts: "prompt",
};

function itemLabel(list: SurfaceList, item: unknown): string | undefined {
  const id = isJsonObject(item) ? item[list.id] : undefined;
  return typeof id === "string"
    ? `${ITEM_NOUN[list.key]} ${JSON.stringify(id.length > 60 ? `${id.slice(0, 59)}…` : id)}`
    : undefined;
}

/** The first wrong field of the item at `items[index]`, or undefined. */
function itemProblem(list: SurfaceList, item: Json, index: number): ContractProblem | undefined {
  const here = (what: string, ...segments: Segment[]): ContractProblem => {
    const problem: ContractProblem = { path: formatJsonPath([list.key, index, ...segments]), what, list };
    const label = itemLabel(list, item);
    if (label !== undefined) problem.item = label;
    return problem;
  };
  if (!isJsonObject(item)) return here(`expected an object, found ${describeFound(item)}`);
  const id = item[list.id];
  if (typeof id !== "string") {
    return here(
      id === undefined ? "expected a string, found nothing" : `expected a string, found ${describeFound(id)}`,
      list.id,
    );
  }
  for (const [field, check] of FIELD_ENTRIES[list.key]) {
    const value = item[field];
    if (value === undefined) continue;
    const what = check(value);
    if (what !== undefined) return here(what, field);
  }
  if (list.key === "prompts" && item.arguments !== undefined) {
    const args = item.arguments;
    if (!Array.isArray(args)) return here(`expected an array of arguments, found ${describeFound(args)}`, "arguments");
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as Json;
      if (!isJsonObject(arg)) return here(`expected an argument object, found ${describeFound(arg)}`, "arguments", i);
      if (typeof arg.name !== "string") {
        const found = arg.name === undefined ? "nothing" : describeFound(arg.name);
        return here(`expected the argument's name (a string), found ${found}`, "arguments", i, "name");
      }
    }
  }
  return undefined;
}

/**
 * The first problem of a structurally sound contract (its four lists are arrays): a wrong
 * item field, too deep a value, a number that is not finite. Undefined when there is none.
 * `passed(i)`: whether the tool at $.tools[i] is known to pass already (read.ts: toolPasses said
 * so as it was parsed, or the same value passed in the lockfile read before, where tools sit at
 * the same depth); such tools are not walked again, and with `true` (every tool is) neither is
 * the list. The answer is the same either way: a tool that passes adds no problem.
 */
export function findContractProblem(
  contract: Contract,
  limit: number = MAX_NESTING_DEPTH,
  fields = true,
  passed?: ((index: number) => boolean) | true,
): ContractProblem | undefined {
  const source = contract as unknown as Record<string, Json>;
  for (const list of fields ? SURFACE_LISTS : []) {
    const items = source[list.key];
    if (!Array.isArray(items)) continue;
    const known = list.key === "tools" ? passed : undefined;
    if (known === true) continue;
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as Json;
      if (known?.(i) || itemPasses(list, item)) continue;
      const problem = itemProblem(list, item, i);
      if (problem) return problem;
    }
  }
  if (fields && source.skills !== undefined) {
    const problem = skillsProblem(source.skills);
    if (problem) return problem;
  }
  if (contractSound(source, limit, passed)) return undefined;
  const problem = findValueProblem(contract, limit);
  if (problem && /^\$\.skills\[/.test(problem.path)) problem.list = SKILLS_LIST;
  if (problem) {
    // Name the item the value is in, as the field checks do.
    const match = /^\$\.(\w+)\[(\d+)\]/.exec(problem.path);
    const list = SURFACE_LISTS.find((l) => l.key === match?.[1]);
    if (list && match) {
      problem.list = list;
      const item = itemLabel(list, (source[list.key] as Json[])[Number(match[2])]);
      if (item !== undefined) problem.item = item;
    }
  }
  return problem;
}

/**
 * Whether a tool at $.tools[i] of a lockfile passes every check findContractProblem makes of
 * it (its fields, depth and numbers), so that it can be skipped there (`passed`). The reader
 * asks right after parsing each tool, while its nodes are still in the processor's caches.
 * `known(field)`: that field's value is known to be sound at a tool field's depth (a schema
 * equal to one that memberSound passed), and is not walked.
 */
export function toolPasses(tool: unknown, known?: (field: string) => boolean): boolean {
  if (!toolFieldsPass(tool)) return false;
  if (known === undefined) return isSound(tool, 3, MAX_NESTING_DEPTH);
  // A field `known` names is one that passed where a tool's field sits (memberSound said so).
  for (const key in tool as Record<string, unknown>) {
    if (!known(key) && !memberSound((tool as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * toolPasses(tool) without `known`, measuring the tool on the way: its compact JSON length
 * (compact-length.ts) when it passes, -1 when it does not. One walk of the tool for both.
 * `unescaped`: the tool was parsed from a text without a backslash (soundLength).
 */
export function measuredToolPasses(tool: unknown, unescaped = false): number {
  return toolFieldsPass(tool) ? soundLength(tool, 3, MAX_NESTING_DEPTH, unescaped) : -1;
}

/** Whether a value held by a field of a tool (at $.tools[i].field) is nested shallowly enough and holds only finite numbers. */
export function memberSound(value: unknown): boolean {
  return isSound(value, 4, MAX_NESTING_DEPTH);
}

/**
 * itemPasses for a tool, its fields (FIELD_CHECKS.tools) read by name: the reader asks it of
 * every tool, and reading them by a key from a list was most of the check's own time.
 */
export function toolFieldsPass(tool: unknown): boolean {
  if (!isJsonObject(tool) || typeof tool.name !== "string") return false;
  const { inputSchema, outputSchema, annotations, execution } = tool;
  return (
    (inputSchema === undefined || typeof inputSchema === "boolean" || isJsonObject(inputSchema)) &&
    (outputSchema === undefined || typeof outputSchema === "boolean" || isJsonObject(outputSchema)) &&
    (annotations === undefined || isJsonObject(annotations)) &&
    (execution === undefined || isJsonObject(execution))
  );
}

/** Whether itemProblem would find nothing, without building its messages: most items pass. */
function itemPasses(list: SurfaceList, item: Json): boolean {
  if (!isJsonObject(item) || typeof item[list.id] !== "string") return false;
  for (const [field, check] of FIELD_ENTRIES[list.key]) {
    const value = item[field];
    if (value !== undefined && check(value) !== undefined) return false;
  }
  return list.key !== "prompts" || item.arguments === undefined;
}

/** isSound of a whole contract (the file is level 1), skipping the tools `passed` says passed already. */
function contractSound(
  contract: Record<string, Json>,
  limit: number,
  passed: ((index: number) => boolean) | true | undefined,
): boolean {
  if (passed === undefined || limit < 3) return isSound(contract, 1, limit);
  for (const key in contract) {
    const child = contract[key];
    if (key !== "tools" || !Array.isArray(child)) {
      if (!isSound(child, 2, limit)) return false;
      continue;
    }
    if (passed === true) continue;
    for (let i = 0; i < child.length; i++) if (!passed(i) && !isSound(child[i], 3, limit)) return false;
  }
  return true;
}

/**
 * The first wrong field of the skills (SEP-2640) the engine reads: each skill's `uri`, its
 * `frontmatter` (an object; `name` and `description` strings when present) and `resources`
 * ("dynamic", or files each with a string `uri`, and a string `digest` and a number `size`
 * when present). Anything else of a skill is kept verbatim.
 */
function skillsProblem(skills: Json): ContractProblem | undefined {
  const at = (what: string, ...segments: Segment[]): ContractProblem => ({
    path: formatJsonPath(["skills", ...segments]),
    what,
    list: SKILLS_LIST,
  });
  if (!Array.isArray(skills)) return at(`expected an array of skills, found ${describeFound(skills)}`);
  for (let i = 0; i < skills.length; i++) {
    const skill = skills[i] as Json;
    if (!isJsonObject(skill)) return at(`expected a skill object, found ${describeFound(skill)}`, i);
    const named = (p: ContractProblem) =>
      typeof skill.uri === "string" ? { ...p, item: `skill ${JSON.stringify(skill.uri)}` } : p;
    if (typeof skill.uri !== "string") {
      return at(
        `expected a string (the URI of its SKILL.md), found ${skill.uri === undefined ? "nothing" : describeFound(skill.uri)}`,
        i,
        "uri",
      );
    }
    const front = skill.frontmatter;
    if (!isJsonObject(front)) {
      return named(
        at(
          `expected the frontmatter object, found ${front === undefined ? "nothing" : describeFound(front)}`,
          i,
          "frontmatter",
        ),
      );
    }
    for (const key of ["name", "description"]) {
      if (front[key] !== undefined && typeof front[key] !== "string") {
        return named(at(`expected a string, found ${describeFound(front[key])}`, i, "frontmatter", key));
      }
    }
    const files = skill.resources;
    if (files === "dynamic") continue;
    if (!Array.isArray(files)) {
      const found = files === undefined ? "nothing" : describeFound(files);
      return named(at(`expected an array of files or "dynamic", found ${found}`, i, "resources"));
    }
    for (let j = 0; j < files.length; j++) {
      const file = files[j] as Json;
      if (!isJsonObject(file))
        return named(at(`expected a file object, found ${describeFound(file)}`, i, "resources", j));
      if (typeof file.uri !== "string") {
        const found = file.uri === undefined ? "nothing" : describeFound(file.uri);
        return named(at(`expected a string, found ${found}`, i, "resources", j, "uri"));
      }
      if (file.digest !== undefined && typeof file.digest !== "string") {
        return named(at(`expected a string, found ${describeFound(file.digest)}`, i, "resources", j, "digest"));
      }
      if (file.size !== undefined && typeof file.size !== "number") {
        return named(at(`expected a number, found ${describeFound(file.size)}`, i, "resources", j, "size"));
      }
    }
  }
  return undefined;
}

/** "at $.tools[3].inputSchema (tool "search"), expected …": a problem as one clause. */
export function describeProblem(problem: ContractProblem): string {
  return `at ${problem.path}${problem.item === undefined ? "" : ` (${problem.item})`}, ${problem.what}`;
}

/**
 * The capture's side of the boundary: a surface the server sent that mcp-contract could not
 * record faithfully, or whose engine walk would be unbounded, is the server's fault (exit 3).
 * With `fields` false (lint of a live server) only depth and numbers are checked: a wrong-typed
 * field is what the protocol lint rules are there to report, and lint writes no lockfile.
 * Returns the contract unchanged when it passes.
 */
export function assertCapturedSurface(contract: Contract, fields = true): Contract {
  const problem = findContractProblem(contract, MAX_NESTING_DEPTH, fields);
  if (problem) {
    const answer = problem.list
      ? `${problem.list.method} result`
      : "answer to the handshake (serverInfo, capabilities)";
    throw new ServerError(
      `the server's ${answer} cannot be recorded in a lockfile: ${describeProblem(problem)}. The server must send the types the MCP specification defines, finite numbers and at most ${MAX_NESTING_DEPTH} levels of nesting; fix the server and capture again.`,
    );
  }
  return contract;
}
