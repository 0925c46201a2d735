/**
 * The parser of src/schema/regex.ts: a pattern as JavaScript reads it with the `u` flag, into
 * a small syntax tree the bounded matcher compiles. Syntax it does not read (e.g. `(?i:…)`)
 * throws Unsupported, and the caller treats the pattern as undecidable. Pure.
 */
export type CharTest = (cp: number) => boolean;
export type Node =
  | { k: "char"; cp: number }
  | { k: "set"; test: CharTest }
  | { k: "seq"; items: Node[] }
  | { k: "alt"; alts: Node[] }
  | { k: "group"; index: number; body: Node }
  | { k: "look"; behind: boolean; negate: boolean; body: Node }
  | { k: "assert"; what: "^" | "$" | "b" | "B" }
  | { k: "backref"; groups: number[]; name?: string }
  | { k: "repeat"; body: Node; min: number; max: number; greedy: boolean };

/** Syntax this reader does not know (the host accepted it): such a pattern is never decided. */
export class Unsupported extends Error {}

export const LINE_TERMINATORS = new Set([0x0a, 0x0d, 0x2028, 0x2029]);
export const DOT: CharTest = (cp) => !LINE_TERMINATORS.has(cp);

/** A single-character atom, tested by the host engine one character at a time (cached). */
export function hostSet(source: string): CharTest {
  const re = new RegExp(`^(?:${source})$`, "u");
  const ascii = new Int8Array(128);
  const other = new Map<number, boolean>();
  return (cp) => {
    if (cp < 128) {
      let v = ascii[cp] as number;
      if (v === 0) {
        v = re.test(String.fromCharCode(cp)) ? 1 : -1;
        ascii[cp] = v;
      }
      return v === 1;
    }
    let v = other.get(cp);
    if (v === undefined) {
      v = re.test(String.fromCodePoint(cp));
      if (other.size < 4096) other.set(cp, v);
    }
    return v;
  };
}

export const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";
export const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c);

export interface Parsed {
  tree: Node;
  groups: number;
  backrefs: boolean;
}

