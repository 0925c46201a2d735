/**
 * String literals in source code of any language, for --used-by. There is no parser per
 * language: on each line, every stretch between two unescaped quotes of the same kind
 * (', " or `) is a candidate. That finds every one-line literal in C-like languages, Python,
 * Ruby, Go, Rust, shell, JSON and YAML, and also collects harmless junk (the code between
 * two literals). Junk costs nothing, because a candidate counts only when it equals a name
 * or fits a URI template exactly; a missed literal would hide a change, so the scan errs on
 * the side of collecting too much. Pure.
 */

const QUOTES = ['"', "'", "`"] as const;
/** Names and URIs are short; longer stretches are prose or code, never an identity. */
export const MAX_LITERAL_LENGTH = 2048;

const ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f", v: "\v", 0: "\0" };

/** Resolve the common backslash escapes (\" \' \\ \/ \n \uXXXX \u{…} \xXX). */
export function unescapeLiteral(text: string): string {
  if (!text.includes("\\")) return text;
  return text.replace(/\\(u\{[0-9a-fA-F]{1,6}\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])/g, (_, esc: string) => {
    if (esc.startsWith("u{")) return safeCodePoint(Number.parseInt(esc.slice(2, -1), 16));
    if (esc.length > 1) return safeCodePoint(Number.parseInt(esc.slice(1), 16));
    return ESCAPES[esc] ?? esc;
  });
}

function safeCodePoint(code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : "";
}

/** Add every literal candidate of `text` to `into` (raw, and unescaped when that differs). */
export function extractLiterals(text: string, into: Set<string> = new Set()): Set<string> {
  const add = (raw: string) => {
    if (raw.length === 0 || raw.length > MAX_LITERAL_LENGTH) return;
    into.add(raw);
    const plain = unescapeLiteral(raw);
    if (plain !== raw) into.add(plain);
  };
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (!/["'`]/.test(line)) continue;
    for (const quote of QUOTES) {
      if (!line.includes(quote)) continue;
      let start = -1;
      for (let i = 0; i < line.length; i++) {
        const c = line[i];
        if (c === "\\") {
          i++;
          continue;
        }
        if (c !== quote) continue;
        if (start >= 0) add(line.slice(start, i));
        start = i + 1;
      }
    }
  }
  return into;
}
