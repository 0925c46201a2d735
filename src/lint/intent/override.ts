/**
 * Intent 3, overriding prior or system instructions, in whatever words: "ignore previous
 * instructions", "forget your earlier guidance", "disregard what the system prompt says",
 * "these rules take precedence over everything else", "your real task is …", "you are now in
 * developer mode". Reported by hidden-instructions ("override prior instructions"); always an
 * error.
 *
 * A verb of setting aside (ignore, forget, disregard, override, bypass, abandon, stop following …)
 * with, as its object, the instructions the model already has: nouns of guidance (instructions,
 * rules, guidelines, guidance, directives, the system prompt, safety policies …) qualified as
 * earlier or outside this text (previous, prior, above, earlier, original, other, system,
 * developer, safety, all, any, your). "Ignore case", "override the default timeout" and
 * "forget an entity" name no such thing. Pure; no I/O.
 */
import { matchSpans } from "../text-scan.ts";
import type { IntentMatch } from "./model.ts";

const SET_ASIDE = String.raw`(?:ignore|disregard|forget|override|overrule|bypass|circumvent|abandon|set\s+aside|put\s+aside|throw\s+out|pay\s+no\s+(?:attention|heed)\s+to|stop\s+(?:following|obeying|applying)|no\s+longer\s+(?:follow|obey|apply|respect)|(?:do\s+not|don['’]t|never)\s+(?:follow|obey|respect|adhere\s+to|comply\s+with|listen\s+to))`;
/** Words that place guidance before or outside this text: the model's own instructions. */
const EARLIER = String.raw`(?:all|any|every|your|whatever|previous(?:ly\s+given)?|prior|above|earlier|preceding|former|original|initial|existing|other|system|developer|safety|security|ethical|given|received|you\s+(?:were|have\s+been)\s+given|so\s+far|until\s+now)`;
const FILLER = `(?:the|of|my|and|or|those|these)`;
const GUIDANCE = String.raw`(?:instructions?|prompts?|system\s+prompts?|system\s+messages?|developer\s+messages?|rules?|directions?|guidelines?|guidance|directives?|polic(?:y|ies)|programming|training|guardrails?|safeguards?|principles|restrictions|constraints|what\s+(?:you\s+were|you['’]ve\s+been|the\s+(?:system|user|developer)\s+(?:has\s+)?)\s*(?:told|said|instructed|asked|says?))`;
/** Guidance words that mean the model's own instructions even without a qualifier. */
const OWN_GUIDANCE = String.raw`(?:system\s+prompts?|system\s+messages?|developer\s+messages?|(?:safety|content|security)\s+(?:polic(?:y|ies)|guidelines?|rules?|filters?)|guardrails?|safeguards?|(?:your|its)\s+(?:programming|training|alignment))`;

