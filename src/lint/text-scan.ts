/**
 * Text helpers for the security lint: which code points are invisible, how to render them
 * visibly ("<U+200B ZERO WIDTH SPACE>"), hidden ASCII carried by Unicode tag characters and
 * variation selectors, homoglyph tables, and quoting a span of text with context. Pure; no I/O.
 */

// ---------------------------------------------------------------------------------------------
// Character names (only the characters this lint talks about; JS has no Unicode name table).

const NAMED: Record<number, string> = {
  0: "NULL",
  7: "BELL",
  8: "BACKSPACE",
  11: "LINE TABULATION",
  12: "FORM FEED",
  27: "ESCAPE",
  127: "DELETE",
  173: "SOFT HYPHEN",
  847: "COMBINING GRAPHEME JOINER",
  1564: "ARABIC LETTER MARK",
  4447: "HANGUL CHOSEONG FILLER",
  4448: "HANGUL JUNGSEONG FILLER",
  6158: "MONGOLIAN VOWEL SEPARATOR",
  8203: "ZERO WIDTH SPACE",
  8204: "ZERO WIDTH NON-JOINER",
  8205: "ZERO WIDTH JOINER",
  8206: "LEFT-TO-RIGHT MARK",
  8207: "RIGHT-TO-LEFT MARK",
  8232: "LINE SEPARATOR",
  8233: "PARAGRAPH SEPARATOR",
  8234: "LEFT-TO-RIGHT EMBEDDING",
  8235: "RIGHT-TO-LEFT EMBEDDING",
  8236: "POP DIRECTIONAL FORMATTING",
  8237: "LEFT-TO-RIGHT OVERRIDE",
  8238: "RIGHT-TO-LEFT OVERRIDE",
  8288: "WORD JOINER",
  8289: "FUNCTION APPLICATION",
  8290: "INVISIBLE TIMES",
  8291: "INVISIBLE SEPARATOR",
  8292: "INVISIBLE PLUS",
  8294: "LEFT-TO-RIGHT ISOLATE",
  8295: "RIGHT-TO-LEFT ISOLATE",
  8296: "FIRST STRONG ISOLATE",
  8297: "POP DIRECTIONAL ISOLATE",
  12644: "HANGUL FILLER",
  65279: "ZERO WIDTH NO-BREAK SPACE",
  65440: "HALFWIDTH HANGUL FILLER",
  65529: "INTERLINEAR ANNOTATION ANCHOR",
  65530: "INTERLINEAR ANNOTATION SEPARATOR",
  65531: "INTERLINEAR ANNOTATION TERMINATOR",
  917505: "LANGUAGE TAG",
  917536: "TAG SPACE",
  917631: "CANCEL TAG",
};

const ASCII_PUNCTUATION: Record<string, string> = {
  "!": "EXCLAMATION MARK",
  '"': "QUOTATION MARK",
  "#": "NUMBER SIGN",
  $: "DOLLAR SIGN",
  "%": "PERCENT SIGN",
  "&": "AMPERSAND",
  "'": "APOSTROPHE",
  "(": "LEFT PARENTHESIS",
  ")": "RIGHT PARENTHESIS",
  "*": "ASTERISK",
  "+": "PLUS SIGN",
  ",": "COMMA",
  "-": "HYPHEN-MINUS",
  ".": "FULL STOP",
  "/": "SOLIDUS",
  ":": "COLON",
  ";": "SEMICOLON",
  "<": "LESS-THAN SIGN",
  "=": "EQUALS SIGN",
  ">": "GREATER-THAN SIGN",
  "?": "QUESTION MARK",
  "@": "COMMERCIAL AT",
  "[": "LEFT SQUARE BRACKET",
  "\\": "REVERSE SOLIDUS",
  "]": "RIGHT SQUARE BRACKET",
  "^": "CIRCUMFLEX ACCENT",
  _: "LOW LINE",
  "`": "GRAVE ACCENT",
  "{": "LEFT CURLY BRACKET",
  "|": "VERTICAL LINE",
  "}": "RIGHT CURLY BRACKET",
  "~": "TILDE",
};

