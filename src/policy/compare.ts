/**
 * What `check` and `diff` compare: the surface diff seen through the security drift lens, so
 * a text that turns hostile fails the run beside the plain text change. Composed here, where
 * the pipeline is, so that the diff engine and the lint checks never import each other. Pure.
 */
import type { Contract } from "../contract/model.ts";
import { diffContracts } from "../diff/diff.ts";
import type { Change } from "../diff/model.ts";
import { securityDrift } from "../lint/drift-lens.ts";

export function compareSurfaces(before: Contract, after: Contract): Change[] {
  return diffContracts(before, after, [securityDrift]);
}
