/**
 * `JSON.stringify(document, null, 2)` for a document with one long list (a report's findings or
 * changes), written a chunk of the list at a time when the text is two-byte. The runtime's fast
 * stringifier writes one-byte text; it starts over in two-byte text at the first character past
 * U+00FF, and gives up for the slow path at some values, then writing the whole document again:
 * an object whose keys the runtime holds as two-byte strings (naming-style-inconsistent's
 * evidence, keyed by tool names read from a two-byte lockfile text) made the JSON report of
 * 1,000 real tools with --hosts about 2.5 times the work (72M against 28M instructions). In
 * chunks, only the chunk holding such a value is written twice; each chunk is written after a
 * wide string, so that it is two-byte text from its start. A document whose first chunk is
 * one-byte text is written whole, as before (chunks of one-byte text cost more than they save).
 * The text is the same: a value's indented form depends only on its depth, and a chunk is
 * written at the depth of the document's list. Pure.
 */

/** Items per chunk: large enough that the calls cost nothing, small enough that a slow one is a small part. */
const CHUNK = 64;

/** A string the stringifier can only write as two-byte text, and the length of what it adds before the chunk. */
const WIDE = "\u2026";
const WIDE_HEAD = `[\n  ${JSON.stringify(WIDE)},\n  [\n`.length;
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;

/**
 * The document's text as `JSON.stringify(document, null, 2)` writes it, where `key` is one of
 * its top-level keys holding an array.
 */
export function stringifyWithList(document: Record<string, unknown>, key: string): string {
  const list = document[key];
  if (!Array.isArray(list) || list.length <= CHUNK) return JSON.stringify(document, null, 2);
  // Inside a list inside a list, the items stand at the depth the document's list puts them:
  // "[\n  [\n    item,\n    item\n  ]\n]".
  const first = JSON.stringify([list.slice(0, CHUNK)], null, 2).slice(6, -6);
  if (!BEYOND_LATIN1.test(first)) return JSON.stringify(document, null, 2);
  const text = JSON.stringify({ ...document, [key]: [] }, null, 2);
  // The empty list as the document holds it: a raw newline and two spaces only begin a top-level key.
  const empty = `\n  ${JSON.stringify(key)}: []`;
  const at = text.indexOf(empty);
  // Concatenated, not joined: the runtime keeps the pieces as a rope, copied once when read.
  let out = `${text.slice(0, at)}\n  ${JSON.stringify(key)}: [\n${first}`;
  for (let start = CHUNK; start < list.length; start += CHUNK) {
    // "[\n  "…",\n  [\n    item…": the wide string first, the items as above.
    out += `,\n${JSON.stringify([WIDE, list.slice(start, start + CHUNK)], null, 2).slice(WIDE_HEAD, -6)}`;
  }
  return `${out}\n  ]${text.slice(at + empty.length)}`;
}