const DIGITS = ["ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"];

/** Unicode name of a printable ASCII character ("LATIN CAPITAL LETTER A", "DIGIT ONE", "SOLIDUS"). */
function asciiName(ch: string): string {
  if (ch === " ") return "SPACE";
  if (/[A-Z]/.test(ch)) return `LATIN CAPITAL LETTER ${ch}`;
  if (/[a-z]/.test(ch)) return `LATIN SMALL LETTER ${ch.toUpperCase()}`;
  if (/[0-9]/.test(ch)) return `DIGIT ${DIGITS[Number(ch)]}`;
  return ASCII_PUNCTUATION[ch] ?? "CHARACTER";
}

/** Lookalikes of Latin letters: code point → [Latin letter it passes for, Unicode name]. */
export const CONFUSABLES: ReadonlyMap<number, readonly [string, string]> = new Map<number, readonly [string, string]>([
  // Cyrillic
  [0x0430, ["a", "CYRILLIC SMALL LETTER A"]],
  [0x0435, ["e", "CYRILLIC SMALL LETTER IE"]],
  [0x043e, ["o", "CYRILLIC SMALL LETTER O"]],
  [0x0440, ["p", "CYRILLIC SMALL LETTER ER"]],
  [0x0441, ["c", "CYRILLIC SMALL LETTER ES"]],
  [0x0443, ["y", "CYRILLIC SMALL LETTER U"]],
  [0x0445, ["x", "CYRILLIC SMALL LETTER HA"]],
  [0x0455, ["s", "CYRILLIC SMALL LETTER DZE"]],
  [0x0456, ["i", "CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I"]],
  [0x0458, ["j", "CYRILLIC SMALL LETTER JE"]],
  [0x04bb, ["h", "CYRILLIC SMALL LETTER SHHA"]],
  [0x04cf, ["l", "CYRILLIC SMALL LETTER PALOCHKA"]],
  [0x0501, ["d", "CYRILLIC SMALL LETTER KOMI DE"]],
  [0x051b, ["q", "CYRILLIC SMALL LETTER QA"]],
  [0x051d, ["w", "CYRILLIC SMALL LETTER WE"]],
  [0x0405, ["S", "CYRILLIC CAPITAL LETTER DZE"]],
  [0x0406, ["I", "CYRILLIC CAPITAL LETTER BYELORUSSIAN-UKRAINIAN I"]],
  [0x0408, ["J", "CYRILLIC CAPITAL LETTER JE"]],
  [0x0410, ["A", "CYRILLIC CAPITAL LETTER A"]],
  [0x0412, ["B", "CYRILLIC CAPITAL LETTER VE"]],
  [0x0415, ["E", "CYRILLIC CAPITAL LETTER IE"]],
  [0x041a, ["K", "CYRILLIC CAPITAL LETTER KA"]],
  [0x041c, ["M", "CYRILLIC CAPITAL LETTER EM"]],
  [0x041d, ["H", "CYRILLIC CAPITAL LETTER EN"]],
  [0x041e, ["O", "CYRILLIC CAPITAL LETTER O"]],
  [0x0420, ["P", "CYRILLIC CAPITAL LETTER ER"]],
  [0x0421, ["C", "CYRILLIC CAPITAL LETTER ES"]],
  [0x0422, ["T", "CYRILLIC CAPITAL LETTER TE"]],
  [0x0423, ["Y", "CYRILLIC CAPITAL LETTER U"]],
  [0x0425, ["X", "CYRILLIC CAPITAL LETTER HA"]],
  [0x051a, ["Q", "CYRILLIC CAPITAL LETTER QA"]],
  [0x051c, ["W", "CYRILLIC CAPITAL LETTER WE"]],
  // Greek
  [0x03b1, ["a", "GREEK SMALL LETTER ALPHA"]],
  [0x03b9, ["i", "GREEK SMALL LETTER IOTA"]],
  [0x03ba, ["k", "GREEK SMALL LETTER KAPPA"]],
  [0x03bd, ["v", "GREEK SMALL LETTER NU"]],
  [0x03bf, ["o", "GREEK SMALL LETTER OMICRON"]],
  [0x03c1, ["p", "GREEK SMALL LETTER RHO"]],
  [0x03c5, ["u", "GREEK SMALL LETTER UPSILON"]],
  [0x0391, ["A", "GREEK CAPITAL LETTER ALPHA"]],
  [0x0392, ["B", "GREEK CAPITAL LETTER BETA"]],
  [0x0395, ["E", "GREEK CAPITAL LETTER EPSILON"]],
  [0x0396, ["Z", "GREEK CAPITAL LETTER ZETA"]],
  [0x0397, ["H", "GREEK CAPITAL LETTER ETA"]],
  [0x0399, ["I", "GREEK CAPITAL LETTER IOTA"]],
  [0x039a, ["K", "GREEK CAPITAL LETTER KAPPA"]],
  [0x039c, ["M", "GREEK CAPITAL LETTER MU"]],
  [0x039d, ["N", "GREEK CAPITAL LETTER NU"]],
  [0x039f, ["O", "GREEK CAPITAL LETTER OMICRON"]],
  [0x03a1, ["P", "GREEK CAPITAL LETTER RHO"]],
  [0x03a4, ["T", "GREEK CAPITAL LETTER TAU"]],
  [0x03a5, ["Y", "GREEK CAPITAL LETTER UPSILON"]],
  [0x03a7, ["X", "GREEK CAPITAL LETTER CHI"]],
  // Latin letters outside ASCII that pass for ASCII ones
  [0x0131, ["i", "LATIN SMALL LETTER DOTLESS I"]],
  [0x0251, ["a", "LATIN SMALL LETTER ALPHA"]],
  [0x0261, ["g", "LATIN SMALL LETTER SCRIPT G"]],
]);

