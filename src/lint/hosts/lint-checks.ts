/**
 * The host rules as lint checks: each returns its own findings of one shared run of the host
 * checker over the contract, made on the first host rule's turn and kept for the others of the
 * same lint run. Without hosts selected (LintOptions.hosts) they find nothing, so `lint` without
 * --hosts reports exactly what it did before. With hosts, the profiles' schema checks ride along
 * lint's schema pass (hostRider) instead of walking every inputSchema again. Pure.
 */
import type { Contract } from "../../contract/model.ts";
import type { Found } from "../found.ts";
import type { LintCheck, LintOptions } from "../model.ts";
import type { ShapeRider } from "../schema-pass.ts";
import { indexShapes, type SurfaceSizes } from "../shapes.ts";
import { checkHosts, SchemaHits, schemaProfiles } from "./check.ts";
import type { HostHit } from "./model.ts";
import { HOST_RULE_ROWS } from "./profiles.ts";

type HostRuleId = (typeof HOST_RULE_ROWS)[number]["id"];

interface Run {
  /** The shape index of the lint run (a new object each run: a contract changed since is checked again). */
  sizes: SurfaceSizes;
  hosts: string;
  byRule: Map<string, Found[]>;
}

const RUNS = new WeakMap<Contract, Run>();

/** What the rider saw in a lint run's schema pass, by the run's shape index: the hosts and each inputSchema shape's hits. */
const WALKED = new WeakMap<SurfaceSizes, { hosts: string; hits: (HostHit[] | undefined)[] }>();

/** For lint's schema pass (src/lint/catalog.ts): the host profiles' node checks on its walk of each inputSchema shape. */
export function hostRider(_contract: Contract, options: LintOptions, sizes: SurfaceSizes): ShapeRider | undefined {
  const hosts = options.hosts ?? [];
  const profiles = schemaProfiles(hosts);
  if (profiles.length === 0) return undefined;
  const collector = new SchemaHits(profiles);
  const hits: (HostHit[] | undefined)[] = [];
  WALKED.set(sizes, { hosts: hosts.join(","), hits });
  return {
    key: "inputSchema",
    begin: () => collector.reset(),
    visit: (node) => collector.visit(node),
    end: (shape) => {
      hits[shape] = collector.finish();
    },
  };
}

function findingsOf(contract: Contract, options: LintOptions, rule: string): Found[] {
  const hosts = options.hosts ?? [];
  if (hosts.length === 0) return [];
  const sizes = indexShapes(contract);
  const key = hosts.join(",");
  let run = RUNS.get(contract);
  if (!run || run.sizes !== sizes || run.hosts !== key) {
    const byRule = new Map<string, Found[]>();
    const walked = WALKED.get(sizes);
    for (const f of checkHosts(contract, hosts, sizes, walked?.hosts === key ? walked.hits : undefined)) {
      const id = f.rule;
      // Field by field (not a rest copy): thousands of findings on a big rejected surface.
      const finding: Found = { target: f.target, path: f.path, message: f.message };
      if (f.evidence !== undefined) finding.evidence = f.evidence;
      const list = byRule.get(id);
      if (list) list.push(finding);
      else byRule.set(id, [finding]);
    }
    run = { sizes, hosts: key, byRule };
    RUNS.set(contract, run);
  }
  return run.byRule.get(rule) ?? [];
}

export const HOST_CHECKS = Object.fromEntries(
  HOST_RULE_ROWS.map((row) => [row.id, ((contract, options) => findingsOf(contract, options, row.id)) as LintCheck]),
) as Record<HostRuleId, LintCheck>;
