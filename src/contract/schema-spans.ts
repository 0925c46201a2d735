/**
 * Tool texts read with their schemas as spans. In the layout mcp-contract writes, a tool's
 * schema is the span from `"inputSchema": {` at a tool field's indentation to the first
 * `\n      }` after it, and tools of one shape have the same span. Each distinct span is parsed
 * once and checked at the contract boundary once; a tool is built from its skeleton (its text
 * with the spans replaced by numbers) with that span's one value in place, so the tools of a
 * shape hold one schema object, and a second lockfile's tool whose schema did not change holds
 * the very object of the first (the diff then sees it is the same without walking it).
 * Comparing spans is native string comparison; the boundary check does not walk a schema of a
 * span that passed it again, and still answers exactly as toolPasses does. Lint reads the
 * shapes found here (src/lint/shape-text.ts).
 *
 * Sound for any text. A tool is built only when its skeleton, with a marker string that
 * starts with NUL in each span's place, parses with each member holding its marker, and the
 * text holds no NUL (so the markers are the only ones); each span is one whole JSON value (it
 * parsed on its own), so, JSON being context-free, the text with the spans put back parses to
 * the skeleton with the spans' values in those members.
 * A tool parsed as a whole (its text not ours) gets a shape when each member that holds an
 * object is a cut one and holds its number in the skeleton (it then did not come from another
 * occurrence of the key, which would hold that number, not an object). Anything else gets no
 * shape, and the caller parses the text. Pure; no I/O.
 *
 * Only for callers that never modify what they read: the objects belong to every tool of the
 * shape, and to both lockfiles.
 */
import { isJsonObject, type JsonObject } from "./model.ts";
import type { ToolCheck, ToolReader } from "./tool-spans.ts";
import { measuredToolPasses, memberSound, toolPasses } from "./validate.ts";

const KEYS = ["inputSchema", "outputSchema"] as const;
/** What comes before each schema's `{` in our layout (a tool's fields are indented by six spaces). */
const MARKERS = ['\n      "inputSchema": {', '\n      "outputSchema": {'] as const;
/** The line that closes a schema. */
const CLOSE = "\n      }";
/** Characters compared first, at a known span's end. */
const TAIL = 48;
/** Shapes tried first for each key, most recent first (a miss there costs a scan to the span's end). */
const MAX_RECENT = 16;
/** Tools read before giving up when schemas do not repeat (one distinct shape in four schemas or more). */
const PROBE_TOOLS = 64;

/**
 * The tools measured as they were checked, each parsed from its own text, in the order they were
 * checked (the order of the file): each one's compact JSON length, which of its schema fields
 * hold objects (its own: no other tool holds them; bit 1 inputSchema, bit 2 outputSchema), and
 * its name. Lists in order, not a map by tool: on 10,000 tools, looking each up cost more than
 * the rest of the shape index.
 */
export interface MeasuredTools {
  tools: object[];
  lengths: number[];
  objects: number[];
  names: unknown[];
}

/** What was found of one tool: its schemas' shapes (-1: none) and its compact JSON length (-1: not measured). */
export interface ToolShape {
  input: number;
  output: number;
  length: number;
}

interface Cut {
  key: number;
  start: number;
  end: number;
  id: number;
}

/**
 * The schema spans of the tools of one lockfile, as a ToolReader for parseContract. `before`:
 * the spans of the lockfile read before, whose values this one's tools take where the text is
 * the same. `measure`: find each tool's compact JSON length too (lint's tools/list size).
 */
export class SchemaSpans implements ToolReader {
  private readonly distinct: string[] = [];
  /** Each distinct span's value, which every tool of its shape that assemble() built holds. */
  private readonly values: unknown[] = [];
  private readonly tails: string[] = [];
  /** Each distinct span's compact JSON length, and whether it is sound as a tool's field. */
  private readonly compact: number[] = [];
  private readonly sound: boolean[] = [];
  private readonly byLength = new Map<number, number[]>();
  private readonly recent: number[][] = [[], []];
  private readonly found = new WeakMap<object, ToolShape>();
  /** With `measure`: the tools checked without a shape, measured. */
  private readonly measures: MeasuredTools = { tools: [], lengths: [], objects: [], names: [] };
  private before: SchemaSpans | undefined;
  private readonly measure: boolean;
  private tools = 0;
  private cuts = 0;
  private gaveUp = false;

