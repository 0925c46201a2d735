/**
 * Every form a held secret can take in text that quotes it: what a server echoes into its
 * error text, its stderr or its surface, and what an error of ours quotes from the wire.
 * Pure (no I/O): the printer (src/cli/ui.ts) derives these once when a secret is added and
 * masks them all wherever it masks the plain value.
 *
 * Two layers, composed as a server composes them (escaped, encoded, escaped again: the JSON
 * of a JWT in base64url, that base64 percent-encoded in a URL):
 * - byte encodings of the value's bytes (UTF-8, and Latin-1 as an HTTP header carries it):
 *   hex (lower and upper case) and base64 (standard and URL-safe; the whole encoding, padded
 *   and unpadded, plus the stable middle of the value at each of the three alignments, for a
 *   value inside a longer base64 text: `Basic base64(user:password)`, a header line, a JWT);
 * - text escapes of the value and of each byte encoding: percent-encoding as clients send it
 *   (encodeURIComponent, form encoding with `+` for space, WHATWG userinfo, RFC 3986
 *   unreserved only; upper- and lower-case hex) and JSON escaping (as JSON.stringify, ASCII
 *   only, with `\/`, and twice for JSON inside JSON).
 */
import { Buffer } from "node:buffer";

/** Shorter values are too likely to occur by chance to be masked. */
export const MIN_SECRET_LENGTH = 4;

/**
 * A base64 fragment (the middle of a value inside a longer base64 text) must carry at least
 * as many bits of the value as the shortest plain secret masked (4 bytes): else a short
 * secret's fragment would mask unrelated text.
 */
const MIN_FRAGMENT_BITS = 8 * MIN_SECRET_LENGTH;

/** The forms of `value` worth masking, longest first; none for a value shorter than MIN_SECRET_LENGTH. */
export function secretForms(value: string): string[] {
  if (value.length < MIN_SECRET_LENGTH) return [];
  const forms = new Set<string>();
  for (const held of [value, ...basicCredential(value)]) {
    if (held.length < MIN_SECRET_LENGTH) continue;
    // Escaped, then encoded (a JWT holds JSON, a Basic body a form), then escaped again (base64 in a URL).
    for (const text of textEscapes(held)) {
      for (const encoded of byteEncodings(text)) for (const escaped of textEscapes(encoded)) forms.add(escaped);
    }
  }
  return [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/** The value itself, and its bytes in hex and base64 (whole and, inside longer text, its stable middle). */
function byteEncodings(value: string): string[] {
  const out = [value];
  const sources = [Buffer.from(value, "utf8")];
  // An HTTP header value travels as Latin-1 bytes: a server decoding them as such encodes those.
  if (/[\u0080-\u00ff]/.test(value) && !/[^\u0000-\u00ff]/.test(value)) sources.push(Buffer.from(value, "latin1"));
  for (const bytes of sources) {
    const hex = bytes.toString("hex");
    out.push(hex, hex.toUpperCase());
    const base64 = bytes.toString("base64");
    out.push(base64, base64.replace(/=+$/, ""), bytes.toString("base64url"));
    for (let offset = 0; offset < 3; offset++) {
      const middle = base64Middle(bytes, offset);
      if (middle.length * 6 < MIN_FRAGMENT_BITS) continue;
      out.push(middle, toBase64Url(middle));
    }
  }
  return out;
}

/**
 * The base64 characters that `bytes` alone determine when they sit `offset` bytes (mod 3)
 * into a longer text: the characters before depend on the bytes before, the last one may
 * share its bits with the bytes after. Character i holds bits [6i, 6i + 6) of the stream.
 */
export function base64Middle(bytes: Uint8Array, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
  return encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
}

function toBase64Url(base64: string): string {
  return base64.replace(/\+/g, "-").replace(/\//g, "_");
}

/** `text` as a URL carries it and as a JSON string holds it, in the spellings encoders use. */
function textEscapes(text: string): string[] {
  const out = new Set<string>([text]);
  for (const encoded of percentEncodings(text)) {
    out.add(encoded);
    out.add(encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
  }
  for (const escaped of jsonEscapes(text)) out.add(escaped);
  return [...out];
}

function percentEncodings(text: string): string[] {
  let component: string;
  try {
    component = encodeURIComponent(text);
  } catch {
    return []; // a lone surrogate: no client sends it
  }
  const userinfo = new URL("http://h/");
  userinfo.password = text;
  return [
    component,
    component.replace(/%20/g, "+"),
    // application/x-www-form-urlencoded (URLSearchParams, HTML forms, curl --data-urlencode): `+` for space.
    new URLSearchParams([["k", text]]).toString().slice(2),
    userinfo.password,
    component.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
  ];
}

function jsonEscapes(text: string): string[] {
  const once = JSON.stringify(text).slice(1, -1);
  const ascii = once.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return [
    once,
    ascii,
    ascii.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => `\\u${hex.toUpperCase()}`),
    once.replace(/\//g, "\\/"),
    JSON.stringify(once).slice(1, -1),
  ];
}

/** `user:password` and the password when the value is base64 of printable text with a colon (a Basic credential). */
function basicCredential(value: string): string[] {
  if (value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return [];
  const text = Buffer.from(value, "base64").toString("utf8");
  if (!/^[^\u0000-\u001f\u007f:\ufffd]*:[^\u0000-\u001f\u007f\ufffd]+$/.test(text)) return [];
  return [text, text.slice(text.indexOf(":") + 1)];
}
