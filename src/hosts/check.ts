/**
 * The host checker: one pass over a surface for the selected profiles. Names and list limits
 * are checked per tool and per surface; each distinct inputSchema (tools of one shape share
 * findings, src/lint/shapes.ts) is walked once, every selected profile looking at each node
 * in that one walk. Only inputSchema is checked: it is what hosts send to the model API as the
 * function's parameters. Pure.
 */
import { type Contract, isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import { pointer } from "../contract/pointer.ts";
import type { TargetKind } from "../contract/surface.ts";
import { show } from "../lint/found.ts";
import { indexShapes, type SurfaceSizes } from "../lint/shapes.ts";
import { forEachSubschema } from "../schema/subschemas.ts";
import type { HostHit, HostProfile, SchemaNode } from "./model.ts";
import { hostProfile } from "./profiles.ts";

export interface HostFinding {
  rule: string;
  target: { kind: TargetKind; name: string };
  path: string;
  message: string;
  /** The message without its target prefix ("tool NAME: "). */
  detail: string;
  evidence?: Json;
}

const DEFS = new Set(["$defs", "definitions"]);

/** Every hit of the profiles' node checks on one inputSchema, with paths under /inputSchema. */
function walkSchema(schema: JsonObject, profiles: readonly HostProfile[]): HostHit[] {
  const hits: HostHit[] = [];
  const hit = (h: HostHit) => hits.push(h);
  const visit = (node: JsonObject, pathOf: () => string, via: string, inDefs: boolean) => {
    let path: string | undefined;
    const here = () => {
      path ??= pathOf();
      return path;
    };
    const at: SchemaNode = {
      schema: node,
      get path() {
        return here();
      },
      via,
    };
    for (const profile of profiles) {
      if (profile.node && (!inDefs || profile.walkDefs !== false)) profile.node(at, hit);
    }
    forEachSubschema(node, (child, segments) => {
      if (!isJsonObject(child)) return;
      const keyword = segments[0] ?? "";
      visit(child, () => pointer(here(), ...segments), keyword, inDefs || DEFS.has(keyword));
    });
  };
  visit(schema, () => "/inputSchema", "", false);
  return hits;
}

/** The findings of the named profiles (unknown names are skipped: the CLI checks them). */
export function checkHosts(contract: Contract, hosts: readonly string[], sizes?: SurfaceSizes): HostFinding[] {
  const profiles = hosts.map(hostProfile).filter((p): p is HostProfile => p !== undefined);
  if (profiles.length === 0) return [];
  const out: HostFinding[] = [];
  const schemaProfiles = profiles.filter((p) => p.node);
  const toolProfiles = profiles.filter((p) => p.tool);
  const { shapes } = sizes ?? indexShapes(contract);
  const memo: (HostHit[] | undefined)[] = [];
  const tools = contract.tools;
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index]!;
    const name = typeof tool.name === "string" ? tool.name : "";
    let shown: string | undefined;
    const add = (h: HostHit) => {
      shown ??= show(name);
      out.push({
        rule: h.rule,
        target: { kind: "tool", name },
        path: h.path,
        message: `tool ${shown}: ${h.message}`,
        detail: h.message,
        ...(h.evidence !== undefined && { evidence: h.evidence }),
      });
    };
    for (const profile of toolProfiles) profile.tool?.(tool, add);
    const schema = tool.inputSchema;
    if (schemaProfiles.length === 0 || !isJsonObject(schema)) continue;
    const shape = shapes.inputSchema[index] ?? -1;
    let hits = shape === -1 ? undefined : memo[shape];
    if (!hits) {
      hits = walkSchema(schema, schemaProfiles);
      if (shape !== -1) memo[shape] = hits;
    }
    for (const h of hits) add(h);
  }
  for (const profile of profiles) {
    profile.list?.(contract, (h) =>
      out.push({
        rule: h.rule,
        target: { kind: h.kind, name: h.name },
        path: h.path,
        message: h.kind === "server" ? `server: ${h.message}` : h.message,
        detail: h.message,
        ...(h.evidence !== undefined && { evidence: h.evidence }),
      }),
    );
  }
  return out;
}