/** The ASCII letter a non-ASCII letter passes for (confusables table, then NFKC: fullwidth, math letters). */
export function latinLookalike(cp: number): string | undefined {
  if (cp < 0x80) return undefined;
  const known = CONFUSABLES.get(cp);
  if (known) return known[0];
  const folded = String.fromCodePoint(cp).normalize("NFKC");
  return /^[A-Za-z]$/.test(folded) ? folded : undefined;
}

export function hex(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** "U+200B ZERO WIDTH SPACE", "U+E0041 TAG LATIN CAPITAL LETTER A", "U+FE0F VARIATION SELECTOR-16". */
export function charName(cp: number): string {
  const named = NAMED[cp] ?? CONFUSABLES.get(cp)?.[1];
  if (named) return named;
  if (cp >= 0xe0021 && cp <= 0xe007e) return `TAG ${asciiName(String.fromCharCode(cp - 0xe0000))}`;
  if (cp >= 0xfe00 && cp <= 0xfe0f) return `VARIATION SELECTOR-${cp - 0xfe00 + 1}`;
  if (cp >= 0xe0100 && cp <= 0xe01ef) return `VARIATION SELECTOR-${cp - 0xe0100 + 17}`;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return "CONTROL";
  if (cp >= 0xe0000 && cp <= 0xe007f) return "TAG";
  const ch = String.fromCodePoint(cp);
  if (/\p{Cf}/u.test(ch)) return "FORMAT CHARACTER";
  for (const script of ["Latin", "Cyrillic", "Greek"] as const) {
    if (new RegExp(`\\p{Script=${script}}`, "u").test(ch)) return `${script.toUpperCase()} LETTER ${ch}`;
  }
  return "CHARACTER";
}

export function charLabel(cp: number): string {
  return `<${hex(cp)} ${charName(cp)}>`;
}

// ---------------------------------------------------------------------------------------------
// Invisible characters

export type InvisibleKind = "zero-width" | "bidi" | "tag" | "variation-selector" | "control" | "format" | "filler";

/** Why a code point is invisible, or undefined for ordinary characters (\n, \t, \r are ordinary). */
export function invisibleKind(cp: number): InvisibleKind | undefined {
  if (cp === 0x0a || cp === 0x09 || cp === 0x0d) return undefined;
  if ((cp >= 0x200b && cp <= 0x200d) || cp === 0x2060 || cp === 0xfeff) return "zero-width";
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp === 0x200e || cp === 0x200f) {
    return "bidi";
  }
  if (cp === 0x061c) return "bidi";
  if (cp >= 0xe0000 && cp <= 0xe007f) return "tag";
  if ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef)) return "variation-selector";
  if (cp === 0x115f || cp === 0x1160 || cp === 0x3164 || cp === 0xffa0 || cp === 0x034f) return "filler";
  const ch = String.fromCodePoint(cp);
  if (/\p{Cc}/u.test(ch)) return "control";
  if (/\p{Cf}/u.test(ch)) return "format";
  return undefined;
}

