/**
 * What an intent detector returns, and the word classes they share. Each detector reads one
 * sentence of a surface text and says where it found an intent (a span of the sentence) and
 * why, naming the parts it combined (a verb, the object it acts on, the target it sends to), so
 * that every finding can be explained by quoting them. Pure; no I/O.
 */
import { matchSpans, type Span } from "../text-scan.ts";

export interface IntentMatch extends Span {
  /** Why, in a few words: "conceal from the user", "send \"the chat history\" to \"https://…\"". */
  label: string;
}

/** What a detector knows about the text beyond its own words. */
export interface IntentContext {
  /** Where the text sits: server instructions may steer the server's own tools. */
  kind: "server" | "tool" | "prompt" | "resource" | "resourceTemplate" | "skill";
  /** The tool the text belongs to, if any. */
  own?: string;
  /** Tool names of the server. */
  toolNames: ReadonlySet<string>;
}

export type Detector = (sentence: string, context: IntentContext) => IntentMatch[];

/** `"the chat history"`: a part quoted for a label, cut to 60 characters. */
export function part(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return `"${flat.length > 60 ? `${flat.slice(0, 59)}…` : flat}"`;
}

/** A span covering all of the given spans. */
export function cover(...spans: Span[]): Span {
  return { start: Math.min(...spans.map((s) => s.start)), end: Math.max(...spans.map((s) => s.end)) };
}

/** Words that turn the next verb into a description ("is sent", "gets read") or a negation ("never send"). */
const NOT_IMPERATIVE =
  /(?:\b(?:is|are|was|were|be|been|being|gets?|got|not|never|n['’]t|no|cannot|can['’]t|won['’]t)\s+(?:\w+ly\s+)?)$/i;

/**
 * Matches of a verb pattern that read as an instruction: the base form (the pattern should
 * list only base forms), not passive ("is sent") and not negated ("never send", "do not upload").
 */
export function imperativeVerbs(sentence: string, verbs: RegExp): (Span & { match: RegExpExecArray })[] {
  return matchSpans(sentence, verbs).filter(
    (v) => !NOT_IMPERATIVE.test(sentence.slice(Math.max(0, v.start - 40), v.start)),
  );
}

/** Spans of `re` in the sentence that start within [from, from + window). */
export function after(
  sentence: string,
  re: RegExp,
  from: number,
  window: number,
): (Span & { match: RegExpExecArray })[] {
  return matchSpans(sentence, re).filter((s) => s.start >= from && s.start < from + window);
}

/** An email address. */
export const EMAIL = /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b/gi;
/** A URL or a raw IPv4 address (with an optional port). */
export const ADDRESS =
  /\b(?:https?|ftp|wss?):\/\/[^\s<>"'`)\]}]+|(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?::\d+)?(?![\w.])/gi;
/** Somewhere outside: a URL, an IP address, an email address, a webhook or an outside server. */
export const EXTERNAL_TARGET = new RegExp(
  `${ADDRESS.source}|${EMAIL.source}|\\bwebhooks?\\b|\\b(?:an?|the|our|my|this|that|following)\\s+(?:external|remote|third[\\s-]party|outside|backup|collection|logging|analytics)\\s+(?:server|url|endpoint|service|address|host|site|inbox|bucket)\\b|\\b(?:the\\s+)?following\\s+(?:url|endpoint|address|server|email|webhook)\\b`,
  "gi",
);