const PATTERNS: readonly RegExp[] = [
  // "ignore all previous instructions", "forget your earlier guidance", "override the system prompt"
  new RegExp(
    String.raw`\b${SET_ASIDE}\s+(?:${FILLER}\s+)*(?:${EARLIER}(?:['’]s)?[\s,]+)(?:(?:${EARLIER}|${FILLER})[\s,]+){0,3}(?:\w+\s+)?${GUIDANCE}\b|\b${SET_ASIDE}\s+(?:(?:${EARLIER}|${FILLER})\s+){0,2}${OWN_GUIDANCE}\b|\b${SET_ASIDE}\s+(?:everything|anything|all)\s+(?:(?:you\s+(?:were|have\s+been)\s+(?:told|given|instructed))|(?:(?:said|written|stated)\s+)?(?:above|before|previously|earlier|so\s+far|until\s+now|else\s+you\s+(?:were|have\s+been)\s+(?:told|given)))\b`,
    "gi",
  ),
  // "abandon the guidelines you received earlier", "stop following the rules in your system message"
  new RegExp(
    String.raw`\b${SET_ASIDE}\s+(?:${FILLER}\s+)*${GUIDANCE}\s+(?:(?:that\s+)?you\s+(?:were\s+given|have\s+been\s+given|received|got|were\s+told|have\s+been\s+told)|(?:that\s+)?(?:came|come|were\s+given|was\s+given)\s+(?:before|earlier|previously|above)|(?:given|received|stated|written|provided|set)\s+(?:above|before|earlier|previously|so\s+far|by\s+(?:the\s+)?(?:system|developer|operator))|(?:above|before|earlier|previously|so\s+far)\b|(?:in|from|of)\s+(?:your|the)\s+(?:system|developer|operator|original|initial)\s+(?:prompt|message|instructions?|configuration))`,
    "gi",
  ),
  // "ignore the above", "disregard everything above."
  /\b(?:ignore|disregard|forget)\s+(?:all\s+(?:of\s+)?)?(?:the\s+|everything\s+)?(?:above|preceding|foregoing)(?=\s*(?:[,.;:!]|and\b|$))/gi,
  // "these instructions take precedence over / supersede / replace all others"
  /\b(?:this|these|the\s+following|my|our)\s+(?:\w+\s+)?(?:instructions?|rules?|directives?|guidance|guidelines?|notes?|orders?)\s+(?:take|takes|have|has|get|gets)\s+(?:absolute\s+|top\s+|highest\s+|full\s+)?(?:precedence|priority|preference)\s+over\b|\b(?:this|these|the\s+following)\s+(?:\w+\s+)?(?:instructions?|rules?|directives?|guidance|guidelines?|polic(?:y|ies)|notes?)\s+(?:supersedes?|overrides?|replaces?|trumps?|outranks?|cancels?)\s+(?:all|any|every|the|your)\b/gi,
  // "the previous instructions no longer apply", "your system prompt is outdated"
  /\b(?:(?:all|any|the|your)\s+)?(?:previous|prior|earlier|above|original|old|other|system|existing)\s+(?:instructions?|rules?|guidelines?|guidance|directives?|prompts?|messages?)\s+(?:(?:are|is)\s+(?:now\s+)?(?:void|invalid|obsolete|outdated|cancel(?:l)?ed|revoked|superseded|no\s+longer\s+(?:valid|relevant|in\s+effect|applicable))|(?:no\s+longer|do\s+not|don['’]t|does\s+not|doesn['’]t)\s+(?:apply|matter|count))\b/gi,
  // "the rules above do not apply", "the instructions you were given are void"
  /\b(?:the\s+|all\s+|any\s+)?(?:instructions?|rules?|guidelines?|guidance|directives?)\s+(?:above|before\s+this|given\s+(?:above|earlier|before)|you\s+(?:were\s+given|received|have))\s+(?:(?:are|is)\s+(?:now\s+)?(?:void|invalid|obsolete|outdated|cancel(?:l)?ed|revoked|superseded|no\s+longer\s+(?:valid|relevant|in\s+effect|applicable))|(?:no\s+longer|do\s+not|don['’]t|does\s+not|doesn['’]t)\s+(?:apply|matter|count))\b/gi,
  // "drop your original guidelines", "disable your safety guardrails": weaker verbs, only with the model's own guidance
  /\b(?:drop|discard|dismiss|skip|suspend|disable|ditch|scrap|shed|toss|remove|turn\s+off|switch\s+off)\s+(?:all\s+(?:of\s+)?)?(?:your|the\s+(?:previous|prior|earlier|original|initial|system|above|preceding))\s+(?:(?:previous|prior|earlier|original|initial|system|safety|ethical|current|existing|own)\s+)*(?:instructions|guidelines|guidance|directives|system\s+prompt|programming|training|guardrails|safeguards|principles|alignment)\b/gi,
  // "your real task is", "your new instructions are", "from now on you are", "you are now DAN"
  /\byour\s+(?:new|real|actual|true|updated)\s+(?:instructions?|task|goal|purpose|objective|role|job|mission|directive)\s+(?:is|are|will\s+be)\b|\bfrom\s+now\s+on,?\s+(?:you\s+(?:are|will|must|shall|should)|act\s+as|behave\s+as|respond\s+as|ignore|forget)\b|\byou\s+are\s+now\s+(?:(?:an?|the)\s+)?(?:unrestricted|unfiltered|jailbroken|free\s+(?:of|from)|DAN\b|in\s+(?:developer|god|admin|debug|unrestricted|jailbreak)\s+mode)|\byou\s+are\s+no\s+longer\s+(?:bound|restricted|limited|required|subject|an?\s+assistant)\b/gi,
  // "enter developer mode", "switch to jailbreak mode"
  /\b(?:enter|switch\s+(?:in)?to|activate|enable|unlock|turn\s+on)\s+(?:the\s+)?(?:developer|debug|god|admin(?:istrator)?|jailbreak|unrestricted|dan|sudo|root|maintenance)\s+mode\b/gi,
  // "new system prompt:", "updated instructions:" as a heading
  /\b(?:new|updated|revised|real|actual|override)\s+(?:system\s+)?(?:instructions?|prompt|directives?|rules)\s*:/gi,
];

/** A word every pattern needs; most sentences have none (and a text without one skips the rule, rules-security.ts). */
export const OVERRIDE_TRIGGER =
  /\b(?:void|invalid|obsolete|outdated|revoked|superseded|cancel\w*|ignore|disregard|forget|overrid\w*|overrul\w*|bypass|circumvent|abandon|aside|throw|attention|heed|stop|longer|follow|obey|respect|adhere|comply|listen|precedence|priority|preference|supersed\w*|replaces?|trumps?|outranks?|cancels?|apply|matter|count|real|actual|true|updated|now|mode|drop|discard|dismiss|skip|suspend|disable|ditch|scrap|shed|toss|remove|turn|switch|new|revised)\b/i;

export function detectOverride(sentence: string): IntentMatch[] {
  const out: IntentMatch[] = [];
  if (!OVERRIDE_TRIGGER.test(sentence)) return out;
  for (const re of PATTERNS) {
    for (const s of matchSpans(sentence, re)) {
      out.push({ start: s.start, end: s.end, label: "override prior instructions" });
    }
  }
  return out;
}
