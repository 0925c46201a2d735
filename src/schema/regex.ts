/**
 * Server-sent regular expressions (`pattern`, `patternProperties`) run in bounded time.
 *
 * A pattern is read as JavaScript reads it with the `u` flag (the JSON Schema dialect of
 * regular expressions, and what ajv compiles), but matched here, not by the host's
 * backtracking engine, where `^(a+)+$` against a long run of `a` ending in `!` takes
 * exponential time. The pattern is compiled into a small program and searched depth-first
 * with a memo of (instruction, position) states that failed: a pattern without
 * back-references is then matched in time linear in the string (times the program's size,
 * at most MAX_MEMO_STATES states), however it nests its quantifiers.
 *
 * What is not linear runs under a step budget: a pattern with back-references (they need the
 * captured text, so it is searched without the memo) and lookarounds (each evaluated on its
 * own). Such a test may take REGEX_STEP_BUDGET steps, and all tests of one session (see
 * withRegexSession: one schema comparison, one report's witness search) share
 * REGEX_SESSION_BUDGET. A test that runs out throws RegexUndecidable: whether the string
 * matches is then undecidable, and callers report it so rather than guess. Single-character
 * atoms (classes, `\p{…}`, `\d`, `.`) are tested by the host's own engine on one character
 * at a time, so their meaning is exactly JavaScript's. Pure.
 */

import { type CharTest, type Node, type Parsed, parse, Unsupported } from "./regex-parse.ts";

/** Budgeted steps (back-references, lookarounds) one test of one string may take. */
export const REGEX_STEP_BUDGET = 200_000;
/** Budgeted steps all tests of one session may take together (a compare or a witness search). */
export const REGEX_SESSION_BUDGET = 20_000_000;
/** Instructions a compiled pattern may have (counted repetitions are unrolled). */
const MAX_PROGRAM = 50_000;
/** (instruction × position) states the failure memo may track for one test: the linear search's bound. */
const MAX_MEMO_STATES = 1 << 22;

/** The pattern could not be decided against a string within the budget. */
export class RegexUndecidable extends Error {
  constructor(readonly pattern: string) {
    super(`the regular expression /${pattern}/ ran out of its budget`);
    this.name = "RegexUndecidable";
  }
}

/** A compiled pattern: test() answers like RegExp.prototype.test or throws RegexUndecidable. */
export interface BoundedRegExp {
  readonly source: string;
  test(s: string): boolean;
}

/** Steps left to the open session; undefined outside one (each test then has only its own budget). */
let sessionLeft: number | undefined;

/**
 * Run `fn` as one session: all its tests share REGEX_SESSION_BUDGET steps, so that the time
 * spent on patterns is bounded however many strings are tested. Sessions do not nest: inside
 * an open session, `fn` shares that one.
 */
export function withRegexSession<T>(fn: () => T): T {
  if (sessionLeft !== undefined) return fn();
  sessionLeft = REGEX_SESSION_BUDGET;
  try {
    return fn();
  } finally {
    sessionLeft = undefined;
  }
}

// ── the program ────────────────────────────────────────────────────────────────────────

const Op = {
  Char: 0,
  Set: 1,
  Split: 2,
  Jmp: 3,
  Save: 4,
  Reset: 5,
  Mark: 6,
  Check: 7,
  Assert: 8,
  Look: 9,
  Backref: 10,
  Match: 11,
} as const;
type OpCode = (typeof Op)[keyof typeof Op];

interface Ins {
  op: OpCode;
  /** Char: the code point; Split/Jmp: the first target; Save/Mark/Check: the slot; Reset: first slot; Look: its index. */
  a: number;
  /** Split: the second target; Reset: the slot after the last. */
  b: number;
  /** Consuming instructions inside a lookbehind read leftwards. */
  back: boolean;
  test?: CharTest;
  what?: "^" | "$" | "b" | "B";
  groups?: number[];
}

interface LookInfo {
  start: number;
  behind: boolean;
  negate: boolean;
}

interface Program {
  code: Ins[];
  looks: LookInfo[];
  slots: number;
  marks: number;
  backrefs: boolean;
}

function nullable(node: Node): boolean {
  switch (node.k) {
    case "char":
    case "set":
      return false;
    case "seq":
      return node.items.every(nullable);
    case "alt":
      return node.alts.some(nullable);
    case "group":
      return nullable(node.body);
    case "repeat":
      return node.min === 0 || nullable(node.body);
    default:
      return true;
  }
}

