/**
 * One walk per tool schema for every schema rule that reads it node by node (issue #33): each
 * such rule is a visitor, and the first of them a lint run asks for walks each schema shape
 * once (src/lint/shapes.ts) and calls every visitor at every node. The findings of all of them
 * are kept for the run (by the shape index, which lintContract makes afresh), so the next rule
 * only reads its own. Before, each rule walked every schema itself: five walks of the same
 * nodes, and five lists of them built and dropped. Pure; no I/O.
 */
import type { Contract, JsonObject } from "../contract/model.ts";
import type { LintRuleId } from "../rules/registry.ts";
import { type Found, found, NodeWalker, SCHEMA_KEYS, type SchemaFound, type SchemaNode, show } from "./found.ts";
import type { LintCheck, LintOptions } from "./model.ts";
import { indexShapes, type SurfaceSizes } from "./shapes.ts";

export type SchemaKey = (typeof SCHEMA_KEYS)[number];

export interface SchemaVisitor {
  /** Which of a tool's schemas the rule reads, in the order its findings are listed. */
  keys: readonly SchemaKey[];
  /**
   * The keywords without which `visit` has nothing to do at a node: it is then called only at
   * nodes holding one of them (most nodes hold none). Absent: at every node.
   */
  on?: readonly string[];
  /**
   * Called at each node of an object schema, root first, depth first; pushes findings to `out`.
   * The node is read only during the call: the walk fills its object again for the next node
   * (found.ts NodeWalker).
   */
  visit(node: SchemaNode, root: JsonObject, key: SchemaKey, out: SchemaFound[]): void;
  /**
   * The schema's findings from what `visit` found, when the rule adds to them (default: as found).
   * `found` is the pass's own list, emptied for the next schema: read it during the call, or
   * return it (the pass then keeps a copy), but do not keep it.
   */
  finish?(root: JsonObject, key: SchemaKey, found: SchemaFound[]): SchemaFound[];
}

/**
 * Another reader of one key's schemas that rides along the pass's walk of each shape instead of
 * walking them again: the host lens with --hosts (src/lint/hosts/lint-checks.ts). Told when a
 * shape's walk begins and ends; what it finds it keeps itself.
 */
export interface ShapeRider {
  key: SchemaKey;
  begin(shape: number): void;
  /** As a SchemaVisitor's visit: the node is read only during the call. */
  visit(node: SchemaNode): void;
  end(shape: number): void;
}

/** Findings by rule, then key (SCHEMA_KEYS index), then shape id. */
type PassResults = Map<string, (SchemaFound[] | undefined)[][]>;

const NONE: SchemaFound[] = [];

/** The run's results, by the shape index lintContract makes afresh each run. */
const PASSES = new WeakMap<SurfaceSizes, PassResults>();

function runPass(
  contract: Contract,
  index: SurfaceSizes,
  visitors: Readonly<Record<string, SchemaVisitor>>,
  rider: ShapeRider | undefined,
) {
  const ids = Object.keys(visitors);
  const results: PassResults = new Map(ids.map((id) => [id, SCHEMA_KEYS.map(() => [])]));
  const tools = contract.tools;
  SCHEMA_KEYS.forEach((key, k) => {
    const readers = ids.filter((id) => visitors[id]!.keys.includes(key));
    const riding = rider?.key === key ? rider : undefined;
    if (readers.length === 0 && !riding) return;
    const shapes = index.shapes[key];
    // The visitors as a list: looked up by id at every node, they cost more than some visits.
    const visits = readers.map((id) => visitors[id]!);
    const outs = readers.map(() => [] as SchemaFound[]);
    const byVisitor = readers.map((id) => results.get(id)![k]!);
    const walked: boolean[] = [];
    let root: JsonObject | undefined;
    // The keywords some visitor waits for, and each visitor's marks among them (0: every node).
    const marked = [...new Set(visits.flatMap((v) => v.on ?? []))];
    const masks = visits.map((v) => (v.on ?? []).reduce((mask, keyword) => mask | (1 << marked.indexOf(keyword)), 0));
    // One walker for every shape under this key: it fills its node objects again, node after node.
    const walker = new NodeWalker((node, marks) => {
      for (let r = 0; r < visits.length; r++) {
        const mask = masks[r]!;
        if (mask === 0 || (mask & marks) !== 0) visits[r]!.visit(node, root as JsonObject, key, outs[r]!);
      }
      riding?.visit(node);
    }, marked);
    for (let t = 0; t < tools.length; t++) {
      const shape = shapes[t] ?? -1;
      if (shape === -1 || walked[shape]) continue;
      walked[shape] = true;
      const schema = tools[t]![key] as JsonObject;
      root = schema;
      for (const out of outs) out.length = 0;
      riding?.begin(shape);
      walker.walk(schema, `/${key}`);
      riding?.end(shape);
      // A loop, and no copy of a list that stays empty (most do): on 20,000 schemas a spread per
      // visitor and shape cost about as much as some visitors' visits.
      for (let r = 0; r < visits.length; r++) {
        const visitor = visits[r]!;
        const own = outs[r]!;
        const list = visitor.finish ? visitor.finish(schema, key, own) : own;
        byVisitor[r]![shape] = list.length === 0 ? NONE : list === own ? own.slice() : list;
      }
    }
  });
  return results;
}

/**
 * The checks of `visitors`, by rule id: each gives its rule's findings from the one pass, every
 * tool of a shape with that shape's findings under its own name.
 * `riderFor` may name a reader that rides along the pass's walk (ShapeRider) for this run.
 */
export function schemaPassChecks<Id extends LintRuleId>(
  visitors: Readonly<Record<Id, SchemaVisitor>>,
  riderFor?: (options: LintOptions, index: SurfaceSizes) => ShapeRider | undefined,
): Record<Id, LintCheck> {
  const checks = {} as Record<Id, LintCheck>;
  for (const id of Object.keys(visitors) as Id[]) {
    checks[id] = (contract, options) => {
      const index = indexShapes(contract);
      let pass = PASSES.get(index);
      if (!pass) {
        pass = runPass(contract, index, visitors, riderFor?.(options, index));
        PASSES.set(index, pass);
      }
      return toolFindings(contract, index, visitors[id].keys, pass.get(id)!);
    };
  }
  return checks;
}

/** Each tool's findings in list order, its schemas in `keys` order, from the findings by shape. */
function toolFindings(
  contract: Contract,
  index: SurfaceSizes,
  keys: readonly SchemaKey[],
  byShape: (SchemaFound[] | undefined)[][],
): Found[] {
  const out: Found[] = [];
  const tools = contract.tools;
  for (let t = 0; t < tools.length; t++) {
    const tool = tools[t]!;
    let shown: string | undefined;
    for (const key of keys) {
      const shape = index.shapes[key][t] ?? -1;
      if (shape === -1) continue;
      const results = byShape[SCHEMA_KEYS.indexOf(key)]![shape] ?? NONE;
      for (const r of results) {
        shown ??= show(tool.name);
        out.push(found("tool", tool.name, r.path, `tool ${shown}: ${r.message}`, r.evidence));
      }
    }
  }
  return out;
}