export interface InvisibleRun {
  /** UTF-16 offsets in the text. */
  start: number;
  end: number;
  codePoints: number[];
  kinds: InvisibleKind[];
  /** ASCII spelled by Unicode tag characters, or bytes smuggled in variation selectors, when printable. */
  hidden?: string;
}

interface CodePointAt {
  cp: number;
  start: number;
  end: number;
}

function codePoints(text: string): CodePointAt[] {
  const out: CodePointAt[] = [];
  let i = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    out.push({ cp, start: i, end: i + ch.length });
    i += ch.length;
  }
  return out;
}

const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
const WESTERN = /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]/u;

function isPictographic(cp: number | undefined): boolean {
  return cp !== undefined && PICTOGRAPHIC.test(String.fromCodePoint(cp));
}

/** A joiner between letters of a script that uses it in its spelling (Persian, Indic, ...). */
function isOrthographicJoiner(cps: CodePointAt[], i: number): boolean {
  const prev = cps[i - 1]?.cp;
  const next = cps[i + 1]?.cp;
  if (prev === undefined || next === undefined) return false;
  const a = String.fromCodePoint(prev);
  const b = String.fromCodePoint(next);
  return LETTER_OR_MARK.test(a) && LETTER_OR_MARK.test(b) && !WESTERN.test(a) && !WESTERN.test(b);
}

/**
 * Legitimate uses that are not flagged: ZWJ inside emoji sequences, ZWJ/ZWNJ between letters
 * of scripts that need them, one variation selector after a character (emoji presentation),
 * and the tag sequence of a subdivision flag (🏴 + lowercase tags + CANCEL TAG).
 */
function allowedAt(cps: CodePointAt[], i: number): number {
  const cp = cps[i]!.cp;
  if (cp === 0x200d) {
    let p = i - 1;
    if (cps[p]?.cp === 0xfe0f) p--;
    if (isPictographic(cps[p]?.cp) && isPictographic(cps[i + 1]?.cp)) return 1;
  }
  if ((cp === 0x200c || cp === 0x200d) && isOrthographicJoiner(cps, i)) return 1;
  if (cp >= 0xfe00 && cp <= 0xfe0f && i > 0) {
    const prevVs = cps[i - 1]!.cp >= 0xfe00 && cps[i - 1]!.cp <= 0xfe0f;
    const next = cps[i + 1]?.cp;
    const nextVs = next !== undefined && next >= 0xfe00 && next <= 0xfe0f;
    if (!prevVs && !nextVs && invisibleKind(cps[i - 1]!.cp) === undefined) return 1;
  }
  if (cp >= 0xe0000 && cp <= 0xe007f && cps[i - 1]?.cp === 0x1f3f4) {
    let j = i;
    while (j < cps.length && cps[j]!.cp >= 0xe0030 && cps[j]!.cp <= 0xe007a && j - i < 7) j++;
    const tail = cps[j]?.cp;
    if (tail === 0xe007f && j - i >= 2) {
      const spelled = cps.slice(i, j).map((c) => String.fromCharCode(c.cp - 0xe0000));
      if (spelled.every((c) => /[a-z0-9]/.test(c))) return j - i + 1;
    }
  }
  return 0;
}

