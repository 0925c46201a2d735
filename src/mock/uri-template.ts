/**
 * RFC 6570 URI templates, as the mock decides whether a requested URI (resources/read, a
 * fixture's key) is an expansion of one of the contract's resource templates.
 *
 * Templates come from the contract and URIs from the client, and neither is trusted. A RegExp
 * built from a template (`{a}{b}{c}…` becomes `([^/?#]*)([^/?#]*)…`) backtracks through every
 * way to split a URI that does not fit: 16 expressions against 16 characters took 6 s, 20
 * characters a minute. So matching is delegated to the linear automaton of
 * src/policy/uri-template-match.ts (time proportional to the URI times the template), which
 * `check --used-by` already relies on. It answers only yes or no: the mock never needed the
 * variables' values.
 */
import { compileUriTemplate } from "../policy/uri-template-match.ts";

/** Compiled matchers by template: a contract has few templates, and each is tried per read. */
const compiled = new Map<string, (uri: string) => boolean>();
const MAX_CACHED = 1_000;

/** Whether `uri` is one of the expansions of `template` (each expression may expand to nothing). */
export function fitsTemplate(template: string, uri: string): boolean {
  let matcher = compiled.get(template);
  if (!matcher) {
    matcher = compileUriTemplate(template);
    if (compiled.size >= MAX_CACHED) compiled.clear();
    compiled.set(template, matcher);
  }
  return matcher(uri);
}
