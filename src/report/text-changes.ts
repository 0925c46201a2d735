/**
 * Changed texts (descriptions, titles, instructions) as a reader needs them: the window that
 * differs, as a word diff (the drift lens's, src/lint/text-diff.ts), instead of both sides cut
 * at the same 60-character prefix, which hides exactly what changed:
 *
 *   tool "search": description changed: Recursively search for files … matching a [-pattern-]{+glob+}
 *
 * Only the message changes; `before` and `after` keep the whole texts. Pure.
 */
import type { Json } from "../contract/model.ts";
import { show } from "../diff/change.ts";
import { textDiff } from "../lint/text-diff.ts";
import { diffRulesWith } from "../rules/registry.ts";
import type { ReportChange } from "./model.ts";

/** Rules whose change is a rewritten text. */
const TEXT_RULES = diffRulesWith("text");

const isText = (value: Json | undefined): value is string => typeof value === "string";

/** Longest text a prose line quotes whole; past it, its start and an ellipsis. */
const PROSE_MAX = 300;

/**
 * For prose (the changelog, release notes a person reads top to bottom): a rewritten text as it
 * now reads, without word-diff markup: `description now reads: "Search files by glob."`.
 * Undefined for every other change.
 */
export function proseTextChange(change: ReportChange): string | undefined {
  if (!TEXT_RULES.has(change.rule) || !isText(change.after)) return undefined;
  const at = /^(.*?) changed(?: at ([^:]*))?(?::|$| from )/.exec(change.message);
  const head = at?.[1] ?? change.message;
  const where = at?.[2] === undefined ? "" : ` at ${at[2]}`;
  const text = change.after.length > PROSE_MAX ? `${change.after.slice(0, PROSE_MAX - 1)}…` : change.after;
  return `${head}${where} now reads: ${JSON.stringify(text)}`;
}

/** The change with its message showing a word diff, when it is a text that was rewritten (both sides present). */
export function withTextDiff<C extends ReportChange>(change: C): C {
  if (!TEXT_RULES.has(change.rule) || !isText(change.before) || !isText(change.after)) return change;
  const diff = textDiff(change.before, change.after);
  // Field changes: "… description changed from "…" to "…"" (src/diff/change.ts describeFieldChange).
  const fromTo = ` changed from ${show(change.before)} to ${show(change.after)}`;
  const at = change.message.lastIndexOf(fromTo);
  if (at >= 0 && at + fromTo.length === change.message.length) {
    return { ...change, message: `${change.message.slice(0, at)} changed: ${diff}` };
  }
  // Schema annotations: "… description changed at inputSchema.properties.q" (no values shown).
  if (/ changed at [^:]*$/.test(change.message)) return { ...change, message: `${change.message}: ${diff}` };
  return change;
}
