/**
 * Which links are the vendor's own: a documentation link into the server's own site is never a
 * new destination, however new the page (issue #26: "a link to the vendor's own registrable
 * domain is never a finding above info"). The vendor is known from what the server says of
 * itself, never from a list of vendors:
 * - its websiteUrl and its icons' hosts (registrable domain, the Public Suffix List's private
 *   section keeping shared hosting apart: acme.github.io is not github.io);
 * - a reverse-DNS server name: "com.acme/weather" is acme.com's, "io.github.acme/x" acme.github.io's;
 * - a word of its name or title as a registrable domain's label: "MongoDB MCP Server" owns
 *   mongodb.com, "Notion API" notion.so and notion.com (generic words such as mcp, server, api
 *   name no one);
 * - on a code or package host (github.com, npmjs.com, …), a path under one of its names:
 *   github.com/acme/acme-mcp for "@acme/acme-mcp" or "acme-mcp".
 * Pure; no I/O.
 */
import type { Contract, JsonObject } from "../../contract/model.ts";
import { isJsonObject } from "../../contract/model.ts";
import { domainOf, hostOf } from "./links.ts";

/** Hosts where many vendors keep their code or packages: a link there is the vendor's own only by its path. */
const CODE_HOSTS = new Set(["github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "npmjs.com", "pypi.org"]);

/** Words of server names that name no vendor. */
const GENERIC = new Set([
  "mcp",
  "server",
  "servers",
  "api",
  "the",
  "and",
  "for",
  "tool",
  "tools",
  "model",
  "context",
  "protocol",
  "official",
  "search",
  "example",
  "client",
]);

/** A predicate: whether a URL is the vendor's own, by what the two sides' servers say of themselves. */
export function vendorLinks(...contracts: Contract[]): (url: string) => boolean {
  const domains = new Set(contracts.flatMap(vendorDomains));
  const words = new Set(contracts.flatMap(nameWords));
  const owners = new Set(contracts.flatMap(ownerNames));
  return (url) => {
    const host = hostOf(url);
    if (host === undefined || !/[a-z]/i.test(host)) return false;
    const domain = domainOf(host);
    if (CODE_HOSTS.has(domain)) return ownRepository(url, owners);
    return domains.has(domain) || words.has(domain.split(".")[0] as string);
  };
}

/** The registrable domains the server states as its own (websiteUrl, icons, a reverse-DNS name). */
export function vendorDomains(contract: Contract): string[] {
  const server = contract.server as JsonObject;
  const urls: string[] = [];
  if (typeof server.websiteUrl === "string") urls.push(server.websiteUrl);
  if (Array.isArray(server.icons)) {
    for (const icon of server.icons) if (isJsonObject(icon) && typeof icon.src === "string") urls.push(icon.src);
  }
  const domains: string[] = [];
  for (const url of urls) {
    const host = hostOf(url);
    // An icon inlined as a data: URI, or a bare address, names no vendor.
    if (host !== undefined && /[a-z]/i.test(host) && host.includes(".")) domains.push(domainOf(host));
  }
  const name = typeof server.name === "string" ? server.name : "";
  const reverse = /^([a-z0-9-]+(?:\.[a-z0-9-]+)+)\//i.exec(name)?.[1];
  if (reverse !== undefined) domains.push(domainOf(reverse.split(".").reverse().join(".").toLowerCase()));
  return domains;
}

/** The distinctive words of the server's name and title, lower case ("MongoDB MCP Server" → mongodb). */
function nameWords(contract: Contract): string[] {
  const server = contract.server as JsonObject;
  const text = [server.name, server.title].filter((v): v is string => typeof v === "string").join(" ");
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 3 && !GENERIC.has(word));
}

/**
 * The names a server goes by, lower case: "@acme/weather-mcp" → acme, weather-mcp; "com.acme/weather"
 * → weather; "acme-mcp" → acme-mcp.
 */
function ownerNames(contract: Contract): string[] {
  const name = contract.server.name;
  if (typeof name !== "string" || name === "") return [];
  return name
    .toLowerCase()
    .replace(/^@/, "")
    .split("/")
    .filter((part, i, parts) => part !== "" && !(i === 0 && parts.length > 1 && part.includes(".")));
}

/** A link to the server's own repository or package page on a code host (github.com/acme/acme-mcp). */
function ownRepository(url: string, owners: ReadonlySet<string>): boolean {
  const path = /^[a-z]+:\/\/[^/]+\/([^?#]*)/i.exec(url)?.[1] ?? "";
  const segments = path.toLowerCase().split("/").slice(0, 3).filter(Boolean);
  return segments.some((segment) => owners.has(segment.replace(/\.git$/, "")));
}