/** The capture slots a node's groups use, as [first, end), or undefined when it has none. */
function groupRange(node: Node): [number, number] | undefined {
  let lo = Number.POSITIVE_INFINITY;
  let hi = -1;
  const visit = (n: Node): void => {
    switch (n.k) {
      case "group":
        lo = Math.min(lo, n.index);
        hi = Math.max(hi, n.index);
        visit(n.body);
        break;
      case "seq":
        for (const item of n.items) visit(item);
        break;
      case "alt":
        for (const alt of n.alts) visit(alt);
        break;
      case "look":
      case "repeat":
        visit(n.body);
        break;
      default:
        break;
    }
  };
  visit(node);
  return hi < 0 ? undefined : [2 * lo, 2 * hi + 2];
}

function compile(parsed: Parsed): Program {
  const code: Ins[] = [];
  const looks: LookInfo[] = [];
  const pendingLooks: { body: Node; info: LookInfo }[] = [];
  let marks = 0;
  const withCaptures = parsed.backrefs;
  const emit = (op: OpCode, a = 0, b = 0, back = false, extra: Partial<Ins> = {}): number => {
    if (code.length >= MAX_PROGRAM) throw new Unsupported();
    code.push({ op, a, b, back, ...extra });
    return code.length - 1;
  };

  const gen = (node: Node, back: boolean): void => {
    switch (node.k) {
      case "char":
        emit(Op.Char, node.cp, 0, back);
        return;
      case "set":
        emit(Op.Set, 0, 0, back, { test: node.test });
        return;
      case "seq": {
        const items = back ? [...node.items].reverse() : node.items;
        for (const item of items) gen(item, back);
        return;
      }
      case "alt": {
        const jumps: number[] = [];
        node.alts.forEach((alt, n) => {
          if (n < node.alts.length - 1) {
            const split = emit(Op.Split);
            (code[split] as Ins).a = code.length;
            gen(alt, back);
            jumps.push(emit(Op.Jmp));
            (code[split] as Ins).b = code.length;
          } else gen(alt, back);
        });
        for (const j of jumps) (code[j] as Ins).a = code.length;
        return;
      }
      case "group": {
        if (!withCaptures) {
          gen(node.body, back);
          return;
        }
        const [first, second] = back ? [2 * node.index + 1, 2 * node.index] : [2 * node.index, 2 * node.index + 1];
        emit(Op.Save, first);
        gen(node.body, back);
        emit(Op.Save, second);
        return;
      }
      case "assert":
        emit(Op.Assert, 0, 0, back, { what: node.what });
        return;
      case "look": {
        const info: LookInfo = { start: -1, behind: node.behind, negate: node.negate };
        looks.push(info);
        pendingLooks.push({ body: node.body, info });
        emit(Op.Look, looks.length - 1);
        return;
      }
      case "backref":
        emit(Op.Backref, 0, 0, back, { groups: node.groups });
        return;
      case "repeat": {
        const { body, min, max, greedy } = node;
        const captures = withCaptures ? groupRange(body) : undefined;
        // Optional iterations that matched nothing are rejected, as in JavaScript (needed
        // where captures count; elsewhere the failure memo ends such loops).
        const check = withCaptures && nullable(body);
        const iteration = (optional: boolean): void => {
          if (captures) emit(Op.Reset, captures[0], captures[1]);
          const mark = optional && check ? marks++ : -1;
          if (mark >= 0) emit(Op.Mark, mark);
          gen(body, back);
          if (mark >= 0) emit(Op.Check, mark);
        };
        for (let n = 0; n < min; n++) iteration(false);
        if (max === Number.POSITIVE_INFINITY) {
          const split = emit(Op.Split);
          iteration(true);
          emit(Op.Jmp, split);
          const exit = code.length;
          const s = code[split] as Ins;
          [s.a, s.b] = greedy ? [split + 1, exit] : [exit, split + 1];
        } else {
          const splits: number[] = [];
          for (let n = min; n < max; n++) {
            splits.push(emit(Op.Split));
            iteration(true);
          }
          const exit = code.length;
          for (const at of splits) {
            const s = code[at] as Ins;
            [s.a, s.b] = greedy ? [at + 1, exit] : [exit, at + 1];
          }
        }
        return;
      }
    }
  };

  gen(parsed.tree, false);
  emit(Op.Match);
  // Lookaround bodies follow the main program, each ending in its own Match.
  while (pendingLooks.length) {
    const { body, info } = pendingLooks.shift() as { body: Node; info: LookInfo };
    info.start = code.length;
    gen(body, info.behind);
    emit(Op.Match);
  }
  return { code, looks, slots: 2 * (parsed.groups + 1), marks, backrefs: parsed.backrefs };
}

// ── matching ───────────────────────────────────────────────────────────────────────────

