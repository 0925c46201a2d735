/**
 * The word diff tokenizes ASCII text with ASCII classes instead of Unicode property classes
 * (compiling those cost a small diff 0.36M instructions): on ASCII text both must give the same
 * tokens and the same separators, which is what this holds, on every ASCII character and on
 * seeded random ASCII strings.
 */
import { expect, test } from "bun:test";
import fc from "fast-check";
import { isSeparator, tokens } from "../../../src/lint/text-diff.ts";

const UNICODE_TOKEN = /[\p{L}\p{M}\p{N}_]+|\s+|[\s\S]/gu;
const UNICODE_SEPARATOR = /^(?:\s+|[^\p{L}\p{N}\s])$/u;
const ASCII_CHARS = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code));

test("every ASCII character is a separator exactly when the Unicode classes say so", () => {
  for (const ch of ASCII_CHARS) expect([ch, isSeparator(ch)]).toEqual([ch, UNICODE_SEPARATOR.test(ch)]);
  for (const run of [" ", "  ", "\t\n", " \r\n\t\v\f"]) expect(isSeparator(run)).toBe(true);
});

test("ASCII text splits into the tokens the Unicode classes give", () => {
  const ascii = fc.string({ unit: fc.constantFrom(...ASCII_CHARS), maxLength: 80 });
  fc.assert(
    fc.property(ascii, (text) => {
      expect(tokens(text)).toEqual(text.match(UNICODE_TOKEN) ?? []);
    }),
    { seed: 33, numRuns: 2000 },
  );
});

test("text with any non-ASCII character keeps the Unicode classes", () => {
  expect(tokens("naïve café, 3٣ x\u0301y")).toEqual(["naïve", " ", "café", ",", " ", "3٣", " ", "x\u0301y"]);
  expect(isSeparator("é")).toBe(false);
  expect(isSeparator("—")).toBe(true);
});
