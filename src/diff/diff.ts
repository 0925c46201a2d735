/**
 * The surface diff: two Contracts → the Changes between them, each judged by the rule
 * catalog. Deterministic: the same pair of contracts always gives the same Changes in the
 * same order (target kind, target name, path, rule), whatever order keys and items came in.
 * Beside the changes themselves, the drift lens (src/lint/drift-lens.ts) reports security
 * findings that the added and changed texts bring in. Pure; no I/O.
 */
import type { Contract } from "../contract/model.ts";
import { securityDrift } from "../lint/drift-lens.ts";
import { buildChanges, type TouchedItem } from "./change.ts";
import type { Change } from "./model.ts";
import { diffPrompts } from "./prompts.ts";
import { diffResources, diffTemplates } from "./resources.ts";
import { diffServer } from "./server.ts";
import { diffTools } from "./tools.ts";

export function diffContracts(oldC: Contract, newC: Contract): Change[] {
  // The lists say which items they found added or changed, so the lens lints only those.
  const touched: TouchedItem[] = [];
  const specs = [
    ...diffTools(oldC.tools, newC.tools, touched),
    ...diffResources(oldC.resources, newC.resources, touched),
    ...diffTemplates(oldC.resourceTemplates, newC.resourceTemplates, touched),
    ...diffPrompts(oldC.prompts, newC.prompts, touched),
    ...diffServer(oldC, newC),
  ];
  return buildChanges([...specs, ...securityDrift(oldC, newC, touched)]);
}
