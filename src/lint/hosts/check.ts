/**
 * The host checker: one pass over a surface for the selected profiles. Names and list limits
 * are checked per tool and per surface; each distinct inputSchema (tools of one shape share
 * findings, src/lint/shapes.ts) is walked once, every selected profile looking at each node
 * in that one walk (lint's own schema walk when lint runs it); the places of one rule in one
 * schema make one finding. Only inputSchema is checked: it is what hosts send to the model API
 * as the function's parameters. Pure.
 */
import { type Contract, isJsonObject, type Json, type JsonObject } from "../../contract/model.ts";
import type { TargetKind } from "../../contract/surface.ts";
import { show, visitSchema } from "../found.ts";
import { indexShapes, type SurfaceSizes } from "../shapes.ts";
import { FIRST, type HostHit, type HostProfile, NAMED, type NodeHits, type SchemaNode } from "./model.ts";
import { hostProfile } from "./profiles.ts";
import { Wakes } from "./wakes.ts";

export interface HostFinding {
  rule: string;
  target: { kind: TargetKind; name: string };
  path: string;
  message: string;
  /** The message without its target prefix ("tool NAME: "). */
  detail: string;
  evidence?: Json;
}

/** A profile's node check (called without `this`) and its bit among Wakes' answers. */
interface NodeCheck {
  bit: number;
  check: NonNullable<HostProfile["node"]>;
}

/** Places listed by name in a finding that stands for several. */
const MORE = 3;

/** One rule's places in one schema: the first in full, the next few by name, the rest counted. */
interface Places {
  first: HostHit;
  others: string[];
  count: number;
}

/**
 * Every profile's node checks over one inputSchema, with one hit per rule: a host rejects (or
 * rewrites) the tool once, however many places cause it, and a surface of a thousand tools
 * would otherwise bury the report (and lint's time) under one finding per node. Fed the nodes
 * of one walk, by its own (walkSchema) or by lint's schema pass (src/lint/hosts/lint-checks.ts).
 */
export class SchemaHits {
  private byRule = new Map<string, Places>();
  /**
   * The profiles' node checks, and those of the profiles that walk definitions (the others are
   * not shown nodes under $defs), each with its bit among the wakes: called by index, and only
   * at the nodes that wake them.
   */
  private readonly checks: NodeCheck[];
  private readonly checksInDefs: NodeCheck[];
  private readonly wakes: Wakes;
  constructor(profiles: readonly HostProfile[]) {
    const nodeProfiles = profiles.filter((p) => p.node);
    this.wakes = new Wakes(nodeProfiles);
    this.checks = nodeProfiles.map((p, i) => ({ bit: 1 << i, check: p.node as NodeCheck["check"] }));
    this.checksInDefs = this.checks.filter((_, i) => nodeProfiles[i]!.walkDefs !== false);
  }

  /** The places of the rule `place` last counted (NAMED): `named` adds to them. */
  private last: Places | undefined = undefined;
  /** What the node checks report to (NodeHits), one object for every node. */
  private readonly hits: NodeHits = {
    place: (rule) => {
      const places = this.byRule.get(rule);
      if (places === undefined) return FIRST;
      places.count++;
      if (places.others.length >= MORE) return 0;
      this.last = places;
      return NAMED;
    },
    first: (rule, hit) => {
      this.byRule.set(rule, { first: { rule, ...hit }, others: [], count: 1 });
    },
    named: (_rule, where) => {
      this.last?.others.push(where);
    },
  };

  /** Start another schema. */
  reset(): void {
    this.byRule = new Map();
  }

  /** One node of the walk (an arrow function: the schema pass calls it as the rider's visit). */
  readonly visit = (node: SchemaNode): void => {
    const woken = this.wakes.of(node.schema);
    if (woken === 0) return;
    const checks = node.inDefs ? this.checksInDefs : this.checks;
    for (let i = 0; i < checks.length; i++) {
      const { bit, check } = checks[i]!;
      if ((woken & bit) !== 0) check(node, this.hits);
    }
  };

  /** The schema's hits, a rule's later places named in its first place's message. */
  finish(): HostHit[] {
    const out: HostHit[] = [];
    for (const { first, others, count } of this.byRule.values()) {
      if (count === 1) {
        out.push(first);
        continue;
      }
      const rest = count - 1 - others.length;
      out.push({
        ...first,
        message: `${first.message}; also at ${others.join(", ")}${rest > 0 ? ` and ${rest} more` : ""} (${count} places)`,
      });
    }
    return out;
  }
}

/** The profiles that look at schema nodes. */
export function schemaProfiles(hosts: readonly string[]): HostProfile[] {
  return profilesOf(hosts).filter((p) => p.node);
}

function profilesOf(hosts: readonly string[]): HostProfile[] {
  return hosts.map(hostProfile).filter((p): p is HostProfile => p !== undefined);
}

function walkSchema(schema: JsonObject, hits: SchemaHits): HostHit[] {
  hits.reset();
  visitSchema(schema, "/inputSchema", hits.visit);
  return hits.finish();
}

/** The findings of the named profiles (unknown names are skipped: the CLI checks them). */
export function checkHosts(
  contract: Contract,
  hosts: readonly string[],
  sizes?: SurfaceSizes,
  /** The hits of inputSchema shapes already walked (by lint's schema pass), by shape id. */
  walked?: readonly (HostHit[] | undefined)[],
): HostFinding[] {
  const profiles = profilesOf(hosts);
  if (profiles.length === 0) return [];
  const out: HostFinding[] = [];
  const nodeProfiles = profiles.filter((p) => p.node);
  const hitsOf = nodeProfiles.length > 0 ? new SchemaHits(nodeProfiles) : undefined;
  const toolProfiles = profiles.filter((p) => p.tool);
  const { shapes } = sizes ?? indexShapes(contract);
  const memo: (HostHit[] | undefined)[] = walked ? [...walked] : [];
  const tools = contract.tools;
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index]!;
    const name = typeof tool.name === "string" ? tool.name : "";
    let shown: string | undefined;
    let target: HostFinding["target"] | undefined;
    const add = (h: HostHit) => {
      shown ??= show(name);
      target ??= { kind: "tool", name };
      const finding: HostFinding = {
        rule: h.rule,
        target,
        path: h.path,
        message: `tool ${shown}: ${h.message}`,
        detail: h.message,
      };
      if (h.evidence !== undefined) finding.evidence = h.evidence;
      out.push(finding);
    };
    for (const profile of toolProfiles) profile.tool?.(tool, add);
    const schema = tool.inputSchema;
    if (!hitsOf || !isJsonObject(schema)) continue;
    const shape = shapes.inputSchema[index] ?? -1;
    let hits = shape === -1 ? undefined : memo[shape];
    if (!hits) {
      hits = walkSchema(schema, hitsOf);
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
