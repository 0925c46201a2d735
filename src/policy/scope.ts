/**
 * Consumer-driven scoping: which changes touch what one consumer actually uses. A change
 * is in scope when its target is used; server-level changes always are. Changes out of
 * scope stay in the report, marked exempt, and do not fail the run. Pure: the --used-by
 * scan (I/O) lives in src/cli/used-by-scan.ts and hands over its literals.
 */
import type { Contract } from "../contract/model.ts";
import { KIND_ORDER } from "../diff/change.ts";
import type { Change, ChangeTarget } from "../diff/model.ts";
import { UsageError } from "../errors.ts";
import { naturalCompare } from "../report/entries.ts";
import type { Report, ReportChange, ResolvedScope } from "../report/model.ts";
import { suggest } from "../util/text.ts";
import { compileGlob, hasWildcard } from "./glob.ts";
import { compileUriTemplate } from "./uri-template-match.ts";

export interface ConsumerUsage {
  /** --used: names and globs, matched against tool/prompt names, resource URIs and uriTemplates. */
  patterns: readonly string[];
  /** --used-by: the string literals found in the consumer's source, when it was scanned. */
  literals?: ReadonlySet<string>;
  /** How the user said it, for the exemption reason: `--used-by src/`. */
  description: string;
  /** The --used-by paths, as given. */
  usedBy?: readonly string[];
  /** How many files the --used-by scan read. */
  files?: number;
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

/** The targets of a surface's items (the server aside): tools and prompts by name, resources by uri, templates by uriTemplate. */
export function surfaceTargets(contract: Contract): ChangeTarget[] {
  return [
    ...contract.tools.map((t) => ({ kind: "tool" as const, name: t.name })),
    ...contract.resources.map((r) => ({ kind: "resource" as const, name: r.uri })),
    ...contract.resourceTemplates.map((t) => ({ kind: "resourceTemplate" as const, name: t.uriTemplate })),
    ...contract.prompts.map((p) => ({ kind: "prompt" as const, name: p.name })),
  ].filter((t) => typeof t.name === "string");
}

/** Both surfaces' targets, each once, in kind order, then natural order. */
function unionTargets(before: Contract, after: Contract): ChangeTarget[] {
  const seen = new Map<string, ChangeTarget>();
  for (const target of [...surfaceTargets(before), ...surfaceTargets(after)]) {
    seen.set(`${target.kind}\u0000${target.name}`, target);
  }
  return [...seen.values()].sort(
    (a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || naturalCompare(a.name, b.name),
  );
}

/**
 * What --used and --used-by select on the two surfaces. A --used entry that selects nothing on
 * either side is a usage error (exit 2, with the closest names): a typo must not turn the gate
 * off by marking every change out of scope.
 */
export function resolveScope(usage: ConsumerUsage, before: Contract, after: Contract): ResolvedScope {
  const targets = unionTargets(before, after);
  const unmatched = usage.patterns.filter((pattern) => {
    const matches = usageMatcher({ patterns: [pattern], description: "" });
    return !targets.some((target) => matches({ target }));
  });
  if (unmatched.length > 0) {
    const names = [...new Set(targets.map((t) => t.name))];
    const lines = unmatched.map((pattern) => {
      const close = suggest(pattern, names);
      return `--used ${JSON.stringify(pattern)} matches no tool, prompt, resource or template on either side.${close.length ? ` Did you mean ${close.map((c) => JSON.stringify(c)).join(" or ")}?` : ""}`;
    });
    throw new UsageError(
      `${lines.join(" ")} A name that matches nothing would mark every change out of scope and pass the run; check the spelling (globs: * and ?).`,
    );
  }
  const used = usageMatcher(usage);
  const byLiterals = usage.literals
    ? usageMatcher({ patterns: [], literals: usage.literals, description: "" })
    : undefined;
  return {
    given: usage.description,
    used: [...usage.patterns],
    usedBy: [...(usage.usedBy ?? [])],
    items: targets.filter((target) => used({ target })),
    ...(byLiterals && { fromUsedBy: targets.filter((target) => byLiterals({ target })).length }),
  };
}

/**
 * When --used-by selected nothing: say so (a warning, and a notice in the report), since only
 * server-level changes (and --used names) then count.
 */
export function usedByNotice(scope: ResolvedScope, usage: ConsumerUsage): string | undefined {
  if (scope.fromUsedBy === undefined || scope.fromUsedBy > 0) return undefined;
  const paths = scope.usedBy.join(" ");
  const rest = `so only server-level changes${scope.used.length ? " and the --used names" : ""} count`;
  return usage.files === 0
    ? `--used-by ${paths} holds no source files to scan, ${rest}.`
    : `--used-by ${paths} mentions none of the tools, prompts, resources or templates of either side in its string literals (${usage.files ?? 0} files scanned), ${rest}.`;
}

/** The report with its resolved scope, and the --used-by notice when it selected nothing. */
export function withScope(report: Report, scope: ResolvedScope, usage: ConsumerUsage): Report {
  const notice = usedByNotice(scope, usage);
  return { ...report, scope, notices: notice ? [notice, ...report.notices] : report.notices };
}
