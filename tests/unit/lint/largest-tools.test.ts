/**
 * tool-list-too-large names the largest tools: largestTools (src/lint/rules-quality.ts) picks
 * them without sorting every tool, and must pick what a stable sort by tokens begins with.
 */
import { describe, expect, test } from "bun:test";
import type { Tool } from "../../../src/contract/model.ts";
import { largestTools } from "../../../src/lint/rules-quality.ts";
import { prng } from "../../../src/util/random.ts";

describe("largestTools", () => {
  test("the first of a stable sort by tokens, on seeded lists with many ties", () => {
    const random = prng(33);
    for (let round = 0; round < 500; round++) {
      const n = Math.floor(random() * 40);
      const tools: Tool[] = Array.from({ length: n }, (_, i) => ({ name: `t${i}`, inputSchema: { type: "object" } }));
      // Few distinct lengths (and lengths that round to the same tokens), so that ties are common.
      const lengths = tools.map(() => Math.floor(random() * (round % 2 === 0 ? 12 : 400)));
      const count = 1 + Math.floor(random() * 5);
      const sorted = tools
        .map((tool, i) => ({ name: String(tool.name), tokens: Math.ceil(lengths[i]! / 4) }))
        .sort((a, b) => b.tokens - a.tokens)
        .slice(0, count);
      expect(largestTools(tools, lengths, count)).toEqual(sorted);
    }
  });
});
