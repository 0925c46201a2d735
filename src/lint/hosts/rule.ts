/**
 * The one way to write a host rule: its level follows from what the host does to the user
 * (a rejected list or a dropped tool is an error; a cut text, a rewritten name or a lost
 * argument a warning), and every rule carries its sources and the day they were checked. Pure.
 */
import type { HostImpact, LintLevel } from "../../rules/model.ts";
import { HOSTS_CHECKED, type HostRuleRow } from "./model.ts";

export const IMPACT_TEXT: Record<HostImpact, string> = {
  "list-rejected": "the host rejects the whole tool list: every tool of the server stops working for its users",
  "tool-dropped": "the host drops the tool: its users cannot call it",
  "text-truncated": "the host cuts the text: the model never reads the rest",
  "name-rewritten": "the host rewrites the name: the model sees another name than the one in your docs and prompts",
  "argument-lost": "the host drops part of the schema: the model is never told that constraint",
};

export function levelOf(impact: HostImpact): LintLevel {
  return impact === "list-rejected" || impact === "tool-dropped" ? "error" : "warning";
}

interface HostRuleSpec<Id extends string> {
  id: Id;
  host: string;
  impact: HostImpact;
  summary: string;
  rationale: string;
  example: string;
  sources: readonly string[];
}

export function hostRule<const Id extends string>(spec: HostRuleSpec<Id>): HostRuleRow & { id: Id } {
  return {
    id: spec.id,
    group: "hosts",
    level: levelOf(spec.impact),
    summary: spec.summary,
    rationale: spec.rationale,
    example: spec.example,
    host: spec.host,
    impact: spec.impact,
    sources: spec.sources,
    checked: HOSTS_CHECKED,
  };
}
