/**
 * Just enough of RFC 6570 (URI Template) to tell which variables a template takes.
 * Expressions are `{` [operator] varspec *( "," varspec ) `}`; a varspec is a name with an
 * optional `:N` prefix or `*` explode modifier. Malformed text (an unclosed brace) is
 * treated as literal, as lenient expanders do. Pure.
 */

export interface TemplateVariable {
  name: string;
  /** "" for simple expansion, else one of + # . / ; ? & (or a reserved operator = , ! @ |). */
  operator: string;
  explode: boolean;
  /** The `:N` prefix length, when given. */
  prefix?: number;
}

const OPERATORS = new Set(["+", "#", ".", "/", ";", "?", "&", "=", ",", "!", "@", "|"]);
const EXPRESSION = /\{([^{}]*)\}/g;
const PREFIX = /^(.*):(\d+)$/;

/** Every variable reference, in order of appearance (a name may appear more than once). */
export function parseTemplateVariables(template: string): TemplateVariable[] {
  const out: TemplateVariable[] = [];
  for (const match of template.matchAll(EXPRESSION)) {
    let body = match[1] ?? "";
    let operator = "";
    const first = body.charAt(0);
    if (OPERATORS.has(first)) {
      operator = first;
      body = body.slice(1);
    }
    for (const raw of body.split(",")) {
      const spec = raw.trim();
      if (spec === "") continue;
      if (spec.endsWith("*")) {
        const name = spec.slice(0, -1);
        if (name !== "") out.push({ name, operator, explode: true });
        continue;
      }
      const prefixed = PREFIX.exec(spec);
      if (prefixed) {
        const name = prefixed[1] ?? "";
        if (name !== "") out.push({ name, operator, explode: false, prefix: Number(prefixed[2]) });
        continue;
      }
      out.push({ name: spec, operator, explode: false });
    }
  }
  return out;
}

/** The distinct variable names of a template, in order of first appearance. */
export function templateVariableNames(template: string): string[] {
  return [...new Set(parseTemplateVariables(template).map((v) => v.name))];
}
