/**
 * Security lint (tool poisoning): every text of the surface that a model reads is scanned for
 * invisible characters, homoglyphs, instructions aimed at the model, requests for secrets,
 * attempts to change how other tools behave, embedded URLs and encoded blobs. Pure; no I/O.
 */

import { type Contract, isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import { pointer, pointerToDotted } from "../contract/pointer.ts";
import type { TargetKind } from "../contract/surface.ts";
import type { LintRuleId } from "../rules/registry.ts";
import type { Finding, LintCheck } from "./model.ts";
import {
  charLabel,
  entropy,
  findInvisibleRuns,
  latinLookalike,
  matchSpans,
  quoteSpan,
  type Span,
  sentences,
  shorten,
  words,
} from "./text-scan.ts";

type Found = Omit<Finding, "rule" | "level">;

// ---------------------------------------------------------------------------------------------
// The texts of a surface

export interface SurfaceText {
  kind: TargetKind;
  /** Tool/prompt name, resource uri, template uriTemplate; "" for the server. */
  name: string;
  /** JSON Pointer of the text inside the item (for a schema property name: the property). */
  path: string;
  text: string;
  /** name: an identifier the model copies (tool, prompt, argument, property names); text: prose. */
  role: "name" | "text";
}

/** Keywords whose values are data, not schemas: never walked (enum/const strings are taken apart). */
const SCHEMA_DATA = new Set(["default", "examples", "const", "enum", "required"]);

function walkSchema(
  node: Json | undefined,
  path: string,
  add: (path: string, text: string, role: "name" | "text") => void,
) {
  if (Array.isArray(node)) {
    node.forEach((item, i) => {
      walkSchema(item, pointer(path, i), add);
    });
    return;
  }
  if (!isJsonObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    const here = pointer(path, key);
    if ((key === "description" || key === "title") && typeof value === "string") add(here, value, "text");
    else if (key === "enum" && Array.isArray(value)) {
      value.forEach((v, i) => {
        if (typeof v === "string") add(pointer(here, i), v, "text");
      });
    } else if (key === "const" && typeof value === "string") add(here, value, "text");
    else if (key === "properties" && isJsonObject(value)) {
      for (const [prop, schema] of Object.entries(value)) {
        add(pointer(here, prop), prop, "name");
        walkSchema(schema, pointer(here, prop), add);
      }
    } else if (!SCHEMA_DATA.has(key)) walkSchema(value, here, add);
  }
}

/** Every human/model-readable text of the surface, with where it is. */
/** Per contract: every security rule reads the same texts, so they are collected once. */
const TEXTS = new WeakMap<Contract, SurfaceText[]>();

export function surfaceTexts(contract: Contract): SurfaceText[] {
  let texts = TEXTS.get(contract);
  if (!texts) {
    texts = collectTexts(contract);
    TEXTS.set(contract, texts);
  }
  return texts;
}

function collectTexts(contract: Contract): SurfaceText[] {
  const out: SurfaceText[] = [];
  const item = (kind: TargetKind, name: string, obj: JsonObject, fields: readonly string[]) => {
    const add = (path: string, text: string, role: "name" | "text") => {
      out.push({ kind, name, path, text, role });
    };
    for (const field of fields) {
      const value = obj[field];
      if (typeof value === "string") add(`/${field}`, value, field === "name" ? "name" : "text");
    }
    return add;
  };
  if (typeof contract.instructions === "string") {
    out.push({ kind: "server", name: "", path: "/instructions", text: contract.instructions, role: "text" });
  }
  for (const tool of contract.tools) {
    const add = item("tool", tool.name, tool, ["name", "title", "description"]);
    const annotations = tool.annotations;
    if (isJsonObject(annotations) && typeof annotations.title === "string") {
      add("/annotations/title", annotations.title, "text");
    }
    walkSchema(tool.inputSchema, "/inputSchema", add);
    walkSchema(tool.outputSchema, "/outputSchema", add);
  }
  for (const prompt of contract.prompts) {
    const add = item("prompt", prompt.name, prompt, ["name", "title", "description"]);
    if (Array.isArray(prompt.arguments)) {
      prompt.arguments.forEach((arg, i) => {
        if (!isJsonObject(arg)) return;
        for (const field of ["name", "title", "description"]) {
          const value = arg[field];
          if (typeof value === "string") add(`/arguments/${i}/${field}`, value, field === "name" ? "name" : "text");
        }
      });
    }
  }
  for (const resource of contract.resources) item("resource", resource.uri, resource, ["name", "title", "description"]);
  for (const template of contract.resourceTemplates) {
    item("resourceTemplate", template.uriTemplate, template, ["name", "title", "description"]);
  }
  return out;
}

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
  return mergeSpans(spans).map((s) =>
    found(t, `${where(t)}: ${what} (${s.label}): "${quoteSpan(t.text, s.start, s.end)}"`, t.text.slice(s.start, s.end)),
  );
}

