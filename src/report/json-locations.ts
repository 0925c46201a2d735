/**
 * Where a value sits in JSON text: the line and column of the node a JSON Pointer names, so
 * that reports can point into the lockfile. Works on any valid JSON (any indentation, one
 * line or many, escaped member names, duplicate names: the last one wins, as in JSON.parse).
 * Lines and columns are 1-based; columns count UTF-16 code units. Pure; no I/O.
 *
 * The text is scanned lazily: a container's members are indexed the first time a pointer
 * descends into it, and cached, so locating many pointers in one large lockfile stays cheap.
 */
import { pointer as joinPointer, pointerSegments } from "../contract/pointer.ts";

export interface TextPosition {
  /** 1-based line. */
  line: number;
  /** 1-based column, in UTF-16 code units. */
  column: number;
  /** 0-based offset into the text, in UTF-16 code units. */
  offset: number;
}

export interface JsonNodeLocation {
  /** The pointer of the node found: the one asked for, or its deepest prefix that exists. */
  pointer: string;
  /** Whether the whole pointer was found (false: `pointer` is a shorter prefix). */
  exact: boolean;
  /** Where the value starts (its first character). */
  start: TextPosition;
  /** Just after the value's last character. */
  end: TextPosition;
  /** Where the member name starts, when the node is a member of an object. */
  key?: TextPosition;
}

interface Node {
  start: number;
  end: number;
  keyStart?: number;
  /** Indexed on first descent: members by name, or elements by position. */
  children?: Map<string, Node> | Node[];
}

class ScanError extends Error {}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);

export class JsonLocator {
  private readonly lineStarts: number[] = [0];
  private root: Node | undefined | null = null;

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  /**
   * The node at `pointer` (a JSON Pointer string or its unescaped segments), or the deepest
   * prefix of it that exists. undefined only when the text is not valid JSON.
   */
  locate(pointer: string | readonly string[]): JsonNodeLocation | undefined {
    const segments = typeof pointer === "string" ? pointerSegments(pointer) : pointer;
    const root = this.rootNode();
    if (!root) return undefined;
    let node = root;
    let depth = 0;
    try {
      for (const segment of segments) {
        const child = this.child(node, segment);
        if (!child) break;
        node = child;
        depth++;
      }
    } catch (error) {
      if (error instanceof ScanError) return undefined;
      throw error;
    }
    return {
      pointer: joinPointer("", ...segments.slice(0, depth)),
      exact: depth === segments.length,
      start: this.position(node.start),
      end: this.position(node.end),
      ...(node.keyStart !== undefined && { key: this.position(node.keyStart) }),
    };
  }

  /** Offset → 1-based line and column. */
  position(offset: number): TextPosition {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.lineStarts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (this.lineStarts[lo] as number) + 1, offset };
  }

  private rootNode(): Node | undefined {
    if (this.root === null) {
      try {
        let i = this.skipWhitespace(0);
        if (this.text.charCodeAt(i) === 0xfeff) i = this.skipWhitespace(i + 1);
        const end = this.skipValue(i);
        if (this.skipWhitespace(end) !== this.text.length) throw new ScanError("text after the document");
        this.root = { start: i, end };
      } catch (error) {
        if (!(error instanceof ScanError)) throw error;
        this.root = undefined;
      }
    }
    return this.root;
  }

  private child(node: Node, segment: string): Node | undefined {
    const opener = this.text[node.start];
    if (opener !== "{" && opener !== "[") return undefined;
    node.children ??= opener === "{" ? this.indexObject(node.start) : this.indexArray(node.start);
    if (Array.isArray(node.children)) {
      // RFC 6901: an array index is 0 or digits without a leading zero.
      if (!/^(0|[1-9]\d*)$/.test(segment)) return undefined;
      return node.children[Number(segment)];
    }
    return node.children.get(segment);
  }

  private indexObject(start: number): Map<string, Node> {
    const members = new Map<string, Node>();
    let i = this.skipWhitespace(start + 1);
    if (this.text[i] === "}") return members;
    for (;;) {
      if (this.text[i] !== '"') throw new ScanError("expected a member name");
      const keyStart = i;
      const keyEnd = this.skipString(i);
      const name = JSON.parse(this.text.slice(keyStart, keyEnd)) as string;
      i = this.skipWhitespace(keyEnd);
      if (this.text[i] !== ":") throw new ScanError("expected ':'");
      const valueStart = this.skipWhitespace(i + 1);
      const valueEnd = this.skipValue(valueStart);
      // Duplicate names: the last one wins, as in JSON.parse.
      members.set(name, { start: valueStart, end: valueEnd, keyStart });
      i = this.skipWhitespace(valueEnd);
      if (this.text[i] === ",") i = this.skipWhitespace(i + 1);
      else if (this.text[i] === "}") return members;
      else throw new ScanError("expected ',' or '}'");
    }
  }

  private indexArray(start: number): Node[] {
    const elements: Node[] = [];
    let i = this.skipWhitespace(start + 1);
    if (this.text[i] === "]") return elements;
    for (;;) {
      const end = this.skipValue(i);
      elements.push({ start: i, end });
      i = this.skipWhitespace(end);
      if (this.text[i] === ",") i = this.skipWhitespace(i + 1);
      else if (this.text[i] === "]") return elements;
      else throw new ScanError("expected ',' or ']'");
    }
  }

  private skipWhitespace(i: number): number {
    while (i < this.text.length && WHITESPACE.has(this.text[i] as string)) i++;
    return i;
  }

  /** The offset just after the string that opens at `i`. */
  private skipString(i: number): number {
    const { text } = this;
    for (i++; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 34) return i + 1; // "
      if (c === 92) i++; // backslash: skip the escaped character
    }
    throw new ScanError("unterminated string");
  }

  /** The offset just after the value that starts at `i` (no leading whitespace). */
  private skipValue(i: number): number {
    const { text } = this;
    const c = text[i];
    if (c === '"') return this.skipString(i);
    if (c === "{" || c === "[") {
      // Brackets balance outside strings; the structure inside is checked on descent.
      let depth = 0;
      for (; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 34) i = this.skipString(i) - 1;
        else if (d === 123 || d === 91) depth++;
        else if (d === 125 || d === 93) {
          depth--;
          if (depth === 0) return i + 1;
        }
      }
      throw new ScanError("unterminated container");
    }
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!literal) throw new ScanError("expected a JSON value");
    return i + literal[0].length;
  }
}

/** One-off: the node at `pointer` in `text`, or its deepest existing prefix (see JsonLocator). */
export function locateJsonPointer(text: string, pointer: string | readonly string[]): JsonNodeLocation | undefined {
  return new JsonLocator(text).locate(pointer);
}