/** Read a pattern the host already accepted with the `u` flag. */
export function parse(p: string): Parsed {
  let i = 0;
  let groups = 0;
  const names = new Map<string, number[]>();
  const refs: { k: "backref"; groups: number[]; name?: string }[] = [];

  const hex = (from: number, len: number): number => {
    const text = p.slice(from, from + len);
    if (text.length !== len || ![...text].every(isHex)) throw new Unsupported();
    return Number.parseInt(text, 16);
  };

  /** `\u` escapes: \uHHHH (a surrogate pair of two such is one code point) or \u{H…}. */
  const unicodeEscape = (): number => {
    if (p[i] === "{") {
      const end = p.indexOf("}", i);
      if (end === -1) throw new Unsupported();
      const cp = Number.parseInt(p.slice(i + 1, end), 16);
      i = end + 1;
      return cp;
    }
    const lead = hex(i, 4);
    i += 4;
    if (lead >= 0xd800 && lead <= 0xdbff && p[i] === "\\" && p[i + 1] === "u" && isHex(p[i + 2])) {
      const trail = hex(i + 2, 4);
      if (trail >= 0xdc00 && trail <= 0xdfff) {
        i += 6;
        return (lead - 0xd800) * 0x400 + (trail - 0xdc00) + 0x10000;
      }
    }
    return lead;
  };

  /** An escape outside a class; `i` is just past the backslash. */
  const atomEscape = (): Node => {
    const start = i - 1;
    const c = p[i++];
    switch (c) {
      case undefined:
        throw new Unsupported();
      case "b":
      case "B":
        return { k: "assert", what: c };
      case "d":
      case "D":
      case "w":
      case "W":
      case "s":
      case "S":
        return { k: "set", test: hostSet(p.slice(start, i)) };
      case "p":
      case "P": {
        const end = p.indexOf("}", i);
        if (p[i] !== "{" || end === -1) throw new Unsupported();
        i = end + 1;
        return { k: "set", test: hostSet(p.slice(start, i)) };
      }
      case "k": {
        const end = p.indexOf(">", i);
        if (p[i] !== "<" || end === -1) throw new Unsupported();
        const ref = { k: "backref" as const, groups: [], name: p.slice(i + 1, end) };
        i = end + 1;
        refs.push(ref);
        return ref;
      }
      case "c": {
        const letter = p[i++];
        if (letter === undefined || !/^[A-Za-z]$/.test(letter)) throw new Unsupported();
        return { k: "char", cp: (letter.codePointAt(0) as number) % 32 };
      }
      case "x": {
        const cp = hex(i, 2);
        i += 2;
        return { k: "char", cp };
      }
      case "u":
        return { k: "char", cp: unicodeEscape() };
      case "t":
        return { k: "char", cp: 0x09 };
      case "n":
        return { k: "char", cp: 0x0a };
      case "v":
        return { k: "char", cp: 0x0b };
      case "f":
        return { k: "char", cp: 0x0c };
      case "r":
        return { k: "char", cp: 0x0d };
      case "0":
        if (isDigit(p[i])) throw new Unsupported();
        return { k: "char", cp: 0 };
      default: {
        if (isDigit(c)) {
          let end = i;
          while (isDigit(p[end])) end++;
          const ref = { k: "backref" as const, groups: [Number(p.slice(i - 1, end))] };
          i = end;
          refs.push(ref);
          return ref;
        }
        // An identity escape: a syntax character (or `/`) standing for itself.
        const cp = p.codePointAt(i - 1) as number;
        if (cp > 0xffff) i++;
        return { k: "char", cp };
      }
    }
  };

  /** A character class; `i` is just past `[`. In `u` mode (without `v`) a `[` inside is literal. */
  const charClass = (): Node => {
    const start = i - 1;
    while (i < p.length && p[i] !== "]") i += p[i] === "\\" ? 2 : 1;
    if (p[i] !== "]") throw new Unsupported();
    i++;
    return { k: "set", test: hostSet(p.slice(start, i)) };
  };

  const group = (): Node => {
    // `i` is just past `(`
    let kind: "capture" | "plain" | "ahead" | "behind" = "capture";
    let negate = false;
    let name: string | undefined;
    if (p[i] === "?") {
      const next = p[i + 1];
      if (next === ":") {
        kind = "plain";
        i += 2;
      } else if (next === "=" || next === "!") {
        kind = "ahead";
        negate = next === "!";
        i += 2;
      } else if (next === "<" && (p[i + 2] === "=" || p[i + 2] === "!")) {
        kind = "behind";
        negate = p[i + 2] === "!";
        i += 3;
      } else if (next === "<") {
        const end = p.indexOf(">", i);
        if (end === -1) throw new Unsupported();
        name = p.slice(i + 2, end);
        i = end + 1;
      } else throw new Unsupported(); // modifiers such as (?i:…)
    }
    const index = kind === "capture" ? ++groups : 0;
    if (name !== undefined) names.set(name, [...(names.get(name) ?? []), index]);
    const body = disjunction();
    if (p[i] !== ")") throw new Unsupported();
    i++;
    if (kind === "ahead" || kind === "behind") return { k: "look", behind: kind === "behind", negate, body };
    return kind === "capture" ? { k: "group", index, body } : body;
  };

  const atom = (): Node => {
    const c = p[i++];
    switch (c) {
      case "^":
      case "$":
        return { k: "assert", what: c };
      case ".":
        return { k: "set", test: DOT };
      case "(":
        return group();
      case "[":
        return charClass();
      case "\\":
        return atomEscape();
      case undefined:
      case ")":
      case "|":
      case "*":
      case "+":
      case "?":
      case "{":
        throw new Unsupported();
      default: {
        const cp = p.codePointAt(i - 1) as number;
        if (cp > 0xffff) i++;
        return { k: "char", cp };
      }
    }
  };

  const quantifier = (node: Node): Node => {
    const c = p[i];
    let min: number;
    let max: number;
    if (c === "*" || c === "+" || c === "?") {
      i++;
      min = c === "+" ? 1 : 0;
      max = c === "?" ? 1 : Number.POSITIVE_INFINITY;
    } else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i));
      if (!m) throw new Unsupported();
      i += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Number.POSITIVE_INFINITY : Number(m[3]);
    } else return node;
    let greedy = true;
    if (p[i] === "?") {
      i++;
      greedy = false;
    }
    return { k: "repeat", body: node, min, max, greedy };
  };

  const alternative = (): Node => {
    const items: Node[] = [];
    while (i < p.length && p[i] !== "|" && p[i] !== ")") items.push(quantifier(atom()));
    return items.length === 1 ? (items[0] as Node) : { k: "seq", items };
  };

  function disjunction(): Node {
    const alts = [alternative()];
    while (p[i] === "|") {
      i++;
      alts.push(alternative());
    }
    return alts.length === 1 ? (alts[0] as Node) : { k: "alt", alts };
  }

  const tree = disjunction();
  if (i !== p.length) throw new Unsupported();
  for (const ref of refs) {
    if (ref.name !== undefined) ref.groups.push(...(names.get(ref.name) ?? []));
    if (ref.groups.length === 0 || ref.groups.some((g) => g < 1 || g > groups)) throw new Unsupported();
  }
  return { tree, groups, backrefs: refs.length > 0 };
}
