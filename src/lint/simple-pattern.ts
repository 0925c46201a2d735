/**
 * A proof, without compiling it, that a plain regular expression compiles in JavaScript both
 * with and without the u flag: lint asks both of every distinct pattern (schema-meta.ts), and
 * on 10,000 schemas that all differ, compiling each pattern twice was a tenth of the schema
 * pass. The proof knows a small grammar only; false means "compile it and see", never invalid.
 * Pure.
 *
 * The grammar, printable ASCII only, no escapes or groups:
 *   pattern     := term* ("|" term*)*
 *   term        := "^" | "$" | atom quantifier?
 *   atom        := literal | "." | class
 *   quantifier  := ("*" | "+" | "?" | "{" n "}" | "{" n ",}" | "{" n "," m "}") "?"?   (n ≤ m, at most 5 digits)
 *   class       := "[" "^"? item* "]"; item := c | c "-" c (c ≤ its end) | "-" first or last
 * A literal is any printable ASCII character but the syntax characters ^ $ \ . * + ? ( ) [ ] { } |
 * (a lone ] or { is an error with the u flag). A class character is any but \ [ ] and a "-" that
 * is not first, last or a range's.
 */

/** Syntax characters outside a class, by code (1): ^ $ \ . * + ? ( ) [ ] { } | */
const SYNTAX = new Uint8Array(128);
for (const c of "^$\\.*+?()[]{}|") SYNTAX[c.charCodeAt(0)] = 1;

const printable = (code: number): boolean => code >= 0x20 && code <= 0x7e;

/**
 * The last pattern asked and its answer: a schema repeats its patterns node after node (and lint
 * asks twice of each, for two rules), so most questions are the one just answered.
 */
let lastPattern: string | undefined;
let lastAnswer = false;

/** Whether `pattern` certainly compiles with and without the u flag (false: not known). */
export function compilesEverywhere(pattern: string): boolean {
  if (pattern !== lastPattern) {
    lastAnswer = proven(pattern);
    lastPattern = pattern;
  }
  return lastAnswer;
}

function proven(pattern: string): boolean {
  const n = pattern.length;
  let i = 0;
  // Whether the term before may take a quantifier (an atom not yet quantified).
  let quantifiable = false;
  while (i < n) {
    const code = pattern.charCodeAt(i);
    if (!printable(code)) return false;
    if (code === 0x5b) {
      i = classEnd(pattern, i);
      if (i === -1) return false;
      quantifiable = true;
      continue;
    }
    if (code === 0x2a || code === 0x2b || code === 0x3f || code === 0x7b) {
      if (!quantifiable) return false;
      i = code === 0x7b ? braceEnd(pattern, i) : i + 1;
      if (i === -1) return false;
      // A lazy quantifier.
      if (pattern.charCodeAt(i) === 0x3f) i++;
      quantifiable = false;
      continue;
    }
    if (code === 0x5e || code === 0x24 || code === 0x7c) {
      quantifiable = false;
      i++;
      continue;
    }
    if (code === 0x2e || SYNTAX[code] === 0) {
      quantifiable = true;
      i++;
      continue;
    }
    // \ ( ) ] }: outside the grammar.
    return false;
  }
  return true;
}

/** Where the class opening at `start` ends (after its "]"), or -1 when it is outside the grammar. */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern.charCodeAt(i) === 0x5e) i++;
  const first = i;
  while (i < pattern.length) {
    const code = pattern.charCodeAt(i);
    if (code === 0x5d) return i + 1;
    if (!printable(code) || code === 0x5c || code === 0x5b) return -1;
    const next = pattern.charCodeAt(i + 1);
    if (code === 0x2d) {
      // A "-" of its own: first, or last (right before the "]").
      if (i !== first && next !== 0x5d) return -1;
      i++;
      continue;
    }
    if (next === 0x2d && pattern.charCodeAt(i + 2) !== 0x5d) {
      // A range c-d: d a class character that is not below c.
      const end = pattern.charCodeAt(i + 2);
      if (!printable(end) || end === 0x5c || end === 0x5b || end === 0x5d || end === 0x2d || end < code) return -1;
      i += 3;
      continue;
    }
    i++;
  }
  return -1;
}

/** Where a {n}, {n,} or {n,m} quantifier opening at `start` ends, or -1 when it is outside the grammar. */
function braceEnd(pattern: string, start: number): number {
  let i = start + 1;
  const digitsFrom = (from: number) => {
    let j = from;
    while (j < pattern.length && j - from <= 5 && pattern.charCodeAt(j) >= 0x30 && pattern.charCodeAt(j) <= 0x39) j++;
    return j - from >= 1 && j - from <= 5 ? j : -1;
  };
  const afterLow = digitsFrom(i);
  if (afterLow === -1) return -1;
  const low = Number(pattern.slice(i, afterLow));
  i = afterLow;
  if (pattern.charCodeAt(i) === 0x7d) return i + 1;
  if (pattern.charCodeAt(i) !== 0x2c) return -1;
  i++;
  if (pattern.charCodeAt(i) === 0x7d) return i + 1;
  const afterHigh = digitsFrom(i);
  if (afterHigh === -1 || pattern.charCodeAt(afterHigh) !== 0x7d) return -1;
  return Number(pattern.slice(i, afterHigh)) >= low ? afterHigh + 1 : -1;
}
