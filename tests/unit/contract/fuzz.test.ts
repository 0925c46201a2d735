/**
 * Fuzzing the lockfile reader: whatever text it is given (a valid lockfile with a wrong type
 * at any field, a key removed, deep nesting or an out-of-range number spliced in anywhere,
 * truncation, arbitrary JSON, arbitrary text), parseContract either returns a contract or
 * throws a UsageError (exit 2). Never another exception: anything else would reach the user
 * as exit 70. Seeded, and bounded to a few seconds.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { canonicalContract, serializeContract } from "../../../src/contract/canonical.ts";
import type { Contract } from "../../../src/contract/model.ts";
import { parseContract } from "../../../src/contract/read.ts";
import { MAX_NESTING_DEPTH } from "../../../src/contract/validate.ts";
import { UsageError } from "../../../src/errors.ts";

const SEED = 9;
const RUNS = 500;

/** A lockfile with every kind of item and every field the reader checks. */
const BASE = {
  lockfileVersion: 1,
  server: { name: "fuzz", version: "1.0.0", icons: [{ src: "https://x.test/i.png" }] },
  protocolVersion: "2025-11-25",
  capabilities: { tools: { listChanged: true }, resources: { subscribe: true }, prompts: {} },
  instructions: "Use search first.",
  capture: { clientCapabilities: ["roots"] },
  tools: [
    {
      name: "search",
      title: "Search",
      description: "Search the index.",
      annotations: { readOnlyHint: true, openWorldHint: false },
      execution: { taskSupport: "optional" },
      inputSchema: {
        type: "object",
        properties: {
          q: { type: "string", minLength: 1, pattern: "^[a-z]+$" },
          limit: { type: "integer", minimum: 1, maximum: 100, default: 10 },
          filter: { anyOf: [{ type: "null" }, { $ref: "#/$defs/filter" }] },
        },
        required: ["q"],
        $defs: { filter: { type: "object", additionalProperties: false, properties: { tag: { enum: ["a", "b"] } } } },
      },
      outputSchema: { type: "object", properties: { hits: { type: "array", items: { type: "string" } } } },
    },
    { name: "ping", inputSchema: true },
  ],
  resources: [{ uri: "fuzz://r/1", name: "one", mimeType: "text/plain", annotations: { audience: ["user"] } }],
  resourceTemplates: [{ uriTemplate: "fuzz://t/{id}", name: "t", annotations: { priority: 0.5 } }],
  prompts: [
    { name: "review", description: "Review a diff", arguments: [{ name: "diff", required: true }, { name: "style" }] },
  ],
};

type Segment = string | number;

/** Every path in BASE: the places a mutation can hit. */
function allPaths(value: unknown, prefix: Segment[] = []): Segment[][] {
  const out: Segment[][] = [prefix];
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) out.push(...allPaths(v, [...prefix, i]));
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) out.push(...allPaths(v, [...prefix, k]));
  }
  return out;
}
const PATHS = allPaths(BASE);

const MARK = "\u0000SPLICE";

/** BASE as JSON text with `replacement` (raw JSON text) at `path`, or the key there removed. */
function spliced(path: Segment[], replacement: string | undefined): string {
  const copy = structuredClone(BASE) as Record<Segment, unknown>;
  if (path.length === 0) return replacement ?? "";
  let parent = copy;
  for (const segment of path.slice(0, -1)) parent = parent[segment] as Record<Segment, unknown>;
  const last = path.at(-1) as Segment;
  if (replacement === undefined) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
    return JSON.stringify(copy);
  }
  parent[last] = MARK;
  return JSON.stringify(copy).replace(JSON.stringify(MARK), replacement);
}

/** Deep nesting as text (JSON.stringify itself would overflow on the deepest ones). */
const deepText = fc
  .tuple(
    fc.oneof(
      fc.integer({ min: 1, max: 40 }),
      fc.integer({ min: MAX_NESTING_DEPTH - 8, max: MAX_NESTING_DEPTH + 8 }),
      fc.integer({ min: 1_000, max: 20_000 }),
    ),
    fc.constantFrom('{"a":', '{"anyOf":[', "[", '{"properties":{"x":'),
    fc.constantFrom("{}", "1", '"x"', "1e999", "null"),
  )
  .map(([levels, open, leaf]) => {
    const close = open === "[" ? "]" : open.endsWith("[") ? "]}" : open.endsWith('"x":') ? "}}" : "}";
    return open.repeat(levels) + leaf + close.repeat(levels);
  });

const weirdNumber = fc.constantFrom("1e999", "-1e999", "1e-999", "-0", "9007199254740993", "1.7976931348623157e308");

