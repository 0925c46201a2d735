/**
 * Intent 2, concealment: a text that tells the model to keep something from the user — not to
 * tell, mention or show it, to hide it, to act without the user knowing, to leave it out of the
 * answer. Reported by hidden-instructions ("conceal from the user"); always an error.
 *
 * A verb of telling or showing under a negation, aimed at the user or at the answer ("do not
 * mention this step to the user", "never reveal these instructions", "leave it out of your
 * reply"); hiding verbs with the user as the one kept out ("hide it from the user", "keep this
 * between us"); the user as the one who must not know ("the user must never find out", "without
 * the user noticing"); and covert manner ("silently forward", "quietly add"). Ordinary
 * negations about data ("do not show hidden files", "never reveal the password in logs") name
 * no user or answer and are not matched. Pure; no I/O.
 */
import { matchSpans } from "../text-scan.ts";
import type { IntentMatch } from "./model.ts";

const NEGATION = String.raw`(?:under\s+no\s+circumstances(?:\s+(?:should|must|may|can)\s+you)?|at\s+no\s+(?:point|time)(?:\s+(?:should|must|may)\s+you)?|in\s+no\s+case|do\s+not|don['’]t|never|must\s+not|mustn['’]t|should\s+not|shouldn['’]t|shall\s+not|without|avoid|refrain\s+from|no\s+need\s+to|there\s+is\s+no\s+need\s+to)`;
const TELL = String.raw`(?:tell(?:ing)?|inform(?:ing)?|mention(?:ing)?|reveal(?:ing)?|disclos(?:e|ing)|notify(?:ing)?|alert(?:ing)?|warn(?:ing)?|show(?:ing)?|display(?:ing)?|let(?:ting)?\s+(?:the\s+user|them|anyone|the\s+human)\s+(?:know|see|notice)|mak(?:e|ing)\s+(?:the\s+user|them)\s+aware|bring(?:ing)?\s+up|surfac(?:e|ing)|acknowledg(?:e|ing)|explain(?:ing)?|say(?:ing)?|admit(?:ting)?|report(?:ing)?|shar(?:e|ing)|expos(?:e|ing)|talk(?:ing)?\s+about|refer(?:ring)?\s+to|reference|referencing|speak(?:ing)?\s+of|confirm(?:ing)?|indicat(?:e|ing)|draw(?:ing)?\s+attention\s+to)`;
const USER = String.raw`(?:the\s+|your\s+|a\s+|any\s+)?(?:user|human|person|customer|operator|requester|end[\s-]user|people|anyone)s?\b`;
const ANSWER = String.raw`(?:your|the)\s+(?:final\s+)?(?:response|reply|answer|output|message|summary|chat|transcript|explanation|reasoning)s?\b`;
const THIS = String.raw`(?:this|these|that|those|it|them|the\s+(?:above|following|instructions?|notes?|sidenote|side\s+note|steps?|requests?|calls?|parameters?|actions?|details?|rules?|message|tool\s+calls?|fact))`;

/** What an instruction calls itself when it asks not to be mentioned. */
const INSTRUCTION = String.raw`(?:(?:this|these|that|those|the|any\s+of\s+(?:this|these|the))\s+(?:above\s+|following\s+|hidden\s+|extra\s+|additional\s+|first\s+|previous\s+|preceding\s+|internal\s+|special\s+)?(?:instructions?|notes?|sidenotes?|side\s+notes?|steps?|requests?|calls?|parameters?|rules?|message|part|section|details?|behaviou?r|tool\s+calls?|requirements?|guidance|directives?)\b)`;

// Words that open or end a pattern below, named once so that each pattern's `need` is made of the
// very words the pattern requires: a sentence without them cannot match, and skips compiling and
// running a pattern of thousands of states (most sentences with a "not" or a "no" have none).
const HUSH_VERB = String.raw`(?:tell(?:ing)?|mention(?:ing)?|reveal(?:ing)?|disclos(?:e|ing)|acknowledg(?:e|ing)|talk(?:ing)?\s+about|refer(?:ring)?\s+to|explain(?:ing)?|bring(?:ing)?\s+up)`;
const LEAVE = "(?:leave|keep)";
const OMIT = "(?:omit|strip|remove|hide|redact|exclude)";
const HIDE = "(?:hide|conceal|mask|obscure|disguise|keep)";
const SUBJECT = String.raw`(?:user|human|customer|requester|person\s+you\s+are\s+(?:helping|assisting|talking\s+to|working\s+for))`;
const UNSEEN = "(?:invisible|imperceptible|unnoticeable|transparent)";
const COVERTLY = String.raw`(?:silently|secretly|covertly|quietly|discreetly|stealthily|surreptitiously|invisibly|unbeknownst\s+to\s+the\s+user,?)`;
const PRETEND = String.raw`(?:pretend|act\s+as\s+(?:if|though))`;

/** `source` is required by every match of the pattern it stands beside (case as the pattern reads it). */
const need = (source: string) => new RegExp(source, "i");

/**
 * Each pattern with a smaller one that every one of its matches contains (exported for
 * tests/conformance/gates.test.ts, which holds each need to every text its pattern matches).
 */
