/**
 * Whether a text reveals a secret in any encoding, judged by decoding rather than by the
 * forms mcp-contract derives (src/cli/secret-forms.ts), so that a test does not check the
 * masking against itself: the text is JSON-unescaped and percent-decoded (loosely, as often
 * as it changes), then every run of hex and of base64 (either alphabet, at each of the four
 * character alignments) is decoded, and each result is searched for any `min` consecutive
 * characters of the secret. A mask leaves at most two bytes of the secret beside `***` (the
 * base64 characters that share bits with the text around it), so the default of 6 finds real
 * leaks only.
 */
import { Buffer } from "node:buffer";

export function revealedPieces(text: string, secret: string, min = 6): string[] {
  const pieces = new Set<string>();
  for (let i = 0; i + min <= secret.length; i++) pieces.add(secret.slice(i, i + min));
  if (pieces.size === 0) pieces.add(secret);
  const found = new Set<string>();
  for (const decoded of decodings(text)) for (const piece of pieces) if (decoded.includes(piece)) found.add(piece);
  return [...found];
}

/** `text` and what it says once unescaped and decoded in every way we know of. */
export function decodings(text: string): string[] {
  const texts = new Set<string>([text]);
  // Unescape (JSON, then percent-encoding) until nothing changes: JSON inside JSON, %25 encoded twice.
  for (let frontier = [text]; frontier.length > 0; ) {
    const next: string[] = [];
    for (const t of frontier) {
      for (const u of [jsonUnescape(t), percentDecode(t), percentDecode(t.replace(/\+/g, " "))]) {
        if (!texts.has(u)) {
          texts.add(u);
          next.push(u);
        }
      }
    }
    frontier = next;
  }
  const out = new Set(texts);
  for (const t of texts) {
    for (const run of t.match(/[0-9a-fA-F]{8,}/g) ?? []) {
      for (const start of [0, 1]) addBytes(out, Buffer.from(evenLength(run.slice(start)), "hex"));
    }
    for (const run of t.match(/[A-Za-z0-9+/_-]{6,}/g) ?? []) {
      const standard = run.replace(/-/g, "+").replace(/_/g, "/");
      for (let start = 0; start < 4; start++) addBytes(out, Buffer.from(standard.slice(start), "base64"));
    }
  }
  return [...out];
}

function addBytes(out: Set<string>, bytes: Buffer): void {
  out.add(bytes.toString("utf8"));
  out.add(bytes.toString("latin1"));
}

function evenLength(hex: string): string {
  return hex.length % 2 ? hex.slice(0, -1) : hex;
}

function jsonUnescape(text: string): string {
  return text.replace(/\\(?:u([0-9a-fA-F]{4})|(.))/g, (_, hex: string | undefined, c: string | undefined) => {
    if (hex) return String.fromCharCode(Number.parseInt(hex, 16));
    return ({ n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" } as Record<string, string>)[c ?? ""] ?? c ?? "";
  });
}

/** Percent-decoding that survives malformed text: each run of %XX is decoded as UTF-8 on its own. */
function percentDecode(text: string): string {
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) =>
    Buffer.from(run.replace(/%/g, ""), "hex").toString(/[%][89a-fA-F]/.test(run) ? "utf8" : "latin1"),
  );
}
