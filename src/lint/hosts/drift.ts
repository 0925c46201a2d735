/**
 * Host drift for `check --hosts` and `diff --hosts`: the host checker run on both surfaces,
 * and its rejections compared. A rejection the new surface brings in (a tool or list a listed
 * host accepted before and rejects now) is host-incompatibility-added, breaking for that host's
 * users; one that goes away is host-incompatibility-removed. Only rejections count (a rejected
 * list or a dropped tool), not cut texts or rewritten names, and only where the host's users
 * gain or lose something: a list the host rejected already loses nothing more by another
 * rejected construct (lint --hosts lists them all), and one it still rejects gains nothing by
 * losing one; a new tool a host drops breaks no one who used the old surface (a new tool that
 * fails the whole list does). Pure.
 */
import type { Contract } from "../../contract/model.ts";
import type { ChangeSpec } from "../../diff/change.ts";
import { checkHosts, type HostFinding } from "./check.ts";
import type { HostRuleRow } from "./model.ts";
import { HOST_PROFILES } from "./profiles.ts";

const ROWS = new Map<string, HostRuleRow>(HOST_PROFILES.flatMap((p) => p.rules.map((r) => [r.id, r] as const)));

/** A host rejects a tool (or the list) once per rule, wherever in its schema the cause is. */
function keyOf(f: HostFinding): string {
  return [f.rule, f.target.kind, f.target.name].join("|");
}

/** The rejections of the listed hosts on a surface, by key (first of each key). */
function rejections(contract: Contract, hosts: readonly string[]): Map<string, HostFinding> {
  const out = new Map<string, HostFinding>();
  for (const f of checkHosts(contract, hosts)) {
    const row = ROWS.get(f.rule);
    if (row?.level !== "error") continue;
    const key = keyOf(f);
    if (!out.has(key)) out.set(key, f);
  }
  return out;
}

function toolNames(contract: Contract): Set<string> {
  return new Set(contract.tools.map((t) => (typeof t.name === "string" ? t.name : "")));
}

function spec(f: HostFinding, added: boolean): ChangeSpec {
  const row = ROWS.get(f.rule) as HostRuleRow;
  const what = row.impact === "tool-dropped" ? "drops the tool" : "rejects the whole tool list";
  return {
    rule: added ? "host-incompatibility-added" : "host-incompatibility-removed",
    kind: f.target.kind,
    name: f.target.name,
    path: f.path,
    message: added
      ? `${row.host} now ${what} (${f.rule}): ${f.detail}`
      : `${row.host} no longer ${what} for this (${f.rule} is gone)`,
    ...(added ? f.evidence !== undefined && { after: f.evidence } : f.evidence !== undefined && { before: f.evidence }),
    note: `source: ${row.sources[0]} (checked ${row.checked}); \`mcp-contract rules ${f.rule}\` lists every source`,
    discriminator: f.rule,
  };
}

/** The hosts that reject the whole list of a surface, from its rejections. */
function listRejecters(found: Map<string, HostFinding>): Set<string> {
  const hosts = new Set<string>();
  for (const f of found.values()) {
    const row = ROWS.get(f.rule);
    if (row?.impact === "list-rejected") hosts.add(row.host);
  }
  return hosts;
}

export function hostDrift(before: Contract, after: Contract, hosts: readonly string[]): ChangeSpec[] {
  if (hosts.length === 0) return [];
  const was = rejections(before, hosts);
  const now = rejections(after, hosts);
  const rejectedBefore = listRejecters(was);
  const rejectedAfter = listRejecters(now);
  const oldTools = toolNames(before);
  const newTools = toolNames(after);
  const out: ChangeSpec[] = [];
  // What users of a host had decides: a list the host already rejected loses nothing more by
  // another rejected construct, and one it still rejects gains nothing by losing one.
  for (const [key, f] of now) {
    if (was.has(key)) continue;
    const row = ROWS.get(f.rule) as HostRuleRow;
    if (row.impact === "list-rejected" && rejectedBefore.has(row.host)) continue;
    // A tool that did not exist and is dropped: nobody loses anything they had.
    if (row.impact === "tool-dropped" && f.target.kind === "tool" && !oldTools.has(f.target.name)) continue;
    out.push(spec(f, true));
  }
  for (const [key, f] of was) {
    if (now.has(key)) continue;
    const row = ROWS.get(f.rule) as HostRuleRow;
    if (row.impact === "list-rejected" && rejectedAfter.has(row.host)) continue;
    if (row.impact === "tool-dropped" && f.target.kind === "tool" && !newTools.has(f.target.name)) continue;
    out.push(spec(f, false));
  }
  return out;
}
