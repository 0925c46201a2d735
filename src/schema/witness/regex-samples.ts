/**
 * Strings that match a regular expression, from a small parser and generator for the common
 * subset of patterns; back-references, \p{…} and the like yield no sample. Every sample is
 * tested against the pattern (with the bounded matcher, ../regex.ts) before it is returned.
 */
import { testRegex } from "../regex.ts";
import { MAX_LENGTH } from "./json.ts";
import { regex } from "./merge.ts";

type RNode =
  | { t: "alt"; alts: RItem[][] }
  | { t: "char"; c: string }
  | { t: "class"; ranges: [number, number][]; neg: boolean }
  | { t: "empty" };
interface RItem {
  node: RNode;
  min: number;
  max: number;
}

const DIGIT: [number, number][] = [[48, 57]];
const WORD: [number, number][] = [
  [97, 122],
  [65, 90],
  [48, 57],
  [95, 95],
];
const SPACE: [number, number][] = [
  [32, 32],
  [9, 13],
];

class Unsupported extends Error {}

function parseRegex(p: string): RNode {
  let i = 0;
  const peek = () => p[i];
  const parseAlt = (): RNode => {
    const alts: RItem[][] = [parseSeq()];
    while (peek() === "|") {
      i++;
      alts.push(parseSeq());
    }
    return { t: "alt", alts };
  };
  const parseEscape = (inClass: boolean): RNode => {
    const c = p[i++];
    if (c === undefined) throw new Unsupported();
    switch (c) {
      case "d":
        return { t: "class", ranges: DIGIT, neg: false };
      case "D":
        return { t: "class", ranges: DIGIT, neg: true };
      case "w":
        return { t: "class", ranges: WORD, neg: false };
      case "W":
        return { t: "class", ranges: WORD, neg: true };
      case "s":
        return { t: "class", ranges: SPACE, neg: false };
      case "S":
        return { t: "class", ranges: SPACE, neg: true };
      case "b":
        if (inClass) return { t: "char", c: "\b" };
        return { t: "empty" };
      case "B":
        return { t: "empty" };
      case "n":
        return { t: "char", c: "\n" };
      case "t":
        return { t: "char", c: "\t" };
      case "r":
        return { t: "char", c: "\r" };
      case "f":
        return { t: "char", c: "\f" };
      case "v":
        return { t: "char", c: "\v" };
      case "0":
        return { t: "char", c: "\0" };
      case "x": {
        const hex = p.slice(i, i + 2);
        i += 2;
        return { t: "char", c: String.fromCodePoint(Number.parseInt(hex, 16)) };
      }
      case "u": {
        if (p[i] === "{") {
          const end = p.indexOf("}", i);
          const code = Number.parseInt(p.slice(i + 1, end), 16);
          i = end + 1;
          return { t: "char", c: String.fromCodePoint(code) };
        }
        const hex = p.slice(i, i + 4);
        i += 4;
        return { t: "char", c: String.fromCharCode(Number.parseInt(hex, 16)) };
      }
      case "p":
      case "P":
      case "k":
      case "c":
        throw new Unsupported();
      default:
        if (/[1-9]/.test(c)) throw new Unsupported(); // back-reference
        return { t: "char", c };
    }
  };
  const parseClass = (): RNode => {
    const neg = peek() === "^";
    if (neg) i++;
    const ranges: [number, number][] = [];
    while (i < p.length && peek() !== "]") {
      let lo: number;
      if (peek() === "\\") {
        i++;
        const e = parseEscape(true);
        if (e.t === "class") {
          if (e.neg) throw new Unsupported();
          ranges.push(...e.ranges);
          continue;
        }
        if (e.t !== "char") continue;
        lo = e.c.codePointAt(0) ?? 0;
      } else {
        lo = p.codePointAt(i) ?? 0;
        i += lo > 0xffff ? 2 : 1;
      }
      if (peek() === "-" && p[i + 1] !== "]" && p[i + 1] !== undefined) {
        i++;
        let hi: number;
        if (peek() === "\\") {
          i++;
          const e = parseEscape(true);
          if (e.t !== "char") throw new Unsupported();
          hi = e.c.codePointAt(0) ?? 0;
        } else {
          hi = p.codePointAt(i) ?? 0;
          i += hi > 0xffff ? 2 : 1;
        }
        ranges.push([lo, hi]);
      } else ranges.push([lo, lo]);
    }
    if (peek() !== "]") throw new Unsupported();
    i++;
    return { t: "class", ranges, neg };
  };
  const parseAtom = (): RNode => {
    const c = p[i];
    if (c === undefined) throw new Unsupported();
    i++;
    switch (c) {
      case "^":
      case "$":
        return { t: "empty" };
      case ".":
        return { t: "class", ranges: [[10, 10]], neg: true };
      case "(": {
        let lookaround = false;
        if (p.startsWith("?:", i)) i += 2;
        else if (p.startsWith("?=", i) || p.startsWith("?!", i)) {
          i += 2;
          lookaround = true;
        } else if (p.startsWith("?<=", i) || p.startsWith("?<!", i)) {
          i += 3;
          lookaround = true;
        } else if (p.startsWith("?<", i)) {
          const end = p.indexOf(">", i);
          if (end === -1) throw new Unsupported();
          i = end + 1;
        } else if (p[i] === "?") throw new Unsupported();
        const inner = parseAlt();
        if (peek() !== ")") throw new Unsupported();
        i++;
        return lookaround ? { t: "empty" } : inner;
      }
      case "[":
        return parseClass();
      case "\\":
        return parseEscape(false);
      default: {
        const code = p.codePointAt(i - 1) ?? 0;
        if (code > 0xffff) i++;
        return { t: "char", c: String.fromCodePoint(code) };
      }
    }
  };
  const parseQuant = (): { min: number; max: number } => {
    const c = peek();
    let q = { min: 1, max: 1 };
    if (c === "*") q = { min: 0, max: Number.POSITIVE_INFINITY };
    else if (c === "+") q = { min: 1, max: Number.POSITIVE_INFINITY };
    else if (c === "?") q = { min: 0, max: 1 };
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i));
      if (!m) return q;
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] === "" ? Number.POSITIVE_INFINITY : Number(m[3]);
      i += m[0].length;
      if (peek() === "?") i++;
      return { min, max };
    } else return q;
    i++;
    if (peek() === "?") i++;
    return q;
  };
  const parseSeq = (): RItem[] => {
    const items: RItem[] = [];
    while (i < p.length && peek() !== "|" && peek() !== ")") {
      const node = parseAtom();
      const q = parseQuant();
      items.push({ node, ...q });
    }
    return items;
  };
  const tree = parseAlt();
  if (i !== p.length) throw new Unsupported();
  return tree;
}

