/**
 * Intent 6, running downloaded code: a text that tells the model (or, through it, the user's
 * shell) to fetch code from the network and run it: `curl … | sh`, `bash <(wget …)`,
 * `iex (irm …)`, "download the script at https://… and execute it". Reported by
 * remote-code-execution; always an error: whoever controls the URL controls the machine.
 *
 * Shell forms are matched whatever the surrounding words (a pipe from a downloader into an
 * interpreter, process substitution, eval of a download, PowerShell's download-and-invoke);
 * prose needs a verb of running with an object of code and a place on the network ("run the
 * installer from http://…", "download and execute …"). Pure; no I/O.
 */
import { matchSpans } from "../text-scan.ts";
import type { IntentMatch } from "./model.ts";

const DOWNLOADER = `(?:curl|wget|fetch|aria2c|http(?:ie)?|iwr|irm|Invoke-WebRequest|Invoke-RestMethod|certutil|bitsadmin)`;
const INTERPRETER = String.raw`(?:sudo\s+(?:-\w+\s+)*)?(?:(?:ba|z|da|k|c|tc|fi|a)?sh|python[23]?(?:\.\d+)?|perl|ruby|node|bun|deno|php|iex|Invoke-Expression|powershell(?:\.exe)?|pwsh|source|\.|eval|exec|xargs\s+(?:-\w+\s+)*(?:ba)?sh)`;

