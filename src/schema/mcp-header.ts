/**
 * The `x-mcp-header` schema extension of MCP 2026-07-28 (server/tools "x-mcp-header",
 * transports/streamable-http "Custom Headers from Tool Parameters"): a property of a tool's
 * inputSchema that carries `"x-mcp-header": "Region"` has its argument mirrored into an
 * `Mcp-Param-Region` HTTP header, so that load balancers, proxies and WAFs can route on it
 * without reading the body. This module finds every declaration in a schema and says which
 * ones break the spec's constraints, the way SDK clients check them (a client on Streamable
 * HTTP MUST drop a tool with any invalid declaration from tools/list). Used by the diff
 * (src/diff/mcp-header.ts) and by lint (src/lint/mcp-header.ts). Pure.
 */
import { isJsonObject, type Json } from "../contract/model.ts";
import { pointer } from "../contract/pointer.ts";
import { forEachSubschema } from "./subschemas.ts";

export const MCP_HEADER_KEYWORD = "x-mcp-header";
/** What a declared name becomes on the wire: `Mcp-Param-{name}`. */
export const MCP_PARAM_PREFIX = "Mcp-Param-";

/** RFC 9110 §5.1 `token` (1*tchar): no space, control character (CR, LF) or delimiter. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The property types the spec lets a header mirror; `number` is excluded explicitly. */
const HEADER_TYPES = new Set(["string", "integer", "boolean"]);
/** A walk stops here: deeper nesting is hostile, and the schema engine reports it as such. */
const MAX_DEPTH = 256;

export interface McpHeaderDeclaration {
  /** JSON Pointer of the keyword inside the schema ("/properties/region/x-mcp-header"). */
  path: string;
  /** The chain of `properties` names leading to the declaring property, when there is one. */
  property?: string[];
  /** The declared value, as the server sent it. */
  value: Json;
  /** Why a client rejects the declaration (and so drops the tool), when it does. */
  problem?: string;
}

/**
 * Every `x-mcp-header` in the schema, depth first (a node's own declaration, then those
 * under its applicators, then under its properties, in key order), each with the reason it
 * is invalid, if any. Only schema positions are searched: a value under `enum`, `const` or
 * `default` that looks like a declaration is data.
 */
export function mcpHeaderDeclarations(schema: Json | undefined): McpHeaderDeclaration[] {
  const found: McpHeaderDeclaration[] = [];
  if (schema === undefined) return found;
  // Explicit stack, so a hostile nesting depth cannot exhaust the call stack.
  const stack: { node: Json; path: string; chain: string[] | undefined; depth: number }[] = [
    { node: schema, path: "", chain: [], depth: 0 },
  ];
  while (stack.length > 0) {
    const { node, path, chain, depth } = stack.pop()!;
    if (!isJsonObject(node)) continue;
    if (Object.hasOwn(node, MCP_HEADER_KEYWORD)) {
      const value = node[MCP_HEADER_KEYWORD] as Json;
      const declaration: McpHeaderDeclaration = { path: pointer(path, MCP_HEADER_KEYWORD), value };
      if (chain !== undefined && chain.length > 0) declaration.property = chain;
      const problem = ownProblem(node, value, chain);
      if (problem !== undefined) declaration.problem = problem;
      found.push(declaration);
    }
    if (depth >= MAX_DEPTH) continue;
    const children: { node: Json; path: string; chain: string[] | undefined; depth: number }[] = [];
    forEachSubschema(node, (child, segments) => {
      // Statically reachable: every step from the root is a `properties` key.
      const reachable = chain !== undefined && segments.length === 2 && segments[0] === "properties";
      children.push({
        node: child,
        path: pointer(path, ...segments),
        chain: reachable ? [...chain, segments[1] as string] : undefined,
        depth: depth + 1,
      });
    });
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  markDuplicates(found);
  return found;
}

/** The valid declarations by lower-cased header name (HTTP field names are case-insensitive). */
export function validHeaders(declarations: readonly McpHeaderDeclaration[]): Map<string, McpHeaderDeclaration> {
  const byName = new Map<string, McpHeaderDeclaration>();
  for (const d of declarations) {
    if (d.problem === undefined && typeof d.value === "string") byName.set(d.value.toLowerCase(), d);
  }
  return byName;
}

/** "Mcp-Param-Region", for messages. */
export function headerName(value: string): string {
  return `${MCP_PARAM_PREFIX}${value}`;
}

function ownProblem(node: { [key: string]: Json }, value: Json, chain: string[] | undefined): string | undefined {
  if (chain === undefined) {
    return "it is not on a property reachable from the schema root through `properties` alone (it sits under items, additionalProperties, anyOf/oneOf/allOf/not, if/then/else, $defs or another keyword), where the spec forbids it";
  }
  if (chain.length === 0) return "it is on the schema root, not on a property";
  if (typeof value !== "string" || value.length === 0) {
    return typeof value === "string" ? "its value is empty" : `its value is ${describe(value)}, not a string`;
  }
  if (!TOKEN.test(value)) {
    const bad = [...new Set([...value].filter((c) => !TOKEN.test(c)))].map(codePoint);
    const injection = /[\r\n]/.test(value) ? " (a line break there would inject headers into the request)" : "";
    return `its value is not an HTTP header name: it contains ${bad.join(", ")}${injection}`;
  }
  const type = node.type;
  if (typeof type !== "string" || !HEADER_TYPES.has(type)) {
    const shown = type === undefined ? "no type" : `type ${JSON.stringify(type)}`;
    return `the property has ${shown}; only string, integer and boolean properties can be mirrored into a header (number is excluded)`;
  }
  return undefined;
}

/** A name already taken (ignoring case) by an earlier valid declaration makes the later one invalid. */
function markDuplicates(found: McpHeaderDeclaration[]): void {
  const first = new Map<string, McpHeaderDeclaration>();
  for (const d of found) {
    if (d.problem !== undefined || typeof d.value !== "string") continue;
    const key = d.value.toLowerCase();
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, d);
      continue;
    }
    const where = earlier.property ? ` by property ${JSON.stringify(earlier.property.join("."))}` : "";
    d.problem = `${JSON.stringify(d.value)} is already declared${where} (${JSON.stringify(earlier.value)}); header names must be unique ignoring case`;
  }
}

function describe(value: Json): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function codePoint(c: string): string {
  const hex = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
  return /[\x21-\x7e]/.test(c) ? `${JSON.stringify(c)} (${hex})` : hex;
}
