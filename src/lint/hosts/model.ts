/**
 * Host compatibility profiles: a model API or MCP client that accepts only part of JSON Schema
 * or of MCP's naming rules, with one lint rule (group "hosts") per sourced constraint. A
 * profile's checks look at a tool's name, at each node of its inputSchema (one walk shared by
 * every selected profile), and at the whole list. Pure types; no I/O.
 */
import type { Contract, Json, Tool } from "../../contract/model.ts";
import type { TargetKind } from "../../contract/surface.ts";
import type { HostImpact, LintRuleRow } from "../../rules/model.ts";

/** The day every source of every host rule was last checked. */
export const HOSTS_CHECKED = "2026-12-02";

/** A host rule's row: a lint rule that also names its host, impact, sources and date. */
export interface HostRuleRow extends LintRuleRow {
  group: "hosts";
  host: string;
  impact: HostImpact;
  sources: readonly string[];
  checked: string;
}

/** What a check reports; the rule's level comes from the registry, the target prefix from the checker. */
export interface HostHit {
  rule: string;
  /** JSON Pointer inside the item ("" for the item itself). */
  path: string;
  /** What the host does and the smallest edit that avoids it, without the "tool NAME: " prefix. */
  message: string;
  evidence?: Json;
}

/**
 * Where a node check reports its places. `place(rule)` counts one and says what the checker
 * wants of it: FIRST, the place in full (`first`); NAMED, a name for it (`named`, for the next
 * few places); anything else, nothing. A rule's places in one schema make one finding, so most
 * places are only counted, and their messages never built. Calls rather than callbacks: a
 * check made two closures per place, thousands on a surface whose schemas a host rejects.
 */
export interface NodeHits {
  place(rule: string): number;
  first(rule: string, hit: Omit<HostHit, "rule">): void;
  named(rule: string, where: string): void;
}
export const FIRST = 1;
export const NAMED = 2;

/** A schema node as the shared walk hands it to the profiles. */
/** A node of the one schema walk (src/lint/found.ts): schema, pointer, dotted place, the keyword that led there. */
import type { SchemaNode } from "../found.ts";

export type { SchemaNode };

export interface HostProfile {
  /** The name users give to --hosts and the policy file's "hosts". */
  id: string;
  /** For people: "Gemini API, `parameters` (OpenAPI subset)". */
  title: string;
  rules: readonly HostRuleRow[];
  /** Walk into $defs/definitions (false when the profile rejects them outright: one finding is enough). */
  walkDefs?: boolean;
  /** One tool's name and texts. */
  tool?(tool: Tool, hit: (h: HostHit) => void): void;
  /** One node of a tool's inputSchema (depth first, the root first; see `wakes`), its places told to `hits`. */
  node?(node: SchemaNode, hits: NodeHits): void;
  /**
   * Where `node` can hit, so that it is called only there (src/lint/hosts/wakes.ts); absent, at
   * every node. A node wakes the check when it holds one of `keys`, or a key outside `within`,
   * or a `type` that is one of `types`, or a `type` list (`typeList`). A check that could hit at
   * a node these do not name would miss it: tests/unit/lint/hosts/wakes.test.ts holds each
   * profile's check silent at every node that does not wake it.
   */
  wakes?: { keys?: readonly string[]; within?: ReadonlySet<string>; types?: readonly string[]; typeList?: boolean };
  /** The whole surface: list-level limits (tool counts, instructions). Hits target `kind`/`name`. */
  list?(contract: Contract, hit: (h: HostHit & { kind: TargetKind; name: string }) => void): void;
}
