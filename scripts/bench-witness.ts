/**
 * A micro-benchmark of the witness search: 500 findWitness calls on distinct mid-size schemas,
 * cold (compiling every schema), warm (validators cached), and in the direction with no witness.
 * Prints figures; it never fails on a number (it did live in the unit tests, where a printed
 * figure asserts nothing and costs seconds on every run).
 *
 *   bun scripts/bench-witness.ts
 */
import type { JsonObject } from "../src/contract/model.ts";
import { findWitness } from "../src/schema/witness.ts";

// biome-ignore lint/suspicious/noExplicitAny: the mutations below reach into known shapes.
function edit(schema: JsonObject, change: (s: any) => void): JsonObject {
  const copy = JSON.parse(JSON.stringify(schema)) as JsonObject;
  change(copy);
  return copy;
}

function midSizeSchema(i: number): JsonObject {
  const properties: JsonObject = {};
  for (let p = 0; p < 12; p++) {
    properties[`field${i}_${p}`] =
      p % 4 === 0
        ? { type: "string", minLength: 1, maxLength: 100 + i }
        : p % 4 === 1
          ? { type: "integer", minimum: 0, maximum: 1000 + i }
          : p % 4 === 2
            ? { type: "array", items: { type: "string", enum: ["a", "b", `c${i}`] } }
            : { $ref: "#/$defs/Address" };
  }
  properties.mode = { type: "string", enum: ["fast", "slow", `mode${i}`] };
  return {
    type: "object",
    properties,
    required: [`field${i}_0`, `field${i}_3`],
    $defs: {
      Address: {
        type: "object",
        properties: { street: { type: "string" }, zip: { type: "string", pattern: "^[0-9]{5}$" } },
        required: ["zip"],
      },
    },
  };
}

function benchWitness(): void {
  const pairs = Array.from({ length: 500 }, (_, i) => {
    const old = midSizeSchema(i);
    const kind = i % 5;
    const next = edit(old, (s) => {
      if (kind === 0) s.properties.mode.enum.pop();
      else if (kind === 1) s.required.push(`field${i}_1`);
      else if (kind === 2) s.properties[`field${i}_1`].maximum = 10;
      else if (kind === 3) s.additionalProperties = false;
      else s.$defs.Address.properties.zip.pattern = "^[0-9]{5}-[0-9]{4}$";
    });
    const change =
      kind === 0
        ? { rule: "enum-value-removed", path: "/properties/mode/enum", before: `mode${i}` }
        : kind === 1
          ? { rule: "required-added", path: "/required", after: `field${i}_1` }
          : kind === 2
            ? { rule: "maximum-lowered", path: `/properties/field${i}_1/maximum` }
            : kind === 3
              ? { rule: "additional-properties-restricted", path: "/additionalProperties" }
              : { rule: "pattern-changed", path: `/properties/field${i}_3/$ref/properties/zip/pattern` };
    return { old, next, change };
  });
  let found = 0;
  const t0 = performance.now();
  for (const { old, next, change } of pairs) if (findWitness(old, next, change, "input") !== undefined) found++;
  const cold = performance.now() - t0;
  const t1 = performance.now();
  for (const { old, next, change } of pairs) findWitness(old, next, change, "input");
  const warm = performance.now() - t1;
  const t2 = performance.now();
  let none = 0;
  for (const { old, next, change } of pairs) if (findWitness(old, next, change, "output") === undefined) none++;
  const noWitness = performance.now() - t2;
  console.log(
    `witness bench: 500 calls, ${found} witnesses; cold (compiling 1000 schemas) ${cold.toFixed(0)} ms ` +
      `(${(cold / 500).toFixed(2)} ms/call); warm (validators cached) ${warm.toFixed(0)} ms ` +
      `(${(warm / 500).toFixed(2)} ms/call); no-witness direction (${none} undefined) ${noWitness.toFixed(0)} ms ` +
      `(${(noWitness / 500).toFixed(2)} ms/call)`,
  );
  if (found !== 500) throw new Error(`expected 500 witnesses, found ${found}`);
}

benchWitness();
