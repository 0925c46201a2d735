/**
 * Embedding a leaf value into a full root instance: the value is wrapped in the objects and
 * arrays the walked path passes through, with the required properties and items around it.
 * The mode chooses whose requirements that filler meets (see Embedder.context).
 */
import { isJsonObject, type Json, type JsonObject } from "../../contract/model.ts";
import { dict } from "../dict.ts";
import { arrayShape, gen, objectInstance } from "./instances.ts";
import { type Cand, MAX_LENGTH, num, OMIT, strings, valueKey, without } from "./json.ts";
import { matches, propertySchema, type Side } from "./merge.ts";
import type { Frame } from "./path-walk.ts";
import { regexSamples } from "./regex-samples.ts";

export type Mode = "H" | "R" | "P";
export const MODES: Mode[] = ["H", "R", "P"];

export class Embedder {
  private contexts = new Map<string, JsonObject | null>();
  private arrays = new Map<number, { prefix: Json[]; pad: Json[]; min: number }>();
  constructor(
    private readonly frames: Frame[],
    private readonly acc: Side,
    private readonly rej: Side,
  ) {}

  /**
   * The object around a property: the accepting node's required properties (mode P), plus
   * those the rejecting node requires where allowed (H: accepting values first; R: rejecting
   * values first), so that the witness breaks only through the change at hand.
   */
  context(
    node: Json,
    rejNode: Json | undefined,
    mode: Mode,
    omit: ReadonlySet<string>,
    prop?: string,
  ): JsonObject | undefined {
    const eA = this.acc.objectNode(node, prop);
    const extra: { name: string; schema: Json; side: Side }[] = [];
    if (mode !== "P" && rejNode !== undefined) {
      const eR = this.rej.objectNode(rejNode, prop);
      for (const name of strings(eR.required)) extra.push({ name, schema: propertySchema(eR, name), side: this.rej });
      if (mode === "R") {
        for (const name of strings(eA.required)) {
          if (
            !extra.some((e) => e.name === name) &&
            isJsonObject(eR.properties) &&
            Object.hasOwn(eR.properties, name)
          ) {
            extra.push({ name, schema: propertySchema(eR, name), side: this.rej });
          }
        }
      }
    }
    return objectInstance(eA, this.acc, 1, [], omit, extra, mode === "R");
  }

  private frameContext(i: number, mode: Mode, omitKey: string | undefined): JsonObject {
    const key = `${i}\u0000${mode}\u0000${omitKey ?? ""}`;
    let ctx = this.contexts.get(key);
    if (ctx === undefined) {
      const f = this.frames[i] as Frame;
      const prop = f.step.k === "prop" ? f.step.name : undefined;
      ctx = this.context(f.acc, f.rej, mode, new Set(omitKey === undefined ? [] : [omitKey]), prop) ?? null;
      this.contexts.set(key, ctx);
    }
    return ctx ?? {};
  }

  private arrayContext(i: number): { prefix: Json[]; pad: Json[]; min: number } {
    let ctx = this.arrays.get(i);
    if (!ctx) {
      const f = this.frames[i] as Frame;
      const node = this.acc.arrayNode(f.acc);
      const { prefix, rest } = arrayShape(node);
      ctx = {
        prefix: prefix.map((p) => gen(p, this.acc, 1)[0] ?? null),
        pad: gen(rest, this.acc, 3),
        min: Math.min(MAX_LENGTH, Math.max(0, num(node.minItems) ?? 0)),
      };
      this.arrays.set(i, ctx);
    }
    return ctx;
  }

