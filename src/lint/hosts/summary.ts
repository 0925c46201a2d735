/**
 * The host × outcome summary a lint report ends with: per selected profile, how many tools it
 * rejects or drops, how many it rewrites or cuts, and whether the whole tool list fails.
 * Findings the policy file ignores do not count. Pure.
 */
import type { Json } from "../../contract/model.ts";
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

export function hostOutcomes(findings: readonly Finding[], hosts: readonly string[]): HostOutcome[] {
  return hosts.flatMap((host) => {
    const profile = hostProfile(host);
    if (!profile) return [];
    const impacts = new Map(profile.rules.map((r) => [r.id as string, r.impact]));
    const rejected = new Set<string>();
    const dropped = new Set<string>();
    const altered = new Set<string>();
    let overCap = 0;
    let listRejected = false;
    let instructionsCut = false;
    for (const f of findings) {
      const impact = impacts.get(f.rule);
      if (impact === undefined || f.exempt !== undefined || f.level === "info") continue;
      const onTool = f.target.kind === "tool";
      if (impact === "list-rejected" && f.level === "error") {
        listRejected = true;
        if (onTool) rejected.add(f.target.name);
      } else if (impact === "tool-dropped" && f.level === "error") {
        if (onTool) dropped.add(f.target.name);
        else overCap = Math.max(overCap, overCapOf(f.evidence));
      } else if (onTool) altered.add(f.target.name);
      else instructionsCut = true;
    }
    // A tool cap drops the tools past it; a tool dropped for its name may be one of them.
    const toolsDropped = Math.max(dropped.size, overCap);
    const parts = [
      ...(rejected.size ? [`${plural(rejected.size, "tool")} rejected`] : []),
      ...(toolsDropped ? [`${plural(toolsDropped, "tool")} dropped`] : []),
      ...(altered.size ? [`${plural(altered.size, "tool")} rewritten or cut`] : []),
      ...(instructionsCut ? ["instructions cut"] : []),
      ...(listRejected ? ["whole list fails"] : []),
    ];
    return [
      {
        host,
        toolsRejected: rejected.size,
        toolsDropped,
        toolsAltered: altered.size,
        listRejected,
        line: `${host}: ${parts.length ? parts.join(", ") : "accepted"}`,
      },
    ];
  });
}