/** Runs of consecutive invisible code points, with what they hide. */
export function findInvisibleRuns(text: string): InvisibleRun[] {
  // Printable ASCII, tabs and line breaks hide nothing: most texts end here, cheaply.
  if (!/[^\t\n\r\x20-\x7e]/.test(text)) return [];
  const cps = codePoints(text);
  const runs: InvisibleRun[] = [];
  let current: InvisibleRun | undefined;
  for (let i = 0; i < cps.length; i++) {
    const at = cps[i]!;
    const kind = invisibleKind(at.cp);
    const allowed = kind === undefined ? 0 : allowedAt(cps, i);
    if (kind === undefined || allowed > 0) {
      current = undefined;
      if (allowed > 1) i += allowed - 1;
      continue;
    }
    if (!current) {
      current = { start: at.start, end: at.end, codePoints: [], kinds: [] };
      runs.push(current);
    }
    current.end = at.end;
    current.codePoints.push(at.cp);
    if (!current.kinds.includes(kind)) current.kinds.push(kind);
  }
  for (const run of runs) {
    const hidden = decodeTags(run.codePoints) ?? decodeVariationSelectors(run.codePoints);
    if (hidden !== undefined) run.hidden = hidden;
  }
  return runs;
}

/** ASCII spelled by the Unicode tag characters (U+E0020–U+E007E) among the code points. */
export function decodeTags(cps: readonly number[]): string | undefined {
  const spelled = cps
    .filter((cp) => cp >= 0xe0020 && cp <= 0xe007e)
    .map((cp) => String.fromCharCode(cp - 0xe0000))
    .join("");
  return spelled.length > 0 ? spelled : undefined;
}

