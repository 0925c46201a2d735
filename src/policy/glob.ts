/**
 * Name globs for --used and the policy file's ignore targets: `*` matches any run of
 * characters (including none, and including `/`, so `weather://*` covers every resource
 * of that scheme), `?` matches exactly one, and `\` makes the next character literal.
 * Everything else matches itself, case-sensitively. Characters are code points.
 *
 * Matching takes time linear in the name (times the longest run between two `*`), never a
 * backtracking search: the parts between stars are found leftmost first, which is exact for
 * globs (a later occurrence of a part can only leave less room for the parts after it). Pure.
 */

/** One glob character: a literal code point, or `?` (any one code point). */
type Token = number | "?";

interface Compiled {
  /** The runs of tokens between stars, in order; one run when there is no star. */
  parts: Token[][];
  starred: boolean;
}

function parse(glob: string): Compiled {
  const chars = [...glob];
  const parts: Token[][] = [[]];
  let starred = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    const current = parts[parts.length - 1] as Token[];
    if (c === "\\" && i + 1 < chars.length) current.push((chars[++i] as string).codePointAt(0) as number);
    else if (c === "*") {
      starred = true;
      parts.push([]);
    } else if (c === "?") current.push("?");
    else current.push(c.codePointAt(0) as number);
  }
  return { parts, starred };
}

function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0) as number);
  return out;
}

/** Whether `part` matches `name` at `at` exactly. */
function matchesAt(part: Token[], name: number[], at: number): boolean {
  for (let k = 0; k < part.length; k++) {
    const t = part[k] as Token;
    if (t !== "?" && t !== name[at + k]) return false;
  }
  return true;
}

function matchCompiled({ parts, starred }: Compiled, name: number[]): boolean {
  const first = parts[0] as Token[];
  if (!starred) return name.length === first.length && matchesAt(first, name, 0);
  const last = parts[parts.length - 1] as Token[];
  let needed = 0;
  for (const part of parts) needed += part.length;
  if (needed > name.length) return false;
  // The first part is anchored at the start, the last at the end; the ones between go leftmost.
  if (!matchesAt(first, name, 0) || !matchesAt(last, name, name.length - last.length)) return false;
  let from = first.length;
  const end = name.length - last.length;
  for (let p = 1; p < parts.length - 1; p++) {
    const part = parts[p] as Token[];
    let at = from;
    while (at + part.length <= end && !matchesAt(part, name, at)) at++;
    if (at + part.length > end) return false;
    from = at + part.length;
  }
  return true;
}

/** True when the glob has a wildcard, i.e. may match more than one name. */
export function hasWildcard(glob: string): boolean {
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\") i++;
    else if (c === "*" || c === "?") return true;
  }
  return false;
}

/** A compiled glob: plain text compares with ===, wildcards go through the linear matcher. */
export function compileGlob(glob: string): (name: string) => boolean {
  if (!hasWildcard(glob)) {
    const literal = glob.replace(/\\(.)/gsu, "$1");
    return (name) => name === literal;
  }
  const compiled = parse(glob);
  return (name) => matchCompiled(compiled, codePoints(name));
}

export function matchesGlob(glob: string, name: string): boolean {
  return compileGlob(glob)(name);
}
