/**
 * Consumer-driven scoping: which changes touch what one consumer actually uses. A change
 * is in scope when its target is used; server-level changes always are. Changes out of
 * scope stay in the report, marked exempt, and do not fail the run. Pure: the --used-by
 * scan (I/O) lives in src/cli/used-by-scan.ts and hands over its literals.
 */
import type { Change } from "../diff/model.ts";
import type { ReportChange } from "../report/model.ts";
import { compileGlob, hasWildcard } from "./glob.ts";
import { compileUriTemplate } from "./uri-template-match.ts";

export interface ConsumerUsage {
  /** --used: names and globs, matched against tool/prompt names, resource URIs and uriTemplates. */
  patterns: readonly string[];
  /** --used-by: the string literals found in the consumer's source, when it was scanned. */
  literals?: ReadonlySet<string>;
  /** How the user said it, for the exemption reason: `--used-by src/`. */
  description: string;
}

/** Split `--used` values ("echo,get-*", repeatable) into patterns. */
export function parseUsedList(values: readonly string[]): string[] {
  return values
    .flatMap((value) => value.split(","))
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** A predicate over (kind, name) that says whether the consumer uses the target. */
export function usageMatcher(usage: ConsumerUsage): (change: Pick<Change, "target">) => boolean {
  const globs = usage.patterns.map((pattern) => ({ pattern, test: compileGlob(pattern) }));
  const literals = usage.literals;
  const templateCache = new Map<string, boolean>();

  const templateUsed = (uriTemplate: string): boolean => {
    let used = templateCache.get(uriTemplate);
    if (used === undefined) {
      const fits = compileUriTemplate(uriTemplate);
      used =
        globs.some((g) => g.test(uriTemplate) || (!hasWildcard(g.pattern) && fits(g.pattern))) ||
        (literals !== undefined && [...literals].some(fits));
      templateCache.set(uriTemplate, used);
    }
    return used;
  };

  return ({ target }) => {
    if (target.kind === "server") return true;
    if (target.kind === "resourceTemplate") return templateUsed(target.name);
    return globs.some((g) => g.test(target.name)) || (literals?.has(target.name) ?? false);
  };
}

/** Mark every change the consumer does not use as exempt (out of scope); leave exempt ones alone. */
export function applyScope(changes: readonly ReportChange[], usage: ConsumerUsage): ReportChange[] {
  const used = usageMatcher(usage);
  const reason = `not used by the consumer (${usage.description})`;
  return changes.map((change) =>
    change.exempt || used(change) ? change : { ...change, exempt: { kind: "out-of-scope", reason } },
  );
}

/** "--used echo,get-* --used-by src/ lib/": how the scope was given, for messages. */
export function describeUsage(used: readonly string[], usedBy: readonly string[]): string {
  const parts: string[] = [];
  if (used.length) parts.push(`--used ${used.join(",")}`);
  if (usedBy.length) parts.push(`--used-by ${usedBy.join(" ")}`);
  return parts.join(" ");
}
