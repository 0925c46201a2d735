/**
 * Shapes read from the lockfile text instead of serializing every schema (src/lint/shapes.ts).
 * In the layout mcp-contract writes, each tool's schema is a span of text from
 * `\n      "inputSchema": {` to the first `\n      }` after it, and tools of one shape have the
 * same span, so comparing spans (native string comparison) finds the shapes; only one schema
 * of each shape is parsed and serialized.
 *
 * Sound for any text that is the contract's own (`JSON.parse(text)` gives the contract, which
 * the lint command's reading guarantees): every span is replaced by a number of its own and the
 * rest parsed; where a tool's schema member holds its span's number, that member is exactly the
 * span's value (JSON is context-free, and each distinct span is checked to be one whole value).
 * Anything else (another layout, a span that is no value, many distinct schemas, a tool whose
 * name differs) answers undefined, and the caller serializes as before. Pure; no I/O.
 */
import { type Contract, isJsonObject, type JsonObject } from "../contract/model.ts";

const KEYS = ["inputSchema", "outputSchema"] as const;
/** What comes before a schema's `{` in our layout, and the line that closes it. */
const MARKER = 'Schema": {';
const CLOSE = "\n      }";
const INPUT = '\n      "input';
const OUTPUT = '\n      "output';
/** Characters compared first, at a known span's end. */
const TAIL = 48;
/** Shapes tried first for each key, most recent first (a miss there costs a scan to the span's end). */
const MAX_RECENT = 16;

export interface TextShapes {
  toolLengths: number[];
  shapes: Record<"inputSchema" | "outputSchema", Int32Array>;
}

export function shapesFromText(contract: Contract, text: string): TextShapes | undefined {
  try {
    return readShapes(contract, text);
  } catch {
    // The text without its schemas does not parse: not our layout.
    return undefined;
  }
}

function readShapes(contract: Contract, text: string): TextShapes | undefined {
  const tools = contract.tools;
  const start = text.indexOf('\n  "tools": [');
  if (start === -1 || tools.length === 0) return undefined;
  const pieces: string[] = [];
  /** Each cut span's shape id, by its number. */
  const spanShape: number[] = [];
  /** Ids of the distinct spans by their length. */
  const byLength = new Map<number, number[]>();
  const distinct: string[] = [];
  /** The last TAIL characters of each distinct span. */
  const tails: string[] = [];
  let last = 0;
  // The shapes last seen for each key, most recent first: the next schema is most often one of them.
  const recent: number[][] = [[], []];
  for (let at = text.indexOf(MARKER, start); at !== -1; at = text.indexOf(MARKER, Math.max(last, at + MARKER.length))) {
    // A tool's own member, at the indentation of the tool's fields.
    const k = text.startsWith(INPUT, at - INPUT.length) ? 0 : text.startsWith(OUTPUT, at - OUTPUT.length) ? 1 : -1;
    if (k === -1) continue;
    const value = at + MARKER.length - 1;
    // Compared in place (a slice would be copied out to be compared). A known span that the
    // text starts with here ends at the first CLOSE here too: its own first CLOSE is its end.
    let id = -1;
    for (const known of recent[k]!) {
      // Its last characters first: another shape fails there at once, not after a long common start.
      const span = distinct[known]!;
      const tail = tails[known]!;
      if (text.startsWith(tail, value + span.length - tail.length) && text.startsWith(span, value)) {
        id = known;
        break;
      }
    }
    if (id === -1) {
      const close = text.indexOf(CLOSE, value);
      if (close === -1) return undefined;
      const length = close + CLOSE.length - value;
      let same = byLength.get(length);
      if (!same) {
        same = [];
        byLength.set(length, same);
      }
      for (const known of same) {
        if (text.startsWith(distinct[known]!, value)) {
          id = known;
          break;
        }
      }
      if (id === -1) {
        id = distinct.length;
        distinct.push(text.slice(value, value + length));
        tails.push(text.slice(value + Math.max(0, length - TAIL), value + length));
        same.push(id);
      }
    }
    const mru = recent[k]!;
    const was = mru.indexOf(id);
    if (was !== 0) {
      if (was > 0) mru.splice(was, 1);
      mru.unshift(id);
      if (mru.length > MAX_RECENT) mru.pop();
    }
    pieces.push(text.slice(last, value), String(spanShape.length));
    spanShape.push(id);
    last = value + distinct[id]!.length;
  }
  // Worth it only when schemas repeat: each distinct one is parsed below.
  if (spanShape.length === 0 || distinct.length * 4 > spanShape.length) return undefined;
  pieces.push(text.slice(last));
  // Each distinct span must be one whole JSON value; its compact length is every copy's.
  const compact = distinct.map((span) => JSON.stringify(JSON.parse(span)).length);
  const skeleton = JSON.parse(pieces.join("")) as unknown;
  if (!isJsonObject(skeleton) || !Array.isArray(skeleton.tools) || skeleton.tools.length !== tools.length) {
    return undefined;
  }
  const shapes = {
    inputSchema: new Int32Array(tools.length).fill(-1),
    outputSchema: new Int32Array(tools.length).fill(-1),
  };
  const toolLengths: number[] = new Array(tools.length);
  let used = 0;
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i]!;
    const cut = skeleton.tools[i];
    if (!isJsonObject(cut) || cut.name !== tool.name) return undefined;
    let length = JSON.stringify(cut).length;
    for (const key of KEYS) {
      if (!isJsonObject(tool[key])) continue;
      const n = (cut as JsonObject)[key];
      // The member holds its span's number, so it is that span's value.
      if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n >= spanShape.length) return undefined;
      const id = spanShape[n]!;
      used++;
      shapes[key][i] = id;
      length += compact[id]! - String(n).length;
    }
    toolLengths[i] = length;
  }
  // Every span cut must be a tool's schema (a number left elsewhere would be measured as itself).
  return used === spanShape.length ? { toolLengths, shapes } : undefined;
}
