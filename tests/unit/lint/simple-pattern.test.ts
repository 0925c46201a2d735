/**
 * The proof that a plain pattern compiles with and without the u flag (src/lint/simple-pattern.ts)
 * is held to the runtime's own RegExp: it may refuse to prove a valid pattern, never prove an
 * invalid one.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { compilesEverywhere } from "../../../src/lint/simple-pattern.ts";

const compiles = (pattern: string, flags?: string) => {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
};

describe("compilesEverywhere", () => {
  test("proves only patterns that compile both ways, on generated patterns of the grammar's characters", () => {
    const pattern = fc
      .array(fc.constantFrom(..."ab0z9-^$[]{}()|*+?.,\\ /:_1"), { maxLength: 12 })
      .map((chars) => chars.join(""));
    let proved = 0;
    fc.assert(
      fc.property(pattern, (p) => {
        if (!compilesEverywhere(p)) return true;
        proved++;
        return compiles(p) && compiles(p, "u");
      }),
      { seed: 20261202, numRuns: 5000 },
    );
    // The generator reaches the proof often enough for the property to say something.
    expect(proved).toBeGreaterThan(500);
  });

  test("proves the plain patterns schemas use, and leaves the rest to the compiler", () => {
    for (const p of [
      "^[a-z0-9-]+0$",
      "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
      "^[A-Za-z_][A-Za-z0-9_]*$",
      "^https?://",
      "a{2,}?|b{3}",
      "[^]",
      "",
    ]) {
      expect({ p, proved: compilesEverywhere(p) }).toEqual({ p, proved: true });
    }
    // Invalid somewhere (a{2,1} and [z-a] both ways; the rest with the u flag), or outside the grammar.
    for (const p of [
      "a{2,1}",
      "[z-a]",
      "x{,3}",
      "]",
      "{",
      "}",
      "a**",
      "^*",
      "|+",
      "[a-]b-c]",
      "\\d+",
      "(a)",
      "é",
      "a{123456}",
    ]) {
      expect({ p, proved: compilesEverywhere(p) }).toEqual({ p, proved: false });
    }
  });
});
