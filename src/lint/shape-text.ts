/**
 * Shapes found while a lockfile is parsed (src/lint/shapes.ts), instead of serializing every
 * schema. The reader parses our lockfiles tool by tool (src/contract/tool-spans.ts) and hands
 * each tool's text here right after parsing it, while that text is still in the processor's
 * caches: a second pass over a big file's text afterwards cost more than the comparing itself.
 *
 * In the layout mcp-contract writes, a tool's schema is the span from `"inputSchema": {` at a
 * tool field's indentation to the first `\n      }` after it, and tools of one shape have the
 * same span, so comparing spans (native string comparison) finds the shapes; each distinct
 * span is parsed, measured and walked by the boundary check once, and a schema of a shape that
 * passed it is not walked again (the check still answers exactly as toolPasses does).
 *
 * Sound for any tool text that `JSON.parse` turns into the tool: each distinct span is parsed
 * once, so it is one whole JSON value; and the tool's text with its spans replaced by distinct
 * numbers must parse with each member holding its span's number. JSON being context-free, the
 * member's value in the tool is then its span's value, unless it came from another occurrence
 * of the key that holds that very number, outside every span: but the member holds an object
 * in the tool (checked first), so it did not. A tool where anything else holds gets no shape,
 * and lint then serializes the surface as before. Pure; no I/O.
 */
import { type Contract, isJsonObject, type JsonObject } from "../contract/model.ts";
import type { ToolCheck } from "../contract/tool-spans.ts";
import { memberSound, toolPasses } from "../contract/validate.ts";
import type { SurfaceSizes } from "./shapes.ts";

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

/** What was found of one tool: its schemas' shapes (-1: none) and its compact JSON length. */
interface ToolShape {
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
 * Reads the shapes of the tools of one lockfile as they are parsed: pass `check` to
 * parseContract, then ask `shapesOf` for the contract it returned.
 */
export class ShapeReader {
  private readonly distinct: string[] = [];
  /** Each distinct span's value, which every tool of its shape that assemble() built holds. */
  private readonly values: unknown[] = [];
  private readonly tails: string[] = [];
  /** Each distinct span's compact JSON length, and whether it is sound as a tool's field. */
  private readonly compact: number[] = [];
  private readonly sound: boolean[] = [];
  private readonly byLength = new Map<number, number[]>();
  private readonly recent: number[][] = [[], []];
  private readonly found = new Map<object, ToolShape>();
  private cuts = 0;
  private gaveUp = false;

  /**
   * A tool built from its text: each schema span that is already known is not parsed again,
   * and every tool of a shape holds that shape's one schema value (see parse below).
   */
  readonly parse = (text: string): unknown => (this.gaveUp ? undefined : this.assemble(text));

  /** The boundary check of each tool as it is parsed (toolPasses), reading its shapes on the way. */
  readonly check: ToolCheck = (tool, text) => {
    let shape = this.found.get(tool as object);
    if (shape === undefined && !this.gaveUp) {
      shape = this.read(tool, text);
      if (shape !== undefined) this.found.set(tool as object, shape);
    }
    if (shape === undefined) return toolPasses(tool);
    return toolPasses(
      tool,
      (field) =>
        (field === "inputSchema" && shape.input !== -1 && this.sound[shape.input] === true) ||
        (field === "outputSchema" && shape.output !== -1 && this.sound[shape.output] === true),
    );
  };

  /**
   * The shapes of a contract whose tools were all read by `check` (the contract parseContract
   * returned, unchanged), or undefined: a tool not read here, or schemas that rarely repeat.
   */
  shapesOf(contract: Contract): SurfaceSizes | undefined {
    const tools = contract.tools;
    if (this.gaveUp || tools.length === 0 || !this.worthIt()) return undefined;
    const shapes = {
      inputSchema: new Int32Array(tools.length),
      outputSchema: new Int32Array(tools.length),
    };
    const toolLengths: number[] = new Array(tools.length);
    for (let i = 0; i < tools.length; i++) {
      const shape = this.found.get(tools[i] as object);
      if (shape === undefined) return undefined;
      shapes.inputSchema[i] = shape.input;
      shapes.outputSchema[i] = shape.output;
      toolLengths[i] = shape.length;
    }
    return { toolLengths, shapes };
  }

  /** Worth it only when schemas repeat: each distinct one is measured and walked. */
  private worthIt(): boolean {
    return this.cuts > 0 && this.distinct.length * 4 <= this.cuts;
  }

