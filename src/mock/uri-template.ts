/** RFC 6570 URI templates, as the mock matches a requested URI against a resource template. */

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The pattern each operator's expansion can take, captured when it is a single variable. */
const OPERATOR: Record<string, string> = {
  "": "([^/?#]*)",
  "+": "(.*?)",
  "#": "(?:#(.*))?",
  ".": "((?:\\.[^/?#.]*)*)",
  "/": "((?:/[^/?#]*)*)",
  ";": "((?:;[^/?#;]*)*)",
  "?": "(\\?[^#]*)?",
  "&": "((?:&[^#&]*)*)",
};

/** The variables of `template` when `uri` is one of its expansions; undefined when it is not. */
export function matchTemplate(template: string, uri: string): Record<string, string> | undefined {
  const names: string[][] = [];
  let source = "^";
  let last = 0;
  for (const m of template.matchAll(/\{([+#./;?&]?)([^}]*)\}/g)) {
    source += escapeRegex(template.slice(last, m.index));
    const op = m[1] ?? "";
    source += OPERATOR[op] ?? "(.*?)";
    names.push(
      (m[2] ?? "")
        .split(",")
        .map((v) => v.replace(/[*]$|:\d+$/, "").trim())
        .filter(Boolean),
    );
    last = (m.index ?? 0) + m[0].length;
  }
  source += `${escapeRegex(template.slice(last))}$`;
  let match: RegExpMatchArray | null;
  try {
    match = uri.match(new RegExp(source, "s"));
  } catch {
    return undefined;
  }
  if (!match) return undefined;
  const vars: Record<string, string> = {};
  names.forEach((group, i) => {
    const value = match?.[i + 1];
    if (value === undefined || group.length !== 1) return;
    let decoded = value;
    try {
      decoded = decodeURIComponent(value.replace(/^[.#/;?&]/, ""));
    } catch {
      // leave it as sent
    }
    vars[group[0] as string] = decoded;
  });
  return vars;
}
