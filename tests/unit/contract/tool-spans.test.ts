/**
 * Reading tools one by one (src/contract/tool-spans.ts) must give exactly what JSON.parse
 * gives, for any text, and sharing a tool between two lockfiles must never hide a change or a
 * problem. These tests hold it to that on real, synthetic and deliberately misleading files.
 */

import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { syntheticPair } from "../../../scripts/synthetic.ts";
import { serializeContract } from "../../../src/contract/canonical.ts";
import type { Contract } from "../../../src/contract/model.ts";
import { parseContract } from "../../../src/contract/read.ts";
import { ReadSession } from "../../../src/contract/read-session.ts";
import { parseByTools } from "../../../src/contract/tool-spans.ts";
import { diffContracts } from "../../../src/diff/diff.ts";
import { within } from "../../helpers/clock.ts";

/** One session for the file's reads, as one command has: each read shares what the one before held. */
const session = new ReadSession();

const ROOT = join(import.meta.dir, "../../..");

function lockfiles(): string[] {
  const published = readdirSync(join(ROOT, "tests/fixtures/published")).map((n) => `tests/fixtures/published/${n}`);
  const benign = readdirSync(join(ROOT, "tests/fixtures/benign"))
    .filter((n) => n.endsWith(".contract.json"))
    .map((n) => `tests/fixtures/benign/${n}`);
  return [...published, ...benign].map((file) => readFileSync(join(ROOT, file), "utf8"));
}

