/**
 * Whether the mock can answer a tool with a result its outputSchema accepts. The official SDK
 * clients validate `structuredContent` against the outputSchema, so a generated value the
 * schema refuses fails the consumer's test in a confusing place; the mock says instead, once
 * per tool, why it cannot answer, and answers calls to that tool with a tool error.
 */
import type { Json } from "../contract/model.ts";
import { type Generated, generateValid } from "./generate.ts";
import { contradictionOf } from "./unsatisfiable.ts";
import { describeProblem } from "./validate.ts";

/** Draws the verdict tries before it declares a tool unanswerable (a call tries fewer, then falls back). */
const VERDICT_ATTEMPTS = 8;

/** A value to fall back on when a call's own draws all fail, or why no value can be given. */
export type OutputVerdict = { value: Json } | { why: string };

export function judgeOutput(schema: Json, seed: number): OutputVerdict {
  const contradiction = contradictionOf(schema);
  if (contradiction) return { why: `its outputSchema is unsatisfiable: ${contradiction}` };
  let outcome: Generated;
  try {
    outcome = generateValid(schema, seed, VERDICT_ATTEMPTS);
  } catch (error) {
    // A schema that defeats the generator itself (a $ref cycle it cannot bound, say): no answer either.
    return { why: `the mock failed generating a value for its outputSchema: ${(error as Error).message}` };
  }
  if ("value" in outcome) return outcome;
  const first = outcome.problem ? `; the first fails with ${describeProblem(outcome.problem)}` : "";
  return { why: `none of ${VERDICT_ATTEMPTS} values the mock generated satisfies its outputSchema${first}` };
}
