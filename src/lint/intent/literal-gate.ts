/**
 * One fast test for many gate patterns at once. Testing a text against dozens of regexes (or
 * one alternation of all of them) costs microseconds, because each tries every alternative at
 * every position; on a surface of 20,000 texts that was most of the security rules' time. So
 * each gate is reduced to literals that every one of its matches contains (`necessaryLiterals`),
 * and one automaton (Aho–Corasick) looks for all of them in a single pass over the text. A text
 * with none of them matches no gate; a text with one may or may not (the literals are weaker
 * than the patterns), and the caller then runs the patterns as before. Pure; no I/O.
 *
 * Texts and literals are read in a folded alphabet: ASCII letters without case, one symbol for
 * every digit, "_", the punctuation the gates name, and one (OTHER) for every other character;
 * runs of OTHER are one, and punctuation is read between two OTHER (so that a \b next to a word
 * is OTHER whatever character follows). Folding only merges characters, so a literal found in a
 * pattern's match is found in the folded text too. The intent rules build their automaton from
 * literals generated ahead of time (gate-literals.ts): reading the gate patterns costs more
 * cold JavaScript than the automaton saves on a surface of a few thousand texts.
 */

/**
 * Symbols: 0–25 letters, 26 a digit, 27 "_" (the word characters of \b), then the punctuation
 * the gates name (":", "<", "[", "$", "%", ".", "/", "-"), and one for every other character.
 */
const DIGIT = 26;
const UNDERSCORE = 27;
const PUNCTUATION = ":<[$%./-";
const OTHER = 28 + PUNCTUATION.length;
const SYMBOLS = OTHER + 1;

/** A character's symbol (no table built at load: the drift lens loads this module for a few texts). */
function symbolOf(code: number): number {
  if (code >= 97 && code <= 122) return code - 97;
  if (code >= 65 && code <= 90) return code - 65;
  if (code >= 48 && code <= 57) return DIGIT;
  if (code === 95) return UNDERSCORE;
  if (code >= 128) return OTHER;
  const punctuation = PUNCTUATION.indexOf(String.fromCharCode(code));
  return punctuation === -1 ? OTHER : 28 + punctuation;
}

/**
 * A literal is a string of symbols, one character each (symbol + 48), so that building the
 * sets is string concatenation; BOUNDARY stands for a \b until the literal is complete.
 */
type Literal = string;
const char = (symbol: number) => String.fromCharCode(48 + symbol);
const OTHER_CHAR = char(OTHER);
const BOUNDARY = "!";

const isWord = (c: string) => c !== BOUNDARY && c.charCodeAt(0) - 48 <= UNDERSCORE;

/** At most this many strings in a product of sets, and in a union. */
const MAX_PRODUCT = 64;
const MAX_UNION = 512;

interface Node {
  /** Every string the node matches (\b kept as BOUNDARY), when they are few and known. */
  full?: Literal[];
  /** Strings one of which every match starts with, and ends with ([[]]: unknown). */
  prefix: Literal[];
  suffix: Literal[];
  /** Literals one of which every match holds, as text ([[]]: nothing known, every text passes). */
  contains: Literal[];
}

const NOTHING: Literal[] = [""];
const UNKNOWN: Node = { prefix: NOTHING, suffix: NOTHING, contains: NOTHING };

function symbolNode(symbols: number[]): Node {
  const full = symbols.map(char);
  return { full, prefix: full, suffix: full, contains: full };
}

function union(sets: Literal[][]): Literal[] {
  const all = sets.flat();
  return all.length <= MAX_UNION && sets.every((set) => set.every((l) => l.length > 0)) ? all : NOTHING;
}

/** A parser of the regex syntax the gates use; anything else is UNKNOWN, which only weakens the test. */
class Reader {
  private at = 0;
  constructor(private readonly source: string) {}

