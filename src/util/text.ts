/** Small text helpers every layer shares, written once. Pure. */

/** "1 tool", "2 tools", "3 matches" (with `many`). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * 10000 → "10,000", grouped by hand: Intl's set-up costs milliseconds at start-up, and a lookahead
 * pattern compiles on its first use (src/rules/lint/quality.ts calls this while its module loads).
 */
export function thousands(n: number): string {
  const text = String(n);
  const dot = text.indexOf(".");
  const end = dot === -1 ? text.length : dot;
  const start = text.startsWith("-") ? 1 : 0;
  let out = text.slice(0, start);
  for (let i = start; i < end; i++) {
    if (i > start && (end - i) % 3 === 0) out += ",";
    out += text[i];
  }
  return out + text.slice(end);
}

/** Edit distance between two strings (insertions, deletions, substitutions), in O(|b|) space. */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

/**
 * "Did you mean": the candidates closest to a mistyped word, best first, at most `max`; empty
 * when none is close. Close means within a third of the word's length (at least 2 edits,
 * ignoring case), or containing the word.
 */
export function suggest(word: string, candidates: readonly string[], max = 3): string[] {
  const lower = word.toLowerCase();
  return candidates
    .map((c) => ({ c, d: levenshtein(c.toLowerCase(), lower) }))
    .filter(({ c, d }) => d <= Math.max(2, Math.floor(word.length / 3)) || (word.length >= 3 && c.includes(word)))
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c))
    .slice(0, max)
    .map(({ c }) => c);
}

/** A byte count as the size flags take it (--max-response-size, --max-message-size): `64 MiB`, `0.5 MiB`. */
export function formatMiB(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${Number(mib.toFixed(3))} MiB`;
}
