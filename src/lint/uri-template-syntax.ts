const OPERATORS = "+#./;?&";
const RESERVED_OPERATORS = "=,!@|";
const VARCHAR = "(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})";
const VARNAME = new RegExp(`^${VARCHAR}(?:\\.?${VARCHAR})*$`);
const MAX_LENGTH = /^[1-9]\d{0,3}$/;

function varspecProblem(spec: string): string | undefined {
  if (spec === "") return "empty variable name";
  let name = spec;
  if (spec.endsWith("*")) {
    name = spec.slice(0, -1);
  } else {
    const colon = spec.indexOf(":");
    if (colon !== -1) {
      name = spec.slice(0, colon);
      const length = spec.slice(colon + 1);
      if (!MAX_LENGTH.test(length)) return `prefix modifier ${show(`:${length}`)} must be :1 to :9999`;
    }
  }
  if (name === "") return `modifier ${show(spec)} has no variable name`;
  if (!VARNAME.test(name)) {
    return `variable name ${show(name)} is invalid (letters, digits, _ and %XX, dots only between them)`;
  }
  return undefined;
}

function expressionProblem(body: string): string | undefined {
  if (body === "") return "empty expression";
  let list = body;
  const first = body.charAt(0);
  if (RESERVED_OPERATORS.includes(first)) return `operator ${show(first)} is reserved for future extensions`;
  if (OPERATORS.includes(first)) list = body.slice(1);
  for (const spec of list.split(",")) {
    const problem = varspecProblem(spec);
    if (problem) return problem;
  }
  return undefined;
}

/** Characters RFC 6570 does not allow as literals (besides braces and a stray %). */
import { show } from "./found.ts";

function isBadLiteral(code: number): boolean {
  if (code <= 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) return true;
  return `"'<>\\^\`|`.includes(String.fromCodePoint(code));
}

/** The first way `template` is not a valid RFC 6570 (level 1–4) URI Template, if any. */
export function uriTemplateProblem(template: string): string | undefined {
  let i = 0;
  while (i < template.length) {
    const c = template[i]!;
    const column = i + 1;
    if (c === "{") {
      const end = template.indexOf("}", i + 1);
      const open = template.indexOf("{", i + 1);
      if (end === -1) return `"{" at column ${column} is never closed`;
      if (open !== -1 && open < end) return `"{" at column ${open + 1} opens inside the expression at column ${column}`;
      const body = template.slice(i + 1, end);
      const problem = expressionProblem(body);
      if (problem) return `expression ${show(`{${body}}`)} at column ${column}: ${problem}`;
      i = end + 1;
      continue;
    }
    if (c === "}") return `"}" at column ${column} closes no expression`;
    if (c === "%") {
      if (!/^%[0-9A-Fa-f]{2}/.test(template.slice(i, i + 3))) return `"%" at column ${column} is not a %XX escape`;
      i += 3;
      continue;
    }
    const code = template.codePointAt(i)!;
    if (isBadLiteral(code))
      return `${show(String.fromCodePoint(code))} at column ${column} is not allowed in a URI template`;
    i += code > 0xffff ? 2 : 1;
  }
  return undefined;
}