  constructor(options: { before?: SchemaSpans | undefined; measure?: boolean } = {}) {
    this.before = options.before;
    this.measure = options.measure === true;
  }

  /**
   * A tool built from its text: each schema span that is already known is not parsed again,
   * and every tool of a shape holds that shape's one schema value.
   */
  readonly parse = (text: string): unknown => (this.gaveUp ? undefined : this.assemble(text));

  /** Whether `parse` may still build a tool: not once the first tools showed that schemas rarely repeat. */
  readonly building = (): boolean => !this.gaveUp;

  /** The boundary check of each tool as it is parsed (toolPasses), reading its shapes on the way. */
  readonly check: ToolCheck = (tool, text) => {
    // Once given up, parse builds no tool and read() finds no shape: no tool checked has one.
    if (this.gaveUp) return this.measure ? this.measured(tool, text) : toolPasses(tool);
    let shape = this.found.get(tool as object);
    if (shape === undefined) {
      shape = this.read(tool, text);
      if (shape !== undefined) this.remember(tool as object, shape);
    }
    if (shape === undefined) return this.measure ? this.measured(tool, text) : toolPasses(tool);
    return toolPasses(
      tool,
      (field) =>
        (field === "inputSchema" && shape.input !== -1 && this.sound[shape.input] === true) ||
        (field === "outputSchema" && shape.output !== -1 && this.sound[shape.output] === true),
    );
  };

  /**
   * toolPasses, measuring the tool in the same walk (a tool without a shape: after giving up,
   * most). A tool whose text has no backslash has no string to test for escapes (soundLength):
   * most tools' texts have none, and testing every string and key was most of the measure.
   */
  private measured(tool: unknown, text: string): boolean {
    const length = measuredToolPasses(tool, !text.includes("\\"));
    if (length === -1) return false;
    // Its schemas' kinds are read while the tool is still in the processor's caches; a tool
    // parsed from its own text holds objects no other tool holds (shapes.ts shapesByIdentity).
    if (isJsonObject(tool)) {
      const measures = this.measures;
      measures.tools.push(tool);
      measures.lengths.push(length);
      measures.objects.push((isJsonObject(tool.inputSchema) ? 1 : 0) | (isJsonObject(tool.outputSchema) ? 2 : 0));
      measures.names.push(tool.name);
    }
    return true;
  }

  /** The tools measured as they were checked without a shape, in the order checked. */
  measuredTools(): Readonly<MeasuredTools> {
    return this.measures;
  }

  /** The shape found for a tool this reader read, if any. */
  shapeOf(tool: object): ToolShape | undefined {
    return this.found.get(tool);
  }

  /** After the read: the spans of the lockfile read before are no longer needed (nor kept alive). */
  release(): void {
    this.before = undefined;
  }

  /** Whether the first tools showed that schemas rarely repeat, so reading by spans stopped there. */
  gaveUpEarly(): boolean {
    return this.gaveUp;
  }

  /** Whether reading by spans went on to the end: the first tools' schemas repeated. */
  repeats(): boolean {
    return !this.gaveUp && this.worthIt();
  }

  private remember(tool: object, shape: ToolShape): void {
    this.found.set(tool, shape);
    this.tools++;
  }

  /** Worth it only when schemas repeat: each distinct one is measured and walked. */
  private worthIt(): boolean {
    return this.cuts > 0 && this.distinct.length * 4 <= this.cuts;
  }

  /** Whether to go on reading shapes: not when the first tools show that schemas rarely repeat. */
  private probing(): boolean {
    if (this.tools === PROBE_TOOLS && !this.worthIt()) this.gaveUp = true;
    return !this.gaveUp;
  }

