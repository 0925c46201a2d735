/**
 * Security lint (tool poisoning): every text of the surface that a model reads is scanned for
 * invisible characters, homoglyphs, encoded blobs and links, and read sentence by sentence for
 * the intents that poisoned descriptions carry (src/lint/intent/): reaching for secrets,
 * concealment from the user, overriding earlier instructions, hijacking other tools, sending
 * the conversation or data away, and running downloaded code. Each finding quotes the span it
 * matched and names the parts it combined. Pure; no I/O.
 */

import type { Contract, Json } from "../contract/model.ts";
import { pointerToDotted } from "../contract/pointer.ts";
import type { LintRuleId } from "../rules/registry.ts";
import { CONCEAL_TRIGGER, detectConcealment } from "./intent/conceal.ts";
import {
  ADDRESS_SIGN,
  detectExfiltration,
  EXFILTRATION_TRIGGERS,
  mayExfiltrate,
  STORE_TRIGGER,
} from "./intent/exfiltration.ts";
import { INTENT_GATE_LITERALS } from "./intent/gate-literals.ts";
import { detectHijack, hijackTriggers, mayHijack, ToolMentions } from "./intent/hijack.ts";
import { findLinks } from "./intent/links.ts";
import { necessaryLiterals, spelledGates, spellLiteral } from "./intent/literal-gate.ts";
import type { Detector, IntentContext, IntentMatch } from "./intent/model.ts";
import { detectOverride, OVERRIDE_TRIGGER } from "./intent/override.ts";
import { detectRemoteCode, mayRunRemoteCode, REMOTE_CODE_TRIGGERS } from "./intent/remote-code.ts";
import { detectSecretAccess, maySeekSecrets, SECRET_TRIGGERS } from "./intent/secrets.ts";
import type { Finding, LintCheck, LintOptions } from "./model.ts";
import { type SurfaceText, scanSurface, sentencesOf, textsAtLeast } from "./surface-texts.ts";
import {
  charLabel,
  entropy,
  findInvisibleRuns,
  hasMatch,
  latinLookalike,
  matchSpans,
  quoteSpan,
  type Span,
  shorten,
  words,
} from "./text-scan.ts";

type Found = Omit<Finding, "rule" | "level">;

export { type SurfaceText, surfaceTexts } from "./surface-texts.ts";

/** "description", "inputSchema.properties.city.description", "arguments[0].name". */
function where(t: SurfaceText): string {
  return pointerToDotted(t.path);
}

function found(t: SurfaceText, message: string, evidence?: Json): Found {
  return {
    target: { kind: t.kind, name: t.name },
    path: t.path,
    message,
    ...(evidence !== undefined && { evidence }),
  };
}

interface Labelled extends Span {
  label: string;
}

/** Overlapping or touching spans merged; labels joined. */
function mergeSpans(spans: Labelled[]): Labelled[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Labelled[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) {
      last.end = Math.max(last.end, s.end);
      if (!last.label.split("; ").includes(s.label)) last.label += `; ${s.label}`;
    } else out.push({ ...s });
  }
  return out;
}

function spanFindings(t: SurfaceText, spans: Labelled[], what: string): Found[] {
  if (spans.length === 0) return [];
  return mergeSpans(spans).map((s) =>
    found(t, `${where(t)}: ${what} (${s.label}): "${quoteSpan(t.text, s.start, s.end)}"`, t.text.slice(s.start, s.end)),
  );
}

// ---------------------------------------------------------------------------------------------
// invisible-characters

const KIND_LABEL: Record<string, string> = {
  "zero-width": "zero-width",
  bidi: "bidirectional control",
  tag: "Unicode tag",
  "variation-selector": "variation selector",
  control: "control",
  format: "format",
  filler: "invisible filler",
};

function checkInvisible(contract: Contract): Found[] {
  return scanTexts(contract, undefined, NOT_PLAIN_BIT, invisibleIn);
}