const PREFERRED_CHARS = ["a", "b", "x", "0", "1", "A", "B", "_", "-", " ", ".", "é"];

function classChar(ranges: [number, number][], neg: boolean, variant: number): string {
  const inClass = (code: number) => ranges.some(([lo, hi]) => code >= lo && code <= hi);
  const preferred = PREFERRED_CHARS.filter((ch) => inClass(ch.codePointAt(0) ?? 0) !== neg);
  if (preferred.length) return preferred[variant % preferred.length] as string;
  if (!neg) {
    const first = ranges[0];
    return first ? String.fromCodePoint(first[0]) : "";
  }
  for (let code = 33; code < 0x3000; code++) if (!inClass(code)) return String.fromCodePoint(code);
  return "";
}

function generate(node: RNode, variant: number, budget: { n: number }): string {
  if (--budget.n < 0) throw new Unsupported();
  switch (node.t) {
    case "empty":
      return "";
    case "char":
      return node.c;
    case "class":
      return classChar(node.ranges, node.neg, variant);
    case "alt": {
      const alts = node.alts;
      const pick = alts[variant === 0 ? 0 : variant === 1 ? Math.min(1, alts.length - 1) : alts.length - 1] ?? [];
      let out = "";
      for (const item of pick) {
        const count =
          variant === 0 ? item.min : Math.min(item.max, item.min + (variant === 1 ? 1 : 2 + (variant > 2 ? 3 : 0)));
        if (count > MAX_LENGTH) throw new Unsupported();
        for (let k = 0; k < count; k++) out += generate(item.node, variant, budget);
      }
      return out;
    }
  }
}

const regexSampleCache = new Map<string, string[]>();

/** A few strings that match the pattern (verified), or [] when the pattern is beyond the sampler. */
export function regexSamples(pattern: string): string[] {
  const cached = regexSampleCache.get(pattern);
  if (cached) return cached;
  let out: string[] = [];
  if (regex(pattern) && pattern.length <= 2000) {
    try {
      const tree = parseRegex(pattern);
      for (const variant of [0, 1, 2, 3]) {
        try {
          out.push(generate(tree, variant, { n: 50_000 }));
        } catch {
          // too long or unsupported: skip this variant
        }
      }
    } catch {
      out = [];
    }
  }
  let undecided = false;
  out = [...new Set(out)].filter((s) => {
    const verdict = testRegex(pattern, s);
    if (verdict === "undecidable") undecided = true;
    return verdict === true;
  });
  // Samples that could not be checked within the regex budget are left out, for this time only.
  if (undecided) return out;
  if (regexSampleCache.size > 2000) regexSampleCache.clear();
  regexSampleCache.set(pattern, out);
  return out;
}
