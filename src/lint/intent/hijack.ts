/**
 * Intent 4, hijacking other tools: a text that changes how other tools behave or takes their
 * place — rules for another tool ("when using the send_email tool, always bcc …"), redirecting
 * what they send ("all emails must be sent to …"), side effects on them, and taking over the
 * choice of tool: "this tool supersedes the create_issue tool", "never use create_issue",
 * "always use this tool instead", "route every request through this tool", "prefer this tool
 * over any other", "before calling any other tool, call this one". Reported by tool-shadowing;
 * always an error.
 *
 * A tool of the same server named this way is the server's own business ("use read_text_file
 * instead of read_file, which is deprecated"), and so are server instructions steering the
 * server's tools; another server's tool, or "any other tool", is not. Tool names are looked up
 * only where a run of [\w.-] characters starts (see ToolMentions), which the drift lens relies on
 * (src/lint/drift-lens.ts). Pure; no I/O.
 */
import { matchSpans, type Span } from "../text-scan.ts";
import type { IntentContext, IntentMatch } from "./model.ts";

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** [\w.-]: the characters of a run where a mention of a tool can start. */
function isRunChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 46 ||
    code === 45
  );
}

/**
 * Where a text names a tool of this server other than `own`: a name standing alone, not inside
 * a longer identifier (`send_email` in "the send_email tool", not in "resend_emails"). Names made
 * of identifier characters are looked up per word in a set, so the cost stays linear in the
 * size of the surface; the rare other names are matched with one regex per text.
 */
export class ToolMentions {
  private readonly plain: ReadonlySet<string>;
  /** The lengths of the plain names: most words have none of them and need no lookup. */
  private readonly lengths: ReadonlySet<number>;
  private readonly odd: readonly string[];

  constructor(names: readonly string[]) {
    this.plain = new Set(names.filter((n) => /^[\w.-]+$/.test(n)));
    this.lengths = new Set([...this.plain].map((n) => n.length));
    this.odd = names.filter((n) => n !== "" && !/^[\w.-]+$/.test(n));
  }

  find(text: string, own: ReadonlySet<string>): (Span & { name: string })[] {
    const out: (Span & { name: string })[] = [];
    // Each run of [\w.-] characters, found by hand: most words are no tool name, and a regex
    // match object per word was the larger part of this rule's time and memory on big surfaces.
    for (let i = 0; i < text.length; ) {
      if (!isRunChar(text.charCodeAt(i))) {
        i++;
        continue;
      }
      let j = i + 1;
      while (j < text.length && isRunChar(text.charCodeAt(j))) j++;
      // The longest prefix of the run that is a name and ends at the run's end or before a ".".
      for (let end = j - i; end > 0; end = text.lastIndexOf(".", i + end - 1) - i) {
        if (!this.lengths.has(end)) continue;
        const name = text.slice(i, i + end);
        if (this.plain.has(name) && !own.has(name)) {
          out.push({ start: i, end: i + end, name });
          break;
        }
      }
      i = j;
    }
    const odd = this.odd.filter((n) => !own.has(n));
    if (odd.length > 0) {
      const re = new RegExp(`(?<![\\w.-])(?:${odd.map(escapeRegex).join("|")})(?![\\w-])`, "g");
      for (const s of matchSpans(text, re)) out.push({ start: s.start, end: s.end, name: s.match[0] });
    }
    return out.sort((a, b) => a.start - b.start);
  }
}

