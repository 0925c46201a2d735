/**
 * What the diff engine produces: a Change is data, not a string. Formatters only render it.
 * Pure types; no I/O.
 */
import type { Json } from "../contract/model.ts";
import type { TargetKind } from "../contract/surface.ts";

export type { TargetKind } from "../contract/surface.ts";

import { SEVERITIES, type Severity } from "../rules/model.ts";
import { type DiffRuleId, diffRule } from "../rules/registry.ts";

/**
 * input: what callers send (tool arguments, prompt arguments) — contravariant.
 * output: what callers receive (structured tool results, resources) — covariant.
 */
export type Direction = "input" | "output";

export interface ChangeTarget {
  kind: TargetKind;
  /** Tool/prompt name, resource uri, template uriTemplate; "" for the server itself. */
  name: string;
}

export interface Change {
  /** Rule id from the registry (src/rules/diff/). */
  rule: DiffRuleId;
  severity: Severity;
  target: ChangeTarget;
  /** Which way values flow through the changed part, where that decides the verdict. */
  direction?: Direction;
  /** JSON Pointer inside the item (e.g. /inputSchema/properties/units/enum), "" for the item itself. */
  path: string;
  before?: Json;
  after?: Json;
  /** One line saying what changed, for people. */
  message: string;
  /** Why the verdict is what it is, when that is not obvious (e.g. undecidable statically). */
  note?: string;
  /** A likely rename, for a removed item that resembles an added one (a hint only). */
  renamedTo?: string;
  /** A concrete value that shows the break: accepted before and rejected now (input), or the reverse (output). */
  witness?: Json;
  /**
   * Every lockfile field (a JSON Pointer inside the item) this one finding accounts for, when
   * that is more than `path`: two hints flipped together, a property declared and required, the
   * lines of an equivalent rewrite. Lets a consumer map each changed field to its finding.
   */
  explains?: string[];
  /** Stable across runs and commits: same rule, target, direction and path give the same fingerprint. */
  fingerprint: string;
}

export type SemverBump = "major" | "minor" | "patch" | "none";

/**
 * The version bump the changes require. Security drift (security-finding-introduced) does not
 * count: it fails the run as breaking, but a new major version would not make a poisoned
 * description safe; the text change beside it carries the bump it needs. Nor does an
 * equivalent rewrite: clients see nothing new, so it needs no release.
 */
export function bumpFor(changes: readonly Change[]): SemverBump {
  const counted = changes.filter((c) => diffRule(c.rule).group !== "security" && c.rule !== "equivalent-rewrite");
  if (counted.some((c) => c.severity === "breaking")) return "major";
  if (counted.some((c) => c.severity === "minor")) return "minor";
  if (counted.some((c) => c.severity === "patch")) return "patch";
  return "none";
}

export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}