  /**
   * The schema spans of a tool's text where our layout puts them, each a known or a new
   * distinct span; undefined when a span has no closing line. Throws when a new span does not
   * parse.
   */
  private cutsOf(text: string): Cut[] | undefined {
    const cuts: Cut[] = [];
    // Our layout writes outputSchema after inputSchema: it is looked for after the input's span.
    let from = 0;
    for (let key = 0; key < KEYS.length; key++) {
      const at = text.indexOf(MARKERS[key]!, from);
      if (at === -1) continue;
      const start = at + MARKERS[key]!.length - 1;
      const id = this.spanAt(key, text, start);
      if (id === -1) return undefined;
      from = start + this.distinct[id]!.length;
      cuts.push({ key, start, end: from, id });
    }
    return cuts;
  }

  /** The shape of a tool whose cut members hold their tokens' values in `skeleton`, or undefined. */
  private shapeIn(skeleton: unknown, cuts: readonly Cut[], token: Token): ToolShape | undefined {
    if (!holdsTokens(skeleton, cuts, token)) return undefined;
    const shape: ToolShape = { input: -1, output: -1, length: this.measure ? JSON.stringify(skeleton).length : -1 };
    for (let j = 0; j < cuts.length; j++) {
      const cut = cuts[j]!;
      if (this.measure) shape.length += this.compact[cut.id]! - token.text(j).length;
      if (cut.key === 0) shape.input = cut.id;
      else shape.output = cut.id;
    }
    return shape;
  }

  /**
   * The tool of `text` built from its skeleton (the text with each schema span replaced by a
   * marker) and the distinct spans' values, or undefined (the caller parses the text). Sound
   * for any text whose skeleton writes no NUL character (`\u0000`, its only spelling in JSON;
   * one that does is left to the caller): the markers are strings that start with NUL, so a
   * member holding one holds a marker itself, not anything the text wrote; each span is one
   * whole JSON value (it parsed on its own), and JSON being context-free, the text with the
   * spans put back parses to the skeleton with the spans' values in those members. A schema
   * object found elsewhere than our layout puts it (a member not cut, holding an object) gives
   * no shape: the caller then parses the text, and read() answers as before.
   */
  private assemble(text: string): JsonObject | undefined {
    if (!this.probing()) return undefined;
    try {
      const cuts = this.cutsOf(text);
      if (cuts === undefined || cuts.length === 0) return undefined;
      if (writesOutsideCuts(text, cuts, NUL)) return undefined;
      const skeleton = JSON.parse(withTokens(text, cuts, MARKER)) as unknown;
      const shape = this.shapeIn(skeleton, cuts, MARKER);
      if (shape === undefined) return undefined;
      const tool = skeleton as JsonObject;
      for (const key of KEYS) if (isJsonObject(tool[key])) return undefined;
      for (const cut of cuts) tool[KEYS[cut.key]!] = this.values[cut.id] as JsonObject;
      this.cuts += cuts.length;
      this.remember(tool, shape);
      return tool;
    } catch {
      // A span that is no whole value, a text that does not parse with markers in its place.
      return undefined;
    }
  }

  private read(tool: unknown, text: string): ToolShape | undefined {
    if (!isJsonObject(tool) || !this.probing()) return undefined;
    try {
      const cuts = this.cutsOf(text);
      if (cuts === undefined) return undefined;
      // An object schema not found where our layout puts it gets no shape; only an object has one.
      for (let key = 0; key < KEYS.length; key++) {
        const cut = cuts.some((c) => c.key === key);
        if (cut !== isJsonObject(tool[KEYS[key]!])) return undefined;
      }
      if (cuts.length === 0) return { input: -1, output: -1, length: this.measure ? JSON.stringify(tool).length : -1 };
      // Each member (an object in the tool) holds its own number: it is the value of its span.
      const shape = this.shapeIn(JSON.parse(withTokens(text, cuts, NUMBER)), cuts, NUMBER);
      if (shape !== undefined) this.cuts += cuts.length;
      return shape;
    } catch {
      // A span that is no whole value, a text that does not parse with numbers in its place.
      return undefined;
    }
  }