const SHELL: readonly RegExp[] = [
  // curl -fsSL https://… | sh, wget -qO- … | sudo bash, iwr … | iex
  new RegExp(String.raw`\b${DOWNLOADER}\b[^|\n]{0,300}?\|\s*${INTERPRETER}(?![\w-]|\.\w)`, "gi"),
  // bash <(curl …), sh -c "$(curl …)", eval "$(wget …)", source <(curl …)
  new RegExp(
    String.raw`(?:(?:ba|z|k)?sh|source|\.|eval|exec|python[23]?)\s+(?:-\w+\s+)*["']?(?:<\(|\$\(|\x60)\s*${DOWNLOADER}\b`,
    "gi",
  ),
  // iex (New-Object Net.WebClient).DownloadString(…), iex (irm …)
  /\b(?:iex|Invoke-Expression)\s*\(?\s*(?:\(?\s*New-Object\s+(?:System\.)?Net\.WebClient\s*\)?\.Download(?:String|File)|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b/gi,
  // curl -o x.sh https://… && sh x.sh, wget … && chmod +x … && ./…
  new RegExp(
    String.raw`\b${DOWNLOADER}\b[^\n;&|]{0,300}?(?:&&|;)\s*(?:chmod\s+\+?[0-7x]+\s+[^\n;&|]+(?:&&|;)\s*)?(?:(?:ba|z)?sh|python[23]?|perl|node|\.\/)[^\n]{0,60}`,
    "gi",
  ),
  // python -c "import urllib…exec(…)", node -e "fetch(…).then(eval)"
  /\b(?:python[23]?\s+-c|node\s+-e|perl\s+-e|ruby\s+-e)\s+["'][^"'\n]{0,200}?(?:urlopen|urllib|requests\.get|fetch\(|http\.get|LWP|open-uri)[^"'\n]{0,200}?(?:exec|eval)\b/gi,
];

const RUN = String.raw`(?:run|execute|exec|eval(?:uate)?|source|launch|start|install|invoke|load\s+and\s+run|pipe\s+(?:it\s+)?(?:in)?to\s+(?:a\s+|the\s+)?(?:shell|bash|terminal))`;
/** Running, not installing: "fetch and install packages" is what a package manager tool does. */
const RUN_NOW = String.raw`(?:run|execute|exec|eval(?:uate)?|source|pipe\s+(?:it\s+)?(?:in)?to\s+(?:a\s+|the\s+)?(?:shell|bash|terminal))`;
const CODE = `(?:script|scripts|code|binary|binaries|executable|installer|payload|program|commands?|snippet|file|package|patch|update|plugin|extension|module|helper|agent|tool|bootstrap(?:per)?|setup)`;
const URLISH = String.raw`(?:https?|ftp):\/\/[^\s<>"'\x60)\]}]+|(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\/[^\s<>"'\x60)\]}]*`;

const PROSE: readonly RegExp[] = [
  // "download and run/execute …", "fetch the script and execute it"
  new RegExp(
    String.raw`\b(?:download|fetch|retrieve|grab|pull|curl|wget)\s+(?:and|then|,)\s*(?:then\s+)?${RUN_NOW}\b|\b(?:download|fetch|retrieve|grab|pull)\s+(?:the\s+|this\s+|a\s+|our\s+)?(?:\w+\s+)?${CODE}\b(?:[^.\n]|\.(?=\S)){0,120}?\b(?:and|then|,)\s+(?:then\s+)?${RUN}\s+(?:it|them|this|that)\b`,
    "gi",
  ),
  // "download https://… and execute it"
  new RegExp(
    String.raw`\b(?:download|fetch|retrieve|grab|pull)\s+(?:${URLISH})\s+(?:and|then|,)\s*(?:then\s+)?${RUN_NOW}\s+(?:it|them|this|that)\b`,
    "gi",
  ),
  // "run the script at https://…", "execute the installer hosted at http://…", "install the update from https://…"
  new RegExp(
    String.raw`\b${RUN}\s+(?:the\s+|this\s+|a\s+|our\s+)?(?:\w+\s+)?${CODE}\s+(?:\w+\s+){0,2}?(?:at|from|on|located\s+at|hosted\s+(?:at|on)|found\s+at|available\s+(?:at|from)|downloaded\s+from)\s+(?:${URLISH})`,
    "gi",
  ),
  // "run https://…/setup.sh", "execute http://…/x.py"
  new RegExp(String.raw`\b(?:run|execute|exec|source|eval)\s+(?:${URLISH})`, "gi"),
];

/** Words every pattern needs: most sentences have none, and skip the patterns at the cost of one scan. */
const SHELL_GATE =
  /\b(?:curl|wget|fetch|aria2c|https?|httpie|iwr|irm|invoke-\w+|certutil|bitsadmin|iex|python[23]?|node|perl|ruby)\b/i;
const PROSE_DOWNLOAD = /\b(?:download|fetch|retrieve|grab|pull|curl|wget)\b/i;
const PROSE_RUN_ADDRESS =
  /\b(?:run|execute|exec|eval(?:uate)?|source|launch|start|install|invoke|load)\b[^\n]*(?::\/\/|\d\.\d+\.\d+\.\d)/i;
const PROSE_GATE = new RegExp(`${PROSE_DOWNLOAD.source}|${PROSE_RUN_ADDRESS.source}`, "i");
/**
 * What every match of PROSE_RUN_ADDRESS holds: its address's "://" or IPv4 digits. The gate
 * literals are taken from this rather than from the verbs of running, which most texts that say
 * "run" without an address hold ("How to run the tests"): such a text is then not read for this
 * rule at all on big surfaces (rules-security.ts loudness).
 */
const ADDRESS = /:\/\/|\d\.\d+\.\d+\.\d/;

/** Every text mayRunRemoteCode lets through matches one of these (PROSE_GATE: one of its two parts, the second ADDRESS). */
export const REMOTE_CODE_TRIGGERS: readonly RegExp[] = [SHELL_GATE, PROSE_DOWNLOAD, ADDRESS];

/** Whether detectRemoteCode can find anything in some sentence of `text`. */
export function mayRunRemoteCode(text: string): boolean {
  return SHELL_GATE.test(text) || PROSE_GATE.test(text);
}

export function detectRemoteCode(sentence: string): IntentMatch[] {
  const out: IntentMatch[] = [];
  const shell = SHELL_GATE.test(sentence);
  const prose = PROSE_GATE.test(sentence);
  if (!shell && !prose) return out;
  for (const re of shell ? SHELL : []) {
    for (const s of matchSpans(sentence, re))
      out.push({ start: s.start, end: s.end, label: "download piped into a shell" });
  }
  for (const re of prose ? PROSE : []) {
    for (const s of matchSpans(sentence, re)) out.push({ start: s.start, end: s.end, label: "download and run" });
  }
  return out;
}
