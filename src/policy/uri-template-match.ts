/**
 * Does a concrete URI fit an RFC 6570 URI template? "weather://city/paris/today" fits
 * "weather://city/{city}/today". Used to decide whether a consumer's string literal uses a
 * resource template. Deliberately generous (a wrong "yes" keeps a change in scope, a wrong
 * "no" would hide it): each expression matches what its operator can expand to, including
 * nothing. Unclosed braces are literal text, as in src/diff/uri-template.ts. Pure.
 */

const EXPRESSION = /\{([^{}]*)\}/g;

/**
 * The template as a small automaton, matched by simulating every state at once: linear in the
 * URI times the template, where a RegExp of the same shape (`{a}{b}{c}…` is `[^/?#]*[^/?#]*…`)
 * backtracks exponentially on a URI that does not fit. Templates come from servers, URIs from
 * consumer code, and neither is trusted.
 */
type Step =
  /** One literal character. */
  | { kind: "char"; char: string }
  /** Any run of characters `allowed` accepts, including none. */
  | { kind: "run"; allowed: (c: string) => boolean }
  /** Nothing, or `lead` followed by such a run. */
  | { kind: "led"; lead: string; allowed: (c: string) => boolean };

const anything = () => true;
const unreserved = (c: string) => c !== "/" && c !== "?" && c !== "#";
const notFragment = (c: string) => c !== "#";

/** What one `{…}` expression can expand to, by its operator. */
function expressionStep(body: string): Step {
  switch (body.charAt(0)) {
    case "#":
      return { kind: "led", lead: "#", allowed: anything };
    case ".": // each item is "." then unreserved text, so: nothing, or "." and no / ? #
      return { kind: "led", lead: ".", allowed: unreserved };
    case "/": // "/a/b": nothing, or "/" and no ? #
      return { kind: "led", lead: "/", allowed: (c) => c !== "?" && c !== "#" };
    case ";":
      return { kind: "led", lead: ";", allowed: unreserved };
    case "?":
      return { kind: "led", lead: "?", allowed: notFragment };
    case "&":
      return { kind: "led", lead: "&", allowed: notFragment };
    case "+": // reserved: may contain / ? # and the rest
    case "=":
    case ",":
    case "!":
    case "@":
    case "|": // reserved for future extensions: anything
      return { kind: "run", allowed: anything };
    default: // simple expansion: reserved characters are percent-encoded, so no / ? #
      return { kind: "run", allowed: unreserved };
  }
}

function stepsOf(template: string): Step[] {
  const steps: Step[] = [];
  const literal = (text: string) => {
    for (const char of text) steps.push({ kind: "char", char });
  };
  let last = 0;
  for (const match of template.matchAll(EXPRESSION)) {
    literal(template.slice(last, match.index));
    steps.push(expressionStep(match[1] ?? ""));
    last = (match.index ?? 0) + match[0].length;
  }
  literal(template.slice(last));
  return steps;
}

/**
 * States: `i` is "before step i"; for a "led" step, `-(i + 1)` is "inside its run". A set of
 * states is closed under the moves that read nothing (a run or a led step may be empty).
 */
function matches(steps: Step[], uri: string): boolean {
  const close = (states: Set<number>): Set<number> => {
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i] as Step;
      if (step.kind !== "char" && (states.has(i) || states.has(-(i + 1)))) states.add(i + 1);
    }
    return states;
  };
  let states = close(new Set([0]));
  for (const c of uri) {
    const next = new Set<number>();
    for (const state of states) {
      if (state < 0) {
        const i = -state - 1;
        const step = steps[i] as Step & { kind: "led" };
        if (step.allowed(c)) next.add(state);
        continue;
      }
      const step = steps[state];
      if (!step) continue;
      if (step.kind === "char" && step.char === c) next.add(state + 1);
      else if (step.kind === "run" && step.allowed(c)) next.add(state);
      else if (step.kind === "led" && step.lead === c) next.add(-(state + 1));
    }
    if (next.size === 0) return false;
    states = close(next);
  }
  return states.has(steps.length);
}

/** The literal text before the first expression: a cheap filter before the RegExp. */
export function uriTemplatePrefix(template: string): string {
  const brace = template.search(EXPRESSION);
  return brace < 0 ? template : template.slice(0, brace);
}

/** A matcher for one template; reuse it over many candidate URIs. */
export function compileUriTemplate(template: string): (uri: string) => boolean {
  const prefix = uriTemplatePrefix(template);
  const steps = stepsOf(template);
  return (uri) => uri === template || (uri.startsWith(prefix) && matches(steps, uri));
}

export function uriFitsTemplate(template: string, uri: string): boolean {
  return compileUriTemplate(template)(uri);
}