/** Replacement values: any JSON, the wrong type for every field, deep nesting, odd numbers. */
const replacement = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom("7", '"x"', "[]", "{}", "null", "true", "false", '[{"name":1}]', '{"type":7}'),
  },
  { weight: 2, arbitrary: deepText },
  { weight: 1, arbitrary: weirdNumber },
);

/** parseContract's verdict on `text`: the contract, or the UsageError; any other throw fails the test. */
function read(text: string): Contract | UsageError {
  try {
    return parseContract(text, "fuzz.contract.json");
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw new Error(`parseContract threw ${String(error)} instead of a UsageError, for ${text.slice(0, 300)}`);
  }
}

/**
 * An accepted contract is written, read back and written again byte for byte (JSON has one
 * zero, so -0 is written as 0 like any JSON serializer does; that is not a change of value).
 */
function expectRoundTrip(contract: Contract): void {
  const text = serializeContract(contract);
  const again = read(text);
  if (again instanceof UsageError) throw new Error(`a serialized contract was refused: ${again.message}`);
  expect(serializeContract(again)).toBe(text);
  expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(canonicalContract(contract))));
}

function check(text: string): void {
  const result = read(text);
  if (result instanceof UsageError) {
    expect(result.exitCode).toBe(2);
    expect(result.message).not.toContain("\n");
    expect(result.message.length).toBeLessThan(1_000);
  } else {
    expectRoundTrip(result);
  }
}

const options = { seed: SEED, numRuns: RUNS };

describe("parseContract under fuzzing: a contract or exit 2, never another exception", () => {
  test("the valid base lockfile parses", () => {
    expect(read(JSON.stringify(BASE))).not.toBeInstanceOf(UsageError);
  });

  test("any field replaced by any value (wrong types, deep nesting, out-of-range numbers)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...PATHS), replacement, (path, value) => check(spliced(path, value))),
      options,
    );
  });

  test("any field removed", () => {
    for (const path of PATHS) check(spliced(path, undefined));
  });

  test("truncated at any point, pretty or compact", () => {
    const deep = spliced(["tools", 0, "inputSchema", "properties", "q"], `${"[".repeat(20_000)}1${"]".repeat(20_000)}`);
    const texts = [serializeContract(BASE as unknown as Contract), JSON.stringify(BASE), deep];
    fc.assert(
      fc.property(fc.constantFrom(...texts), fc.double({ min: 0, max: 1, noNaN: true }), (text, at) => {
        const cut = text.slice(0, Math.floor(text.length * at));
        const result = read(cut);
        // Only the whole text (give or take trailing whitespace) is still a lockfile.
        if (cut.trim().length < text.trim().length) expect(result).toBeInstanceOf(UsageError);
      }),
      options,
    );
  });

  test("arbitrary JSON documents and arbitrary text", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.json({ maxDepth: 4 }),
          fc.string({ maxLength: 200 }),
          fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ ...BASE, tools: v })),
          fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ ...BASE, prompts: [{ name: "p", arguments: v }] })),
          fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ ...BASE, tools: [{ name: "t", inputSchema: v }] })),
        ),
        (text) => check(text),
      ),
      options,
    );
  });

  test("random edits of the text: characters inserted, deleted or replaced", () => {
    const text = JSON.stringify(BASE);
    const chars = fc.constantFrom("{", "}", "[", "]", ",", ":", '"', "\\", "1", "e", "-", " ", "\n", "x", "\u0000");
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: text.length }), fc.nat({ max: 3 }), fc.string({ unit: chars, maxLength: 3 })), {
          minLength: 1,
          maxLength: 4,
        }),
        (edits) => {
          let edited = text;
          for (const [at, remove, insert] of edits) edited = edited.slice(0, at) + insert + edited.slice(at + remove);
          check(edited);
        },
      ),
      options,
    );
  });
});

describe("what the reader accepts, the engine handles", () => {
  test("diff (both ways, against the base) and lint never throw on an accepted mutation", async () => {
    // Imported here, so that the reader's properties above do not depend on the engine's modules.
    const { diffContracts } = await import("../../../src/diff/diff.ts");
    const { lintContract } = await import("../../../src/lint/lint.ts");
    const base = parseContract(JSON.stringify(BASE), "base");
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constantFrom(7, "x", [], {}, null, true, false, "#/$defs/%zz", { $ref: "#/$defs/nowhere" }),
    );
    let accepted = 0;
    fc.assert(
      fc.property(fc.constantFrom(...PATHS.filter((p) => p.length > 0)), value, (path, replacement) => {
        const result = read(spliced(path, JSON.stringify(replacement)));
        if (result instanceof UsageError) return;
        accepted++;
        diffContracts(base, result);
        diffContracts(result, base);
        lintContract(result);
      }),
      { seed: SEED, numRuns: 300 },
    );
    // The property says something: most mutations are valid lockfiles.
    expect(accepted).toBeGreaterThan(100);
  });
});