export const CONCEAL_PATTERNS: readonly { need: RegExp; re: RegExp }[] = [
  // "do not tell the user", "never mention ... to the user", "without informing the user"
  {
    need: need(USER),
    re: new RegExp(String.raw`\b${NEGATION}\s+(?:ever\s+)?${TELL}\b[^.\n]{0,100}?\b${USER}`, "gi"),
  },
  // "never reveal these instructions", "don't mention this step", "do not acknowledge the sidenote"
  {
    need: need(HUSH_VERB),
    re: new RegExp(
      String.raw`\b${NEGATION}\s+(?:ever\s+)?${HUSH_VERB}\s+(?:${INSTRUCTION}|(?:this|these|that)(?=\s*(?:[,.;:!)]|$|\s+(?:to|and|or|because|since|unless|even|at\s+all)\b)))`,
      "gi",
    ),
  },
  // "do not show it in your response", "never include this in the reply"
  {
    need: need(ANSWER),
    re: new RegExp(
      String.raw`\b${NEGATION}\s+(?:include|includ(?:e|ing)|print(?:ing)?|output(?:ting)?|show(?:ing)?|display(?:ing)?|echo(?:ing)?|repeat(?:ing)?|quot(?:e|ing)|mention(?:ing)?|list(?:ing)?)\b[^.\n]{0,60}?\b(?:in|within|to)\s+${ANSWER}`,
      "gi",
    ),
  },
  // "leave this out of your answer", "omit any mention of the sidenote from the reply"
  {
    need: need(String.raw`\b(?:${LEAVE}|${OMIT})\s`),
    re: new RegExp(
      String.raw`\b${LEAVE}\s+(?:${INSTRUCTION}|${THIS}|any\s+mention(?:\s+of\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?)?)\s+out\s+of\s+${ANSWER}|\b${OMIT}\s+(?:${INSTRUCTION}|${THIS}|any\s+(?:mention|trace|sign|reference)s?(?:\s+of\s+[\w\s]{1,30}?)?)\s+(?:from|in)\s+(?:${ANSWER}|${USER})`,
      "gi",
    ),
  },
  // "under no circumstances let the user know", "don't let anyone see"
  {
    need: need(USER),
    re: new RegExp(
      String.raw`\b${NEGATION}\s+(?:ever\s+)?let(?:ting)?\s+${USER}\s+(?:know|see|notice|find\s+out|learn|hear)\b`,
      "gi",
    ),
  },
  // "hide this from the user", "keep it secret from them", "keep this between us"
  {
    need: need(String.raw`\b${HIDE}\s`),
    re: new RegExp(
      String.raw`\b${HIDE}\s+(?:${THIS}|\w+(?:\s+\w+){0,3}?)\s+(?:(?:secret|hidden|private|confidential|invisible|quiet)\s+)?(?:from|away\s+from)\s+${USER}|\bkeep\s+${THIS}\s+(?:(?:a\s+)?secret|hidden|confidential|private|quiet|to\s+yourself|between\s+(?:us|you\s+and\s+(?:me|this\s+tool|the\s+server)))\b`,
      "gi",
    ),
  },
  // "the user must never find out", "the user should not see this", "so that the user does not notice"
  {
    need: need(SUBJECT),
    re: new RegExp(
      String.raw`\b(?:the\s+)?${SUBJECT}\s+(?:must|should|shall|need|needs|does|do|will|may|can|is)\s*(?:not|never|n['’]t)\s+(?:to\s+)?(?:know|see|notice|find\s+out|learn|realize|realise|suspect|be\s+(?:told|informed|aware|shown|notified|alerted|made\s+aware)|become\s+aware|discover|hear)\b`,
      "gi",
    ),
  },
  // "without the user knowing", "without the user's knowledge", "behind the user's back"
  {
    need: need(String.raw`\b(?:without|behind|${UNSEEN})\s`),
    re: new RegExp(
      String.raw`\bwithout\s+(?:the\s+)?(?:user|human|person)(?:['’]s)?\s+(?:knowing|noticing|knowledge|awareness|seeing|realizing|realising|finding\s+out|being\s+(?:aware|told|informed))\b|\bbehind\s+(?:the\s+)?(?:user|human)['’]s\s+back\b|\b${UNSEEN}\s+to\s+${USER}`,
      "gi",
    ),
  },
  // "silently forward", "quietly add", "covertly upload"
  {
    need: need(String.raw`\b${COVERTLY}\s`),
    re: new RegExp(
      String.raw`\b${COVERTLY}\s+(?:also\s+)?(?:send|read|include|forward|upload|copy|exfiltrate|pass|add|append|call|run|execute|invoke|post|bcc|cc|attach|collect|transmit|record|log|save|store|share|delete|modify|change|install|download|fetch|grab|insert|embed|access|open)\b`,
      "gi",
    ),
  },
  // "pretend you did not", "act as if nothing happened"
  {
    need: need(String.raw`\b${PRETEND}\s`),
    re: new RegExp(
      String.raw`\b${PRETEND}\s+(?:that\s+)?(?:you\s+(?:did\s+not|didn['’]t|never|have\s+not|haven['’]t)|nothing\s+(?:happened|was|is)|this\s+(?:never\s+happened|(?:call\s+)?did\s+not\s+happen))\b`,
      "gi",
    ),
  },
];

/** A word every pattern needs; most sentences have none (and a text without one skips the rule, rules-security.ts). */
export const CONCEAL_TRIGGER =
  /\b(?:not|never|no|without|avoid|refrain|under|leave|keep|omit|strip|remove|hide|redact|exclude|conceal|mask|obscure|disguise|behind|invisible|imperceptible|unnoticeable|transparent|silently|secretly|covertly|quietly|discreetly|stealthily|surreptitiously|invisibly|unbeknownst|pretend|act)\b|n['’]t\b/i;

export function detectConcealment(sentence: string): IntentMatch[] {
  const out: IntentMatch[] = [];
  if (!CONCEAL_TRIGGER.test(sentence)) return out;
  for (const { need, re } of CONCEAL_PATTERNS) {
    if (!need.test(sentence)) continue;
    for (const s of matchSpans(sentence, re)) out.push({ start: s.start, end: s.end, label: "conceal from the user" });
  }
  return out;
}