/** An error message, or the parsed contract as JSON: what a reader of the text observes. */
function outcome(text: string): string {
  try {
    return JSON.stringify(parseContract(text, "x.json", { session }));
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

/** A text JSON.parse refuses is refused; one it reads is read the same, or left to it (undefined). */
function expectAgreesWithParse(text: string): void {
  const read = parseByTools(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    expect(read).toBeUndefined();
    return;
  }
  if (read) expect(read.data).toEqual(parsed as never);
}

describe("tools read one by one", () => {
  test("give JSON.parse's value for every lockfile we write, and take that path", () => {
    // The corpus files are minified (they take the other path); written by us, they take this one.
    const corpus = lockfiles();
    const ours = [...corpus.map((text) => serializeContract(parseContract(text, "x.json"))), ...syntheticPair(30)];
    const texts = [...corpus, ...ours.map((c) => (typeof c === "string" ? c : serializeContract(c)))];
    let byTools = 0;
    for (const text of texts) {
      const read = parseByTools(text);
      if (read) byTools++;
      if (read) expect(read.data).toEqual(JSON.parse(text));
    }
    expect(byTools).toBeGreaterThan(ours.length * 0.8);
  });

  test("fall back, or agree, where the layout only looks like ours", () => {
    const contract = syntheticPair(3)[0] as Contract;
    const text = serializeContract(contract);
    const misleading = [
      JSON.stringify(JSON.parse(text)),
      JSON.stringify(JSON.parse(text), null, 4),
      // A second "tools" key: the last one wins in JSON.parse.
      text.replace(/\n\}\s*$/, ',\n  "tools": []\n}'),
      text.replace('\n  "tools": [', '\n  "tools": [],\n  "tools2": ['),
      // The separators inside a string or a deeper array.
      text.replace('"prompts": []', '"prompts": [\n    {"name": "p", "x": [\n    {},\n    {}\n  ]}\n  ]'),
      text.replace('\n  "tools": [\n    {', '\n  "tools": [\n    {"name": "fake", "x": [\n    {}\n  ]},\n    {'),
      // A span that does not parse, and a cut in the middle of a value.
      text.replace("},\n    {", "},\n    {,"),
      text.replace("}\n  ]", "} \n  ]"),
    ];
    for (const variant of misleading) expectAgreesWithParse(variant);
  });

  test("a search for a tool's end that skips its start cuts the spans a search from its start cuts", () => {
    // Without a reader that builds tools, spans are searched for past three quarters of the
    // shortest tool so far: tools that shrink (each cut too long first), grow, or vary.
    const exact = { check: () => true, parse: () => undefined };
    const skipping = { check: () => true, parse: () => undefined, building: () => false };
    const sized = (lengths: number[]) =>
      serializeContract({
        ...(syntheticPair(1)[0] as Contract),
        tools: lengths.map((n, i) => ({
          name: `t${String(i).padStart(3, "0")}`,
          description: "d".repeat(n),
          inputSchema: { type: "object", properties: { p: { type: "string", description: "}".repeat(n % 7) } } },
        })),
      });
    const rng = fc.sample(fc.nat({ max: 3000 }), { seed: 20261202, numRuns: 200 });
    const files = [
      Array.from({ length: 60 }, (_, i) => 3000 - i * 50),
      Array.from({ length: 60 }, (_, i) => i * 50),
      Array.from({ length: 60 }, () => 500),
      rng,
    ].map(sized);
    for (const text of files) {
      const cut = parseByTools(text, exact);
      expect(cut).toBeDefined();
      for (const reader of [skipping, undefined]) {
        const read = parseByTools(text, reader);
        expect(read?.spans.map((s) => s.text)).toEqual(cut!.spans.map((s) => s.text));
        expect(read?.data).toEqual(JSON.parse(text));
      }
    }
  });

  test("a text that does not parse is refused as it is without the search that skips", () => {
    const text = serializeContract(syntheticPair(70)[0] as Contract);
    const skipping = { check: () => true, parse: () => undefined, building: () => false };
    const at = text.indexOf('"name": "tool_00050"');
    for (const broken of [`${text.slice(0, at)}{${text.slice(at)}`, `${text.slice(0, at)}${text.slice(at + 3)}`]) {
      const message = (reader?: typeof skipping) => {
        try {
          parseContract(broken, "x.json", reader ? { reader } : {});
        } catch (error) {
          return (error as Error).message;
        }
        return "read";
      };
      expect(parseByTools(broken, skipping)).toBeUndefined();
      expect(message(skipping)).toBe(message());
      expect(message()).toContain("not valid JSON");
    }
  });

  test("never disagree with JSON.parse on random edits of a lockfile's text", () => {
    const text = serializeContract(syntheticPair(2)[0] as Contract);
    const pieces = ["},\n    {", "}\n  ]", '\n  "tools": [\n    {', ",", "[", "]", "{", "}", '"', " ", "\n", "0"];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: text.length }), fc.constantFrom(...pieces), fc.nat({ max: 3 })), {
          maxLength: 3,
        }),
        (edits) => {
          let variant = text;
          for (const [at, piece, cut] of edits) variant = variant.slice(0, at) + piece + variant.slice(at + cut);
          expectAgreesWithParse(variant);
        },
      ),
      { seed: 20261201, numRuns: 400 },
    );
  });

  test("a tool of the second lockfile the first one holds too is one object, the others are not", () => {
    const [before, after] = syntheticPair(40) as [Contract, Contract];
    const a = parseContract(serializeContract(before), "a.json", { session });
    const b = parseContract(serializeContract(after), "b.json", { session });
    const shared = b.tools.filter((tool) => a.tools.includes(tool));
    expect(shared.length).toBeGreaterThan(30);
    expect(shared.length).toBeLessThan(40);
    // Without `share` (the library API: its callers may modify what they get) nothing is shared.
    const own = parseContract(serializeContract(after), "b.json");
    expect(own.tools.filter((tool) => a.tools.includes(tool) || b.tools.includes(tool))).toEqual([]);
    expect(own).toEqual(b);
    // The diff is the same as between copies that share nothing.
    const fresh = (c: Contract) => JSON.parse(serializeContract(c)) as Contract;
    expect(diffContracts(a, b)).toEqual(diffContracts(fresh(before), fresh(after)));
  });

  test("a tool changed without changing its length or name is not shared", () => {
    const [before] = syntheticPair(5);
    const text = serializeContract(before);
    const at = text.indexOf('"description": "', text.indexOf('"name": "tool_00002"')) + 16;
    const edited = `${text.slice(0, at)}${text[at] === "X" ? "Y" : "X"}${text.slice(at + 1)}`;
    const a = parseContract(text, "a.json", { session });
    const b = parseContract(edited, "b.json", { session });
    expect(b.tools.filter((tool) => a.tools.includes(tool)).length).toBe(4);
    const changes = diffContracts(a, b);
    expect(changes.map((c) => [c.rule, c.target.name])).toEqual([["description-changed", "tool_00002"]]);
  });

  test("sharing hides no problem of the second lockfile", () => {
    const [before] = syntheticPair(5);
    const good = serializeContract(before);
    const broken = [
      // A shared tool beside a broken one, a broken top-level field, a tool turned into a problem.
      good.replace('"lockfileVersion": 1', '"lockfileVersion": "1"'),
      good.replace('"resources": []', '"resources": [{"uri": 5}]'),
      good.replace('"name": "tool_00003"', '"name": 7'),
      good.replace(/"type": "object"/, '"type": "object", "x": 1e999'),
      good.replace(/"inputSchema": \{/, '"inputSchema": 5, "was": {'),
    ];
    const unrelated = readFileSync(join(ROOT, "tests/fixtures/published/filesystem-2025.8.21.contract.json"), "utf8");
    for (const text of broken) {
      // Read right after the good file (sharing its tools), and after one that shares nothing.
      parseContract(good, "a.json", { session });
      const shared = outcome(text);
      parseContract(unrelated, "other.json", { session });
      const alone = outcome(text);
      expect(shared).toBe(alone);
      expect(shared.startsWith("error: ")).toBe(true);
    }
  });

  /** Parses `texts` in order with sharing: each read's outcome, and which of its tools came from the read before. */
  function readInOrder(texts: string[]): { outcome: string; shared: number }[] {
    const out: { outcome: string; shared: number }[] = [];
    let before: Contract | undefined;
    for (const text of texts) {
      const result = outcome(text);
      let shared = 0;
      try {
        const read = parseContract(text, "x.json", { session });
        shared = before ? read.tools.filter((tool) => before?.tools.includes(tool)).length : 0;
        before = read;
      } catch {
        before = undefined;
      }
      out.push({ outcome: result, shared });
    }
    return out;
  }

  test("tricky texts give JSON.parse's value, shared or not", () => {
    const contract = syntheticPair(4)[0] as Contract;
    const text = serializeContract(contract);
    const tricky = (tool: Record<string, unknown>) =>
      serializeContract({
        ...contract,
        tools: [...contract.tools.slice(0, 2), tool as never, ...contract.tools.slice(2)],
      });
    const variants = [
      // Strings that hold the separators, escaped as JSON must: no raw newline is ever inside a string.
      tricky({ name: "sep", description: "},\n    {\n    }\n  ]", inputSchema: { type: "object" } }),
      tricky({ name: 'quo"te\\', title: '"},\n    {"', inputSchema: { type: "object" } }),
      tricky({ name: "nested", inputSchema: { type: "object", properties: { a: { enum: [{ x: [{}, {}] }] } } } }),
      // CRLF line ends, tabs, minified, a tool on one line: not our layout, read whole.
      text.replaceAll("\n", "\r\n"),
      text.replaceAll("  ", "\t"),
      JSON.stringify(JSON.parse(text)),
      text.replace(/\{\n {6}"name": "tool_00001"[\s\S]*?\n {4}\}/, (tool) => JSON.stringify(JSON.parse(tool))),
      // Trailing spaces after a tool's closing line, and a tool whose name is not its first field.
      text.replace("\n    },", "\n    } ,"),
      text.replace('{\n      "name": "tool_00002",', '{\n      "x": 1,\n      "name": "tool_00002",'),
    ];
    for (const variant of variants) {
      const read = parseByTools(variant);
      if (read) expect(read.data).toEqual(JSON.parse(variant));
      // Read after the plain file (sharing what it can) and alone: the same contract either way.
      parseContract(text, "a.json", { session });
      const shared = outcome(variant);
      expect(shared).toBe(JSON.stringify(parseContract(variant, "b.json")));
    }
    // The ones in our layout still take this path.
    expect(parseByTools(variants[0] as string)).toBeDefined();
    expect(parseByTools(variants[8] as string)).toBeDefined();
    expect(parseByTools(variants[3] as string)).toBeUndefined();
  });

  test("tools are shared wherever they moved: reordered, added, removed, renamed, repeated", () => {
    const [before] = syntheticPair(12) as [Contract, Contract];
    const tools = before.tools;
    const write = (list: typeof tools) => {
      // serializeContract sorts tools by name; keep the order given, in the same layout.
      const sorted = serializeContract({ ...before, tools: [] });
      const body = list.map(
        (tool) =>
          `    ${
            serializeContract({ ...before, tools: [tool] })
              .split('\n  "tools": [\n    ')[1]
              ?.split("\n  ]")[0]
          }`,
      );
      return sorted.replace('"tools": []', `"tools": [\n${body.join(",\n")}\n  ]`);
    };
    const base = write(tools);
    expect(parseByTools(base)).toBeDefined();
    const renamed = { ...tools[5], name: "renamed" } as (typeof tools)[number];
    const edited = { ...tools[7], description: "changed" } as (typeof tools)[number];
    const orders: [string, number][] = [
      [write([...tools].reverse()), 12],
      [write([...tools.slice(0, 3), ...tools.slice(6)]), 9],
      [write([tools[0], ...tools] as typeof tools), 13],
      [write([...tools.slice(0, 5), renamed, ...tools.slice(6)]), 11],
      [write([...tools.slice(0, 7), edited, ...tools.slice(8)]), 11],
      [write([...tools.slice(0, 4), { name: "new", inputSchema: { type: "object" } }, ...tools.slice(4)]), 12],
    ];
    for (const [text, expected] of orders) {
      const [first, second] = readInOrder([base, text]);
      expect(first?.shared).toBe(0);
      expect(second?.shared).toBe(expected);
      expect(second?.outcome).toBe(JSON.stringify(parseContract(text, "x.json")));
      expect(parseByTools(text)?.data).toEqual(JSON.parse(text));
    }
  });

  test("many tools with one name line do not make reading quadratic, and still agree", () => {
    const [before] = syntheticPair(1) as [Contract, Contract];
    const tool = before.tools[0] as Contract["tools"][number];
    // 3,000 same-named tools, each a little different: every look-up finds the same name line.
    const many = Array.from({ length: 3000 }, (_, i) => ({ ...tool, title: `T${i}` }));
    const layout = (list: typeof many) => {
      const body = list.map((t) => JSON.stringify(t, null, 2).replaceAll("\n", "\n    "));
      return serializeContract({ ...before, tools: [] }).replace(
        '"tools": []',
        `"tools": [\n    ${body.join(",\n    ")}\n  ]`,
      );
    };
    const a = layout(many);
    const b = layout([...many].reverse());
    const [, second] = within(10_000, "reading the reordered lockfile", () => readInOrder([a, b]));
    expect(second?.outcome).toBe(JSON.stringify(parseContract(b, "b.json")));
    expect(parseByTools(b)?.data).toEqual(JSON.parse(b));
  });

  test("a third lockfile shares with the second, whose shared tools passed in the first", () => {
    const [before, after] = syntheticPair(20) as [Contract, Contract];
    const a = serializeContract(before);
    const b = serializeContract(after);
    const reads = readInOrder([a, b, a, a]);
    expect(reads.map((r) => r.outcome)).toEqual([a, b, a, a].map((t) => JSON.stringify(parseContract(t, "x.json"))));
    expect(reads[1]?.shared).toBeGreaterThan(15);
    expect(reads[2]?.shared).toBe(reads[1]?.shared);
    expect(reads[3]?.shared).toBe(20);
    // A broken file in between shares nothing and is remembered by no one.
    const broken = b.replace('"name": "tool_00003"', '"name": 7');
    const after3 = readInOrder([a, broken, b]);
    expect(after3[1]?.outcome.startsWith("error: ")).toBe(true);
    expect(after3[2]?.outcome).toBe(JSON.stringify(parseContract(b, "x.json")));
  });
});
