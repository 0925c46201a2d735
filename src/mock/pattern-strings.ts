/**
 * Seeded random strings for a `pattern`, for the mock's generated results.
 *
 * The witness engine's samples (../schema/witness/regex-samples.ts) are minimal and read
 * lookarounds as nothing, so for `^(?=.*\d)(?=.*[a-z])[a-z0-9]{6,}$` they find no string at all
 * (its minimal candidate, "aaaaaa", has no digit), however often asked. Here each class yields
 * a random member and each quantifier a random count, so a few draws meet what lookaheads
 * demand. Nothing drawn is trusted: the caller keeps only a string the validator accepts.
 */
import { type CharTest, type Node, parse } from "../schema/regex-parse.ts";

/** Characters a class is drawn from first: readable ones, then a few beyond ASCII. */
const POOL: number[] = [
  ...Array.from({ length: 0x7f - 0x20 }, (_, i) => 0x20 + i),
  ...[..."\té中😀"].map((c) => c.codePointAt(0) as number),
];
/** Where a class none of POOL belongs to (`[\u0400-\u04ff]`) finds its members. */
const SCAN_END = 0x3000;
/** Bounds one drawn string: unbounded quantifiers repeat at most a few times more than their minimum. */
const EXTRA_REPEATS = 4;
const MAX_LENGTH = 10_000;

const members = new WeakMap<CharTest, number[]>();

function membersOf(test: CharTest): number[] {
  let found = members.get(test);
  if (!found) {
    found = POOL.filter(test);
    for (let cp = 0x80; found.length === 0 && cp < SCAN_END; cp++) if (test(cp)) found.push(cp);
    members.set(test, found);
  }
  return found;
}

class TooLong extends Error {}

/** One random string the pattern's syntax allows (lookarounds and assertions are left to the check). */
function draw(tree: Node, r: () => number): string {
  const captures = new Map<number, string>();
  let length = 0;
  const emit = (text: string): string => {
    length += text.length;
    if (length > MAX_LENGTH) throw new TooLong();
    return text;
  };
  const walk = (node: Node): string => {
    switch (node.k) {
      case "char":
        return emit(String.fromCodePoint(node.cp));
      case "set": {
        const options = membersOf(node.test);
        const cp = options[Math.floor(r() * options.length)];
        return cp === undefined ? "" : emit(String.fromCodePoint(cp));
      }
      case "seq":
        return node.items.map(walk).join("");
      case "alt":
        return walk(node.alts[Math.floor(r() * node.alts.length)] as Node);
      case "group": {
        const text = walk(node.body);
        captures.set(node.index, text);
        return text;
      }
      case "backref":
        return emit(captures.get(node.groups[0] as number) ?? "");
      case "repeat": {
        const top = Math.min(node.max, node.min + EXTRA_REPEATS);
        const count = node.min + Math.floor(r() * (top - node.min + 1));
        if (count > MAX_LENGTH) throw new TooLong();
        let out = "";
        for (let k = 0; k < count; k++) out += walk(node.body);
        return out;
      }
      case "look":
      case "assert":
        return "";
    }
  };
  return walk(tree);
}

/** Up to `count` random strings for `pattern` (fewer when it is invalid, unread or draws too long). */
export function drawStrings(pattern: string, r: () => number, count: number): string[] {
  let tree: Node;
  try {
    new RegExp(pattern, "u");
    tree = parse(pattern).tree;
  } catch {
    return [];
  }
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    try {
      out.push(draw(tree, r));
    } catch (error) {
      if (!(error instanceof TooLong)) throw error;
    }
  }
  return out;
}
