/**
 * Lockfiles that parse as JSON but cannot be a contract (a wrong-typed field the engine reads,
 * a number JSON cannot represent, nesting past the documented depth limit), given to `diff`
 * and `lint --from` as a user would: exit 2, one paragraph naming the file and the JSON path,
 * no stack trace. And a lockfile exactly at the depth limit is read and judged like any other.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { MAX_NESTING_DEPTH } from "../../src/contract/validate.ts";
import { lockfile, objectSchema, tool, writeFile } from "./contract-builders.ts";
import { expectCleanFailure, runCli, tempDir } from "./e2e-helpers.ts";

const dir = tempDir("mcp-contract-bad-lockfiles-");
const good = writeFile(dir, "good.json", lockfile({ tools: [tool("search")] }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A lockfile whose `search` tool has these fields instead of the default ones. */
function withSearch(name: string, fields: Record<string, unknown>): string {
  return writeFile(dir, name, lockfile({ tools: [tool("search", fields) as never] }));
}

/**
 * A lockfile exactly `depth` levels deep: $ (1) → tools (2) → tools[0] (3) → inputSchema (4)
 * → properties (5) → city (6) → items (7) → …, an array of arrays of … of `leaf`. Built as
 * text: JSON.stringify itself overflows on very deep values.
 */
function lockfileOfDepth(name: string, depth: number, leaf: string): string {
  const levels = depth - 6;
  const city = `${'{"type":"array","items":'.repeat(levels)}{"type":"${leaf}"}${"}".repeat(levels)}`;
  const text = JSON.stringify(
    lockfile({ tools: [tool("search", { inputSchema: objectSchema({ city: {} }) })] }),
    null,
    2,
  );
  return writeFile(dir, name, text.replace('"city": {}', `"city": ${city}`));
}

const BAD: { name: string; path: string; expected: string }[] = [
  {
    name: "schema-number.json",
    path: withSearch("schema-number.json", { inputSchema: 7 }),
    expected: `at $.tools[0].inputSchema (tool "search"), expected a JSON Schema (an object or a boolean), found a number (7)`,
  },
  {
    name: "schema-array.json",
    path: withSearch("schema-array.json", { outputSchema: [{ type: "object" }] }),
    expected: `at $.tools[0].outputSchema (tool "search"), expected a JSON Schema (an object or a boolean), found an array`,
  },
  {
    name: "annotations.json",
    path: withSearch("annotations.json", { annotations: "readOnly" }),
    expected: `at $.tools[0].annotations (tool "search"), expected an object, found a string ("readOnly")`,
  },
  {
    name: "arguments.json",
    path: writeFile(dir, "arguments.json", lockfile({ prompts: [{ name: "review", arguments: "diff" }] })),
    expected: `at $.prompts[0].arguments (prompt "review"), expected an array of arguments, found a string ("diff")`,
  },
  {
    name: "resource.json",
    path: writeFile(dir, "resource.json", lockfile({ resources: [{ name: "no uri" } as never] })),
    expected: "at $.resources[0].uri, expected a string, found nothing",
  },
  {
    name: "infinite.json",
    path: writeFile(
      dir,
      "infinite.json",
      JSON.stringify(
        lockfile({ tools: [tool("search", { inputSchema: { type: "object", maxProperties: "HERE" } })] }),
      ).replace('"HERE"', "1e999"),
    ),
    expected:
      'at $.tools[0].inputSchema.maxProperties (tool "search"), found a number JSON cannot represent (it reads as Infinity',
  },
  {
    name: "past-limit.json",
    path: lockfileOfDepth("past-limit.json", MAX_NESTING_DEPTH + 1, "string"),
    expected: `(tool "search"), nested deeper than ${MAX_NESTING_DEPTH} levels of objects and arrays`,
  },
  {
    name: "very-deep.json",
    path: lockfileOfDepth("very-deep.json", 100_000, "string"),
    expected: "at $.tools[0].inputSchema.properties.city.items.items.items",
  },
];

describe("bad lockfiles: exit 2 with the file and the JSON path", () => {
  for (const bad of BAD) {
    test.concurrent(`diff and lint --from refuse ${bad.name}`, async () => {
      const runs = await Promise.all([
        runCli(["diff", good, bad.path]),
        runCli(["diff", bad.path, good, "--format", "json"]),
        runCli(["lint", "--from", bad.path]),
      ]);
      for (const result of runs) {
        expectCleanFailure(result, 2);
        expect(result.stderr).toContain(`${bad.path} is not a valid mcp-contract lockfile: `);
        expect(result.stderr).toContain(bad.expected);
        // One line: the message, not a dump of the deep value or of the path.
        expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
        expect(result.stderr.length).toBeLessThan(1_000);
      }
    });
  }
});

describe(`the depth limit (${MAX_NESTING_DEPTH} levels)`, () => {
  test.concurrent("a lockfile exactly at the limit is read, diffed and linted", async () => {
    const before = lockfileOfDepth("limit-old.json", MAX_NESTING_DEPTH, "string");
    const after = lockfileOfDepth("limit-new.json", MAX_NESTING_DEPTH, "integer");
    const [same, changed, lint] = await Promise.all([
      runCli(["diff", before, before]),
      runCli(["diff", before, after, "--format", "json"]),
      runCli(["lint", "--from", after, "--format", "json"]),
    ]);
    expect({ code: same.code, stderr: same.stderr }).toEqual({ code: 0, stderr: "" });
    expect({ code: changed.code, stderr: changed.stderr }).toEqual({ code: 0, stderr: "" });
    const report = JSON.parse(changed.stdout) as { changes: { rule: string; path: string }[] };
    // The engine walked all the way down: the leaf's type changed from string to integer.
    const leaf = `/inputSchema/properties/city${"/items".repeat(MAX_NESTING_DEPTH - 6)}/type`;
    expect(report.changes.map((c) => [c.rule, c.path])).toEqual([
      ["type-narrowed", leaf],
      ["type-widened", leaf],
    ]);
    expect([0, 1]).toContain(lint.code);
    expect(lint.stderr).toBe("");
    JSON.parse(lint.stdout);
  });

  test.concurrent("one level past it is refused, in either position", async () => {
    const atLimit = lockfileOfDepth("limit.json", MAX_NESTING_DEPTH, "string");
    const past = join(dir, "past-limit.json");
    for (const result of await Promise.all([runCli(["diff", atLimit, past]), runCli(["diff", past, atLimit])])) {
      expectCleanFailure(result, 2);
      expect(result.stderr).toContain(`${past} is not a valid mcp-contract lockfile`);
    }
  });
});