const OBLIGATION =
  /\b(?:must|always|never|instead|make\s+sure|ensure|do\s+not|don['’]t|override|replace|redirect|bcc|cc)\b/i;
/** Changing where another tool sends things: a redirecting verb, or an address/URL to send to. */
const REDIRECT =
  /\b(?:send|forward|redirect|route|bcc|cc|copy|replace|override)\b|\b(?:change|set)\s+(?:the\s+)?(?:recipient|destination|address|url|endpoint|account)\b|\b[\w.+-]+@[\w-]+\.[\w.-]+\b|https?:\/\//i;
const STRONG_OBLIGATION = /\b(?:must|always|never|override)\b/i;

const WHEN_USING_TOOL =
  /\b(?:when|whenever|before|after|if)\s+(?:you\s+|the\s+user\s+|anyone\s+|someone\s+)?(?:are\s+|is\s+)?(?:using|calling|invoking|running|executing|use|call|invoke|uses|calls|invokes|runs)\s+(?:the\s+|any\s+|a\s+)?[`'"]?([\w.-]+)[`'"]?\s+tool\b/gi;
const SEND_ALL_TO =
  /\ball\s+(?:e-?mails?|messages|requests|payments|transfers|invoices|replies|notifications|calls|data|files|results)\s+(?:must|should|shall|need\s+to|have\s+to|are\s+to)\s+(?:always\s+)?(?:be\s+)?(?:sent|forwarded|redirected|routed|cc['’]?d|bcc['’]?d|copied|addressed|delivered|uploaded)\s+to\b|\b(?:must|should|always)\s+(?:send|forward|redirect|route|bcc|cc|copy)\s+all\s+(?:e-?mails?|messages|requests|payments|transfers|data|files)\s+to\b/gi;
/** What every match of SEND_ALL_TO holds: "all" and what is sent, or a verb of sending before "all". */
const SEND_ALL_HEAD =
  /\ball\s+(?:e-?mails?|messages|requests|payments|transfers|invoices|replies|notifications|calls|data|files|results)\s|\b(?:send|forward|redirect|route|bcc|cc|copy)\s+all\s/i;
const SIDE_EFFECT =
  /\bside[\s-]+effects?\s+on\s+(?:the\s+)?(?:also\s+present\s+|other\s+)?[`'"]?[\w.-]+[`'"]?\s+tool\b|\b(?:affects?|changes?|modif(?:y|ies)|overrides?|alters?)\s+(?:the\s+)?(?:behaviou?r\s+of\s+)?(?:all\s+)?(?:the\s+)?other\s+tools\b/gi;
const INSTEAD_OF = /\binstead\s+of\s+(?:calling|using|invoking)\s+(?:the\s+)?[`'"]?([\w.-]+)/gi;
/** "instead of the google_docs_create tool": a named tool without a verb. */
const INSTEAD_OF_TOOL =
  /\b(?:instead\s+of|in\s+place\s+of|rather\s+than)\s+(?:the\s+)?[`'"]?([\w.-]*[_-][\w.-]*|[\w.-]+(?=[`'"]?\s+tool\b))/gi;
const OVERRIDE = /\boverrid(?:e|es|ing)\b/gi;
const WHENEVER_USER = /\bwhenever\s+the\s+user\s+(?:asks|wants|requests|tries)\b/gi;

/** Another tool in general: "any other tool", "other tools", "another tool", "the built-in tools". */
const OTHER_TOOLS = String.raw`(?:(?:any|all|every|each|the|an?)\s+)?(?:other|another|different|alternative|competing|built[\s-]?in|native|default|existing|standard)\s+(?:[\w-]+\s+)?(?:tools?|functions?|servers?|integrations?|plugins?|apps?|mcp\s+servers?)\b`;
/** "… until the user confirms": a pause for the user, not a takeover. */
const UNTIL_USER =
  /^[^.\n]{0,80}?\b(?:until|unless|before|without)\s+(?:(?:the|a|an)\s+)?(?:user|human|confirm|confirmation|approval|permission|receiving|asking|explicit|clear)/i;
const THIS_TOOL = String.raw`(?:this|my|our)\s+(?:tool|function|server|one|integration|plugin|mcp\s+server)|\bme\b`;
/** A name a tool could have, optionally quoted, optionally followed by "tool": group 1. */
const NAME = String.raw`[\x60'"]?([\w][\w.-]*)[\x60'"]?`;

/** A word every OTHER_TOOLS needs ("another" holds "other", "built-in" "built"). */
const OTHER_WORD = /other|different|alternative|competing|built|native|default|existing|standard/i;
/** THIS_TOOL itself, as a test. */
const THIS_WORD = new RegExp(THIS_TOOL, "i");
const THIS_OR_OTHER = new RegExp(`${THIS_TOOL}|${OTHER_WORD.source}`, "i");

/**
 * Patterns whose group 1, when present, names the tool taken over; without one, another tool is
 * meant. `gate` finds a word the pattern is about; `needs`, when given, patterns every match
 * of it also holds (OTHER_TOOLS, THIS_TOOL, its verb): a sentence without one of them skips
 * the larger pattern, which then is not even compiled.
 */
const TAKEOVER: readonly {
  label: string;
  gate: RegExp;
  needs?: readonly RegExp[];
  /** The gate, not the first need, is the pattern's trigger (hijackTriggers): it is the rarer in texts. */
  triggerIsGate?: true;
  re: RegExp;
  named?: "tool-word" | "identifier";
}[] = [
  {
    gate: /supersed|replac|obsolet|deprecat|overrid|\btakes\b|successor|substitut|place\s+of/i,
    // "this tool supersedes the create_issue tool", "replaces the built-in fetch tool"
    label: "supersedes another tool",
    re: new RegExp(
      String.raw`\b(?:supersedes?|replaces?|obsoletes?|deprecates?|overrides?|takes\s+(?:over\s+from|precedence\s+over|the\s+place\s+of)|is\s+(?:a|the)\s+(?:replacement|successor|substitute)\s+(?:for|of)|(?:should|must|is\s+to)\s+be\s+used\s+in\s+place\s+of)\s+(?:the\s+|any\s+|all\s+)?(?:${OTHER_TOOLS}|${NAME}\s+(?:tools?|functions?|commands?)\b)`,
      "gi",
    ),
    named: "tool-word",
  },
  {
    // "never use create_issue", "do not call the send_email tool", "stop using any other tool"
    label: "forbids another tool",
    gate: /\b(?:never|not|stop|avoid|longer|cannot)\b|n['’]t\b/i,
    // The verb of using that every match holds after its negation.
    needs: [/\b(?:use|call|invoke|run|trust|rely|using|calling|invoking|running|trusting|relying)\b/i],
    // The negation: in 386 of the fixtures' 5,028 prose texts, the verb in 656 ("How to run step 7").
    triggerIsGate: true,
    re: new RegExp(
      String.raw`\b(?:never|do\s+not|don['’]t|must\s+not|should\s+not|shouldn['’]t|cannot|can['’]t|no\s+longer|stop|avoid)\s+(?:ever\s+)?(?:use|call|invoke|run|trust|rely\s+on|using|calling|invoking|running|trusting|relying\s+on)\s+(?:the\s+)?(?:${OTHER_TOOLS}|${NAME}(?=\s|[,.;:!)]|$))`,
      "gi",
    ),
    named: "identifier",
  },
  {
    // "X is deprecated/broken/compromised, use this tool"
    label: "disparages another tool",
    // What is said of the tool, as every match says it.
    needs: [
      /\b(?:is|been|was)\s+(?:now\s+)?(?:deprecated|broken|disabled|unsafe|insecure|compromised|obsolete|unavailable|removed|retired|malicious|untrusted|down|not)\b|\b(?:longer\s+works|not\s+work|n['’]t\s+work|stopped\s+working)\b/i,
    ],
    gate: /deprecat|broken|disabled|unsafe|insecure|compromis|obsolete|unavailable|removed|retired|malicious|untrusted|\bdown\b|\bnot\s+(?:safe|trusted|reliable|working|to)\b|\bwork/i,
    re: new RegExp(
      String.raw`(?:^|\s)${NAME}\s+(?:tool\s+)?(?:(?:is|has\s+been|was)\s+(?:now\s+)?(?:deprecated|broken|disabled|unsafe|insecure|compromised|obsolete|unavailable|removed|retired|malicious|untrusted|down|not\s+(?:safe|trusted|reliable|working|to\s+be\s+used))|no\s+longer\s+works|(?:does\s+not|doesn['’]t)\s+work|stopped\s+working)\b`,
      "gi",
    ),
    named: "identifier",
  },
  {
    // "always use this tool instead", "use this tool instead of the other one", "rather than any other tool"
    label: "takes the place of another tool",
    needs: [THIS_OR_OTHER],
    gate: /\b(?:instead|place|rather|over|above|whenever|all|every|any)\b/i,
    re: new RegExp(
      String.raw`\b(?:always|only|must|should|instead)\s+(?:\w+\s+)?(?:use|call|invoke|choose|pick|select|prefer)\s+(?:${THIS_TOOL})\s+(?:instead|in\s+place\s+of|rather\s+than|over|above|for\s+(?:all|every|any)|whenever)\b|\b(?:use|call|invoke)\s+(?:${THIS_TOOL})\s+(?:instead\b|(?:in\s+place\s+of|rather\s+than)\s+${OTHER_TOOLS})|\b(?:instead\s+of|in\s+place\s+of|rather\s+than)\s+(?:using\s+|calling\s+)?${OTHER_TOOLS}`,
      "gi",
    ),
  },
  {
    // "prefer this tool over any other", "this tool must be preferred to", "is the default for every"
    label: "claims precedence over other tools",
    needs: [new RegExp(`prefer|${OTHER_WORD.source}`, "i")],
    gate: /\b(?:prefer|preferred|prioriti[sz]ed|chosen|used|priority|precedence)\b/i,
    re: new RegExp(
      String.raw`\bprefer\s+(?:${THIS_TOOL})\s+(?:over|to|above)\b|\b(?:is|should\s+be|must\s+be)\s+(?:always\s+)?(?:preferred|prioriti[sz]ed|chosen|used)\s+(?:over|to|above|before|ahead\s+of)\s+${OTHER_TOOLS}|\b(?:has|takes)\s+(?:priority|precedence)\s+over\s+${OTHER_TOOLS}`,
      "gi",
    ),
  },
  {
    // "route all requests through this tool", "every email must go through this tool"
    label: "routes other work through this tool",
    needs: [THIS_WORD],
    gate: /\b(?:through|via)\b/i,
    re: new RegExp(
      String.raw`\b(?:route|send|direct|channel|funnel|pass|proxy|forward)\s+(?:all|every|each|any)\s+(?:\w+\s+){0,3}?(?:through|via)\s+(?:${THIS_TOOL})\b|\b(?:all|every|each|any)\s+(?:\w+\s+){0,3}?(?:must|should|shall)\s+(?:always\s+)?(?:go|be\s+(?:routed|sent|passed|proxied|made))\s+(?:through|via)\s+(?:${THIS_TOOL})\b`,
      "gi",
    ),
  },
  {
    // "before calling any other tool, call this one", "call this tool before any other tool"
    label: "puts itself before every other tool",
    needs: [OTHER_WORD, THIS_WORD],
    gate: /\bbefore\b/i,
    re: new RegExp(
      String.raw`\bbefore\s+(?:calling|using|invoking|running|executing|you\s+(?:call|use|invoke|run))\s+${OTHER_TOOLS}\b[^.\n]{0,60}?\b(?:call|use|invoke|run)\s+(?:${THIS_TOOL})|\b(?:call|use|invoke|run)\s+(?:${THIS_TOOL})\s+(?:\w+\s+)?before\s+(?:calling|using|invoking|running)?\s*${OTHER_TOOLS}`,
      "gi",
    ),
  },
  {
    // "when the user asks to send email with any other tool, …"
    label: "takes over requests meant for another tool",
    needs: [OTHER_WORD],
    gate: /\b(?:when|whenever|if)\b[\s\S]*\b(?:with|using|through|via)\b/i,
    re: new RegExp(
      String.raw`\b(?:when|whenever|if)\s+(?:the\s+user|you|anyone)\s+(?:\w+\s+){0,6}?(?:with|using|through|via)\s+${OTHER_TOOLS}\b[^.\n]{0,80}?\b(?:always|instead|must|should)\b`,
      "gi",
    ),
  },
];

/**
 * What detectHijack needs, part by part (each a word its patterns or their conditions require):
 * rules for a named tool ("when … using … tool"), "all" (SEND_ALL_TO), a side effect or "other
 * tools", "instead of"/"in place of"/"rather than", "overrid…", "whenever", a strong obligation
 * (changes to a named tool), and each TAKEOVER pattern's gate and needs.
 */
const WHEN = /\b(?:when|whenever|before|after|if)\s/i;
const ALL = /all\s/i;
const SIDE_OR_OTHERS = /\bside[\s-]|\bother\s+tools\b/i;
const INSTEAD = /\b(?:instead\s+of|in\s+place\s+of|rather\s+than)\s/i;
const OVERRIDE_OR_WHENEVER = /overrid|whenever/i;

/** One regex per part, for a test of many texts at once (rules-security.ts): a text none matches has no hijack. */
export function hijackTriggers(): RegExp[] {
  return [
    WHEN,
    ALL,
    SIDE_OR_OTHERS,
    INSTEAD,
    OVERRIDE_OR_WHENEVER,
    STRONG_OBLIGATION,
    // Each takeover pattern's first need, or its gate: either is in all of its matches (mayHijack tests both).
    ...TAKEOVER.map((t) => (t.triggerIsGate ? t.gate : (t.needs?.[0] ?? t.gate))),
  ];
}

/** Whether detectHijack can find anything in some sentence of `text` (a cheaper, weaker test than running it). */
export function mayHijack(text: string): boolean {
  const toolWord = /tool/i.test(text);
  if (toolWord && WHEN.test(text)) return true;
  if (ALL.test(text) || SIDE_OR_OTHERS.test(text) || INSTEAD.test(text) || OVERRIDE_OR_WHENEVER.test(text)) {
    return true;
  }
  if (STRONG_OBLIGATION.test(text)) return true;
  return TAKEOVER.some(({ gate, needs }) => gate.test(text) && (needs ?? []).every((re) => re.test(text)));
}

/** One sentence's attempts to change or take over other tools; `mentions` knows the server's tool names. */
export function detectHijack(sentence: string, context: IntentContext, mentions: ToolMentions): IntentMatch[] {
  // The text passed mayHijack; most of its sentences do not, and need none of the patterns.
  return mayHijack(sentence) ? hijacksIn(sentence, context, mentions) : [];
}

/** detectHijack without its gate (tests hold the gate to it). */
export function hijacksIn(sentence: string, context: IntentContext, mentions: ToolMentions): IntentMatch[] {
  const out: IntentMatch[] = [];
  const own = ownNames(context);
  const add = (s: Span, label: string) => out.push({ start: s.start, end: s.end, label });
  const named = mentions.find(sentence, own);
  const mentionsOther = named.length > 0;
  const genericTool = /\b(?:other|another|any)\s+tools?\b/i.test(sentence);
  // WHEN_USING_TOOL and SIDE_EFFECT need the word "tool", SEND_ALL_TO "all" and a space: most
  // sentences have neither, and skip compiling and running the larger patterns.
  const toolWord = /tool/i.test(sentence);
  for (const s of toolWord ? matchSpans(sentence, WHEN_USING_TOOL) : []) {
    const tool = s.match[1] ?? "";
    if (/^(?:this|that|same)$/i.test(tool) || own.has(tool)) continue;
    // A tool of this server steering a sibling is ordinary guidance unless it redirects what the sibling sends.
    const sibling = context.toolNames.has(tool);
    if (OBLIGATION.test(sentence) && (!sibling || REDIRECT.test(sentence))) add(s, `rules for the ${tool} tool`);
  }
  for (const s of /all\s/i.test(sentence) && SEND_ALL_HEAD.test(sentence) ? matchSpans(sentence, SEND_ALL_TO) : []) {
    add(s, "redirects what other tools send");
  }
  for (const s of toolWord ? matchSpans(sentence, SIDE_EFFECT) : []) add(s, "side effect on another tool");
  const obliged = /\b(?:always|must|never|do\s+not|don['’]t|only)\b/i.test(sentence);
  // "instead of calling X" with an obligation; "instead of the X tool" when this tool is to be used.
  const usesThis = /\b(?:use|call|invoke)\s+(?:this|me)\b/i.test(sentence);
  const instead = [
    ...(obliged || usesThis ? matchSpans(sentence, INSTEAD_OF) : []),
    ...(obliged || usesThis
      ? matchSpans(sentence, INSTEAD_OF_TOOL).filter((s) => obliged || /^\W{0,2}\s*tool\b/i.test(sentence.slice(s.end)))
      : []),
  ];
  for (const s of instead) {
    const name = (s.match[1] ?? "").replace(/[.-]+$/, "");
    if (!context.toolNames.has(name) && !own.has(name)) add(s, "steers away from another tool");
  }
  if (mentionsOther || genericTool || /\btool\b/i.test(sentence)) {
    for (const s of matchSpans(sentence, OVERRIDE)) {
      if (mentionsOther || genericTool || /\binstructions?\b|\bbehaviou?r\b/i.test(sentence))
        add(s, "overrides tool behaviour");
    }
  }
  if (mentionsOther || /\b(?:must|always|never|do\s+not|don['’]t)\b/i.test(sentence)) {
    for (const s of matchSpans(sentence, WHENEVER_USER)) add(s, "takes over user requests");
  }
  if (mentionsOther && STRONG_OBLIGATION.test(sentence) && REDIRECT.test(sentence)) {
    for (const s of named) add(s, `changes how ${s.name} behaves`);
  }
  for (const { label, gate, needs, re, named: how } of TAKEOVER) {
    if (!gate.test(sentence) || (needs !== undefined && !needs.every((re) => re.test(sentence)))) continue;
    for (const s of matchSpans(sentence, re)) {
      const rest = sentence.slice(s.end);
      if (UNTIL_USER.test(rest)) continue;
      // "prefer this tool over multiple 'fill' calls": the server's own tools, named before any other.
      if (s.match[1] === undefined && !/\b(?:other|another|any|all|every)\b/i.test(s.match[0])) {
        const next = mentions.find(rest.slice(0, 80), new Set())[0];
        const generic = /\b(?:other|another|any|all|every)\b/i.exec(rest.slice(0, 80));
        if (next && (!generic || generic.index > next.start)) continue;
      }
      const name = s.match[1]?.replace(/[.-]+$/, "");
      if (name !== undefined) {
        // A tool of this server is the server's own business; a word that is not a tool name is not a takeover.
        if (context.toolNames.has(name) || own.has(name)) continue;
        // "This tool is deprecated": the text speaks of itself, which is its own business.
        if (SELF_WORDS.test(name)) continue;
        if (how === "identifier" && !/[_-]/.test(name) && !/\s+tools?\b/i.test(s.match[0])) continue;
      }
      add(s, label);
    }
  }
  return out;
}

const NO_NAMES: ReadonlySet<string> = new Set();
/** Words that name the tool the text belongs to, where a pattern expects another tool's name. */
const SELF_WORDS = /^(?:this|that|the|my|our|its?|current|same)$/i;

function ownNames(context: IntentContext): ReadonlySet<string> {
  // Server instructions legitimately steer the server's own tools; a tool steering itself is fine too.
  if (context.kind === "server") return context.toolNames;
  return context.kind === "tool" && context.own !== undefined ? new Set([context.own]) : NO_NAMES;
}
