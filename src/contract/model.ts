/**
 * The Contract: everything an MCP server reported about its surface, as plain data.
 * Items keep every field the server sent; only the identity fields are typed.
 */

/** Bump when the lockfile layout changes incompatibly; readers refuse newer versions. */
export const LOCKFILE_VERSION = 1;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface Tool extends JsonObject {
  name: string;
}
export interface Resource extends JsonObject {
  uri: string;
}
export interface ResourceTemplate extends JsonObject {
  uriTemplate: string;
}
export interface Prompt extends JsonObject {
  name: string;
}

/** Client capabilities mcp-contract can declare; some servers expose more to such clients. */
export const CLIENT_CAPABILITIES = ["elicitation", "roots", "sampling"] as const;
export type ClientCapability = (typeof CLIENT_CAPABILITIES)[number];

export interface Contract {
  lockfileVersion: number;
  /** serverInfo from initialize, verbatim (name, version, title, icons, ...). */
  server: JsonObject;
  /** The protocol version negotiated in initialize. */
  protocolVersion: string;
  capabilities: JsonObject;
  instructions?: string;
  /** How the surface was captured, so that `check` later captures the same way. */
  capture: { clientCapabilities: ClientCapability[] };
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
}

/** The four lists, with the field that identifies an item in each. */
export const SURFACE_LISTS = [
  { key: "tools", id: "name", method: "tools/list", capability: "tools" },
  { key: "resources", id: "uri", method: "resources/list", capability: "resources" },
  {
    key: "resourceTemplates",
    id: "uriTemplate",
    method: "resources/templates/list",
    capability: "resources",
  },
  { key: "prompts", id: "name", method: "prompts/list", capability: "prompts" },
] as const;
export type SurfaceList = (typeof SURFACE_LISTS)[number];
export type SurfaceKey = SurfaceList["key"];

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
