/**
 * Reading a lockfile's tools one by one, so that two lockfiles read in one run share what is
 * the same. In the layout mcp-contract writes (2-space JSON, one tool per element of the
 * top-level "tools" array), each tool is a span of text between fixed separators. A tool of
 * the second file whose text is exactly that of a tool of the first is that same value: it is
 * not parsed again, not validated again (it passed at the same place in the first file), and
 * the diff sees one object on both sides, so unchanged tools cost a string comparison instead
 * of a parse, a validation walk and an equality walk each.
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
const SEPARATOR = "},\n    {";
const CLOSE = "}\n  ]";

/** One tool's text and its value. */
interface Span {
  text: string;
  value: unknown;
}

/** The tools of the lockfile read last, by bucketOf: what the next one may share. */
let previous = new Map<string, Span[]>();

const NAME_LINE = '\n      "name": ';

/**
 * A short key that equal texts share: the length and the tool's own name line (in our layout
 * the first line at its indentation). Only a bucket: sharing still needs the whole text equal.
 */
function bucketOf(text: string): string {
  const at = text.indexOf(NAME_LINE);
  const line = at === -1 ? "" : text.slice(at, text.indexOf("\n", at + 1));
  return `${text.length}${line}`;
}
/** Tool values that passed the contract boundary at $.tools[i] of a lockfile (validate.ts). */
const validated = new WeakSet<object>();

export interface SpanRead {
  /** The parsed file, equal to JSON.parse of its text. */
  data: JsonObject;
  spans: Span[];
}

/** The file parsed tool by tool, sharing the tools of the lockfile read before; undefined when the layout is not ours. */
export function parseByTools(text: string): SpanRead | undefined {
  try {
    const start = text.indexOf(OPEN);
    if (start === -1) return undefined;
    const open = start + OPEN.indexOf("[");
    // One pass finds the separators and the first close after them (twice as fast as two indexOf scans).
    const cuts = /\},\n {4}\{|\}\n {2}\]/g;
    cuts.lastIndex = start;
    const spans: Span[] = [];
    let from = start + OPEN.length - 1;
    let end = -1;
    for (let cut = cuts.exec(text); cut !== null; cut = cuts.exec(text)) {
      if (cut[0] === CLOSE) {
        end = cut.index;
        break;
      }
      spans.push(spanOf(text.slice(from, cut.index + 1)));
      from = cut.index + SEPARATOR.length - 1;
    }
    if (end === -1) return undefined;
    spans.push(spanOf(text.slice(from, end + 1)));
    const before = text.slice(0, open);
    const after = text.slice(end + CLOSE.length);
    const skeleton = JSON.parse(`${before}0${after}`) as unknown;
    const other = JSON.parse(`${before}1${after}`) as unknown;
    if (!isJsonObject(skeleton) || !isJsonObject(other) || skeleton.tools !== 0 || other.tools !== 1) return undefined;
    // Only our lockfiles share: a peer tool's file is converted, not read as it is.
    if (skeleton.lockfileVersion === undefined) return undefined;
    skeleton.tools = spans.map((span) => span.value) as JsonObject[];
    return { data: skeleton, spans };
  } catch {
    return undefined;
  }
}

function spanOf(text: string): Span {
  for (const span of previous.get(bucketOf(text)) ?? []) if (span.text === text) return span;
  return { text, value: JSON.parse(text) };
}

/**
 * What the contract boundary still has to check: `data` with each tool that already passed it
 * (shared with the lockfile read before) replaced by its name alone, which passes the same way.
 */
export function unvalidated(data: JsonObject): JsonObject {
  const tools = data.tools;
  if (!Array.isArray(tools) || !tools.some((tool) => isJsonObject(tool) && validated.has(tool))) return data;
  return {
    ...data,
    tools: tools.map((tool) => (isJsonObject(tool) && validated.has(tool) ? { name: tool.name as string } : tool)),
  };
}

/** After a lockfile passed the boundary: its tools are validated, and the next lockfile may share them. */
export function remember(read: SpanRead): void {
  previous = new Map();
  for (const span of read.spans) {
    if (isJsonObject(span.value)) validated.add(span.value);
    const key = bucketOf(span.text);
    const same = previous.get(key);
    if (same) same.push(span);
    else previous.set(key, [span]);
  }
}