  /**
   * The root instance around a leaf value placed after the first `depth` frames (default:
   * all); with `stop`, only the frames from `stop` on are wrapped (a partial instance).
   */
  embed(leaf: Cand, mode: Mode, depth = this.frames.length, stop = 0): Json | undefined {
    let v: Cand = leaf;
    for (let i = depth - 1; i >= stop; i--) {
      const f = this.frames[i] as Frame;
      const step = f.step;
      if (v === OMIT && step.k !== "prop") return undefined;
      switch (step.k) {
        case "prop": {
          const out = dict(this.frameContext(i, mode, step.name));
          if (v !== OMIT) out[step.name] = v;
          v = out;
          break;
        }
        case "pattern":
        case "additional": {
          const key =
            step.k === "pattern"
              ? (regexSamples(step.pattern).find((s) => !declared(this.acc.objectNode(f.acc), s)) ??
                regexSamples(step.pattern)[0])
              : extraKey([this.acc.objectNode(f.acc), ...(f.rej === undefined ? [] : [this.rej.objectNode(f.rej)])]);
          if (key === undefined) return undefined;
          v = { ...this.frameContext(i, mode, key), [key]: v as Json };
          break;
        }
        case "items":
        case "index":
        case "contains": {
          const ctx = this.arrayContext(i);
          const at = step.k === "index" ? step.index : ctx.prefix.length;
          const arr: Json[] = [];
          for (let j = 0; j < at; j++) arr.push(ctx.prefix[j] ?? ctx.pad[0] ?? null);
          arr.push(v as Json);
          if (arr.length < ctx.min) {
            // Up to minItems: a padding value not in the array yet (a set of keys: minItems can be large).
            const taken = new Set(arr.map(valueKey));
            for (let j = arr.length; j < ctx.min; j++) {
              const item = ctx.prefix[j] ?? ctx.pad.find((p) => !taken.has(valueKey(p))) ?? (v as Json);
              arr.push(item);
              taken.add(valueKey(item));
            }
          }
          v = arr;
          break;
        }
        case "branch": {
          if (isJsonObject(v)) {
            const node = isJsonObject(f.acc) ? without(f.acc, step.keyword) : {};
            const hasObjectSiblings =
              step.keyword === "allOf" || node.properties !== undefined || node.required !== undefined;
            if (hasObjectSiblings) {
              const base =
                step.keyword === "allOf"
                  ? (objectInstance(this.acc.objectNode(f.acc), this.acc, 1, [], new Set()) ?? {})
                  : (objectInstance(this.acc.objectNode(node), this.acc, 1, [], new Set()) ?? {});
              v = { ...base, ...v };
            }
          }
          break;
        }
        case "names": {
          if (typeof v !== "string") return undefined;
          const e = this.acc.objectNode(f.acc);
          const value = gen(propertySchema(e, v), this.acc, 1)[0] ?? null;
          v = { ...this.frameContext(i, mode, v), [v]: value };
          break;
        }
        case "dependent": {
          if (!isJsonObject(v)) break;
          if (!Object.hasOwn(v, step.name)) {
            const e = this.acc.objectNode(f.acc);
            v = { ...v, [step.name]: gen(propertySchema(e, step.name), this.acc, 1)[0] ?? null };
          }
          v = { ...this.frameContext(i, mode, undefined), ...v };
          break;
        }
        case "same":
          break;
      }
    }
    return v === OMIT ? undefined : v;
  }
}

export function declared(node: JsonObject, name: string): boolean {
  return isJsonObject(node.properties) && Object.hasOwn(node.properties, name);
}

/** A property name no node declares and no patternProperties matches. */
export function extraKey(nodes: JsonObject[]): string {
  const taken = (name: string) =>
    nodes.some(
      (n) =>
        declared(n, name) ||
        (isJsonObject(n.patternProperties) && Object.keys(n.patternProperties).some((p) => matches(p, name))),
    );
  for (const name of ["extra", "extra_property", "x_extra", "zz_extra", "_extra", "extra1", "EXTRA"]) {
    if (!taken(name)) return name;
  }
  for (let i = 2; i < 1000; i++) if (!taken(`extra${i}`)) return `extra${i}`;
  return "extra";
}
