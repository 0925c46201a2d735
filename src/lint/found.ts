import { type Contract, isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import { dottedChild, pointer, pointerToDotted } from "../contract/pointer.ts";
import type { TargetKind } from "../contract/surface.ts";
import { resolvePointer } from "../schema/ref.ts";
import {
  eachSubschema,
  eachSubschemaOf,
  ONE_SCHEMA,
  SCHEMA_LIST,
  SCHEMA_MAP,
  subschemaBit,
} from "../schema/subschemas.ts";
import type { Finding } from "./model.ts";
import { indexShapes } from "./shapes.ts";
import { visible } from "./text-scan.ts";

export type Found = Omit<Finding, "rule" | "level">;

const INVISIBLE = /[\u0080-\u009f\u00a0\u00ad\u061c\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]/;

/** Printable ASCII other than `"` and the backslash: shown as it is. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * A string quoted for a message: quotes and backslashes escaped, line breaks as \n, invisible
 * and look-alike space characters spelled out as the security rules do ("<U+200B ZERO WIDTH
 * SPACE>"), long text cut.
 */
export function show(value: string, max = 80): string {
  const cut = value.length > max ? `${value.slice(0, max)}…` : value;
  // Most names are printable ASCII without a quote or backslash: nothing to escape or spell out
  // (a replace with a callback costs microseconds even when it matches nothing, per finding).
  if (PLAIN.test(cut)) return `"${cut}"`;
  const escaped = cut.replace(/[\\"]/g, (c) => `\\${c}`);
  // Printable ASCII needs nothing spelled out (INVISIBLE holds no ASCII character).
  if (!/[^\x20-\x7e]/.test(escaped)) return `"${escaped}"`;
  return `"${visible(escaped, (cp) => INVISIBLE.test(String.fromCodePoint(cp)))}"`;
}

/** What kind of JSON value this is, for messages: "a string", "an array", "null". */
export function describeJson(value: Json | undefined): string {
  if (value === undefined) return "absent";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}

export function found(kind: TargetKind, name: string, path: string, message: string, evidence?: Json): Found {
  return evidence === undefined
    ? { target: { kind, name }, path, message }
    : { target: { kind, name }, path, message, evidence };
}

export interface SchemaNode {
  schema: JsonObject;
  /** JSON Pointer of this subschema inside the item (e.g. "/inputSchema/properties/city"). */
  readonly path: string;
  /** The same place for people ("inputSchema.properties.city", as pointerToDotted writes it). */
  readonly dotted: string;
  /** The keyword that led here from the parent ("properties", "items", "anyOf"…), "" at the root. */
  readonly via: string;
  /** Whether the node sits under `$defs` or `definitions` (a definition, reached only by $ref). */
  readonly inDefs: boolean;
  /**
   * Which visit this is, different for every node visited in the process: a node object may be
   * filled again for the next node (NodeWalker), so a visitor that remembers something of a
   * node until the next visitor asks tells nodes apart by this, not by the object.
   */
  readonly visit: number;
}

/**
 * Every object subschema of `schema`, itself first, visiting only schema positions (so an
 * `enum`, `const`, `default` or `examples` value that looks like a schema is not visited).
 */
export function walkSchema(schema: Json | undefined, path: string): SchemaNode[] {
  const nodes: SchemaNode[] = [];
  visitSchema(schema, path, (node) => nodes.push(node));
  return nodes;
}

/** The same walk, each node handed to `visit` as it is reached (src/lint/schema-pass.ts shares it). */
export function visitSchema(schema: Json | undefined, path: string, visit: (node: SchemaNode) => void): void {
  if (!isJsonObject(schema)) return;
  const root = new WalkNode(schema, undefined, path, undefined);
  visit(root);
  eachSubschema(schema, walkChild, new Walk(root, visit));
}

/**
 * A node of the walk. Its pointer is built from its parent's only when a rule reads it (for a
 * finding): most nodes need none, and building every pointer was a fifth of lint's time on big
 * files. Fields rather than closures or a segments list: those were most of the walk's garbage.
 */
class WalkNode implements SchemaNode {
  private cached: string | undefined = undefined;
  private cachedDotted: string | undefined = undefined;
  inDefs: boolean;
  visit: number;
  constructor(
    public schema: JsonObject,
    private readonly parent: WalkNode | undefined,
    /** The root's pointer, or the keyword under the parent. */
    private keyword: string,
    /** The index or name under the keyword, if any. */
    private member: number | string | undefined,
  ) {
    this.inDefs = parent !== undefined && (parent.inDefs || keyword === "$defs" || keyword === "definitions");
    this.visit = ++visits;
  }
  /** The next node under the same parent, in this object (NodeWalker): what it had worked out is dropped. */
  refill(schema: JsonObject, keyword: string, member: number | string | undefined): void {
    const parent = this.parent;
    this.schema = schema;
    this.keyword = keyword;
    this.member = member;
    this.cached = undefined;
    this.cachedDotted = undefined;
    this.inDefs = parent !== undefined && (parent.inDefs || keyword === "$defs" || keyword === "definitions");
    this.visit = ++visits;
  }
  get via(): string {
    return this.parent === undefined ? "" : this.keyword;
  }
  get dotted(): string {
    if (this.cachedDotted === undefined) {
      const parent = this.parent;
      if (parent === undefined) this.cachedDotted = pointerToDotted(this.keyword);
      else {
        const under = dottedChild(parent.dotted, this.keyword);
        this.cachedDotted = this.member === undefined ? under : dottedChild(under, String(this.member));
      }
    }
    return this.cachedDotted;
  }
  get path(): string {
    if (this.cached === undefined) {
      const parent = this.parent;
      if (parent === undefined) this.cached = this.keyword;
      else if (this.member === undefined) this.cached = pointer(parent.path, this.keyword);
      else this.cached = pointer(parent.path, this.keyword, this.member);
    }
    return this.cached;
  }
}

/**
 * Where a walk is: the node whose children are being visited, which each child's call makes
 * its own children's parent while they are walked. One per walk, passed to eachSubschema as
 * its context, so no closure is made per node.
 */
class Walk {
  constructor(
    public parent: WalkNode,
    readonly visit: (node: SchemaNode) => void,
  ) {}
}

const SUBSCHEMA_KEYWORDS = [...ONE_SCHEMA, ...SCHEMA_LIST, ...SCHEMA_MAP];

/**
 * The walk of visitSchema for visitors that read a node only while it is visited (the schema
 * pass, schema-pass.ts): one node object per depth, filled again for each node at that depth
 * (its parent is always the one of the depth above, which then holds the node's parent),
 * instead of an object per subschema, which on 10,000 schemas that all differ was half a
 * million objects, most of the pass's garbage. A visitor must not keep a node past its visit.
 */
export class NodeWalker {
  private readonly nodes: WalkNode[] = [];
  private depth = 0;
  /**
   * Each key that matters here: its subschema bit and its mark (the bit of its place in
   * `marked`). An object without a prototype, not a Map: the walk looks up every key of every
   * node, and a Map's lookup took about twice as long.
   */
  private readonly bits: Record<string, { sub: number; mark: number } | undefined> = Object.create(null);
  /**
   * `visit` gets each node and its marks: the OR of 1 << i over the keywords `marked[i]` that it
   * holds (at most 31), read with its subschema keywords in one pass over its keys.
   */
  constructor(
    private readonly visit: (node: SchemaNode, marks: number) => void,
    marked: readonly string[] = [],
  ) {
    if (marked.length > 31) throw new Error("at most 31 marked keywords");
    for (let i = 0; i < marked.length; i++) this.bits[marked[i]!] = { sub: subschemaBit(marked[i]!), mark: 1 << i };
    // Every subschema keyword that is not marked too: the walk reads those bits to go on.
    for (const key of SUBSCHEMA_KEYWORDS) this.bits[key] ??= { sub: subschemaBit(key), mark: 0 };
  }

  walk(schema: Json | undefined, path: string): void {
    if (!isJsonObject(schema)) return;
    this.depth = 0;
    this.visitAt(schema, path, undefined);
  }

  private visitAt(schema: JsonObject, keyword: string, member: number | string | undefined): void {
    const depth = this.depth;
    let node = this.nodes[depth];
    if (node === undefined) {
      node = new WalkNode(schema, depth === 0 ? undefined : this.nodes[depth - 1], keyword, member);
      this.nodes[depth] = node;
    } else node.refill(schema, keyword, member);
    let present = 0;
    let marks = 0;
    // for...in: JSON objects inherit no enumerable keys.
    for (const key in schema) {
      const bits = this.bits[key];
      if (bits !== undefined) {
        present |= bits.sub;
        marks |= bits.mark;
      }
    }
    this.visit(node, marks);
    this.depth = depth + 1;
    eachSubschemaOf(schema, present, walkerChild, this);
    this.depth = depth;
  }

  /** eachSubschema's callback (no closure made per node). */
  static child(child: Json, keyword: string, member: number | string | undefined, walker: NodeWalker): void {
    if (isJsonObject(child)) walker.visitAt(child, keyword, member);
  }
}

const walkerChild = NodeWalker.child;

/** The walk, depth first. A callback rather than a generator: resuming a generator per node cost more than the rules. */
function walkChild(child: Json, keyword: string, member: number | string | undefined, walk: Walk): void {
  if (!isJsonObject(child)) return;
  const parent = walk.parent;
  const node = new WalkNode(child, parent, keyword, member);
  walk.visit(node);
  walk.parent = node;
  eachSubschema(child, walkChild, walk);
  walk.parent = parent;
}

/** Visits numbered so far (SchemaNode.visit). */
let visits = 0;

export const SCHEMA_KEYS = ["inputSchema", "outputSchema"] as const;

/** A finding of a schema check before it is given to a tool: its message follows "tool NAME: ". */
export interface SchemaFound {
  path: string;
  message: string;
  evidence?: Json;
}

/**
 * A schema check run over each tool's schemas under `keys`, once per shape (src/lint/shapes.ts)
 * and key: the tools of one shape get the same findings, each under its own name. `check` gets
 * the schema and its key ("inputSchema") and returns paths inside the item ("/inputSchema/…").
 */
export function perToolSchema(
  contract: Contract,
  keys: readonly (typeof SCHEMA_KEYS)[number][],
  check: (schema: Json, key: string) => SchemaFound[],
): Found[] {
  const out: Found[] = [];
  const { shapes } = indexShapes(contract);
  // Findings by shape id (dense, from 0), one list per key.
  const memo = keys.map((): (SchemaFound[] | undefined)[] => []);
  const tools = contract.tools;
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index]!;
    let shown: string | undefined;
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k]!;
      const schema = tool[key];
      if (schema === undefined) continue;
      const shape = shapes[key][index] ?? -1;
      let results = shape === -1 ? undefined : memo[k]![shape];
      if (!results) {
        results = check(schema, key);
        if (shape !== -1) memo[k]![shape] = results;
      }
      for (const r of results) {
        shown ??= show(tool.name);
        out.push(found("tool", tool.name, r.path, `tool ${shown}: ${r.message}`, r.evidence));
      }
    }
  }
  return out;
}

/** Resolves a JSON Pointer (already URI-decoded) inside `root`: the one reader in ../schema/ref.ts. */
export { resolvePointer };

export function stringOrEmpty(value: Json | undefined): string {
  return typeof value === "string" ? value : "";
}
