/**
 * Real published version pairs (tests/fixtures/published-pairs/pairs.json): ten third-party
 * servers with rich schemas (zod's closed objects and integer bounds, $ref'd and discriminated
 * unions, nested objects, output schemas), each diffed as `mcp-contract diff` does, witnesses
 * included, and held to a golden text report (tests/fixtures/golden/published/). A change to the
 * engine that moves a verdict on a real server shows here as a diff a reviewer reads line by
 * line; UPDATE_GOLDEN=1 rewrites them once the new verdicts are judged right.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Contract } from "../../src/contract/model.ts";
import { attachWitnesses } from "../../src/diff/witnesses.ts";
import { compareSurfaces } from "../../src/policy/compare.ts";
import { finishVerdict } from "../../src/policy/verdict.ts";
import { buildReport, sideOf } from "../../src/report/model.ts";
import { renderText } from "../../src/report/text.ts";
import { expectGolden } from "../helpers/golden.ts";

const ROOT = join(import.meta.dir, "../..");
const DIR = join(ROOT, "tests/fixtures/published-pairs");
const { pairs } = JSON.parse(readFileSync(join(DIR, "pairs.json"), "utf8")) as { pairs: [string, string, string][] };

const read = (name: string, version: string) =>
  JSON.parse(readFileSync(join(DIR, `${name}-${version}.contract.json`), "utf8")) as Contract;

describe("published version pairs: golden reports", () => {
  test("ten servers", () => {
    expect(pairs.length).toBeGreaterThanOrEqual(8);
  });
  for (const [name, from, to] of pairs) {
    test(`${name} ${from} → ${to}`, async () => {
      const before = read(name, from);
      const after = read(name, to);
      const changes = await attachWitnesses(compareSurfaces(before, after), before, after);
      const report = buildReport(
        "diff",
        sideOf(before, `${name}-${from}`),
        sideOf(after, `${name}-${to}`),
        changes,
        "breaking",
        [],
      );
      const text = renderText(finishVerdict(report, {}).report, { color: false });
      expectGolden(`published/${name}-${from}_to_${to}.txt`, text);
    }, 60_000);
  }
});
