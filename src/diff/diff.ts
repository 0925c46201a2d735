/**
 * The surface diff: two Contracts → the Changes between them, each judged by the rule
 * registry. Deterministic: the same pair of contracts always gives the same Changes in the
 * same order (target kind, target name, path, rule), whatever order keys and items came in.
 * Lenses add changes of their own over the items the diff found added or changed (the
 * pipeline passes the security drift lens, src/lint/drift-lens.ts). Pure; no I/O.
 */
import type { Contract } from "../contract/model.ts";
import { buildChanges, type ChangeSpec, type TouchedItem } from "./change.ts";
import { diffContentHashes } from "./content-hashes.ts";
import { alignTools } from "./eras.ts";
import type { Change } from "./model.ts";
import { diffPrompts } from "./prompts.ts";
import { diffResources, diffTemplates } from "./resources.ts";
import { diffServer } from "./server.ts";
import { diffSkills } from "./skills.ts";
import { diffTools } from "./tools.ts";
import { markUnmodelled } from "./unmodelled.ts";

/** More changes from a look at what the diff touched, e.g. texts that turned hostile. */
export type SurfaceLens = (before: Contract, after: Contract, touched: readonly TouchedItem[]) => ChangeSpec[];

export function diffContracts(oldC: Contract, newC: Contract, lenses: readonly SurfaceLens[] = []): Change[] {
  // The lists say which items they found added or changed, so a lens looks at only those.
  const touched: TouchedItem[] = [];
  let specs = [
    ...diffTools(...alignTools(oldC, newC), touched),
    ...diffResources(oldC.resources, newC.resources, touched),
    ...diffTemplates(oldC.resourceTemplates, newC.resourceTemplates, touched),
    ...diffPrompts(oldC.prompts, newC.prompts, touched),
    ...diffSkills(oldC.skills, newC.skills, touched),
    ...diffServer(oldC, newC),
  ].map(markUnmodelled);
  // Equivalent rewrites account for lines of our lockfile; a side converted from a peer tool's
  // file (capture.importedFrom) is spelled by the converter, so there are no such lines to explain.
  if (oldC.capture.importedFrom !== undefined || newC.capture.importedFrom !== undefined) {
    specs = specs.filter((spec) => spec.rule !== "equivalent-rewrite");
  }
  specs.push(...diffContentHashes(oldC, newC, specs));
  return buildChanges([...specs, ...lenses.flatMap((lens) => lens(oldC, newC, touched))]);
}
