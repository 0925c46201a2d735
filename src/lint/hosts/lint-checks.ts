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

/**
 * One lint run's host findings, by the run's shape index (lintContract makes a new one each run,
 * so a contract changed since is checked again): the selected hosts, the inputSchema shapes'
 * hits when lint's schema pass walked them with the rider, and the findings by rule.
 */
interface Run {
  hosts: string;
  walked?: (HostHit[] | undefined)[];
  byRule?: Map<string, Found[]>;
}

const RUNS = new WeakMap<SurfaceSizes, Run>();

function runOf(sizes: SurfaceSizes, hosts: string): Run {
  let run = RUNS.get(sizes);
  if (!run || run.hosts !== hosts) {
    run = { hosts };
    RUNS.set(sizes, run);
  }
  return run;
}

/** For lint's schema pass (src/lint/catalog.ts): the host profiles' node checks on its walk of each inputSchema shape. */
export function hostRider(options: LintOptions, sizes: SurfaceSizes): ShapeRider | undefined {
  const hosts = options.hosts ?? [];
  const profiles = schemaProfiles(hosts);
  if (profiles.length === 0) return undefined;
  const collector = new SchemaHits(profiles);
  const hits: (HostHit[] | undefined)[] = [];
  runOf(sizes, hosts.join(",")).walked = hits;
  return {
    key: "inputSchema",
    begin: () => collector.reset(),
    visit: collector.visit,
    end: (shape) => {
      hits[shape] = collector.finish();
    },
  };
}

function findingsOf(contract: Contract, options: LintOptions, rule: string): Found[] {
  const hosts = options.hosts ?? [];
  if (hosts.length === 0) return [];
  const sizes = indexShapes(contract);
  const run = runOf(sizes, hosts.join(","));
  if (!run.byRule) {
    const byRule = new Map<string, Found[]>();
    for (const f of checkHosts(contract, hosts, sizes, run.walked)) {
      // Field by field (not a rest copy): thousands of findings on a big rejected surface.
      const finding: Found = { target: f.target, path: f.path, message: f.message };
      if (f.evidence !== undefined) finding.evidence = f.evidence;
      const list = byRule.get(f.rule);
      if (list) list.push(finding);
      else byRule.set(f.rule, [finding]);
    }
    run.byRule = byRule;
  }
  return run.byRule.get(rule) ?? [];
}

export const HOST_CHECKS = Object.fromEntries(
  HOST_RULE_ROWS.map((row) => [row.id, ((contract, options) => findingsOf(contract, options, row.id)) as LintCheck]),
) as Record<HostRuleId, LintCheck>;