const isWordChar = (cp: number | undefined) =>
  cp !== undefined && ((cp >= 97 && cp <= 122) || (cp >= 65 && cp <= 90) || (cp >= 48 && cp <= 57) || cp === 95);

function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0) as number);
  return out;
}

const CHOICE = 0;
const UNDO = 1;

class Matcher {
  private steps = 0;
  private readonly caps: Int32Array;
  private readonly marks: Int32Array;
  private readonly n: number;
  /** Failure memo for the main program (no back-references): (pc, pos) states that failed. */
  private readonly memo: Uint8Array | undefined;
  private readonly lookCache = new Map<number, boolean>();

  constructor(
    private readonly prog: Program,
    private readonly input: number[],
    private readonly budget: number,
  ) {
    this.n = input.length;
    this.caps = new Int32Array(prog.slots).fill(-1);
    this.marks = new Int32Array(prog.marks).fill(-1);
    if (!prog.backrefs) this.memo = new Uint8Array(((prog.code.length * (this.n + 1)) >> 3) + 1);
  }

  get used(): number {
    return this.steps;
  }

  test(): boolean {
    for (let start = 0; start <= this.n; start++) {
      if (this.prog.backrefs) this.caps.fill(-1);
      if (this.run(0, start, this.memo, undefined) >= 0) return true;
    }
    return false;
  }

  private assert(what: string, pos: number): boolean {
    switch (what) {
      case "^":
        return pos === 0;
      case "$":
        return pos === this.n;
      default: {
        const boundary = isWordChar(this.input[pos - 1]) !== isWordChar(this.input[pos]);
        return what === "b" ? boundary : !boundary;
      }
    }
  }

  private backref(ins: Ins, pos: number): number {
    let from = -1;
    let to = -1;
    for (const g of ins.groups as number[]) {
      const s = this.caps[2 * g] as number;
      const e = this.caps[2 * g + 1] as number;
      if (s >= 0 && e >= 0) {
        from = s;
        to = e;
        break;
      }
    }
    if (from < 0) return pos; // a group that did not take part matches the empty string
    const len = to - from;
    const at = ins.back ? pos - len : pos;
    if (at < 0 || at + len > this.n) return -1;
    for (let k = 0; k < len; k++) if (this.input[from + k] !== this.input[at + k]) return -1;
    return ins.back ? at : pos + len;
  }

  private look(index: number, pos: number, undo: number[]): boolean {
    const info = this.prog.looks[index] as LookInfo;
    const key = index * (this.n + 1) + pos;
    if (!this.prog.backrefs) {
      const cached = this.lookCache.get(key);
      if (cached !== undefined) return cached;
      // States are noted per evaluation and join the failure memo only when the whole
      // evaluation failed: states on a successful path must not count as failed.
      const seen = new Set<number>();
      const found = this.run(info.start, pos, this.memo, seen) >= 0;
      if (!found && this.memo) {
        const memo = this.memo;
        for (const state of seen) memo[state >> 3] = (memo[state >> 3] as number) | (1 << (state & 7));
      }
      const result = found !== info.negate;
      this.lookCache.set(key, result);
      return result;
    }
    const before = this.caps.slice();
    const found = this.run(info.start, pos, undefined, undefined) >= 0;
    if (!found || info.negate) {
      this.caps.set(before);
      return found !== info.negate;
    }
    // A positive lookaround keeps the captures it made; undo them on backtracking.
    for (let s = 0; s < before.length; s++) {
      if (before[s] !== this.caps[s]) undo.push(s, before[s] as number, UNDO);
    }
    return true;
  }