  /** The id of the schema span that starts at `start`: a known one, or a new one (parsed here once). */
  private spanAt(key: number, text: string, start: number): number {
    const mru = this.recent[key]!;
    let id = -1;
    // Compared in place. A known span that the text starts with here ends at the first CLOSE
    // here too: its own first CLOSE is its end. Its last characters first: another shape
    // fails there at once, not after a long common start.
    for (const known of mru) {
      const span = this.distinct[known]!;
      const tail = this.tails[known]!;
      if (text.startsWith(tail, start + span.length - tail.length) && text.startsWith(span, start)) {
        id = known;
        break;
      }
    }
    if (id === -1) {
      const close = text.indexOf(CLOSE, start);
      if (close === -1) return -1;
      const length = close + CLOSE.length - start;
      id = this.known(text, start, length);
      if (id === -1) {
        // The lockfile read before has it: its value, so the two lockfiles' tools share it.
        const earlier = this.before?.known(text, start, length) ?? -1;
        id = earlier === -1 ? this.add(text.slice(start, start + length)) : this.adopt(this.before!, earlier);
      }
    }
    const was = mru.indexOf(id);
    if (was !== 0) {
      if (was > 0) mru.splice(was, 1);
      mru.unshift(id);
      if (mru.length > MAX_RECENT) mru.pop();
    }
    return id;
  }

  /** The id of a distinct span of `length` characters that `text` holds at `start`, or -1. */
  private known(text: string, start: number, length: number): number {
    for (const id of this.byLength.get(length) ?? []) if (text.startsWith(this.distinct[id]!, start)) return id;
    return -1;
  }

  /** A new distinct span, parsed here once (throws when it is no whole value: the tool then gets no shape). */
  private add(span: string): number {
    const value: unknown = JSON.parse(span);
    return this.push(span, value, span.slice(Math.max(0, span.length - TAIL)), -1, memberSound(value));
  }

  /** Span `id` of the lockfile read before, with its value. */
  private adopt(from: SchemaSpans, id: number): number {
    return this.push(from.distinct[id]!, from.values[id], from.tails[id]!, from.compact[id]!, from.sound[id]!);
  }

  private push(span: string, value: unknown, tail: string, compact: number, sound: boolean): number {
    const id = this.distinct.length;
    this.distinct.push(span);
    this.values.push(value);
    this.tails.push(tail);
    this.compact.push(!this.measure ? -1 : compact !== -1 ? compact : JSON.stringify(value).length);
    this.sound.push(sound);
    const same = this.byLength.get(span.length);
    if (same) same.push(id);
    else this.byLength.set(span.length, [id]);
    return id;
  }
}

/** What a skeleton holds in place of cut j: its JSON text and the value that text parses to. */
interface Token {
  text(j: number): string;
  value(j: number): string | number;
}

/** The number j: read() proves its members otherwise (they hold objects in the parsed tool). */
const NUMBER: Token = { text: (j) => String(j), value: (j) => j };

/** A string that starts with NUL, which no skeleton assemble() builds from writes. */
const MARKER: Token = { text: (j) => `"\\u0000${j}"`, value: (j) => `\u0000${j}` };

/** NUL as JSON writes it: its only spelling. */
const NUL = "\\u0000";

/** Whether each cut member of the skeleton holds its token's value. */
function holdsTokens(skeleton: unknown, cuts: readonly Cut[], token: Token): skeleton is JsonObject {
  if (!isJsonObject(skeleton)) return false;
  for (let j = 0; j < cuts.length; j++) if (skeleton[KEYS[cuts[j]!.key]!] !== token.value(j)) return false;
  return true;
}

/** The text between and around the cuts, piece by piece. */
function outsideCuts(text: string, cuts: readonly Cut[]): string[] {
  const pieces: string[] = [];
  let last = 0;
  for (const cut of cuts) {
    pieces.push(text.slice(last, cut.start));
    last = cut.end;
  }
  pieces.push(text.slice(last));
  return pieces;
}

/** Whether the text outside the cuts holds `needle` (a cut starts and ends outside every string, so no escape spans its edge). */
function writesOutsideCuts(text: string, cuts: readonly Cut[], needle: string): boolean {
  return outsideCuts(text, cuts).some((piece) => piece.includes(needle));
}

/** The text with cut j replaced by its token. */
function withTokens(text: string, cuts: readonly Cut[], token: Token): string {
  const pieces = outsideCuts(text, cuts);
  let out = pieces[0]!;
  for (let j = 0; j < cuts.length; j++) out += token.text(j) + pieces[j + 1]!;
  return out;
}