  alternation(): Node {
    const branches: Node[] = [this.sequence()];
    while (this.source[this.at] === "|") {
      this.at++;
      branches.push(this.sequence());
    }
    if (branches.length === 1) return branches[0]!;
    const full = branches.every((b) => b.full) ? branches.flatMap((b) => b.full!) : undefined;
    return {
      ...(full && full.length <= MAX_PRODUCT && { full }),
      prefix: union(branches.map((b) => b.prefix)),
      suffix: union(branches.map((b) => b.suffix)),
      contains: union(branches.map((b) => b.contains)),
    };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.at < this.source.length && this.source[this.at] !== "|" && this.source[this.at] !== ")") {
      items.push(this.quantified(this.atom()));
    }
    return sequenceOf(items);
  }

  private quantified(node: Node): Node {
    const c = this.source[this.at];
    let min: number;
    let exact = false;
    if (c === "?" || c === "*" || c === "+") {
      this.at++;
      min = c === "+" ? 1 : 0;
      if (c === "?") {
        if (this.source[this.at] === "?") this.at++;
        return { ...UNKNOWN, ...(node.full && { full: [...node.full, ""] }) };
      }
    } else if (c === "{" && /^\{\d+(?:,\d*)?\}/.test(this.source.slice(this.at))) {
      const m = /^\{(\d+)(,\d*)?\}/.exec(this.source.slice(this.at))!;
      this.at += m[0].length;
      min = Number(m[1]);
      exact = m[2] === undefined || m[2] === `,${m[1]}`;
    } else return node;
    if (this.source[this.at] === "?") this.at++;
    // Runs of OTHER are read as one (see literalGate), so `\s+` is one OTHER and `\s*` one or none.
    if (!exact && node.full?.every((l) => l === OTHER_CHAR)) {
      return min === 0 ? { ...UNKNOWN, full: [OTHER_CHAR, ""] } : symbolNode([OTHER]);
    }
    if (min === 0) return UNKNOWN;
    const copies = sequenceOf(Array.from({ length: Math.min(min, 8) }, () => node));
    if (exact && min <= 8) return copies;
    // At least `min` copies: the match starts and ends as they do.
    return { prefix: copies.prefix, suffix: copies.suffix, contains: copies.contains };
  }

  private atom(): Node {
    const c = this.source[this.at++]!;
    if (c === "(") {
      let lookaround = false;
      if (this.source[this.at] === "?") {
        const kind = this.source.slice(this.at, this.at + 3);
        if (kind.startsWith("?:")) this.at += 2;
        else if (kind.startsWith("?=") || kind.startsWith("?!")) {
          lookaround = true;
          this.at += 2;
        } else if (kind === "?<=" || kind === "?<!") {
          lookaround = true;
          this.at += 3;
        } else this.at = this.source.indexOf(">", this.at) + 1;
      }
      const inner = this.alternation();
      this.at++;
      return lookaround ? UNKNOWN : inner;
    }
    if (c === "[") return this.characterClass();
    if (c === "\\") return this.escape();
    if (c === "." || c === "^" || c === "$") return UNKNOWN;
    return symbolNode([symbolOf(c.charCodeAt(0))]);
  }

  /** The code unit of a \x or \u escape whose letter was just read. */
  private hexEscape(letter: string): number | undefined {
    const width = letter === "x" ? 2 : 4;
    const digits = this.source.slice(this.at, this.at + width);
    if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== width) return undefined;
    this.at += width;
    return Number.parseInt(digits, 16);
  }

  /** The symbol of an escaped character inside or outside a class, or undefined when it stands for more. */
  private escapedSymbol(e: string): number | undefined {
    if (e === "s" || e === "W") return OTHER;
    if (e === "d") return DIGIT;
    if (e === "x" || e === "u") {
      const code = this.hexEscape(e);
      return code === undefined ? undefined : symbolOf(code);
    }
    // Control escapes are characters of their own; any other letter or digit means a class, a backreference or more.
    if ("ntrfv0".includes(e)) return OTHER;
    if (/[a-zA-Z0-9]/.test(e)) return undefined;
    return symbolOf(e.charCodeAt(0));
  }

  private escape(): Node {
    const e = this.source[this.at++]!;
    if (e === "b") return { full: [BOUNDARY], prefix: [BOUNDARY], suffix: [BOUNDARY], contains: NOTHING };
    const symbol = this.escapedSymbol(e);
    return symbol === undefined ? UNKNOWN : symbolNode([symbol]);
  }

  private characterClass(): Node {
    const symbols = new Set<number>();
    let known = true;
    if (this.source[this.at] === "^") {
      known = false;
      this.at++;
    }
    while (this.at < this.source.length && this.source[this.at] !== "]") {
      const c = this.source[this.at++]!;
      let code: number | undefined = c.charCodeAt(0);
      if (c === "\\") {
        const e = this.source[this.at++]!;
        if (e === "x" || e === "u") code = this.hexEscape(e);
        else {
          const symbol = this.escapedSymbol(e);
          if (symbol === undefined) known = false;
          else symbols.add(symbol);
          continue;
        }
        if (code === undefined) {
          known = false;
          continue;
        }
      }
      if (this.source[this.at] === "-" && this.source[this.at + 1] !== "]" && this.at + 1 < this.source.length) {
        this.at++;
        let end: number | undefined = this.source.charCodeAt(this.at++);
        if (end === 92) {
          const e = this.source[this.at++]!;
          end = e === "x" || e === "u" ? this.hexEscape(e) : e.charCodeAt(0);
        }
        if (end === undefined || end < code) {
          known = false;
          continue;
        }
        for (let k = code; k <= Math.min(end, 0x80); k++) symbols.add(symbolOf(k));
        continue;
      }
      symbols.add(symbolOf(code));
    }
    this.at++;
    return known && symbols.size <= 3 ? symbolNode([...symbols]) : UNKNOWN;
  }
}

