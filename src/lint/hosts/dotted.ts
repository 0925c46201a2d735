/**
 * Schema places as people read them ("inputSchema.properties.edits.items"), the way
 * pointerToDotted writes a JSON Pointer, built one segment at a time: the walk extends its
 * parent's, instead of splitting and re-joining a pointer per place. Pure.
 */
const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

export function dottedChild(base: string, segment: string): string {
  if (/^\d+$/.test(segment)) return `${base}[${segment}]`;
  if (IDENTIFIER.test(segment)) return base === "" ? segment : `${base}.${segment}`;
  return `${base}[${JSON.stringify(segment)}]`;
}
