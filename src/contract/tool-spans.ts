/**
 * Reading a lockfile's tools one by one, so that two lockfiles read in one run share what is
 * the same. In the layout mcp-contract writes (2-space JSON, one tool per element of the
 * top-level "tools" array), each tool is a span of text from its `{` to the first line that is
 * its closing `}` (`\n    }`). A tool of the second file whose text is exactly that of a tool
 * of the first is that same value: it is not parsed again, not validated again (it passed at
 * the same depth in the first file), and the diff sees one object on both sides, so unchanged
 * tools cost a text comparison instead of a parse, a validation walk and an equality walk each.
 *
 * Sound for any text, not only ours: the text is cut into `before [ span, span, ... ] after`
 * at fixed separators; every span must parse (or be the text of a span that did), and
 * `before 0 after` and `before 1 after` must parse with `tools` equal to 0 and to 1, which
 * proves the cut-out region is exactly the value of the top-level "tools" key. JSON being
 * context-free, the whole text then parses to the skeleton with that array in place. Anything
 * else (another layout, a duplicate key elsewhere, a span that does not parse) answers
 * undefined, and the caller parses the whole text as before. Pure; no I/O.
 */
import { isJsonObject, type JsonObject } from "./model.ts";

const OPEN = '\n  "tools": [\n    {';
/** A tool's closing line; what follows it is NEXT (another tool) or CLOSE (the end of the list). */
const TOOL_END = "\n    }";
const NEXT = ",\n    {";
const CLOSE = "\n  ]";
/** How a tool's text starts in our layout: its name is its first field. */
const NAME_START = '{\n      "name": ';
/** Texts compared at most per look-up: a file of many same-named tools must not make reading quadratic. */
const MAX_CANDIDATES = 64;
/**
 * Where the search for a tool's closing line may start, as a share of the shortest tool read so
 * far: searching every character of a big file for it cost as much as a fifth of parsing it. A
 * tool shorter than that is cut too long, which JSON.parse refuses (two values), and is cut
 * again from its start; each such tool makes the shortest about a quarter shorter (give or take
 * its 6-character closing line), so only about log base 4/3 of (longest / shortest) tools of a
 * file are parsed twice, whatever their order.
 */
const SKIP_SHARE = 0.75;

/** One tool's text and its value. */
export interface Span {
  text: string;
  value: unknown;
}

/**
 * The tools of the lockfile read last in a session (read-session.ts), in file order, every one of
 * which passed the contract boundary at its place (read.ts remembers a file only after it
 * passed): what the next may share.
 */
export interface SharedTools {
  previous: readonly Span[];
  /** `previous` by the first line of each text, built on the first tool that is not where expected. */
  byLine?: Map<string, number[]>;
}

/** The tool's first line (its name, in our layout), or "" when it does not start with its name. */
function firstLine(text: string): string {
  if (!text.startsWith(NAME_START)) return "";
  const end = text.indexOf("\n", NAME_START.length);
  return end === -1 ? text : text.slice(0, end);
}

export interface SpanRead {
  /** The parsed file, equal to JSON.parse of its text. */
  data: JsonObject;
  spans: Span[];
  /**
   * For each tool, whether it is known to pass the contract boundary at its place: a tool of the
   * lockfile read before (which passed there), or one `check` passed right after parsing it.
   */
  passed: boolean[];
}

/**
 * `check(tool, text)`: whether a tool just parsed from `text` (its span) passes the contract
 * boundary at its place; asked of every tool not shared with the lockfile read before.
 */
export type ToolCheck = (tool: unknown, text: string) => boolean;

/**
 * How a caller reads each tool it has not seen before: `parse(text)` builds the tool from its
 * span, equal to JSON.parse of it, or answers undefined (JSON.parse it then); `check` as above;
 * `building()`: whether `parse` may still build a tool (once it has stopped, for the rest of the
 * read, each tool is JSON.parse'd, and its span may be found by a search that skips its start).
 */
export interface ToolReader {
  check: ToolCheck;
  parse?: (text: string) => unknown;
  building?: () => boolean;
}

/**
 * The file parsed tool by tool, sharing the tools of the lockfile read before in the session
 * (`shared`, when given); undefined when the layout is not ours.
 */
