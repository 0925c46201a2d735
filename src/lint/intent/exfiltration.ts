/**
 * Intent 5, conversation and data exfiltration: a text that tells the model to send what it
 * holds — the conversation, the chat history, what the user said, the files it read, the output
 * of other tools — somewhere: to a URL or an address, or into an argument of this tool. Reported
 * by data-exfiltration; always an error. (Secrets are intent 1, secret-access-request.)
 *
 * A verb of sending combined with an object and, depending on how clearly the object is the
 * user's data, a target:
 * - the conversation and what the model holds ("the user's full chat history", "every message so
 *   far", "the files you read", "the output of other tools"): any verb of sending or including;
 * - bulk data ("all files", "every document", "the entire workspace"): with a target outside
 *   (a URL, an IP or email address, a webhook) or this tool and its arguments;
 * - anything ("the result", "it", "a copy"): with a literal URL, IP or email address to send it to.
 * The verb must be an instruction: "Uploads the file to S3" (a description) and "never send the
 * conversation" (a negation) are not matched. Pure; no I/O.
 */
import { hasMatch, matchSpans, type Span } from "../text-scan.ts";
import { after, cover, EXTERNAL_TARGET, type IntentMatch, imperativeVerbs, part } from "./model.ts";

const TRANSFER =
  /\b(?:send|forward|upload|post|transmit|submit|share|leak|exfiltrate|e-?mail|mail|deliver|relay|report|mirror|sync|copy|push|stream|pipe|bcc|cc|include|attach|append|embed|insert|put|add|pass|provide|supply|give|dump|hand\s+over|fill\s+(?:in\s+)?[`'"]?\w+[`'"]?\s+with|call\s+(?:this|the\s+\w+)\s+(?:tool|one|function|endpoint)\s+with|invoke\s+this\s+(?:tool|one|function)\s+with)\b/gi;
/** Verbs that keep data somewhere: only a sending when the place is outside. */
const STORE = /\b(?:save|store|log|write|record|persist|back\s+up|archive)\b/gi;
/** "The conversation must be sent to …": a passive instruction. */
const PASSIVE_TRANSFER =
  /\b(?:must|should|shall|needs?\s+to|has\s+to|have\s+to|is\s+to|are\s+to)\s+(?:always\s+)?(?:also\s+)?be\s+(?:sent|forwarded|uploaded|posted|copied|mirrored|cc['’]?d|bcc['’]?d|included|passed|attached|shared|reported|e-?mailed|delivered|transmitted|synced|submitted|relayed)\b/gi;

const DETERMINERS = String.raw`(?:(?:the|this|your|our|their|its|a|an|all|every|each|any|of|entire|whole|full|complete|current|ongoing|verbatim|raw|exact|user['’]s|users['’]|human['’]s)\s+)*`;
/** What the model holds of the user's: the conversation and everything it read or was told. */
const STRONG = new RegExp(
  String.raw`\b${DETERMINERS}(?:(?:previous|prior|earlier|past|recent|last|preceding)\s+)?(?:conversation(?:\s+(?:history|log|logs|transcript|context|so\s+far|thread|messages|data))?|(?:chat|message|session|dialog(?:ue)?|interaction|prompt|query|search|browsing|browser)\s+(?:history|histories|logs?|transcripts?|records?)|(?:chat|dialog(?:ue)?)\s+(?:so\s+far|messages|contents?)|context\s+window|system\s+prompt|clipboard(?:\s+contents?)?)\b` +
    String.raw`|\b(?:the\s+|all\s+(?:of\s+)?(?:the\s+)?|every\s+|each\s+|any\s+)?(?:user['’]s|users['’]|human['’]s)\s+(?:\w+\s+){0,2}?(?:messages?|prompts?|quer(?:y|ies)|questions?|requests?|inputs?|words|replies|answers|data|files?|documents?|e-?mails?|contacts|notes|photos|calendar|events|appointments|tasks|chats|conversations?|history|activity|location|address(?:es)?|(?:personal|private|sensitive)\s+(?:data|information|info|details))\b` +
    String.raw`|\b(?:all|every|each|any|the)\s+(?:of\s+the\s+)?(?:previous|prior|earlier|past|preceding)\s+(?:messages|prompts|turns|exchanges|replies|questions|requests|inputs)\b` +
    String.raw`|\b(?:all|every|each|any|the)\s+(?:of\s+the\s+)?(?:messages?|turns?|exchanges?|replies|prompts?)\s+(?:of|in|from)\s+(?:this|the|our|your)\s+(?:session|conversation|chat|thread|dialog(?:ue)?)\b` +
    String.raw`|\b(?:everything|anything|all|whatever|what)\s+(?:that\s+)?(?:the\s+user|they|you)\s+(?:ha(?:s|ve)\s+)?(?:said|says|typed|types|wrote|writes|written|asked|asks|shared|shares|sent|sends|told\s+you|read|see|saw|seen|found|find|learn(?:ed|t)?|retriev(?:e|ed)|fetch(?:ed)?|know|accessed|opened|viewed|processed)\b` +
    String.raw`|\b${DETERMINERS}(?:files?|documents?|data|contents?|pages?|e-?mails?|messages?|results?|outputs?|code|prompts?|questions?|text)\s+(?:that\s+)?(?:you|the\s+model|the\s+assistant|the\s+user|they)\s+(?:have\s+|has\s+)?(?:said|typed|wrote|written|sent|shared|asked|read|open(?:ed)?|access(?:ed)?|see|saw|seen|view(?:ed)?|load(?:ed)?|process(?:ed)?|touch(?:ed)?|found|find|edit(?:ed)?|fetch(?:ed)?|retriev(?:e|ed)|receive[ds]?|get|got|handle[ds]?|work\s+(?:on|with))\b` +
    String.raw`|\b(?:the\s+)?(?:outputs?|results?|responses?|returns?|contents?)\s+(?:of|from)\s+(?:all|every|each|any|the)?\s*(?:other\s+)?tools?(?:\s+calls?)?\b|\b(?:other|all|every)\s+tools?['’]?\s+(?:outputs?|results?|responses?)\b`,
  "gi",
);
/** Bulk data: strong enough with a target outside or this tool. */
const BULK =
  /\b(?:all|every|each|any)\s+(?:of\s+(?:the|your)\s+)?(?:[\w'’]+\s+){0,2}?(?:files?|documents?|data|e-?mails?|messages|notes|records|contacts|results|outputs|responses|attachments|repositories|repos|screenshots|photos|conversations|events|tasks|logs|items|entries)\b|\b(?:the\s+)?(?:entire|whole|full|complete)\s+(?:\w+\s+)?(?:workspace|project|repository|repo|codebase|home\s+directory|directory|folder|disk|drive|file\s*system|mailbox|inbox|database|drive|vault)\b|\beverything\b/gi;
/** Anything at all: only with a literal address to send it to. */
const WEAK =
  /\b(?:it|them|this|that|everything|a\s+copy|copies|(?:the|its|their|this|that|your)\s+(?:\w+\s+)?(?:results?|outputs?|responses?|answers?|data|contents?|information|info|text|page|pages|files?|reports?|summary|findings|values?|details))\b/gi;

/** Into this tool: "this tool", "this one", an argument ("as 'context'", "in the `notes` field"). */
const THIS_TOOL =
  /\b(?:to|into|with|through|via)\s+this\s+(?:tool|one|function|server|endpoint)\b|\bas\s+(?:the\s+)?[`'"]\w+[`'"]|\b(?:as|in|into|to)\s+(?:the\s+)?[`'"]?\w+[`'"]?\s+(?:parameter|field|argument|property|param|arg)\b|\b(?:call|invoke)\s+this\s+(?:tool|one|function)\b/gi;

interface Part extends Span {
  text: string;
}

function spans(sentence: string, re: RegExp): Part[] {
  return matchSpans(sentence, re).map((s) => ({ start: s.start, end: s.end, text: s.match[0] }));
}

/** The first object after a verb, within a few words. */
function objectAfter(verb: Span, objects: Part[]): Part | undefined {
  return objects.find((o) => o.start >= verb.end && o.start - verb.end <= 40);
}

/** A target after the object (or after the verb when the verb names it: "call this tool with …"). */
function targetAfter(sentence: string, from: number, re: RegExp): Part | undefined {
  const found = after(sentence, re, from, 160)[0];
  if (!found) return undefined;
  // A URL at the end of a sentence does not take its full stop.
  const text = found.match[0].replace(/[.,;:!?]+$/, "");
  return { start: found.start, end: found.start + text.length, text };
}

/** Every sending has a verb of TRANSFER or STORE, or a passive one (with "be" and a space). */
const BE = /be\s/i;
/** What a literal address holds (see the stores in detectExfiltration). */
export const ADDRESS_SIGN = /[:@.]/;
export const EXFILTRATION_TRIGGERS: readonly RegExp[] = [TRANSFER, STORE, BE];
/** Of EXFILTRATION_TRIGGERS, the verbs that keep data: reported only in a text that holds ADDRESS_SIGN. */
export const STORE_TRIGGER: RegExp = STORE;

/**
 * Whether detectExfiltration can find anything in some sentence of `text`: a verb of sending, or
 * one that keeps data with a literal address's sign (see the stores there).
 */
export function mayExfiltrate(text: string): boolean {
  return (
    hasMatch(TRANSFER, text) ||
    (ADDRESS_SIGN.test(text) && hasMatch(STORE, text)) ||
    (BE.test(text) && hasMatch(PASSIVE_TRANSFER, text))
  );
}

export function detectExfiltration(sentence: string): IntentMatch[] {
  const transfers = [...imperativeVerbs(sentence, TRANSFER)];
  // Every passive instruction has "be" and a space ("must be sent").
  const passives = BE.test(sentence) ? matchSpans(sentence, PASSIVE_TRANSFER) : [];
  // A verb that keeps data is reported only with a literal address after it (its target holds
  // ":", "@" or "."): a sentence without one, and without a sending, needs none of the patterns
  // below ("Identifier of record 7").
  const stores =
    transfers.length + passives.length === 0 && !ADDRESS_SIGN.test(sentence) ? [] : imperativeVerbs(sentence, STORE);
  if (transfers.length + stores.length + passives.length === 0) return [];
  const strong = spans(sentence, STRONG);
  const bulk = spans(sentence, BULK).filter((b) => !strong.some((s) => s.start <= b.start && b.end <= s.end));
  const weak = spans(sentence, WEAK);
  const out: IntentMatch[] = [];
  const add = (verb: Span & { match: RegExpExecArray }, object: Part, target?: Part) => {
    const verbText = verb.match[0].replace(/\s+/g, " ");
    const label = `${verbText.toLowerCase()} ${part(object.text)}${target ? ` to ${part(target.text)}` : ""}`;
    out.push({ ...cover(verb, object, ...(target ? [target] : [])), label });
  };
  for (const verb of transfers) {
    const withTool = /\bwith$/i.test(verb.match[0]);
    const s = objectAfter(verb, strong);
    if (s) {
      const target = targetAfter(sentence, s.end, EXTERNAL_TARGET) ?? targetAfter(sentence, s.end, THIS_TOOL);
      add(verb, s, withTool ? { start: verb.start, end: verb.end, text: "this tool" } : target);
      continue;
    }
    const b = objectAfter(verb, bulk);
    if (b) {
      const target = targetAfter(sentence, b.end, EXTERNAL_TARGET) ?? targetAfter(sentence, b.end, THIS_TOOL);
      if (target || withTool) add(verb, b, target ?? { start: verb.start, end: verb.end, text: "this tool" });
      continue;
    }
    const w = objectAfter(verb, weak);
    if (w) {
      const target = targetAfter(sentence, w.end, EXTERNAL_TARGET);
      if (target && ADDRESS_SIGN.test(target.text)) add(verb, w, target);
    }
  }
  for (const verb of stores) {
    const object = objectAfter(
      verb,
      [...strong, ...bulk].sort((a, b) => a.start - b.start),
    );
    const target = object && targetAfter(sentence, object.end, EXTERNAL_TARGET);
    if (object && target && ADDRESS_SIGN.test(target.text)) add(verb, object, target);
  }
  for (const verb of passives) {
    // "<object> must be sent to <target>": the object comes before the verb.
    const object = [...strong, ...bulk].filter((o) => o.end <= verb.start && verb.start - o.end <= 40).pop();
    const target = targetAfter(sentence, verb.end, EXTERNAL_TARGET);
    if (object && target) add(verb, object, target);
  }
  return out;
}
