/**
 * Every `pattern` the mock checks (call arguments, fixture outputs) is checked against its own
 * regular expression. ajv caches compiled patterns by the text of what the regex engine returns;
 * the mock's bounded engine once returned objects that all printed "[object Object]", so every
 * pattern after the first compiled was checked with the first one's expression.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { Contract } from "../../../src/contract/model.ts";
import { UsageError } from "../../../src/errors.ts";
import { parseFixtures } from "../../../src/mock/fixtures.ts";
import { validatorOf } from "../../../src/mock/validate.ts";
import { mockContract } from "./contract.ts";

describe("several patterns in one schema", () => {
  const schema = {
    type: "object",
    properties: {
      a: { type: "string", pattern: "^a$" },
      hash: { type: "string", pattern: "^#" },
      digits: { type: "string", pattern: "^[0-9]{3}$" },
      tail: { type: "string", pattern: "x$" },
    },
  };
  const validate = validatorOf(schema);
  test.each([
    [{ a: "a" }, true],
    [{ a: "#" }, false],
    [{ hash: "#tag" }, true],
    [{ hash: "a" }, false],
    [{ digits: "123" }, true],
    [{ digits: "a" }, false],
    [{ tail: "box" }, true],
    [{ tail: "a" }, false],
  ])("%j valid: %p", (value, valid) => {
    expect(validate(value) === undefined).toBe(valid);
  });
  test("the failure names the property's own pattern", () => {
    expect(validate({ hash: "a" })).toMatchObject({ path: "/hash", keyword: "pattern" });
  });
});

describe("fixture outputs are checked against each property's own pattern", () => {
  const contract: Contract = mockContract({
    tools: [
      {
        name: "tag",
        inputSchema: { type: "object" },
        outputSchema: {
          type: "object",
          properties: { first: { type: "string", pattern: "^a$" }, second: { type: "string", pattern: "^#" } },
          required: ["first", "second"],
        },
      },
    ],
  });
  const parse = (structuredContent: unknown) =>
    parseFixtures(JSON.stringify({ tools: { tag: { structuredContent } } }), "f.json", contract);
  test("a value only the other property's pattern accepts is refused", () => {
    expect(() => parse({ first: "a", second: "a" })).toThrow(UsageError);
    expect(() => parse({ first: "a", second: "a" })).toThrow("/second must match pattern");
  });
  test("a value each pattern accepts is served", () => {
    expect(parse({ first: "a", second: "#1" }).toolResult("tag", {})?.structuredContent).toEqual({
      first: "a",
      second: "#1",
    });
  });
});

/**
 * Simple patterns: literals, classes, anchors, groups, quantifiers (greedy and lazy) and
 * alternation, over an alphabet the strings share, so that matches and misses both come up.
 */
const { pattern } = fc.letrec<{ pattern: string; alt: string; seq: string; piece: string; group: string }>((tie) => ({
  pattern: fc
    .tuple(fc.boolean(), tie("alt"), fc.boolean())
    .map(([start, body, end]) => `${start ? "^" : ""}${body}${end ? "$" : ""}`),
  alt: fc.array(tie("seq"), { minLength: 1, maxLength: 2 }).map((seqs) => seqs.join("|")),
  seq: fc.array(tie("piece"), { minLength: 1, maxLength: 3 }).map((pieces) => pieces.join("")),
  piece: fc
    .tuple(
      fc.oneof(
        { maxDepth: 1, depthIdentifier: "pattern" },
        fc.constantFrom("a", "b", "1", "-", "\\.", ".", "[ab]", "[a-c]", "[^a]", "\\d", "\\w", "\\s", "\\b"),
        tie("group"),
      ),
      fc.constantFrom("", "", "", "*", "+", "?", "{2}", "{1,2}", "{0,}", "*?", "+?"),
    )
    // A quantifier on \b is a syntax error with the u flag: keep the assertion bare.
    .map(([atom, quantifier]) => (atom === "\\b" ? atom : `${atom}${quantifier}`)),
  group: fc.tuple(fc.constantFrom("(", "(?:"), tie("alt")).map(([open, body]) => `${open}${body})`),
}));
const text = fc.string({ unit: fc.constantFrom("a", "b", "c", "1", "-", ".", " ", "\n", "é"), maxLength: 8 });

describe("property: the mock's verdict on a pattern is JavaScript's (RegExp with the u flag)", () => {
  test("three patterns in one schema, each property checked by its own", () => {
    fc.assert(
      fc.property(fc.array(pattern, { minLength: 3, maxLength: 3 }), text, (patterns, s) => {
        const properties = Object.fromEntries(patterns.map((p, i) => [`p${i}`, { type: "string", pattern: p }]));
        const validate = validatorOf({ type: "object", properties });
        patterns.forEach((p, i) => {
          const reference = new RegExp(p, "u").test(s);
          expect({ pattern: p, text: s, valid: validate({ [`p${i}`]: s }) === undefined }).toEqual({
            pattern: p,
            text: s,
            valid: reference,
          });
        });
      }),
      { numRuns: 120, seed: 20_027 },
    );
  });
});
