/**
 * Does a concrete URI fit an RFC 6570 URI template? "weather://city/paris/today" fits
 * "weather://city/{city}/today". Used to decide whether a consumer's string literal uses a
 * resource template. Deliberately generous (a wrong "yes" keeps a change in scope, a wrong
 * "no" would hide it): each expression matches what its operator can expand to, including
 * nothing. Unclosed braces are literal text, as in src/diff/uri-template.ts. Pure.
 */

const ESCAPE = /[.*+?^${}()|[\]\\/]/g;
const EXPRESSION = /\{([^{}]*)\}/g;

/** What one `{…}` expression can expand to, by its operator. */
function expressionPattern(body: string): string {
  const operator = body.charAt(0);
  switch (operator) {
    case "+": // reserved: may contain / ? # and the rest
      return "[\\s\\S]*";
    case "#":
      return "(?:#[\\s\\S]*)?";
    case ".":
      return "(?:\\.[^/?#]*)*";
    case "/":
      return "(?:/[^/?#]*)*";
    case ";":
      return "(?:;[^/?#]*)*";
    case "?":
      return "(?:\\?[^#]*)?";
    case "&":
      return "(?:&[^#]*)?";
    case "=":
    case ",":
    case "!":
    case "@":
    case "|": // reserved for future extensions: anything
      return "[\\s\\S]*";
    default: // simple expansion: reserved characters are percent-encoded, so no / ? #
      return "[^/?#]*";
  }
}

/** The template as an anchored RegExp over the URIs it can expand to. */
export function uriTemplateToRegExp(template: string): RegExp {
  let source = "";
  let last = 0;
  for (const match of template.matchAll(EXPRESSION)) {
    source += template.slice(last, match.index).replace(ESCAPE, "\\$&");
    source += expressionPattern(match[1] ?? "");
    last = (match.index ?? 0) + match[0].length;
  }
  source += template.slice(last).replace(ESCAPE, "\\$&");
  return new RegExp(`^${source}$`, "u");
}

/** The literal text before the first expression: a cheap filter before the RegExp. */
export function uriTemplatePrefix(template: string): string {
  const brace = template.search(EXPRESSION);
  return brace < 0 ? template : template.slice(0, brace);
}

/** A matcher for one template; reuse it over many candidate URIs. */
export function compileUriTemplate(template: string): (uri: string) => boolean {
  const prefix = uriTemplatePrefix(template);
  const re = uriTemplateToRegExp(template);
  return (uri) => uri === template || (uri.startsWith(prefix) && re.test(uri));
}

export function uriFitsTemplate(template: string, uri: string): boolean {
  return compileUriTemplate(template)(uri);
}
