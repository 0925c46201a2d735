/**
 * The surface diff: two Contracts → the Changes between them, each judged by the rule
 * catalog. Deterministic: the same pair of contracts always gives the same Changes in the
 * same order (target kind, target name, path, rule), whatever order keys and items came in.
 * Pure; no I/O.
 */
import type { Contract } from "../contract/model.ts";
import { buildChanges } from "./change.ts";
import type { Change } from "./model.ts";
import { diffPrompts } from "./prompts.ts";
import { diffResources, diffTemplates } from "./resources.ts";
import { diffServer } from "./server.ts";
import { diffTools } from "./tools.ts";

export function diffContracts(oldC: Contract, newC: Contract): Change[] {
  return buildChanges([
    ...diffTools(oldC.tools, newC.tools),
    ...diffResources(oldC.resources, newC.resources),
    ...diffTemplates(oldC.resourceTemplates, newC.resourceTemplates),
    ...diffPrompts(oldC.prompts, newC.prompts),
    ...diffServer(oldC, newC),
  ]);
}
