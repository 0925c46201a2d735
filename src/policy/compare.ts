/**
 * What `check` and `diff` compare: the surface diff seen through the security drift lens, so
 * a text that turns hostile fails the run beside the plain text change. Composed here, where
 * the pipeline is, so that the diff engine and the lint checks never import each other. Pure.
 */
import type { Contract } from "../contract/model.ts";
import { projectUnknownFields } from "../contract/peers/project.ts";
import { diffContracts } from "../diff/diff.ts";
import type { Change } from "../diff/model.ts";
import { type DriftOptions, securityDrift } from "../lint/drift-lens.ts";
import { hostDrift } from "../lint/hosts/drift.ts";

/**
 * `options.allowHosts`: the policy file's hosts whose links are never drift. `options.hosts`:
 * host profiles (--hosts) whose new rejections are breaking (src/lint/hosts/drift.ts); none by default.
 */
export function compareSurfaces(
  before: Contract,
  after: Contract,
  options: DriftOptions & { hosts?: readonly string[] } = {},
): Change[] {
  // A side converted from a peer tool's file: what its format could not hold is unknown, not absent.
  const [was, now] = projectUnknownFields(before, after);
  const hosts = options.hosts ?? [];
  return diffContracts(was, now, [
    (old, current, touched) => securityDrift(old, current, touched, options),
    ...(hosts.length > 0 ? [(old: Contract, current: Contract) => hostDrift(old, current, hosts)] : []),
  ]);
}
