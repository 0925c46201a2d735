export const RENAME_SIMILARITY = 0.75;

/** Lowercase, and treat "-", "_" and "." as the same character. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[-_.]/g, "_");
}

/** 1 - distance / longer length, on normalized names; 1 means equal. */
export function nameSimilarity(a: string, b: string): number {
  return similarity(normalizeName(a), normalizeName(b), 0);
}

/**
 * Similarity of two normalized names, or 0 when it is certainly below `floor`: the
 * distance is at least the length difference, and the dynamic programme stops as soon as
 * every cell of a row exceeds the distance `floor` allows.
 */
function similarity(x: string, y: string, floor: number): number {
  const longer = Math.max(x.length, y.length);
  if (longer === 0) return 1;
  const maxDistance = Math.floor((1 - floor) * longer + 1e-9);
  if (Math.abs(x.length - y.length) > maxDistance) return 0;
  const distance = boundedLevenshtein(x, y, maxDistance);
  return distance > maxDistance ? 0 : 1 - distance / longer;
}

/** Scratch rows reused across calls: this runs for every removed × added pair. */
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);

function boundedLevenshtein(a: string, b: string, bound: number): number {
  if (a === b) return 0;
  if (rowA.length <= b.length) {
    rowA = new Int32Array(b.length + 1);
    rowB = new Int32Array(b.length + 1);
  }
  let previous = rowA;
  let current = rowB;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      const cell = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current[j] = cell;
      if (cell < rowMin) rowMin = cell;
    }
    if (rowMin > bound) return bound + 1;
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

export interface RenameCandidate {
  /** The item's identity (tool name, resource uri, …). */
  id: string;
  /** The text compared for similarity (usually the identity itself). */
  text: string;
  /** An exact-match signal (e.g. the canonical inputSchema); equal signatures mark a likely rename. */
  signature?: string;
}

/**
 * Above this many removed × added pairs (say, a server that renamed 200 tools at once),
 * only equal signatures give hints: comparing every pair of names would cost a second or more.
 */
export const MAX_SIMILARITY_PAIRS = 40_000;

/**
 * Pairs each removed item with at most one added item, and each added item with at most one
 * removed item. Equal signatures win over name similarity; among equals the most similar
 * name wins; ties go to the alphabetically first identities so that the result is stable.
 */
export function findRenames(
  removed: readonly RenameCandidate[],
  added: readonly RenameCandidate[],
  threshold = RENAME_SIMILARITY,
): Map<string, string> {
  const pairs: { from: string; to: string; score: number }[] = [];
  const normalized = new Map<string, string>();
  const norm = (c: RenameCandidate) => {
    let text = normalized.get(c.text);
    if (text === undefined) {
      text = normalizeName(c.text);
      normalized.set(c.text, text);
    }
    return text;
  };
  const bySignature = new Map<string, RenameCandidate[]>();
  for (const a of added) {
    if (a.signature !== undefined) bySignature.set(a.signature, [...(bySignature.get(a.signature) ?? []), a]);
  }
  for (const r of removed) {
    if (r.signature === undefined) continue;
    for (const a of bySignature.get(r.signature) ?? []) {
      pairs.push({ from: r.id, to: a.id, score: 2 + similarity(norm(r), norm(a), 0) });
    }
  }
  if (removed.length * added.length <= MAX_SIMILARITY_PAIRS) {
    for (const r of removed) {
      for (const a of added) {
        if (r.signature !== undefined && r.signature === a.signature) continue;
        const score = similarity(norm(r), norm(a), threshold);
        if (score >= threshold) pairs.push({ from: r.id, to: a.id, score });
      }
    }
  }
  pairs.sort((p, q) => q.score - p.score || compareStrings(p.from, q.from) || compareStrings(p.to, q.to));
  const renames = new Map<string, string>();
  const taken = new Set<string>();
  for (const pair of pairs) {
    if (renames.has(pair.from) || taken.has(pair.to)) continue;
    renames.set(pair.from, pair.to);
    taken.add(pair.to);
  }
  return renames;
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
