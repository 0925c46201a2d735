/**
 * Attach witnesses to breaking schema changes: concrete values that show the break, each
 * checked against both schemas before it is attached (see src/schema/witness.ts). The
 * witness module (and ajv with it) is loaded only when there is something to witness, so
 * a clean diff starts as fast as ever.
 */
import type { Contract, Json, JsonObject } from "../contract/model.ts";
import { withRegexSession } from "../schema/regex.ts";
import { firstById } from "./change.ts";
import type { Change } from "./model.ts";

/** Witnesses are computed for at most this many changes per report, in report order: deterministic. */
export const MAX_WITNESSES = 50;
/**
 * Subschemas of all the schemas a report compiles for witnesses, together: compiling costs
 * time in their size, so past this the remaining changes go without a witness (counted, not
 * timed, so the result stays deterministic).
 */
export const MAX_WITNESS_SCHEMA_NODES = 20_000;

const SCHEMA_FIELDS = ["inputSchema", "outputSchema"] as const;

function schemaField(change: Change): (typeof SCHEMA_FIELDS)[number] | undefined {
  return SCHEMA_FIELDS.find((field) => change.path === `/${field}` || change.path.startsWith(`/${field}/`));
}

export async function attachWitnesses<T extends Change & { exempt?: unknown }>(
  changes: T[],
  oldContract: Contract,
  newContract: Contract,
): Promise<T[]> {
  // Exempt changes (out of scope, ignored) do not spend the budget.
  const wanted = changes.filter(
    (c) =>
      c.severity === "breaking" &&
      c.exempt === undefined &&
      c.direction !== undefined &&
      c.target.kind === "tool" &&
      schemaField(c) !== undefined,
  );
  if (wanted.length === 0) return changes;
  const { findWitness, MAX_WITNESS_NODES, releaseValidators, schemaSize } = await import("../schema/witness.ts");
  const oldTools = firstById(oldContract.tools, "name");
  const newTools = firstById(newContract.tools, "name");
  const chosen = new Set(wanted.slice(0, MAX_WITNESSES));
  let currentTool: string | undefined;
  const counted = new Set<Json>();
  let nodes = 0;
  // All searches of one report share one regex budget: hostile patterns cannot multiply it.
  return withRegexSession(() =>
    changes.map((change) => {
      if (!chosen.has(change)) return change;
      // Changes come grouped by tool: compiled validators are reused within a tool, then freed.
      if (change.target.name !== currentTool) {
        releaseValidators();
        currentTool = change.target.name;
      }
      const field = schemaField(change) as (typeof SCHEMA_FIELDS)[number];
      const oldSchema = (oldTools.get(change.target.name) as JsonObject | undefined)?.[field] as Json | undefined;
      const newSchema = (newTools.get(change.target.name) as JsonObject | undefined)?.[field] as Json | undefined;
      if (oldSchema === undefined || newSchema === undefined) return change;
      // A schema too large to witness at all (findWitness says so) compiles nothing.
      if (schemaSize(oldSchema) > MAX_WITNESS_NODES || schemaSize(newSchema) > MAX_WITNESS_NODES) return change;
      for (const root of [oldSchema, newSchema]) {
        if (counted.has(root)) continue;
        counted.add(root);
        nodes += schemaSize(root);
      }
      if (nodes > MAX_WITNESS_SCHEMA_NODES) return change;
      const witness = findWitness(
        oldSchema,
        newSchema,
        { rule: change.rule, path: change.path.slice(field.length + 1), before: change.before, after: change.after },
        change.direction as "input" | "output",
      );
      return witness === undefined ? change : { ...change, witness };
    }),
  );
}
