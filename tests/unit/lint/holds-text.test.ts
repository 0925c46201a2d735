/**
 * parameter-description-missing asks whether a description holds more than white space:
 * holdsText (src/lint/rules-quality.ts) answers without trimming when the text starts with a
 * printable ASCII character, and must answer as a trim does.
 */
import { describe, expect, test } from "bun:test";
import { holdsText } from "../../../src/lint/rules-quality.ts";
import { prng } from "../../../src/util/random.ts";

const trimmed = (value: string | undefined) => Boolean(value?.trim());

describe("holdsText", () => {
  test("as a trim says, on every character of the BMP alone and after white space", () => {
    const wrong: number[] = [];
    for (let code = 0; code < 0x10000; code++) {
      const c = String.fromCharCode(code);
      if (holdsText(c) !== trimmed(c) || holdsText(` \u00a0${c}`) !== trimmed(` \u00a0${c}`)) wrong.push(code);
    }
    expect(wrong).toEqual([]);
    expect(holdsText(undefined)).toBe(false);
    expect(holdsText("")).toBe(false);
  });
  test("as a trim says, on seeded strings of white space and text", () => {
    const random = prng(7);
    const pieces = [" ", "\t", "\n", "\u00a0", "\u2028", "\ufeff", "\u3000", "a", "é", "\u200b", "x y", ""];
    for (let i = 0; i < 5000; i++) {
      const text = Array.from(
        { length: Math.floor(random() * 5) },
        () => pieces[Math.floor(random() * pieces.length)],
      ).join("");
      expect({ text, holds: holdsText(text) }).toEqual({ text, holds: trimmed(text) });
    }
  });
});