function product(left: Literal[], right: Literal[]): Literal[] | undefined {
  if (left.length * right.length > MAX_PRODUCT) return undefined;
  const out: Literal[] = [];
  for (const l of left) for (const r of right) out.push(l + r);
  return out;
}

/**
 * Literals of a sequence. A run of consecutive items whose strings are known, with the end of
 * the item before it and the start of the item after it, gives their product: every match
 * holds one of its strings. Each item's own literals are candidates too; the most selective
 * candidate wins.
 */
function sequenceOf(items: Node[]): Node {
  const candidates: Literal[][] = items.map((item) => item.contains);
  let run: Literal[] = NOTHING;
  let full: Literal[] | undefined = NOTHING;
  let prefix: Literal[] | undefined;
  for (const item of items) {
    full = full && item.full ? product(full, item.full) : undefined;
    const joined = item.full && product(run, item.full);
    if (joined) {
      run = joined;
      continue;
    }
    // The run ends with this item's start; the next one begins with its end.
    const ended = product(run, item.prefix) ?? run;
    prefix ??= ended;
    candidates.push(resolveBoundaries(ended));
    run = item.full ?? item.suffix;
  }
  candidates.push(resolveBoundaries(run));
  let best = NOTHING;
  let bestStrength = 0;
  for (const candidate of candidates) {
    const s = candidate.length > 0 ? strength(candidate) : 0;
    if (s > bestStrength || (s === bestStrength && s > 0 && candidate.length < best.length)) {
      best = candidate;
      bestStrength = s;
    }
  }
  return { ...(full && { full }), prefix: prefix ?? run, suffix: run, contains: best };
}

/** How selective a set of literals is: the symbols of its weakest member, a word symbol counting double. */
function strength(literals: Literal[]): number {
  let weakest = Number.POSITIVE_INFINITY;
  for (const l of literals) {
    let sum = 0;
    for (const c of l) sum += isWord(c) ? 2 : 1;
    if (sum < weakest) weakest = sum;
  }
  return weakest;
}

/**
 * Each \b of a literal made a symbol or dropped: between a word symbol and another symbol it
 * holds by itself; at an end next to a word symbol, the character beyond is another one (the
 * text is read with one such character before and after it); a literal that needs a \b
 * between two word symbols, or between two others, matches nothing and is left out.
 */