  /** Whether to go on reading shapes: not when the first tools show that schemas rarely repeat. */
  private probing(): boolean {
    if (this.found.size === PROBE_TOOLS && !this.worthIt()) this.gaveUp = true;
    return !this.gaveUp;
  }

  /**
   * The schema spans of a tool's text where our layout puts them (-1 for a span that is no
   * whole value), each a known or a new distinct span. Throws when a new span does not parse.
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

  /** The shape of a tool whose cut members hold their numbers in `skeleton`, or undefined. */
  private shapeOf(skeleton: unknown, cuts: readonly Cut[], offset: number): ToolShape | undefined {
    if (!holdsNumbers(skeleton, cuts, offset)) return undefined;
    const shape: ToolShape = { input: -1, output: -1, length: JSON.stringify(skeleton).length };
    for (let j = 0; j < cuts.length; j++) {
      const cut = cuts[j]!;
      shape.length += this.compact[cut.id]! - String(j + offset).length;
      if (cut.key === 0) shape.input = cut.id;
      else shape.output = cut.id;
    }
    return shape;
  }

  /**
   * The tool of `text` built from its skeleton (the text with each schema span replaced by a
   * number) and the distinct spans' values, or undefined (the caller parses the text). Sound
   * for any text: the skeleton parses twice, with the numbers j and then j + SECOND in the
   * spans' places, and each member must hold them; a number written in the text itself is the
   * same in both, so the member's value is the span's own token, and each span is one whole
   * JSON value (it parsed on its own). JSON being context-free, the text with the spans put
   * back parses to the skeleton with the spans' values in those members. A schema object
   * found elsewhere than our layout puts it (a member not cut, holding an object) gives no
   * shape: the caller then parses the text, and read() answers as before.
   */
  private assemble(text: string): JsonObject | undefined {
    if (!this.probing()) return undefined;
    try {
      const cuts = this.cutsOf(text);
      if (cuts === undefined || cuts.length === 0) return undefined;
      const skeleton = JSON.parse(withNumbers(text, cuts, 0)) as unknown;
      const shape = this.shapeOf(skeleton, cuts, 0);
      if (shape === undefined || !holdsNumbers(JSON.parse(withNumbers(text, cuts, SECOND)), cuts, SECOND))
        return undefined;
      const tool = skeleton as JsonObject;
      for (const key of KEYS) {
        if (isJsonObject(tool[key])) return undefined;
      }
      for (const cut of cuts) tool[KEYS[cut.key]!] = this.values[cut.id] as JsonObject;
      this.cuts += cuts.length;
      this.found.set(tool, shape);
      return tool;
    } catch {
      // A span that is no whole value, a text that does not parse with numbers in its place.
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
      if (cuts.length === 0) return { input: -1, output: -1, length: JSON.stringify(tool).length };
      // Each member (an object in the tool) holds its own number: it is the value of its span.
      const shape = this.shapeOf(JSON.parse(withNumbers(text, cuts, 0)), cuts, 0);
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
      let same = this.byLength.get(length);
      if (!same) {
        same = [];
        this.byLength.set(length, same);
      }
      for (const known of same) {
        if (text.startsWith(this.distinct[known]!, start)) {
          id = known;
          break;
        }
      }
      if (id === -1) {
        const span = text.slice(start, start + length);
        // Throws when the span is no whole value: the tool then gets no shape.
        const value: unknown = JSON.parse(span);
        id = this.distinct.length;
        this.distinct.push(span);
        this.values.push(value);
        this.tails.push(span.slice(Math.max(0, length - TAIL)));
        this.compact.push(JSON.stringify(value).length);
        this.sound.push(memberSound(value));
        same.push(id);
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
}

/** Whether each cut member of the skeleton holds its number (offset + j). */
function holdsNumbers(skeleton: unknown, cuts: readonly Cut[], offset: number): skeleton is JsonObject {
  if (!isJsonObject(skeleton)) return false;
  for (let j = 0; j < cuts.length; j++) if (skeleton[KEYS[cuts[j]!.key]!] !== offset + j) return false;
  return true;
}

/** The offset of assemble()'s second skeleton's numbers. */
const SECOND = 1000;

/** The text with cut j replaced by the number offset + j. */
function withNumbers(text: string, cuts: readonly Cut[], offset: number): string {
  let out = "";
  let last = 0;
  for (let j = 0; j < cuts.length; j++) {
    out += text.slice(last, cuts[j]!.start) + String(offset + j);
    last = cuts[j]!.end;
  }
  return out + text.slice(last);
}
