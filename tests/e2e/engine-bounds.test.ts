/**
 * `mcp-contract diff` on lockfiles built to be slow for a naive engine: server patterns that
 * make a backtracking RegExp run exponentially, an enum of 100,000 values, and an anyOf of
 * 10,000 branches, reordered or with one branch changed. Each run must end with its verdict
 * (exit code) within a generous wall-time bound: the versions before took from 30 s to many
 * minutes on each of these, the bounded engine takes a second or two.
 */
import { describe, expect, test } from "bun:test";
import { limit } from "../helpers/clock.ts";
import { parseReport, type ToolDef, tool, writePair } from "./contract-builders.ts";
import { runCli } from "./e2e-helpers.ts";

/** Far above what a run takes, far below what the unbounded engine took. */
const WALL_MS = limit(10_000);
const TEST_MS = 60_000;

const EVIL = `${"a".repeat(35)}!`;

async function timedDiff(before: string, after: string, extra: string[]) {
  const started = performance.now();
  const result = await runCli(["diff", before, after, "--format", "json", "--fail-on", "breaking", ...extra], {
    timeoutMs: TEST_MS,
  });
  return { ...result, ms: performance.now() - started };
}

function patternTools(patterns: { property: string; string: string }): ToolDef[] {
  const names = Array.from({ length: 100 }, (_, i) => `${EVIL}${i}`);
  return [
    tool("named", {
      inputSchema: {
        type: "object",
        properties: Object.fromEntries(names.map((n) => [n, { type: "string" }])),
        patternProperties: { [patterns.property]: { type: "string" } },
      },
    }),
    tool("strings", {
      inputSchema: {
        type: "object",
        properties: Object.fromEntries(
          Array.from({ length: 10 }, (_, i) => [
            `s${i}`,
            { type: "string", pattern: patterns.string, default: EVIL, examples: [EVIL, "a".repeat(41)] },
          ]),
        ),
        required: ["s0"],
      },
    }),
  ];
}

describe("catastrophic server patterns", () => {
  const before = patternTools({ property: "^(a+)+$", string: "^(a+)+$" });
  const after = patternTools({ property: "^(a+)+$", string: "^(a+)+b$" });
  const named = after[0] as ToolDef;
  named.inputSchema = { ...named.inputSchema, properties: {} };
  const pair = writePair(before, after);

  test.each([[[]], [["--no-witness"]]])(
    "diff %p: every removed name and changed pattern is judged, with witnesses where asked",
    async (extra) => {
      const result = await timedDiff(pair.before, pair.after, extra);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(1);
      const report = parseReport(result.stdout);
      const count = (rule: string) => report.changes.filter((c) => c.rule === rule).length;
      expect(count("property-removed")).toBe(100);
      expect(count("pattern-changed")).toBe(10);
      const witnessed = report.changes.filter((c) => c.witness !== undefined);
      if (extra.length === 0) {
        expect(witnessed.length).toBeGreaterThan(0);
        for (const c of witnessed) {
          const [value] = Object.values(c.witness as Record<string, string>).slice(-1);
          expect(/^(a+)+$/u.test(value as string)).toBe(true);
        }
      } else expect(witnessed).toEqual([]);
      expect(result.ms).toBeLessThan(WALL_MS);
    },
    TEST_MS,
  );
});

describe("an enum of 100,000 values", () => {
  const values = Array.from({ length: 100_000 }, (_, i) => `v${i}`);
  const schema = (list: string[]) => ({
    type: "object",
    properties: { e: { type: "string", enum: list } },
    required: ["e"],
  });
  const pair = writePair(
    [tool("pick", { inputSchema: schema(values) })],
    [tool("pick", { inputSchema: schema(values.filter((v) => v !== "v500")) })],
  );

  test(
    "losing one value is one breaking change, witnessed by that value",
    async () => {
      const result = await timedDiff(pair.before, pair.after, []);
      expect(result.code).toBe(1);
      const report = parseReport(result.stdout);
      expect(report.changes.map((c) => [c.rule, c.witness])).toEqual([["enum-value-removed", { e: "v500" }]]);
      expect(result.ms).toBeLessThan(WALL_MS);
    },
    TEST_MS,
  );
});

describe("an anyOf of 10,000 branches", () => {
  const branches = Array.from({ length: 10_000 }, (_, i) => ({
    type: "object",
    properties: { kind: { const: `k${i}` }, n: { type: "integer", maximum: i } },
    required: ["kind"],
  }));
  const schema = (list: object[]) => ({ type: "object", properties: { x: { anyOf: list } } });
  const reversed = [...branches].reverse();
  const changed = reversed.map((b, i) =>
    i === 100 ? { ...b, properties: { ...b.properties, n: { type: "integer", maximum: -1 } } } : b,
  );

  test(
    "reordered: no change in meaning, only the lockfile's lines explained as one equivalent rewrite",
    async () => {
      const pair = writePair(
        [tool("union", { inputSchema: schema(branches) })],
        [tool("union", { inputSchema: schema(reversed) })],
      );
      const result = await timedDiff(pair.before, pair.after, ["--fail-on", "minor"]);
      expect(result.code).toBe(0);
      const changes = parseReport(result.stdout).changes;
      expect(changes.map((c) => c.rule)).toEqual(["equivalent-rewrite"]);
      expect(result.ms).toBeLessThan(WALL_MS);
    },
    TEST_MS,
  );

  test(
    "reordered with one branch narrowed: that one breaking change",
    async () => {
      const pair = writePair(
        [tool("union", { inputSchema: schema(branches) })],
        [tool("union", { inputSchema: schema(changed) })],
      );
      const result = await timedDiff(pair.before, pair.after, []);
      expect(result.code).toBe(1);
      const report = parseReport(result.stdout);
      expect(report.changes.map((c) => `${c.rule}@${c.path}`)).toEqual([
        "maximum-lowered@/inputSchema/properties/x/anyOf/9899/properties/n/maximum",
      ]);
      expect(result.ms).toBeLessThan(WALL_MS);
    },
    TEST_MS,
  );
});