function resolveBoundaries(literals: Literal[]): Literal[] {
  const out: Literal[] = [];
  next: for (const literal of literals) {
    if (!literal.includes(BOUNDARY) && !literal.includes(OTHER_CHAR + OTHER_CHAR)) {
      out.push(literal);
      continue;
    }
    let plain = "";
    for (let i = 0; i < literal.length; i++) {
      const c = literal[i]!;
      if (c !== BOUNDARY) {
        // Runs of OTHER are read as one.
        if (c !== OTHER_CHAR || plain[plain.length - 1] !== OTHER_CHAR) plain += c;
        continue;
      }
      const before = plain[plain.length - 1];
      let j = i + 1;
      while (literal[j] === BOUNDARY) j++;
      const after = literal[j];
      if (before !== undefined && after !== undefined) {
        if (isWord(before) === isWord(after)) continue next;
      } else if (before === undefined && after !== undefined && isWord(after)) plain += OTHER_CHAR;
      else if (after === undefined && before !== undefined && isWord(before)) plain += OTHER_CHAR;
    }
    out.push(plain);
  }
  return out;
}

/** Literals (in the folded alphabet) of which every match of `re` holds one; [[]] when none is known. */
export function necessaryLiterals(re: RegExp): Literal[] {
  if (re.unicode || re.flags.includes("v")) return NOTHING;
  const reader = new Reader(re.source);
  return reader.alternation().contains.map(spaced);
}

const isPunctuation = (c: string) => c !== OTHER_CHAR && !isWord(c);

/**
 * A literal as the automaton reads texts: each punctuation symbol between two OTHER, runs of
 * OTHER as one. A \b next to a word symbol became OTHER, which must be found beside any
 * character that is not a word character, punctuation included: reading every punctuation
 * symbol as OTHER, itself, OTHER does that.
 */
function spaced(literal: Literal): Literal {
  let out = "";
  const add = (c: string) => {
    if (c !== OTHER_CHAR || out[out.length - 1] !== OTHER_CHAR) out += c;
  };
  for (const c of literal) {
    if (isPunctuation(c)) {
      add(OTHER_CHAR);
      add(c);
      add(OTHER_CHAR);
    } else add(c);
  }
  return out;
}

/** A literal as text, for tests and messages: letters, "0" for a digit, "_", " " for any other character. */
export function spellLiteral(literal: Literal): string {
  let out = "";
  for (let i = 0; i < literal.length; i++) {
    const s = literal.charCodeAt(i) - 48;
    out +=
      s < 26 ? String.fromCharCode(97 + s) : s === DIGIT ? "0" : s === UNDERSCORE ? "_" : (PUNCTUATION[s - 28] ?? " ");
  }
  return out;
}

/**
 * A test that is true for every text some pattern matches (and for some others): the patterns'
 * literals in one automaton, run once over the folded text.
 */
export function literalGate(patterns: readonly RegExp[]): (text: string) => boolean {
  const scan = automaton([patterns.flatMap(necessaryLiterals)]);
  return (text) => scan(text) !== 0;
}

/**
 * The gates of several rules in one automaton, from literals spelled as spellLiteral writes them
 * (generated ahead of time: see gate-literals.ts): bit i of the answer is set when the text holds
 * a literal of `groups[i]`, so each rule reads only the texts that hold one of its own.
 */
export function spelledGates(groups: readonly (readonly string[])[]): (text: string) => number {
  return automaton(groups.map((spelled) => spelled.map(readLiteral)));
}

/** The literal spellLiteral spelled. */
export function readLiteral(spelled: string): Literal {
  let out = "";
  for (const c of spelled) {
    const code = c.charCodeAt(0);
    const punctuation = PUNCTUATION.indexOf(c);
    out += char(
      code >= 97 && code <= 122
        ? code - 97
        : c === "0"
          ? DIGIT
          : c === "_"
            ? UNDERSCORE
            : punctuation !== -1
              ? 28 + punctuation
              : OTHER,
    );
  }
  return out;
}

