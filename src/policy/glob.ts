/**
 * Name globs for --used and the policy file's ignore targets: `*` matches any run of
 * characters (including none, and including `/`, so `weather://*` covers every resource
 * of that scheme), `?` matches exactly one, and `\` makes the next character literal.
 * Everything else matches itself, case-sensitively. Pure.
 */

const SPECIAL = /[.*+?^${}()|[\]\\/]/g;

/** The glob as an anchored regular expression. */
export function globToRegExp(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "\\" && i + 1 < glob.length) {
      source += (glob[++i] as string).replace(SPECIAL, "\\$&");
    } else if (c === "*") {
      source += "[\\s\\S]*";
    } else if (c === "?") {
      source += "[\\s\\S]";
    } else {
      source += c.replace(SPECIAL, "\\$&");
    }
  }
  return new RegExp(`^${source}$`, "u");
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

/** A compiled glob: plain text compares with ===, wildcards go through a RegExp. */
export function compileGlob(glob: string): (name: string) => boolean {
  if (!hasWildcard(glob)) {
    const literal = glob.replace(/\\(.)/g, "$1");
    return (name) => name === literal;
  }
  const re = globToRegExp(glob);
  return (name) => re.test(name);
}

export function matchesGlob(glob: string, name: string): boolean {
  return compileGlob(glob)(name);
}
