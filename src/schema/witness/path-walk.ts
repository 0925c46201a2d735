/**
 * Walking a change's path on both roots at once: the JSON Pointer is split into steps
 * (property, item, branch, …) and each step records the accepting and the rejecting node, so
 * that a leaf value can be wrapped back up into a root instance (embed.ts).
 */
import { isJsonObject, type Json, type JsonObject } from "../../contract/model.ts";
import { diffRulesWith } from "../../rules/registry.ts";
import { forEachSubschema } from "../subschemas.ts";
import { arrayShape, declaredTypes } from "./instances.ts";
import { refOf, resolveRef } from "./json.ts";
import { jsonType } from "./local-checks.ts";
import { propertySchema, type Side, TYPE_NAMES, type TypeName } from "./merge.ts";

/** Rules whose path names the changed schema node itself rather than node + "/" + keyword. */
const NODE_RULES = diffRulesWith("node-path");

type Step =
  | { k: "prop"; name: string }
  | { k: "pattern"; pattern: string }
  | { k: "additional"; keyword: string }
  | { k: "items" }
  | { k: "index"; index: number }
  | { k: "branch"; keyword: string; index: number }
  | { k: "contains" }
  | { k: "names" }
  | { k: "dependent"; name: string }
  | { k: "same" };

export interface Frame {
  step: Step;
  acc: Json;
  rej: Json | undefined;
}

interface Walk {
  frames: Frame[];
  acc: Json;
  rej: Json | undefined;
  tail: string[];
}

const isIndex = (s: string | undefined): s is string => s !== undefined && /^\d+$/.test(s);

function parseStep(segs: string[], i: number): { step: Step; used: number } | undefined {
  const seg = segs[i] as string;
  const next = segs[i + 1];
  switch (seg) {
    case "properties":
      return next === undefined ? undefined : { step: { k: "prop", name: next }, used: 2 };
    case "patternProperties":
      return next === undefined ? undefined : { step: { k: "pattern", pattern: next }, used: 2 };
    case "dependentSchemas":
    case "dependencies":
      return next === undefined ? undefined : { step: { k: "dependent", name: next }, used: 2 };
    case "additionalProperties":
    case "unevaluatedProperties":
      return { step: { k: "additional", keyword: seg }, used: 1 };
    case "items":
      return isIndex(next) ? { step: { k: "index", index: Number(next) }, used: 2 } : { step: { k: "items" }, used: 1 };
    case "additionalItems":
    case "unevaluatedItems":
      return { step: { k: "items" }, used: 1 };
    case "prefixItems":
      return isIndex(next) ? { step: { k: "index", index: Number(next) }, used: 2 } : undefined;
    case "anyOf":
    case "oneOf":
    case "allOf":
      return isIndex(next) ? { step: { k: "branch", keyword: seg, index: Number(next) }, used: 2 } : undefined;
    case "contains":
      return { step: { k: "contains" }, used: 1 };
    case "propertyNames":
      return { step: { k: "names" }, used: 1 };
    case "not":
    case "if":
    case "then":
    case "else":
      return { step: { k: "same" }, used: 1 };
    default:
      return undefined;
  }
}

/** Look a keyword up on the node itself, then on its flattened form. */
function keywordOf(node: Json | undefined, key: string, side: Side): Json | undefined {
  if (isJsonObject(node) && node[key] !== undefined) return node[key];
  const e = side.effective(node);
  return isJsonObject(e) ? e[key] : undefined;
}

function childOf(node: Json | undefined, step: Step, side: Side): Json | undefined {
  if (node === undefined) return undefined;
  switch (step.k) {
    case "prop": {
      const e = side.objectNode(node, step.name);
      return propertySchema(e, step.name);
    }
    case "pattern": {
      const pp = keywordOf(node, "patternProperties", side);
      return isJsonObject(pp) ? pp[step.pattern] : undefined;
    }
    case "additional":
      return keywordOf(node, step.keyword, side) ?? true;
    case "items": {
      const shape = arrayShape(side.arrayNode(node));
      return shape.rest ?? true;
    }
    case "index": {
      const shape = arrayShape(side.arrayNode(node));
      return shape.prefix[step.index] ?? shape.rest ?? true;
    }
    case "branch": {
      // A side without the union is the plain schema the engine compared with that branch.
      const list = keywordOf(node, step.keyword, side);
      return Array.isArray(list) ? list[step.index] : node;
    }
    case "contains":
      return keywordOf(node, "contains", side);
    case "names":
      return keywordOf(node, "propertyNames", side) ?? true;
    case "dependent": {
      const ds = keywordOf(node, "dependentSchemas", side) ?? keywordOf(node, "dependencies", side);
      const v = isJsonObject(ds) ? ds[step.name] : undefined;
      return Array.isArray(v) ? undefined : v;
    }
    case "same":
      return undefined; // resolved by the caller with the keyword name
  }
}

