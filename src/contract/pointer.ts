/**
 * JSON Pointer (RFC 6901), written once: building a pointer from names, splitting one into
 * names, and the dotted form people read in messages. Pure.
 */

/** One segment for a name: `~` → `~0`, `/` → `~1`. */
export function escapeSegment(segment: string | number): string {
  const text = String(segment);
  // Most names hold neither character: no regex runs for them (paths are built per schema node).
  if (!text.includes("~") && !text.includes("/")) return text;
  return text.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** One name from a segment: `~1` → `/`, then `~0` → `~`. */
export function unescapeSegment(segment: string): string {
  if (!segment.includes("~")) return segment;
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Appends segments to a JSON Pointer ("" is the root). */
export function pointer(base: string, ...segments: (string | number)[]): string {
  if (segments.length === 1) return `${base}/${escapeSegment(segments[0] as string | number)}`;
  return base + segments.map((s) => `/${escapeSegment(s)}`).join("");
}

/** "/a/b~1c" → ["a", "b/c"]; "" (the root) → []. */
export function pointerSegments(path: string): string[] {
  return path === "" ? [] : path.slice(1).split("/").map(unescapeSegment);
}

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

/** "/inputSchema/properties/units" → "inputSchema.properties.units"; "/arguments/1" → "arguments[1]". */
export function pointerToDotted(path: string): string {
  let out = "";
  for (const segment of pointerSegments(path)) out = dottedChild(out, segment);
  return out;
}

/** One segment more on a dotted place, as pointerToDotted writes it: a walk extends its parent's. */
export function dottedChild(base: string, segment: string): string {
  if (/^\d+$/.test(segment)) return `${base}[${segment}]`;
  if (IDENTIFIER.test(segment)) return base === "" ? segment : `${base}.${segment}`;
  return `${base}[${JSON.stringify(segment)}]`;
}