  /**
   * Depth-first from (pc, pos): the end position of the first match, or -1. The stack holds
   * triples: choice points (pc, pos, CHOICE) and undo records (slot, value, UNDO) for
   * captures and marks (slots past the captures are marks).
   */
  private run(pc: number, pos: number, memo: Uint8Array | undefined, seen: Set<number> | undefined): number {
    const { code } = this.prog;
    const width = this.n + 1;
    const stack: number[] = [];
    const slots = this.caps.length;
    // The main search with the failure memo enters each state once: bounded without counting.
    const budgeted = !memo || seen !== undefined;
    for (;;) {
      let ok = true;
      if (budgeted && ++this.steps > this.budget) throw new BudgetOut();
      if (memo) {
        // memo: states known to fail; seen (in a lookaround): states visited in this evaluation.
        const state = pc * width + pos;
        const byte = state >> 3;
        const bit = 1 << (state & 7);
        if ((memo[byte] as number) & bit) ok = false;
        else if (!seen) memo[byte] = (memo[byte] as number) | bit;
        else if (seen.has(state)) ok = false;
        else seen.add(state);
      }
      if (ok) {
        const ins = code[pc] as Ins;
        switch (ins.op) {
          case Op.Char:
          case Op.Set: {
            const at = ins.back ? pos - 1 : pos;
            const cp = this.input[at];
            if (cp !== undefined && (ins.op === Op.Char ? cp === ins.a : (ins.test as CharTest)(cp))) {
              pos = ins.back ? at : pos + 1;
              pc++;
            } else ok = false;
            break;
          }
          case Op.Split:
            stack.push(ins.b, pos, CHOICE);
            pc = ins.a;
            break;
          case Op.Jmp:
            pc = ins.a;
            break;
          case Op.Save:
            stack.push(ins.a, this.caps[ins.a] as number, UNDO);
            this.caps[ins.a] = pos;
            pc++;
            break;
          case Op.Reset:
            for (let s = ins.a; s < ins.b; s++) {
              stack.push(s, this.caps[s] as number, UNDO);
              this.caps[s] = -1;
            }
            pc++;
            break;
          case Op.Mark:
            stack.push(slots + ins.a, this.marks[ins.a] as number, UNDO);
            this.marks[ins.a] = pos;
            pc++;
            break;
          case Op.Check:
            if (this.marks[ins.a] === pos) ok = false;
            else pc++;
            break;
          case Op.Assert:
            if (this.assert(ins.what as string, pos)) pc++;
            else ok = false;
            break;
          case Op.Look:
            if (this.look(ins.a, pos, stack)) pc++;
            else ok = false;
            break;
          case Op.Backref: {
            const next = this.backref(ins, pos);
            if (next >= 0) {
              pos = next;
              pc++;
            } else ok = false;
            break;
          }
          case Op.Match:
            return pos;
        }
      }
      if (ok) continue;
      // Backtrack: undo records back to the latest choice point.
      for (;;) {
        if (stack.length === 0) return -1;
        const tag = stack.pop() as number;
        const value = stack.pop() as number;
        const first = stack.pop() as number;
        if (tag === UNDO) {
          if (first < slots) this.caps[first] = value;
          else this.marks[first - slots] = value;
          continue;
        }
        pc = first;
        pos = value;
        break;
      }
    }
  }
}

class BudgetOut extends Error {}

// ── the public surface ─────────────────────────────────────────────────────────────────

class Compiled implements BoundedRegExp {
  constructor(
    readonly source: string,
    private readonly prog: Program | undefined,
  ) {}

  /** As RegExp writes itself (ajv keys its compiled patterns by this text). */
  toString(): string {
    return `/${this.source}/u`;
  }

  test(s: string): boolean {
    const prog = this.prog;
    if (!prog) throw new RegexUndecidable(this.source);
    const input = codePoints(s);
    if (!prog.backrefs && prog.code.length * (input.length + 1) > MAX_MEMO_STATES) {
      throw new RegexUndecidable(this.source);
    }
    const budget = Math.min(REGEX_STEP_BUDGET, sessionLeft ?? REGEX_STEP_BUDGET);
    const matcher = new Matcher(prog, input, budget);
    try {
      return matcher.test();
    } catch (error) {
      if (error instanceof BudgetOut) throw new RegexUndecidable(this.source);
      throw error;
    } finally {
      if (sessionLeft !== undefined) sessionLeft = Math.max(0, sessionLeft - matcher.used);
    }
  }
}

const cache = new Map<string, Compiled | null>();

/**
 * The pattern compiled for bounded matching, or undefined when JavaScript rejects it with
 * the `u` flag (an invalid pattern). A pattern whose syntax this reader does not know is
 * returned too, but every test of it is undecidable.
 */
export function compileRegex(pattern: string): BoundedRegExp | undefined {
  let compiled = cache.get(pattern);
  if (compiled === undefined) {
    try {
      new RegExp(pattern, "u");
      let prog: Program | undefined;
      try {
        prog = compile(parse(pattern));
      } catch {
        // Unsupported syntax, a program past MAX_PROGRAM, nesting too deep to read: never decided.
        prog = undefined;
      }
      compiled = new Compiled(pattern, prog);
    } catch {
      compiled = null;
    }
    if (cache.size > 2000) cache.clear();
    cache.set(pattern, compiled);
  }
  return compiled ?? undefined;
}

/**
 * Whether `s` matches the pattern: true or false, "invalid" when the pattern does not compile,
 * "undecidable" when the budget ran out.
 */
export function testRegex(pattern: string, s: string): boolean | "invalid" | "undecidable" {
  const re = compileRegex(pattern);
  if (!re) return "invalid";
  try {
    return re.test(s);
  } catch (error) {
    if (error instanceof RegexUndecidable) return "undecidable";
    throw error;
  }
}