/** Replace a leading "/$defs/X" (which says nothing about where X is used) by a path that reaches X via $ref. */
export function rewriteDefinitionPath(root: Json, segs: string[]): string[] {
  let defEnd = -1;
  for (let i = 0; i + 1 < segs.length; i++) {
    if (segs[i] === "$defs" || segs[i] === "definitions") defEnd = i + 2;
    else if (defEnd !== -1) break;
  }
  if (defEnd === -1 || (segs[0] !== "$defs" && segs[0] !== "definitions")) return segs;
  const target = `#/${segs
    .slice(0, defEnd)
    .map((s) => s.replace(/~/g, "~0").replace(/\//g, "~1"))
    .join("/")}`;
  const found = findRefUsage(root, target);
  return found ? [...found, "$ref", ...segs.slice(defEnd)] : segs;
}

/** Breadth-first: the shortest path from the root (through properties, items, …, $ref) to a node whose $ref is `target`. */
function findRefUsage(root: Json, target: string): string[] | undefined {
  const queue: { node: Json; path: string[] }[] = [{ node: root, path: [] }];
  const seen = new Set<object>();
  for (let head = 0; head < queue.length && head < 50_000; head++) {
    const { node, path } = queue[head] as { node: Json; path: string[] };
    if (!isJsonObject(node) || seen.has(node)) continue;
    seen.add(node);
    const ref = refOf(node);
    if (ref === target) return path;
    if (ref !== undefined) {
      const next = resolveRef(root, ref);
      if (next !== undefined) queue.push({ node: next, path: [...path, "$ref"] });
    }
    forEachSubschema(node, (child, segments) => queue.push({ node: child, path: [...path, ...segments] }), {
      defs: false,
    });
  }
  return undefined;
}

export function typesOf(alts: JsonObject[]): Set<TypeName> {
  const out = new Set<TypeName>();
  for (const a of alts) {
    const declaredList = declaredTypes(a);
    if (declaredList) for (const t of declaredList) out.add(t);
    else if (a.const !== undefined) out.add(jsonType(a.const));
    else if (Array.isArray(a.enum)) for (const v of a.enum) out.add(jsonType(v));
    else for (const t of TYPE_NAMES) out.add(t);
  }
  if (out.has("number")) out.add("integer");
  return out;
}

/** The branch in `list` (of the other side) that is the same as `branch`, or the most similar one. */
function closestBranch(branch: Json, list: Json[], side: Side, otherSide: Side): Json | undefined {
  const text = JSON.stringify(branch);
  const same = list.find((b) => JSON.stringify(b) === text);
  if (same !== undefined) return same;
  const shape = (node: Json, s: Side) => {
    const alts = s.alternatives(node);
    return { types: typesOf(alts), keys: new Set(alts.flatMap((a) => Object.keys(a))) };
  };
  const mine = shape(branch, side);
  let best: Json | undefined;
  let bestScore = 0;
  for (const candidate of list) {
    const theirs = shape(candidate, otherSide);
    if (![...mine.types].some((t) => theirs.types.has(t))) continue;
    const shared = [...mine.keys].filter((k) => theirs.keys.has(k)).length;
    const score = 1 + shared / Math.max(1, new Set([...mine.keys, ...theirs.keys]).size);
    if (score > bestScore) {
      bestScore = score;
      best = candidate;
    }
  }
  return best;
}

export function walk(acc: Side, rej: Side, segs: string[], rule: string): Walk {
  // Split the path into steps first: keyword-suffixed rules name the changed keyword last,
  // and when that keyword holds a subschema (contains, not, additionalProperties, …) it
  // belongs to the node rather than being a step into it.
  const units: { at: number; used: number; step?: Step }[] = [];
  let stop = segs.length;
  for (let i = 0; i < segs.length; ) {
    if (segs[i] === "$ref") {
      units.push({ at: i, used: 1 });
      i++;
      continue;
    }
    const parsed = parseStep(segs, i);
    if (!parsed) {
      stop = i;
      break;
    }
    units.push({ at: i, used: parsed.used, step: parsed.step });
    i += parsed.used;
  }
  const lastUnit = units[units.length - 1];
  if (!NODE_RULES.has(rule) && stop === segs.length && lastUnit?.step && lastUnit.used === 1) {
    units.pop();
    stop = lastUnit.at;
  }
  let a: Json | undefined = acc.root;
  let r: Json | undefined = rej.root;
  const frames: Frame[] = [];
  for (const unit of units) {
    const seg = segs[unit.at] as string;
    const step = unit.step;
    if (!step) {
      a = acc.effective(a);
      r = r === undefined ? undefined : rej.effective(r);
      continue;
    }
    frames.push({ step, acc: a ?? true, rej: r });
    if (step.k === "same") {
      a = keywordOf(a, seg, acc);
      r = r === undefined ? undefined : keywordOf(r, seg, rej);
    } else if (step.k === "branch" && step.keyword !== "allOf") {
      // Branch indexes need not agree between the sides (the engine pairs branches by
      // structure): on the rejecting side take the branch most like the accepting one.
      const list = r === undefined ? undefined : keywordOf(r, step.keyword, rej);
      a = childOf(a, step, acc);
      r = Array.isArray(list) && a !== undefined ? closestBranch(a, list, acc, rej) : childOf(r, step, rej);
    } else {
      a = childOf(a, step, acc);
      r = childOf(r, step, rej);
    }
    if (a === undefined) a = true;
  }
  return { frames, acc: a ?? true, rej: r, tail: segs.slice(stop) };
}
