/**
 * The host × outcome summary a lint report ends with: per selected profile, how many tools it
 * rejects or drops, how many it rewrites or cuts, and whether the whole tool list fails.
 * Findings the policy file ignores do not count. Pure.
 */
import type { Json } from "../../contract/model.ts";
import type { HostImpact } from "../../rules/model.ts";
import { hostProfile } from "./profiles.ts";

export interface HostOutcome {
  host: string;
  /** Tools whose schema or name the host rejects, failing the whole request. */
  toolsRejected: number;
  /** Tools the host drops (the others still work), over a tool cap included. */
  toolsDropped: number;
  /** Tools (or the instructions) the host rewrites or cuts. */
  toolsAltered: number;
  /** The host rejects the whole tool list: every tool of the server stops working. */
  listRejected: boolean;
  /** One line: "gemini-parameters: 3 tools rejected, whole list fails". */
  line: string;
}

interface Finding {
  rule: string;
  level: string;
  target: { kind: string; name: string };
  evidence?: Json;
  exempt?: unknown;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** How many tools a cap finding (evidence {tools, max}, src/lint/hosts/openai.ts checkCount) leaves out. */
function overCapOf(evidence: Json | undefined): number {
  if (evidence === null || typeof evidence !== "object" || Array.isArray(evidence)) return 0;
  const { tools, max } = evidence;
  return typeof tools === "number" && typeof max === "number" ? Math.max(0, tools - max) : 0;
}

/** One host's tally as the findings are read. */
interface Tally {
  host: string;
  rejected: Set<string>;
  dropped: Set<string>;
  altered: Set<string>;
  overCap: number;
  listRejected: boolean;
  instructionsCut: boolean;
}

export function hostOutcomes(findings: readonly Finding[], hosts: readonly string[]): HostOutcome[] {
  // Each host rule belongs to one profile: one pass over the findings tallies every host.
  const tallies: Tally[] = [];
  const ruleOf = new Map<string, { tally: Tally; impact: HostImpact }>();
  for (const host of hosts) {
    const profile = hostProfile(host);
    if (!profile || tallies.some((t) => t.host === host)) continue;
    const tally: Tally = {
      host,
      rejected: new Set(),
      dropped: new Set(),
      altered: new Set(),
      overCap: 0,
      listRejected: false,
      instructionsCut: false,
    };
    tallies.push(tally);
    for (const r of profile.rules) ruleOf.set(r.id, { tally, impact: r.impact });
  }
  for (const f of findings) {
    const rule = ruleOf.get(f.rule);
    if (rule === undefined || f.exempt !== undefined || f.level === "info") continue;
    const { tally, impact } = rule;
    const onTool = f.target.kind === "tool";
    if (impact === "list-rejected" && f.level === "error") {
      tally.listRejected = true;
      if (onTool) tally.rejected.add(f.target.name);
    } else if (impact === "tool-dropped" && f.level === "error") {
      if (onTool) tally.dropped.add(f.target.name);
      else tally.overCap = Math.max(tally.overCap, overCapOf(f.evidence));
    } else if (onTool) tally.altered.add(f.target.name);
    else tally.instructionsCut = true;
  }
  return tallies.map(outcomeOf);
}

function outcomeOf({ host, rejected, dropped, altered, overCap, listRejected, instructionsCut }: Tally): HostOutcome {
  // A tool cap drops the tools past it; a tool dropped for its name may be one of them.
  const toolsDropped = Math.max(dropped.size, overCap);
  const parts = [
    ...(rejected.size ? [`${plural(rejected.size, "tool")} rejected`] : []),
    ...(toolsDropped ? [`${plural(toolsDropped, "tool")} dropped`] : []),
    ...(altered.size ? [`${plural(altered.size, "tool")} rewritten or cut`] : []),
    ...(instructionsCut ? ["instructions cut"] : []),
    ...(listRejected ? ["whole list fails"] : []),
  ];
  return {
    host,
    toolsRejected: rejected.size,
    toolsDropped,
    toolsAltered: altered.size,
    listRejected,
    line: `${host}: ${parts.length ? parts.join(", ") : "accepted"}`,
  };
}