export function parseByTools(text: string, reader?: ToolReader, shared?: SharedTools): SpanRead | undefined {
  const known = shared?.previous ?? [];
  try {
    const start = text.indexOf(OPEN);
    if (start === -1) return undefined;
    const open = start + OPEN.indexOf("[");
    const spans: Span[] = [];
    const values: unknown[] = [];
    const passed: boolean[] = [];
    // Where the next tool is expected among `previous`: files list tools in the same (sorted) order,
    // so most tools are the next one there, and one text comparison settles them.
    let expected = 0;
    let from = start + OPEN.length - 1;
    // Spans are found by a search that skips the start of each tool only without a lockfile to
    // share with (its tools are compared text by text) and once the reader parses no more.
    const skips = !shared && (reader?.parse === undefined || reader.building !== undefined);
    let building = reader?.parse !== undefined;
    let shortest = Number.POSITIVE_INFINITY;
    for (;;) {
      let span: Span | undefined;
      let end = -1;
      const hint = known[expected];
      if (hint !== undefined && text.startsWith(hint.text, from)) {
        end = from + hint.text.length;
        // Its text ends at its first TOOL_END, so a scan from `from` would cut exactly here too.
        if (text.startsWith(NEXT, end) || text.startsWith(CLOSE, end)) {
          span = hint;
          expected++;
        }
      }
      if (span === undefined) {
        let own: string | undefined;
        let value: unknown;
        if (skips && building) building = reader?.building?.() === true;
        if (skips && !building && shortest !== Number.POSITIVE_INFINITY) {
          own = longer(text, from, from + Math.floor(shortest * SKIP_SHARE));
          value = own === undefined ? undefined : wholeValue(own);
          if (value === undefined) own = undefined;
        }
        if (own === undefined) {
          const at = text.indexOf(TOOL_END, from);
          if (at === -1) return undefined;
          own = text.slice(from, at + TOOL_END.length);
        }
        end = from + own.length;
        if (own.length < shortest) shortest = own.length;
        // The expected tool, changed (the same name line), is followed by the next one; else look it up.
        const inPlace = hint !== undefined && firstLine(own) === firstLine(hint.text);
        const found = inPlace || !shared ? { next: expected + 1 } : findPrevious(own, shared);
        if (found.next !== undefined) expected = found.next;
        span = found.span;
        if (span === undefined) {
          span = { text: own, value: value !== undefined ? value : (reader?.parse?.(own) ?? JSON.parse(own)) };
          passed.push(reader?.check(span.value, own) === true);
        } else passed.push(true);
      } else passed.push(true);
      spans.push(span);
      values.push(span.value);
      if (text.startsWith(NEXT, end)) {
        from = end + NEXT.length - 1;
        continue;
      }
      if (!text.startsWith(CLOSE, end)) return undefined;
      const before = text.slice(0, open);
      const after = text.slice(end + CLOSE.length);
      const skeleton = JSON.parse(`${before}0${after}`) as unknown;
      const other = JSON.parse(`${before}1${after}`) as unknown;
      if (!isJsonObject(skeleton) || !isJsonObject(other) || skeleton.tools !== 0 || other.tools !== 1) {
        return undefined;
      }
      // Only our lockfiles share: a peer tool's file is converted, not read as it is.
      if (skeleton.lockfileVersion === undefined) return undefined;
      skeleton.tools = values as JsonObject[];
      return { data: skeleton, spans, passed };
    }
  } catch {
    return undefined;
  }
}

/**
 * The span from `from` to the first tool's closing line at `skipTo` or after, or undefined when
 * there is none. It is the tool's whole text when the tool ends there or later: the same span a
 * search from `from` finds when the tool's first closing line is its end, and, where it is not
 * (another layout), still one value if it parses as one (parseByTools' proof holds either way).
 */
function longer(text: string, from: number, skipTo: number): string | undefined {
  const at = text.indexOf(TOOL_END, skipTo);
  return at === -1 ? undefined : text.slice(from, at + TOOL_END.length);
}

/** JSON.parse of a text, or undefined when it is not one JSON value (a span cut past its tool's end). */
function wholeValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A tool of the lockfile read before with exactly this text, and where the tool after it is
 * expected: after the one with the same first line (the same tool, changed) when none is equal.
 */
function findPrevious(text: string, shared: SharedTools): { span?: Span | undefined; next?: number } {
  const { previous } = shared;
  if (previous.length === 0) return {};
  shared.byLine ??= indexByLine(previous);
  const candidates = shared.byLine.get(firstLine(text));
  if (candidates === undefined) return {};
  const shown = Math.min(candidates.length, MAX_CANDIDATES);
  for (let c = 0; c < shown; c++) {
    const index = candidates[c] as number;
    const span = previous[index] as Span;
    if (span.text === text) return { span, next: index + 1 };
  }
  return { next: (candidates[0] as number) + 1 };
}

function indexByLine(spans: readonly Span[]): Map<string, number[]> {
  const byLine = new Map<string, number[]>();
  spans.forEach((span, index) => {
    const line = firstLine(span.text);
    const same = byLine.get(line);
    if (same) same.push(index);
    else byLine.set(line, [index]);
  });
  return byLine;
}