interface Automaton {
  /** Rows of SYMBOLS next states; state 0 is the root. */
  table: Int32Array;
  /** Each state's groups, as bits. */
  accepting: Uint8Array;
  /** Every group's bit. */
  all: number;
}

/** The automaton of the groups' literals (at most 8 groups). */
function build(groups: readonly (readonly Literal[])[]): Automaton {
  let size = 1;
  let always = 0;
  for (const [i, literals] of groups.entries()) {
    for (const literal of literals) {
      if (literal.length === 0) always |= 1 << i;
      size += literal.length;
    }
  }
  // Every group's bit: the scan stops once it has them all.
  const all = (1 << groups.length) - 1;
  // The trie, as rows of SYMBOLS next states (0: none yet; the root is never a next state).
  const table = new Int32Array(size * SYMBOLS);
  // A state's groups: those of the literals it ends, and (after the links below) of their suffixes.
  const accepting = new Uint8Array(size);
  accepting[0] = always;
  let states = 1;
  for (const [group, literals] of groups.entries())
    for (const literal of literals) {
      if (literal.length === 0) continue;
      let state = 0;
      for (let i = 0; i < literal.length; i++) {
        const s = literal.charCodeAt(i) - 48;
        let to = table[state * SYMBOLS + s]!;
        if (to === 0) {
          to = states++;
          table[state * SYMBOLS + s] = to;
        }
        state = to;
      }
      accepting[state]! |= 1 << group;
    }
  // Failure links, breadth first, turn the trie into an automaton: every missing edge is the
  // edge of the longest proper suffix that is in the trie.
  const fail = new Int32Array(states);
  const queue = new Int32Array(states);
  let tail = 0;
  for (let s = 0; s < SYMBOLS; s++) if (table[s] !== 0) queue[tail++] = table[s]!;
  for (let head = 0; head < tail; head++) {
    const state = queue[head]!;
    accepting[state]! |= accepting[fail[state]!]!;
    for (let s = 0; s < SYMBOLS; s++) {
      const to = table[state * SYMBOLS + s]!;
      const fallback = table[fail[state]! * SYMBOLS + s]!;
      if (to === 0) table[state * SYMBOLS + s] = fallback;
      else {
        fail[to] = fallback;
        queue[tail++] = to;
      }
    }
  }
  return { table, accepting, all };
}

/** Bit i of the answer: the text holds a literal of `groups[i]`. */
function automaton(groups: readonly (readonly Literal[])[]): (text: string) => number {
  const { table, accepting, all } = build(groups);
  if (accepting[0] === all) return () => all;
  const ascii = Uint8Array.from({ length: 128 }, (_, code) => symbolOf(code));
  // The text is read as the literals are written (see spaced): a punctuation symbol between
  // two OTHER, a run of OTHER as one, with one OTHER before the text and one after it.
  return (text: string) => {
    let state = table[OTHER]!;
    let found = accepting[state]!;
    if (found === all) return all;
    let last = OTHER;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      const symbol = code < 128 ? ascii[code]! : OTHER;
      if (symbol === OTHER) {
        if (last === OTHER) continue;
      } else if (symbol > UNDERSCORE) {
        if (last !== OTHER) {
          state = table[state * SYMBOLS + OTHER]!;
          if (accepting[state] !== 0) {
            found |= accepting[state]!;
            if (found === all) return all;
          }
        }
        state = table[state * SYMBOLS + symbol]!;
        if (accepting[state] !== 0) {
          found |= accepting[state]!;
          if (found === all) return all;
        }
        last = OTHER;
        state = table[state * SYMBOLS + OTHER]!;
        if (accepting[state] !== 0) {
          found |= accepting[state]!;
          if (found === all) return all;
        }
        continue;
      }
      last = symbol;
      state = table[state * SYMBOLS + symbol]!;
      if (accepting[state] !== 0) {
        found |= accepting[state]!;
        if (found === all) return all;
      }
    }
    return last === OTHER ? found : found | accepting[table[state * SYMBOLS + OTHER]!]!;
  };
}