/** Bytes smuggled as variation selectors (VS1–16 = 0–15, VS17–256 = 16–255), when they are printable UTF-8. */
export function decodeVariationSelectors(cps: readonly number[]): string | undefined {
  const bytes: number[] = [];
  for (const cp of cps) {
    if (cp >= 0xfe00 && cp <= 0xfe0f) bytes.push(cp - 0xfe00);
    else if (cp >= 0xe0100 && cp <= 0xe01ef) bytes.push(cp - 0xe0100 + 16);
  }
  if (bytes.length < 2) return undefined;
  try {
    const decoded = new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(bytes));
    return /^[\P{C}\n\t]+$/u.test(decoded) ? decoded : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Rendering

const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/;
const ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
/** Longest run of tag characters rendered one by one; longer runs are abbreviated. */
const MAX_TAGS_SHOWN = 4;

/**
 * The text on one line with every invisible character spelled out ("<U+200B ZERO WIDTH SPACE>").
 * `mark` spells out further code points (e.g. homoglyphs inside a word).
 */
export function visible(text: string, mark?: (cp: number) => boolean): string {
  // Printable ASCII is shown as it is (no escape, nothing invisible): most text, without a walk.
  if (mark === undefined && !NOT_PRINTABLE_ASCII.test(text)) return text;
  const cps = codePoints(text);
  let out = "";
  for (let i = 0; i < cps.length; i++) {
    const { cp } = cps[i]!;
    const ch = String.fromCodePoint(cp);
    const escaped = ESCAPES[ch];
    if (escaped) {
      out += escaped;
      continue;
    }
    if (cp >= 0xe0000 && cp <= 0xe007f) {
      let j = i;
      while (j < cps.length && cps[j]!.cp >= 0xe0000 && cps[j]!.cp <= 0xe007f) j++;
      const length = j - i;
      if (length > MAX_TAGS_SHOWN + 1) {
        const shown = cps.slice(i, i + MAX_TAGS_SHOWN).map((c) => charLabel(c.cp));
        out += `${shown.join("")}<…${length - MAX_TAGS_SHOWN - 1} more tag characters…>${charLabel(cps[j - 1]!.cp)}`;
        i = j - 1;
        continue;
      }
    }
    if (invisibleKind(cp) !== undefined || cp === 0x2028 || cp === 0x2029 || mark?.(cp)) out += charLabel(cp);
    else out += ch;
  }
  return out;
}

/** Default characters of context either side of a quoted span. */
export const CONTEXT = 40;

function safeBoundary(text: string, index: number): number {
  if (index <= 0) return 0;
  if (index >= text.length) return text.length;
  const code = text.charCodeAt(index);
  // do not start or end between the halves of a surrogate pair
  return code >= 0xdc00 && code <= 0xdfff ? index - 1 : index;
}

/**
 * The span [start, end) of `text` with up to `context` characters either side, made visible,
 * with "…" where the text was cut. This is what a finding quotes.
 */
export function quoteSpan(
  text: string,
  start: number,
  end: number,
  options: { context?: number; mark?: (cp: number) => boolean } = {},
): string {
  const context = options.context ?? CONTEXT;
  const from = safeBoundary(text, start - context);
  const to = safeBoundary(text, end + context);
  const before = visible(text.slice(from, start));
  const middle = visible(text.slice(start, end), options.mark);
  const after = visible(text.slice(end, to));
  return `${from > 0 ? "…" : ""}${before}${middle}${after}${to < text.length ? "…" : ""}`;
}

/** A short one-line rendering of a string for a message (made visible, cut to `max` characters). */
export function shorten(text: string, max = 80): string {
  const shown = visible(text);
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
}

// ---------------------------------------------------------------------------------------------
// Spans

export interface Span {
  start: number;
  end: number;
}

/** Sentence-like spans: split after . ! ? followed by whitespace (kept with the sentence), and at line breaks. */
export function sentences(text: string): Span[] {
  const out: Span[] = [];
  let start = 0;
  const boundary = /[.!?]+(?:\s+|$)|\n+/g;
  for (const m of text.matchAll(boundary)) {
    const end = m.index + m[0].length;
    if (end > start) out.push({ start, end });
    start = end;
  }
  if (start < text.length) out.push({ start, end: text.length });
  return out;
}

const NO_SPANS: readonly (Span & { match: RegExpExecArray })[] = Object.freeze([]);

/** The global copy of each non-global pattern given to matchSpans, made once. */
const GLOBAL = new WeakMap<RegExp, RegExp>();

/**
 * All matches of a regex as spans, with the match and its groups, as `matchAll` finds them.
 * exec on the pattern itself (its lastIndex reset before and after) rather than matchAll,
 * which copies the pattern and builds an iterator on every call: the security rules run
 * dozens of patterns over every text, and nearly all of them find nothing.
 */
export function matchSpans(text: string, re: RegExp): (Span & { match: RegExpExecArray })[] {
  let global = re;
  if (!re.global) {
    global = GLOBAL.get(re) ?? new RegExp(re.source, `${re.flags}g`);
    GLOBAL.set(re, global);
  }
  global.lastIndex = 0;
  const first = global.exec(text);
  // Nearly every call finds nothing: one shared, frozen empty answer instead of a new array
  // (callers only read the spans).
  if (first === null) return NO_SPANS as (Span & { match: RegExpExecArray })[];
  const out: (Span & { match: RegExpExecArray })[] = [];
  try {
    for (let m: RegExpExecArray | null = first; m !== null; m = global.exec(text)) {
      out.push({ start: m.index, end: m.index + m[0].length, match: m });
      // An empty match moves on by one code unit, or one code point under u/v, as matchAll does.
      if (m[0] === "") global.lastIndex = advance(text, global.lastIndex, global.unicode || global.flags.includes("v"));
    }
  } finally {
    global.lastIndex = 0;
  }
  return out;
}

/**
 * Whether `re` matches anywhere in `text`, global or not, leaving its lastIndex at 0: the gates
 * test the very patterns matchSpans runs, so a pattern is compiled once, not once per copy.
 */
export function hasMatch(re: RegExp, text: string): boolean {
  re.lastIndex = 0;
  const found = re.test(text);
  re.lastIndex = 0;
  return found;
}

function advance(text: string, index: number, unicode: boolean): number {
  if (!unicode || index + 1 >= text.length) return index + 1;
  const code = text.charCodeAt(index);
  const next = text.charCodeAt(index + 1);
  return code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? index + 2 : index + 1;
}

/** Letter runs ("words": letters and combining marks) with their offsets. */
export function words(text: string): (Span & { word: string })[] {
  return [...text.matchAll(/[\p{L}\p{M}]+/gu)].map((m) => ({ start: m.index, end: m.index + m[0].length, word: m[0] }));
}

/** Shannon entropy in bits per character. */
export function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