function invisibleIn(t: SurfaceText): Found[] {
  if (plainText(t)) return NONE;
  const out: Found[] = [];
  for (const run of findInvisibleRuns(t.text)) {
    const n = run.codePoints.length;
    const kinds = run.kinds.map((k) => KIND_LABEL[k] ?? k).join(", ");
    const hidden = run.hidden !== undefined ? `; hidden text: '${shorten(run.hidden, 200)}'` : "";
    const quote = quoteSpan(t.text, run.start, run.end);
    const unique = [...new Set(run.codePoints)].map(charLabel).slice(0, 8);
    out.push(
      found(t, `${where(t)}: ${n} invisible ${kinds} character${n === 1 ? "" : "s"}: "${quote}"${hidden}`, {
        characters: unique,
        ...(run.hidden !== undefined && { hiddenText: run.hidden }),
      }),
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// homoglyphs

const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const GREEK = /\p{Script=Greek}/u;

function isConfusable(cp: number): boolean {
  return latinLookalike(cp) !== undefined;
}

/** What is suspicious about a word, or undefined. `strict` (names): also whole-word lookalikes. */
function homoglyphProblem(word: string, strict: boolean): string | undefined {
  const letters = [...word].filter((ch) => /\p{L}/u.test(ch));
  const cps = letters.map((ch) => ch.codePointAt(0)!);
  const asciiLatin = letters.some((ch) => /[A-Za-z]/.test(ch));
  const latin = letters.some((ch) => LATIN.test(ch));
  const cyrillic = letters.some((ch) => CYRILLIC.test(ch));
  const greekConfusable = letters.some((ch) => GREEK.test(ch) && isConfusable(ch.codePointAt(0)!));
  const greek = letters.some((ch) => GREEK.test(ch));
  if (latin && cyrillic) return "mixes Latin and Cyrillic letters";
  if (latin && greekConfusable) return "mixes Latin and Greek letters";
  if (cyrillic && greek) return "mixes Cyrillic and Greek letters";
  if (!strict) return undefined;
  const lookalikes = cps.filter(isConfusable);
  if (lookalikes.length === 0) return undefined;
  if (asciiLatin) return "mixes ASCII with lookalike letters";
  if (lookalikes.length === cps.length) {
    const reads = letters.map((ch) => latinLookalike(ch.codePointAt(0)!) ?? ch).join("");
    return `reads as the ASCII word "${reads}" but is not ASCII`;
  }
  return undefined;
}

/** Letters spelled out in a homoglyph quote: lookalikes and any Cyrillic or Greek letter. */
function homoglyphMark(cp: number): boolean {
  if (cp < 0x80) return false;
  const ch = String.fromCodePoint(cp);
  return isConfusable(cp) || CYRILLIC.test(ch) || GREEK.test(ch);
}

function checkHomoglyphs(contract: Contract, role: "name" | "text"): Found[] {
  return scanTexts(contract, role, NOT_PLAIN_BIT, (t) => homoglyphsIn(t, role));
}

function homoglyphsIn(t: SurfaceText, role: "name" | "text"): Found[] {
  // Only a word with a non-ASCII letter can mix scripts.
  if (plainText(t) || !/[^\x00-\x7f]/.test(t.text)) return NONE;
  const out: Found[] = [];
  for (const w of words(t.text)) {
    const problem = homoglyphProblem(w.word, role === "name");
    if (!problem) continue;
    const spelled = [...w.word].filter((ch) => ch.codePointAt(0)! >= 0x80).map((ch) => charLabel(ch.codePointAt(0)!));
    const quote = quoteSpan(t.text, w.start, w.end, { mark: homoglyphMark });
    out.push(
      found(t, `${where(t)}: "${w.word}" ${problem}: "${quote}"`, {
        word: w.word,
        characters: [...new Set(spelled)],
      }),
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// hidden-instructions

const SECRECY =
  /\b(?:secret(?:ly)?|silently|quietly|covertly|hidden|without\s+(?:asking|telling|informing|notifying|mentioning|alerting)|(?:do\s+not|don['’]t|never)\s+(?:tell|mention|inform|reveal|notify|disclose))\b/i;

const INSTRUCTION_TAG =
  "important|system|system[_\\s-]?prompt|instructions?|secret|hidden|critical|admin[_\\s-]?instructions?|ai[_\\s-]?instructions?";

/** `gate`: what every match of the pattern holds; a text without it skips the pattern. */
const INSTRUCTION_PATTERNS: readonly { label: string; gate: RegExp; re: RegExp }[] = [
  {
    // Every tag name starts with one of these words.
    gate: /<\s*\/?\s*(?:important|system|instruction|secret|hidden|critical|admin|ai)/i,
    // A whole <IMPORTANT>…</IMPORTANT> block is one span (so one finding, with whatever else
    // it says merged in); a tag without its partner is a span of its own.
    label: "instruction tag",
    re: new RegExp(
      `<\\s*(${INSTRUCTION_TAG})\\s*>[\\s\\S]{0,4000}?<\\s*\\/\\s*\\1\\s*>|<\\s*\\/?\\s*(?:${INSTRUCTION_TAG})\\s*>`,
      "gi",
    ),
  },
  {
    label: "chat-template marker",
    gate: /\[\/?INST\]|<<|<\|/i,
    re: /\[\/?INST\]|<<\/?SYS>>|<\|(?:im_start|im_end|system|assistant|user)\|>/gi,
  },
  {
    label: "pre-use instruction",
    gate: /\bbefore\s+(?:using|calling|invoking|running)\s+this\s/i,
    re: /\bbefore\s+(?:using|calling|invoking|running)\s+this\s+tool\b[,:]?\s+(?:you\s+(?:must|should)\s+)?(?:first\s+|always\s+)?(?:read|send|fetch|upload|include|pass|open|call\s+(?!(?:the\s+)?[`'"]?[\w.-]+[`'"]?\s+tool\b))/gi,
  },
  {
    label: "emphatic importance",
    gate: /important/i,
    re: /\bthis\s+is\s+(?:(?:very|extremely|really|super|critically|absolutely|vitally)\s+)+important\b/gi,
  },
  {
    label: "skip consent",
    gate: /ask/i,
    re: /\b(?:do\s+not|don['’]t|never)\s+ask\s+(?:the\s+user\s+)?for\s+(?:confirmation|permission|approval|consent)\b/gi,
  },
  {
    label: "dismissal",
    gate: /worry/i,
    re: /\b(?:do\s+not|don['’]t)\s+worry\s+about\s+(?:it|this|that|the\s+(?:user|sidenote|side\s+note|note|security|permissions?|privacy|consent|warnings?))\b/gi,
  },
  { label: "role marker", gate: /(?:system|assistant)[ \t]*:/i, re: /(?:^|\n)[ \t]*(?:system|assistant)[ \t]*:/gi },
];

const YOU_MUST = /\byou\s+must\s+(?:always|never)\b/gi;

function checkHiddenInstructions(contract: Contract): Found[] {
  let toolNames: Set<string> | undefined;
  const gated = gateWorthIt(contract);
  return scanTexts(contract, "text", INSTRUCTION_BIT, (t) => {
    if (gated && intentQuiet(t, INSTRUCTION_BIT)) return NONE;
    toolNames ??= new Set(contract.tools.map((tool) => tool.name));
    return hiddenInstructionsIn(t, toolNames);
  });
}

/** Whether the sentences of a text can hold a concealment, an override or a secret obligation. */
function mayInstructInSentences(text: string): boolean {
  return CONCEAL_TRIGGER.test(text) || OVERRIDE_TRIGGER.test(text) || (SECRECY.test(text) && hasMatch(YOU_MUST, text));
}

function hiddenInstructionsIn(t: SurfaceText, toolNames: ReadonlySet<string>): Found[] {
  const spans: Labelled[] = [];
  for (const { label, gate, re } of INSTRUCTION_PATTERNS) {
    if (!gate.test(t.text)) continue;
    for (const s of matchSpans(t.text, re)) {
      // "Before using this tool, call login" names a tool of this server: ordinary guidance.
      if (label === "pre-use instruction" && /call\s+$/i.test(s.match[0])) {
        const next = /^[`'"]?([\w-]+(?:\.[\w-]+)*)/.exec(t.text.slice(s.end))?.[1];
        if (next !== undefined && toolNames.has(next)) continue;
      }
      const lead = s.match[0].startsWith("\n") ? 1 : 0;
      spans.push({ start: s.start + lead, end: s.end, label });
    }
  }
  for (const sentence of mayInstructInSentences(t.text) ? sentencesOf(t) : []) {
    const text = sentence.text;
    for (const m of [...detectConcealment(text), ...detectOverride(text)]) {
      spans.push({ start: sentence.start + m.start, end: sentence.start + m.end, label: m.label });
    }
    if (!SECRECY.test(text)) continue;
    for (const s of matchSpans(text, YOU_MUST)) {
      spans.push({ start: sentence.start + s.start, end: sentence.start + s.end, label: "secret obligation" });
    }
  }
  return spanFindings(t, spans, "instruction aimed at the model");
}

// ---------------------------------------------------------------------------------------------
// One test for the five intent rules

/** The answer of a rule that finds nothing in a text; callers only read it. */
const NONE: Found[] = Object.freeze([]) as unknown as Found[];

/** Printable ASCII (tabs and line breaks too) without ":" or a digit, ".", digit. */
const NOT_PLAIN = /[^\t\n\r\x20-\x39\x3b-\x7e]|\d\.\d/;

/**
 * Whether a text is plain: then it holds no invisible character, no lookalike letter and no
 * link (every link has a ":" or an IPv4 address's digit, ".", digit), which four rules would
 * otherwise each test. Remembered on the text.
 */
function plainText(t: SurfaceText): boolean {
  t.plain ??= !NOT_PLAIN.test(t.text);
  return t.plain;
}

/**
 * The gates of hidden-instructions and of the four sentence rules (secret-access-request,
 * tool-shadowing, data-exfiltration, remote-code-execution) in one test: each gate is a word or
 * sign that its rule's every finding needs, so a text that passes none of a rule's gates gets no
 * finding from it; one pass over the text says which of the five it passes (src/lint/intent/literal-gate.ts,
 * from literals generated ahead of time per rule: gate-literals.ts, held to these gates by
 * tests/conformance/gates.test.ts and tests/unit/lint/intent-gates.test.ts). Most texts of a surface
 * pass none, and most of the rest only some. Built on first use, and only for surfaces with many
 * texts (INTENT_GATE_MIN): building it costs more than it saves on a few texts, such as the changed
 * texts the drift lens reads.
 */
let intentGates: ((text: string) => number) | undefined;
export const INTENT_GATE_MIN = 2000;

/** The five intent rules, in the order of their gates (intentTriggersByRule, gate-literals.ts, the INTENT bits). */
export const INTENT_RULES = [
  "hidden-instructions",
  "secret-access-request",
  "tool-shadowing",
  "data-exfiltration",
  "remote-code-execution",
] as const;

/** Each intent rule's gates: every text it can report holds a match of one of them. */
export function intentTriggersByRule(): RegExp[][] {
  return [
    [...INSTRUCTION_PATTERNS.map((p) => p.gate), CONCEAL_TRIGGER, OVERRIDE_TRIGGER, SECRECY],
    [...SECRET_TRIGGERS],
    hijackTriggers(),
    [...EXFILTRATION_TRIGGERS],
    [...REMOTE_CODE_TRIGGERS],
  ];
}

export function intentTriggers(): RegExp[] {
  return intentTriggersByRule().flat();
}

/**
 * What makes a text loud (its loudness, `loudness`): not plain (the character rules:
 * invisible-characters, both homoglyph rules, embedded-url, external-link), a blob-length run
 * (encoded-blob), a gate literal of an intent rule (one bit per rule, in INTENT_RULES order).
 * A text that is not plain is given every bit, as its other tests are not run.
 */
const NOT_PLAIN_BIT = 1;
const BLOB_BIT = 2;
const INTENT_SHIFT = 2;
const [INSTRUCTION_BIT, SECRET_BIT, HIJACK_BIT, EXFILTRATION_BIT, REMOTE_CODE_BIT] = INTENT_RULES.map(
  (_, i) => 1 << (INTENT_SHIFT + i),
) as [number, number, number, number, number];
const INTENT_BITS = INSTRUCTION_BIT | SECRET_BIT | HIJACK_BIT | EXFILTRATION_BIT | REMOTE_CODE_BIT;

/**
 * scanSurface for a security rule: on big surfaces, a text that is plain, holds no blob-length
 * run and is quiet gets no finding from any of the eleven rules, so it is not even kept when the
 * texts are collected (once, for all of them); of the texts kept, a rule reads those loud in a
 * way it `needs` (bits above), as it finds nothing in the others.
 */
function scanTexts(
  contract: Contract,
  role: "name" | "text" | undefined,
  needs: number,
  scan: (t: SurfaceText, own: string | undefined) => Found[],
  ownMatters = false,
): Found[] {
  return gateWorthIt(contract)
    ? scanSurface(contract, role, scan, ownMatters, loudness, needs)
    : scanSurface(contract, role, scan, ownMatters);
}

/** Asked as the texts are collected, before each is made, so nothing is remembered on it. */
function loudness(text: string, role: SurfaceText["role"]): number {
  // Names are read by the character rules alone (plain settles them); prose by all eleven.
  if (NOT_PLAIN.test(text)) return NOT_PLAIN_BIT | BLOB_BIT | INTENT_BITS;
  if (role !== "text") return 0;
  intentGates ??= spelledGates(INTENT_GATE_LITERALS);
  let intents = intentGates(text) << INTENT_SHIFT;
  if ((intents & EXFILTRATION_BIT) !== 0 && !maySend(text)) intents &= ~EXFILTRATION_BIT;
  return (noBlobRun(text) ? 0 : BLOB_BIT) | intents;
}

/**
 * Whether a text that holds data-exfiltration's gate literals may hold a finding of it: a verb
 * that keeps data ("record", "save") is reported only in a text with an address's sign
 * (exfiltration.ts), so without one only its literals of sending count, which are its gate
 * literals but the store verbs' (sendingLiterals). "Identifier of record 7" holds neither: on a
 * big surface it is not kept for the rule, nor read by it.
 */
export function maySend(text: string): boolean {
  if (ADDRESS_SIGN.test(text)) return true;
  sendingGate ??= spelledGates([sendingLiterals()]);
  return sendingGate(text) !== 0;
}

let sendingGate: ((text: string) => number) | undefined;

/**
 * data-exfiltration's gate literals but those of its store verbs (STORE_TRIGGER, read here: a
 * short pattern), which are none of its other triggers' (tests/unit/lint/intent-gates.test.ts).
 */
export function sendingLiterals(): string[] {
  const stores = new Set(necessaryLiterals(STORE_TRIGGER).map(spellLiteral));
  return INTENT_GATE_LITERALS[INTENT_RULES.indexOf("data-exfiltration")]!.filter((l) => !stores.has(l));
}

/** Whether the surface has texts enough for the one test to pay. */
function gateWorthIt(contract: Contract): boolean {
  return textsAtLeast(contract, INTENT_GATE_MIN);
}

/** Whether the intent rule of `bit` can find nothing in this text (the gates' answer remembered on the text). */
function intentQuiet(t: SurfaceText, bit: number): boolean {
  if (t.intents === undefined) {
    intentGates ??= spelledGates(INTENT_GATE_LITERALS);
    t.intents = intentGates(t.text) << INTENT_SHIFT;
  }
  return (t.intents & bit) === 0;
}

// ---------------------------------------------------------------------------------------------
// secret-access-request

function checkSecretAccess(contract: Contract): Found[] {
  return sentenceFindings(
    contract,
    SECRET_BIT,
    () => detectSecretAccess,
    maySeekSecrets,
    "asks to read or send secrets",
  );
}

// ---------------------------------------------------------------------------------------------
// tool-shadowing

function checkShadowing(contract: Contract): Found[] {
  // Built for the first text that may hold a hijack: on big surfaces most hold none.
  let mentions: ToolMentions | undefined;
  return sentenceFindings(
    contract,
    HIJACK_BIT,
    () => (sentence, context) => {
      mentions ??= new ToolMentions(contract.tools.map((t) => t.name));
      return detectHijack(sentence, context, mentions);
    },
    mayHijack,
    "tries to change how other tools behave",
    true,
  );
}

// ---------------------------------------------------------------------------------------------
// data-exfiltration, remote-code-execution

function checkExfiltration(contract: Contract): Found[] {
  return sentenceFindings(contract, EXFILTRATION_BIT, () => detectExfiltration, mayExfiltrate, "asks to send data out");
}

function checkRemoteCode(contract: Contract): Found[] {
  return sentenceFindings(
    contract,
    REMOTE_CODE_BIT,
    () => detectRemoteCode,
    mayRunRemoteCode,
    "asks to run downloaded code",
  );
}

/**
 * Runs a detector over every sentence of every prose text; one finding per merged span; `bit`: the
 * rule's loudness bit (its gates' literals). `may`
 * is a cheap test of the whole text that is false only where the detector finds nothing in any
 * of its sentences: such a text is not split into sentences, and the detector's patterns not run.
 */
function sentenceFindings(
  contract: Contract,
  bit: number,
  make: () => Detector,
  may: (text: string) => boolean,
  what: string,
  ownMatters = false,
): Found[] {
  let toolNames: Set<string> | undefined;
  const detect = make();
  const gated = gateWorthIt(contract);
  return scanTexts(
    contract,
    "text",
    bit,
    (t, own) => {
      if ((gated && intentQuiet(t, bit)) || !may(t.text)) return NONE;
      toolNames ??= new Set(contract.tools.map((tool) => tool.name));
      const context: IntentContext = own !== undefined ? { kind: t.kind, toolNames, own } : { kind: t.kind, toolNames };
      const spans: Labelled[] = [];
      for (const sentence of sentencesOf(t)) {
        for (const m of detect(sentence.text, context) as IntentMatch[]) {
          spans.push({ start: sentence.start + m.start, end: sentence.start + m.end, label: m.label });
        }
      }
      return spanFindings(t, spans, what);
    },
    ownMatters,
  );
}

// ---------------------------------------------------------------------------------------------
// embedded-url (risky links), external-link (plain HTTPS links)

/** What the security checks read beyond the contract: the policy file's `allowHosts`. */
export interface SecurityOptions extends LintOptions {
  /** Hosts (with their subdomains) and IP addresses whose links are not reported. */
  allowHosts?: readonly string[];
}

function checkLinks(contract: Contract, options: SecurityOptions | undefined, risky: boolean): Found[] {
  return scanTexts(contract, "text", NOT_PLAIN_BIT, (t) => linksIn(t, options, risky));
}

function linksIn(t: SurfaceText, options: SecurityOptions | undefined, risky: boolean): Found[] {
  if (plainText(t)) return NONE;
  const out: Found[] = [];
  const links = findLinks(t.text, options?.allowHosts).filter((l) => (l.kind !== "plain") === risky);
  const first = links[0];
  if (!first) return out;
  const urls = [...new Set(links.map((l) => l.url))];
  const described = [...new Map(links.map((l) => [l.url, l])).values()]
    .map((l) => (risky ? `${shorten(l.url, 100)}: ${l.reasons.join(", ")}` : shorten(l.url, 100)))
    .join("; ");
  const what = risky
    ? `embeds ${urls.length === 1 ? "a risky link" : `${urls.length} risky links`}`
    : `links to ${urls.length === 1 ? "a page" : `${urls.length} pages`}`;
  out.push(found(t, `${where(t)}: ${what} (${described}): "${quoteSpan(t.text, first.start, first.end)}"`, urls));
  return out;
}

// ---------------------------------------------------------------------------------------------
// encoded-blob

const MIN_BLOB = 64;
const HEX_RUN = /(?<![0-9A-Za-z])[0-9a-fA-F]{64,}(?![0-9A-Za-z])/g;
const BASE64_RUN = /[A-Za-z0-9+/_-]{64,}={0,2}/g;
/** 64 characters of the base64 alphabet in a row, which every match of either pattern holds (hex is a subset). */
const BLOB_RUN = /[A-Za-z0-9+/_-]{64}/;
/** Bits per character; random base64 of 64+ characters is around 5, English-like text around 4. */
const MIN_BASE64_ENTROPY = 4.5;

function decodedPreview(run: string): string | undefined {
  try {
    const standard = run.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
    const padded = standard + "=".repeat((4 - (standard.length % 4)) % 4);
    const binary = atob(padded);
    const printable = [...binary].filter((c) => /[\x20-\x7e\n\r\t]/.test(c)).length;
    if (binary.length === 0 || printable / binary.length < 0.9) return undefined;
    return binary;
  } catch {
    return undefined;
  }
}

/** Both blob patterns match 64 characters or more, of one alphabet. */
function noBlobRun(text: string): boolean {
  return text.length < MIN_BLOB || !BLOB_RUN.test(text);
}

function checkBlobs(contract: Contract): Found[] {
  return scanTexts(contract, "text", BLOB_BIT, blobsIn);
}

function blobsIn(t: SurfaceText): Found[] {
  const out: Found[] = [];
  if (noBlobRun(t.text)) return out;
  const spans: (Labelled & { preview?: string })[] = [];
  for (const s of matchSpans(t.text, HEX_RUN)) {
    if (/\d/.test(s.match[0]) && /[a-f]/i.test(s.match[0])) {
      spans.push({ start: s.start, end: s.end, label: `${s.match[0].length} hex characters` });
    }
  }
  for (const s of matchSpans(t.text, BASE64_RUN)) {
    const run = s.match[0];
    if (spans.some((h) => h.start < s.end && s.start < h.end)) continue;
    const classes = [/[A-Z]/, /[a-z]/, /[0-9]/].filter((re) => re.test(run)).length;
    if (run.length < MIN_BLOB || classes < 3 || entropy(run) < MIN_BASE64_ENTROPY) continue;
    const preview = decodedPreview(run);
    spans.push({
      start: s.start,
      end: s.end,
      label: `${run.length} base64 characters`,
      ...(preview !== undefined && { preview }),
    });
  }
  for (const s of spans.sort((a, b) => a.start - b.start)) {
    const decoded = s.preview !== undefined ? `; decodes to '${shorten(s.preview, 120)}'` : "";
    out.push(
      found(
        t,
        `${where(t)}: encoded blob (${s.label}): "${quoteSpan(t.text, s.start, s.end)}"${decoded}`,
        t.text.slice(s.start, s.end),
      ),
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The rules

export const SECURITY_CHECKS = {
  "invisible-characters": (contract) => checkInvisible(contract),
  "homoglyph-name": (contract) => checkHomoglyphs(contract, "name"),
  "homoglyph-mixed-script": (contract) => checkHomoglyphs(contract, "text"),
  "hidden-instructions": (contract) => checkHiddenInstructions(contract),
  "secret-access-request": (contract) => checkSecretAccess(contract),
  "tool-shadowing": (contract) => checkShadowing(contract),
  "data-exfiltration": (contract) => checkExfiltration(contract),
  "remote-code-execution": (contract) => checkRemoteCode(contract),
  "embedded-url": (contract, options?: SecurityOptions) => checkLinks(contract, options, true),
  "external-link": (contract, options?: SecurityOptions) => checkLinks(contract, options, false),
  "encoded-blob": (contract) => checkBlobs(contract),
} satisfies Partial<Record<LintRuleId, LintCheck>>;
