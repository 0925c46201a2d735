/**
 * Links in texts: finding URLs, IP addresses and data: URIs, judging what kind of place each
 * points at, and comparing hosts by registrable domain (the Public Suffix List, through
 * tldts, with its private section on: `vendor.github.io` and `attacker.github.io` are two
 * domains, `developers.notion.com` and `www.notion.com` one). Pure; no I/O.
 *
 * What a link is worth reporting as:
 * - risky (embedded-url, a warning): a raw IP address, a data: URI, a URL shortener (the
 *   destination is hidden), or a link that is not HTTPS (plain http, ftp, ws);
 * - plain (external-link, info): an HTTPS link to a named host: documentation, the vendor's site;
 * - not reported: RFC 2606 example hosts (placeholders), loopback addresses (the user's own
 *   machine: "http://localhost:3000"), and hosts the policy file allows (`allowHosts`).
 */
import { matchSpans, type Span } from "../text-scan.ts";

export const URL_LIKE =
  /\b(?:https?|ftp|wss?):\/\/[^\s<>"'`)\]}]+|\bdata:[\w.+-]+\/[\w.+-]+(?:;[\w=.+-]+)*,[^\s"'`)\]}]*|(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?::\d+)?(?![\w.])/gi;

/**
 * Example hosts (RFC 2606): example.com, .net and .org with their subdomains, and the .example
 * top-level domain. They are placeholders in usage examples, never a place data can go.
 */
const EXAMPLE_HOST = /^(?:[\w-]+\.)*(?:example\.(?:com|net|org)|[\w-]+\.example)$/i;

/** Services whose links hide where they lead. */
const SHORTENERS = new Set([
  "bit.ly",
  "bitly.com",
  "bl.ink",
  "buff.ly",
  "clck.ru",
  "cutt.ly",
  "dub.sh",
  "goo.gl",
  "is.gd",
  "lnkd.in",
  "ow.ly",
  "qrco.de",
  "rb.gy",
  "rebrand.ly",
  "s.id",
  "short.io",
  "shorturl.at",
  "shorte.st",
  "t.co",
  "t.ly",
  "tiny.cc",
  "tinyurl.com",
  "tr.im",
  "u.to",
  "v.gd",
  "x.co",
]);

export type LinkKind = "ip" | "data" | "shortener" | "insecure" | "plain";

export interface Link extends Span {
  /** The link as written, without trailing punctuation. */
  url: string;
  /** Lowercased host name or IP address; undefined for data: URIs. */
  host?: string;
  kind: LinkKind;
  /** Why it is risky: "raw IP address", "data: URI", "URL shortener", "not HTTPS". */
  reasons: string[];
}

const IPV4 = /^(?:\d{1,3}\.){3}\d{1,3}$/;

function isLoopback(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) || host === "[::1]";
}

/** Where a URL or address points: the host of a URL (lowercased), an IP address as written; none for data: URIs. */
export function hostOf(url: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#@\s]*@)?(\[[0-9a-f:.]+\]|[^/?#:\s]+)/i.exec(url);
  if (m) return (m[1] as string).toLowerCase().replace(/\.$/, "");
  return /^[\d.]+(?::\d+)?$/.test(url) ? (url.split(":")[0] as string) : undefined;
}

/**
 * The registrable domain of a host ("developers.notion.com" → "notion.com", "a.b.github.io"
 * → "b.github.io"); an IP address, a single-label host or anything the Public Suffix List
 * cannot place is its own domain.
 */
export function domainOf(host: string): string {
  if (IPV4.test(host) || host.startsWith("[")) return host;
  // Loaded on first use: evaluating the Public Suffix List costs milliseconds at start-up.
  publicSuffixes ??= require("tldts") as typeof import("tldts");
  return publicSuffixes.getDomain(host, { allowPrivateDomains: true }) ?? host;
}

let publicSuffixes: typeof import("tldts") | undefined;

/** Whether a host is one the policy allows: an entry covers itself and its subdomains; an IP address only itself. */
export function hostAllowed(host: string, allowHosts: readonly string[]): boolean {
  return allowHosts.some((entry) => host === entry || (!IPV4.test(entry) && host.endsWith(`.${entry}`)));
}

/** Every link of a text worth reporting, in order, with its kind (see the module comment). */
export function findLinks(text: string, allowHosts: readonly string[] = []): Link[] {
  // Every link URL_LIKE matches has a ":" (a scheme, data:) or a digit, ".", digit (an IPv4 address).
  if (!/:|\d\.\d/.test(text)) return [];
  const out: Link[] = [];
  for (const s of matchSpans(text, URL_LIKE)) {
    const url = s.match[0].replace(/[.,;:!?]+$/, "");
    const link = classify(url);
    if (!link) continue;
    if (link.host !== undefined && hostAllowed(link.host, allowHosts)) continue;
    out.push({ start: s.start, end: s.start + url.length, ...link });
  }
  return out;
}

function classify(url: string): Omit<Link, "start" | "end"> | undefined {
  if (/^data:/i.test(url)) return { url, kind: "data", reasons: ["data: URI"] };
  const host = hostOf(url);
  if (host === undefined) return undefined;
  if (EXAMPLE_HOST.test(host) || isLoopback(host)) return undefined;
  const reasons: string[] = [];
  let kind: LinkKind = "plain";
  if (IPV4.test(host) || host.startsWith("[")) {
    kind = "ip";
    reasons.push("raw IP address");
  } else if (SHORTENERS.has(host) || SHORTENERS.has(domainOf(host))) {
    kind = "shortener";
    reasons.push("URL shortener");
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  // A bare IP address ("10.0.0.12:8080") has no scheme: it is already risky as an address.
  if (scheme !== undefined && scheme !== "https" && scheme !== "wss") {
    if (kind === "plain") kind = "insecure";
    reasons.push("not HTTPS");
  }
  return { url, host, kind, reasons };
}

/**
 * Whether a link adds a destination to a surface that already linked `known` (registrable
 * domains and IP addresses) and the exact URLs `seen`. A shortener or a data: URI hides or is
 * its destination, so only the same link is known; any other link is known by its domain.
 */
export function linkKnown(url: string, known: ReadonlySet<string>, seen: ReadonlySet<string>): boolean {
  if (seen.has(url)) return true;
  const link = classify(url);
  if (!link || link.host === undefined || link.kind === "shortener") return false;
  return known.has(domainOf(link.host));
}