function prose(contract: Contract): SurfaceText[] {
  return surfaceTexts(contract).filter((t) => t.role === "text");
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
  const out: Found[] = [];
  for (const t of surfaceTexts(contract)) {
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
  const out: Found[] = [];
  for (const t of surfaceTexts(contract)) {
    // Only a word with a non-ASCII letter can mix scripts.
    if (t.role !== role || !/[^\x00-\x7f]/.test(t.text)) continue;
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
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// hidden-instructions

const SECRECY =
  /\b(?:secret(?:ly)?|silently|quietly|covertly|hidden|without\s+(?:asking|telling|informing|notifying|mentioning|alerting)|(?:do\s+not|don['’]t|never)\s+(?:tell|mention|inform|reveal|notify|disclose))\b/i;

const INSTRUCTION_TAG =
  "important|system|system[_\\s-]?prompt|instructions?|secret|hidden|critical|admin[_\\s-]?instructions?|ai[_\\s-]?instructions?";

const INSTRUCTION_PATTERNS: readonly { label: string; re: RegExp }[] = [
  {
    // A whole <IMPORTANT>…</IMPORTANT> block is one span (so one finding, with whatever else
    // it says merged in); a tag without its partner is a span of its own.
    label: "instruction tag",
    re: new RegExp(
      `<\\s*(${INSTRUCTION_TAG})\\s*>[\\s\\S]{0,4000}?<\\s*\\/\\s*\\1\\s*>|<\\s*\\/?\\s*(?:${INSTRUCTION_TAG})\\s*>`,
      "gi",
    ),
  },
  { label: "chat-template marker", re: /\[\/?INST\]|<<\/?SYS>>|<\|(?:im_start|im_end|system|assistant|user)\|>/gi },
  {
    label: "ignore previous instructions",
    re: /\b(?:ignore|disregard|forget)\s+(?:all\s+)?(?:of\s+)?(?:the\s+|your\s+|any\s+)?(?:previous|prior|above|earlier|preceding|other|original)\s+(?:instructions|prompts?|rules|directions|guidelines)\b/gi,
  },
  {
    label: "conceal from the user",
    re: /\b(?:do\s+not|don['’]t|never|without)\s+(?:tell(?:ing)?|inform(?:ing)?|mention(?:ing)?|reveal(?:ing)?|disclos(?:e|ing)|notify(?:ing)?|alert(?:ing)?)\b[^.\n]{0,100}?\b(?:the\s+)?user\b/gi,
  },
  {
    label: "conceal from the user",
    re: /\bthe\s+user\s+(?:must|should|shall)\s+(?:not|never)\s+(?:know|see|notice|find\s+out|be\s+(?:told|informed))\b/gi,
  },
  {
    label: "pre-use instruction",
    re: /\bbefore\s+(?:using|calling|invoking|running)\s+this\s+tool\b[,:]?\s+(?:you\s+(?:must|should)\s+)?(?:first\s+|always\s+)?(?:read|send|fetch|upload|include|pass|open|call\s+(?!(?:the\s+)?[`'"]?[\w.-]+[`'"]?\s+tool\b))/gi,
  },
  {
    label: "emphatic importance",
    re: /\bthis\s+is\s+(?:(?:very|extremely|really|super|critically|absolutely|vitally)\s+)+important\b/gi,
  },
  {
    label: "skip consent",
    re: /\b(?:do\s+not|don['’]t|never)\s+ask\s+(?:the\s+user\s+)?for\s+(?:confirmation|permission|approval|consent)\b/gi,
  },
  {
    label: "dismissal",
    re: /\b(?:do\s+not|don['’]t)\s+worry\s+about\s+(?:it|this|that|the\s+(?:user|sidenote|side\s+note|note|security|permissions?|privacy|consent|warnings?))\b/gi,
  },
  {
    label: "covert action",
    re: /\b(?:silently|secretly|covertly|quietly)\s+(?:send|read|include|forward|upload|copy|exfiltrate|pass|add|append|call|run|execute)\b/gi,
  },
  { label: "role marker", re: /(?:^|\n)[ \t]*(?:system|assistant)[ \t]*:/gi },
];

const YOU_MUST = /\byou\s+must\s+(?:always|never)\b/gi;

function checkHiddenInstructions(contract: Contract): Found[] {
  const toolNames = new Set(contract.tools.map((t) => t.name));
  const out: Found[] = [];
  for (const t of prose(contract)) {
    const spans: Labelled[] = [];
    for (const { label, re } of INSTRUCTION_PATTERNS) {
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
    for (const sentence of sentences(t.text)) {
      const text = t.text.slice(sentence.start, sentence.end);
      if (!SECRECY.test(text)) continue;
      for (const s of matchSpans(text, YOU_MUST)) {
        spans.push({ start: sentence.start + s.start, end: sentence.start + s.end, label: "secret obligation" });
      }
    }
    out.push(...spanFindings(t, spans, "instruction aimed at the model"));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// secret-access-request

const SENSITIVE_FILE =
  /(?:~|\$HOME|%USERPROFILE%)?[/\\]?\.ssh\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\/etc\/(?:passwd|shadow|sudoers)\b|(?<![\w.])\.env\b(?![\w-])|\.aws[/\\]credentials\b|\bcredentials\.json\b|\.npmrc\b|\.netrc\b|\.git-credentials\b|\.pgpass\b|\.kube[/\\]config\b|\bmcp(?:_config)?\.json\b|\bclaude_desktop_config\.json\b|\.cursor[/\\]|\.docker[/\\]config\.json\b|\.(?:bash|zsh)_history\b|\bwallet\.dat\b|\bkeychain\b/gi;

const GENERIC_SECRET =
  /\b(?:private\s+keys?|api[\s_-]?keys?|access[\s_-]?tokens?|auth(?:entication)?[\s_-]?tokens?|bearer\s+tokens?|session\s+(?:tokens?|cookies?)|secret\s+keys?|passwords?|credentials|secrets|seed\s+phrases?|recovery\s+phrases?|mnemonics?|environment\s+variables|env\s+vars)\b/gi;

/** Imperative verbs of reading or sending ("read", not "reads"/"is read"). */
const SECRET_VERB =
  /(?<!\b(?:is|are|be|been|being|was|were|gets?)\s+)\b(?:read|cat|open|load|send|include|pass|exfiltrate|upload|forward|post|copy|attach|leak|provide|extract|collect|share|transmit|append|dump|print|embed)\b/gi;

/** For generic secrets a verb is not enough ("the API key to pass to the service" is ordinary). */
const EXFIL_CUE =
  /\bexfiltrat|https?:\/\/|\b[\w.+-]+@[\w-]+\.[\w.-]+\b|\buser['’]s\s+(?:\w+\s+){0,2}(?:keys?|tokens?|passwords?|credentials|secrets|phrases?)\b/i;
/** "all/any/every ... secrets" counts only when they are sent somewhere ("read all secrets" is what a vault tool does). */
const ALL_SECRETS =
  /\b(?:all|any|every)\s+(?:of\s+the\s+)?(?:\w+\s+){0,2}(?:keys|tokens|passwords|credentials|secrets|variables|phrases)\b/i;
const SEND_VERB = /\b(?:send|include|pass|upload|forward|post|transmit|leak|attach|append|embed|share|email)\b/i;

function checkSecretAccess(contract: Contract): Found[] {
  const out: Found[] = [];
  for (const t of prose(contract)) {
    const spans: Labelled[] = [];
    for (const sentence of sentences(t.text)) {
      const text = t.text.slice(sentence.start, sentence.end);
      const verbs = matchSpans(text, SECRET_VERB);
      if (verbs.length === 0) continue;
      const files = matchSpans(text, SENSITIVE_FILE);
      const cue = EXFIL_CUE.test(text) || SECRECY.test(text) || (ALL_SECRETS.test(text) && SEND_VERB.test(text));
      const generic = cue ? matchSpans(text, GENERIC_SECRET) : [];
      const targets = [...files, ...generic];
      if (targets.length === 0) continue;
      const all = [...verbs, ...targets];
      const start = Math.min(...all.map((s) => s.start));
      const end = Math.max(...all.map((s) => s.end));
      const label = [...new Set(targets.map((s) => s.match[0]))].join(", ");
      spans.push({ start: sentence.start + start, end: sentence.start + end, label });
    }
    out.push(...spanFindings(t, spans, "asks to read or send secrets"));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// tool-shadowing

const OBLIGATION =
  /\b(?:must|always|never|instead|make\s+sure|ensure|do\s+not|don['’]t|override|replace|redirect|bcc|cc)\b/i;
/** Changing where another tool sends things: a redirecting verb, or an address/URL to send to. */
const REDIRECT =
  /\b(?:send|forward|redirect|route|bcc|cc|copy|replace|override)\b|\b(?:change|set)\s+(?:the\s+)?(?:recipient|destination|address|url|endpoint|account)\b|\b[\w.+-]+@[\w-]+\.[\w.-]+\b|https?:\/\//i;
const STRONG_OBLIGATION = /\b(?:must|always|never|override)\b/i;

const WHEN_USING_TOOL =
  /\b(?:when|whenever|before|after|if)\s+(?:you\s+)?(?:are\s+)?(?:using|calling|invoking|running|executing|use|call|invoke)\s+(?:the\s+|any\s+|a\s+)?[`'"]?([\w.-]+)[`'"]?\s+tool\b/gi;
const SEND_ALL_TO =
  /\ball\s+(?:e-?mails?|messages|requests|payments|transfers|invoices|replies|notifications|calls|data|files|results)\s+(?:must|should|shall|need\s+to|have\s+to|are\s+to)\s+(?:always\s+)?(?:be\s+)?(?:sent|forwarded|redirected|routed|cc['’]?d|bcc['’]?d|copied|addressed|delivered|uploaded)\s+to\b|\b(?:must|should|always)\s+(?:send|forward|redirect|route|bcc|cc|copy)\s+all\s+(?:e-?mails?|messages|requests|payments|transfers|data|files)\s+to\b/gi;
const SIDE_EFFECT =
  /\bside[\s-]+effects?\s+on\s+(?:the\s+)?(?:also\s+present\s+|other\s+)?[`'"]?[\w.-]+[`'"]?\s+tool\b|\b(?:affects?|changes?|modif(?:y|ies)|overrides?|alters?)\s+(?:the\s+)?(?:behaviou?r\s+of\s+)?(?:all\s+)?(?:the\s+)?other\s+tools\b/gi;
const INSTEAD_OF = /\binstead\s+of\s+(?:calling|using|invoking)\s+(?:the\s+)?[`'"]?[\w.-]+/gi;
const OVERRIDE = /\boverrid(?:e|es|ing)\b/gi;
const WHENEVER_USER = /\bwhenever\s+the\s+user\s+(?:asks|wants|requests|tries)\b/gi;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Where a text names a tool of this server other than `own`: a name standing alone, not inside
 * a longer identifier (`send_email` in "the send_email tool", not in "resend_emails"). Names made
 * of identifier characters are looked up per word in a set, so the cost stays linear in the
 * size of the surface; the rare other names are matched with one regex per text.
 */
class ToolMentions {
  private readonly plain: ReadonlySet<string>;
  private readonly odd: readonly string[];

  constructor(names: readonly string[]) {
    this.plain = new Set(names.filter((n) => /^[\w.-]+$/.test(n)));
    this.odd = names.filter((n) => n !== "" && !/^[\w.-]+$/.test(n));
  }

  find(text: string, own: ReadonlySet<string>): (Span & { name: string })[] {
    const out: (Span & { name: string })[] = [];
    for (const m of text.matchAll(/[\w.-]+/g)) {
      // The longest prefix of the run that is a name and ends at the run's end or before a ".".
      for (let end = m[0].length; end > 0; end = m[0].lastIndexOf(".", end - 1)) {
        const name = m[0].slice(0, end);
        if (this.plain.has(name) && !own.has(name)) {
          out.push({ start: m.index, end: m.index + end, name });
          break;
        }
        if (end === 0) break;
      }
    }
    const odd = this.odd.filter((n) => !own.has(n));
    if (odd.length > 0) {
      const re = new RegExp(`(?<![\\w.-])(?:${odd.map(escapeRegex).join("|")})(?![\\w-])`, "g");
      for (const s of matchSpans(text, re)) out.push({ start: s.start, end: s.end, name: s.match[0] });
    }
    return out.sort((a, b) => a.start - b.start);
  }
}

function checkShadowing(contract: Contract): Found[] {
  const toolNames = contract.tools.map((t) => t.name);
  const mentions = new ToolMentions(toolNames);
  const toolSet = new Set(toolNames);
  const out: Found[] = [];
  for (const t of prose(contract)) {
    // Server instructions legitimately steer the server's own tools; a tool steering itself is fine too.
    const own = new Set(t.kind === "server" ? toolNames : t.kind === "tool" ? [t.name] : []);
    const spans: Labelled[] = [];
    for (const sentence of sentences(t.text)) {
      const text = t.text.slice(sentence.start, sentence.end);
      const add = (s: Span, label: string) => {
        spans.push({ start: sentence.start + s.start, end: sentence.start + s.end, label });
      };
      const named = mentions.find(text, own);
      const mentionsOther = named.length > 0;
      const genericTool = /\b(?:other|another|any)\s+tools?\b/i.test(text);
      for (const s of matchSpans(text, WHEN_USING_TOOL)) {
        const tool = s.match[1] ?? "";
        if (/^(?:this|that|same)$/i.test(tool) || own.has(tool)) continue;
        // A tool of this server steering a sibling is ordinary guidance unless it redirects what the sibling sends.
        const sibling = toolSet.has(tool);
        if (OBLIGATION.test(text) && (!sibling || REDIRECT.test(text))) add(s, `rules for the ${tool} tool`);
      }
      for (const s of matchSpans(text, SEND_ALL_TO)) add(s, "redirects what other tools send");
      for (const s of matchSpans(text, SIDE_EFFECT)) add(s, "side effect on another tool");
      if (/\b(?:always|must|never|do\s+not|don['’]t|only)\b/i.test(text)) {
        for (const s of matchSpans(text, INSTEAD_OF)) add(s, "steers away from another tool");
      }
      if (mentionsOther || genericTool || /\btool\b/i.test(text)) {
        for (const s of matchSpans(text, OVERRIDE)) {
          if (mentionsOther || genericTool || /\binstructions?\b|\bbehaviou?r\b/i.test(text))
            add(s, "overrides tool behaviour");
        }
      }
      if (mentionsOther || /\b(?:must|always|never|do\s+not|don['’]t)\b/i.test(text)) {
        for (const s of matchSpans(text, WHENEVER_USER)) add(s, "takes over user requests");
      }
      if (mentionsOther && STRONG_OBLIGATION.test(text) && REDIRECT.test(text)) {
        for (const s of named) add(s, `changes how ${s.name} behaves`);
      }
    }
    out.push(...spanFindings(t, spans, "tries to change how other tools behave"));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// embedded-url

const URL_LIKE =
  /\b(?:https?|ftp|wss?):\/\/[^\s<>"'`)\]}]+|\bdata:[\w.+-]+\/[\w.+-]+(?:;[\w=.+-]+)*,[^\s"'`)\]}]*|(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?::\d+)?(?![\w.])/gi;

/**
 * Example hosts (RFC 2606): example.com, .net and .org with their subdomains, and the .example
 * top-level domain. They are placeholders in usage examples ("text/uri-list":
 * "https://example.com"), never a place data can go, so they are not reported.
 */
const EXAMPLE_HOST =
  /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#@\s]*@)?(?:[\w-]+\.)*(?:example\.(?:com|net|org)|[\w-]+\.example)(?::\d+)?(?:[/?#]|$)/i;

function checkUrls(contract: Contract): Found[] {
  const out: Found[] = [];
  for (const t of prose(contract)) {
    const spans = matchSpans(t.text, URL_LIKE)
      .map((s) => {
        const trimmed = s.match[0].replace(/[.,;:!?]+$/, "");
        return { start: s.start, end: s.start + trimmed.length, url: trimmed };
      })
      .filter((s) => !EXAMPLE_HOST.test(s.url));
    const first = spans[0];
    if (!first) continue;
    const urls = [...new Set(spans.map((s) => s.url))];
    const listed = urls.map((u) => shorten(u, 100)).join(", ");
    out.push(
      found(
        t,
        `${where(t)}: embeds ${urls.length === 1 ? "a URL/address" : `${urls.length} URLs/addresses`} (${listed}): "${quoteSpan(t.text, first.start, first.end)}"`,
        urls,
      ),
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// encoded-blob

const MIN_BLOB = 64;
const HEX_RUN = /(?<![0-9A-Za-z])[0-9a-fA-F]{64,}(?![0-9A-Za-z])/g;
const BASE64_RUN = /[A-Za-z0-9+/_-]{64,}={0,2}/g;
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

function checkBlobs(contract: Contract): Found[] {
  const out: Found[] = [];
  for (const t of prose(contract)) {
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
  "embedded-url": (contract) => checkUrls(contract),
  "encoded-blob": (contract) => checkBlobs(contract),
} satisfies Partial<Record<LintRuleId, LintCheck>>;
