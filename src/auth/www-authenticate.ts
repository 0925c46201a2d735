/**
 * The WWW-Authenticate header of a 401 (RFC 9110 §11.6.1), parsed into challenges, for the
 * two parameters MCP authorization reads from a Bearer challenge: `resource_metadata`
 * (RFC 9728 §5.1) and `scope`. oauth4webapi parses challenges only inside its own resource
 * requests, so this small parser is ours. Pure.
 */

export interface Challenge {
  /** Lower-cased, e.g. "bearer". */
  scheme: string;
  /** Parameter names lower-cased; values unquoted. */
  params: Record<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;
const TOKEN68 = /^[A-Za-z0-9._~+/-]+=*/;

/** Every challenge in the header value, in order; malformed tails are dropped, never thrown on. */
export function parseChallenges(header: string | null | undefined): Challenge[] {
  const out: Challenge[] = [];
  let rest = header ?? "";
  let current: Challenge | undefined;
  while (rest.length > 0) {
    rest = rest.replace(/^[\s,]+/, "");
    const word = TOKEN.exec(rest)?.[0];
    if (!word) break;
    const after = rest.slice(word.length);
    const param = /^\s*=\s*/.exec(after);
    if (current && param && !/^\s*=\s*=/.test(after)) {
      // name=value inside the current challenge
      let value: string;
      let tail = after.slice(param[0].length);
      if (tail.startsWith('"')) {
        let i = 1;
        value = "";
        while (i < tail.length && tail[i] !== '"') {
          if (tail[i] === "\\" && i + 1 < tail.length) i++;
          value += tail[i];
          i++;
        }
        tail = tail.slice(i + 1);
      } else {
        // Lenient: servers send unquoted URLs, which are not tokens; take up to the next comma or space.
        value = /^[^\s,]*/.exec(tail)?.[0] ?? "";
        tail = tail.slice(value.length);
      }
      current.params[word.toLowerCase()] = value;
      rest = tail;
      continue;
    }
    // A new scheme, possibly followed by a token68 (Basic abc==), which carries no parameters we read.
    current = { scheme: word.toLowerCase(), params: {} };
    out.push(current);
    rest = after.replace(/^\s+/, "");
    const t68 = TOKEN68.exec(rest)?.[0];
    if (t68 && !/^\s*=/.test(rest.slice(t68.length)) && /^\s*(,|$)/.test(rest.slice(t68.length))) {
      rest = rest.slice(t68.length);
    }
  }
  return out;
}

/** What a 401 tells an OAuth client: where the resource's metadata is, and the scope it wants. */
export function bearerHints(header: string | null | undefined): { resourceMetadata?: string; scope?: string } {
  const challenges = parseChallenges(header);
  const bearer = challenges.find((c) => c.scheme === "bearer") ?? challenges[0];
  const resourceMetadata = challenges.map((c) => c.params.resource_metadata).find(Boolean);
  const scope = bearer?.params.scope || undefined;
  return { ...(resourceMetadata ? { resourceMetadata } : {}), ...(scope ? { scope } : {}) };
}
