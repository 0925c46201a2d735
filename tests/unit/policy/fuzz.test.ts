/**
 * Fuzzing the policy-file reader: whatever a hand-edited mcp-contract.config.json holds —
 * wrong types at every field, truncation, random JSON — parsePolicy either accepts it or
 * throws a UsageError (exit 2 with the JSON path); never any other exception.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { UsageError } from "../../../src/errors.ts";
import { parsePolicy } from "../../../src/policy/policy.ts";

const VALID = {
  version: 1,
  rules: { "description-changed": "off", "enum-value-added": { output: "minor" }, "embedded-url": "info" },
  ignore: [
    { rule: "tool-removed", target: "tool:legacy_*", reason: "sunset", expires: "2030-06-30" },
    { fingerprint: "3f2a9c0d1e4b5a67", reason: "accepted" },
  ],
  allowHosts: ["docs.example.com"],
  failOn: "breaking",
};

function outcome(text: string): "ok" | "usage" {
  try {
    parsePolicy(text, "mcp-contract.config.json");
    return "ok";
  } catch (error) {
    if (error instanceof UsageError) return "usage";
    throw error;
  }
}

/** Replace the value at one path of VALID with an arbitrary JSON value. */
const mutated = fc
  .tuple(
    fc.constantFrom(
      ["version"],
      ["rules"],
      ["rules", "description-changed"],
      ["rules", "enum-value-added"],
      ["rules", "enum-value-added", "output"],
      ["ignore"],
      ["ignore", 0],
      ["ignore", 0, "rule"],
      ["ignore", 0, "target"],
      ["ignore", 0, "expires"],
      ["ignore", 1, "fingerprint"],
      ["ignore", 1, "reason"],
      ["allowHosts"],
      ["allowHosts", 0],
      ["failOn"],
    ),
    fc.jsonValue({ maxDepth: 3 }),
  )
  .map(([path, value]) => {
    const copy = structuredClone(VALID) as Record<string | number, unknown>;
    let node: Record<string | number, unknown> = copy;
    for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
    node[path.at(-1) as string | number] = value;
    return JSON.stringify(copy);
  });

describe("policy file fuzzing", () => {
  test("the valid example parses", () => {
    expect(outcome(JSON.stringify(VALID))).toBe("ok");
  });

  test("a wrong value at any field: accepted or a usage error, never a crash", () => {
    fc.assert(
      fc.property(mutated, (text) => {
        outcome(text);
      }),
      { seed: 7, numRuns: 2000 },
    );
  });

  test("truncated and random texts: a usage error, never a crash", () => {
    const full = JSON.stringify(VALID, null, 2);
    for (let cut = 0; cut < full.length; cut += 3) expect(outcome(full.slice(0, cut))).toBe("usage");
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v) ?? "null"),
        ),
        (text) => {
          outcome(text);
        },
      ),
      { seed: 11, numRuns: 2000 },
    );
  });
});
