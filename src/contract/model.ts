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
/**
 * A skill of the Skills extension (SEP-2640), as skills/list sends it: the `uri` of its
 * SKILL.md, its `frontmatter` verbatim (name, description, license, …), and `resources`: every
 * file with its `digest` ("sha256:" + hex of the raw bytes) and `size`, or "dynamic".
 */
export interface Skill extends JsonObject {
  uri: string;
}

/**
 * The two protocol eras. Legacy revisions (2025-11-25 and earlier) open a session with the
 * `initialize` handshake; modern ones (2026-07-28 on) carry the protocol version and client
 * capabilities in every request's `_meta` and describe the server in `server/discover`.
 */
export const ERAS = ["modern", "legacy"] as const;
export type Era = (typeof ERAS)[number];
/** The first modern revision. Revisions are ISO dates, so they order as strings. */
export const FIRST_MODERN_PROTOCOL_VERSION = "2026-07-28";

/** The era a protocol revision belongs to ("" and anything before 2026-07-28: legacy). */
export function eraOf(protocolVersion: string): Era {
  return protocolVersion >= FIRST_MODERN_PROTOCOL_VERSION ? "modern" : "legacy";
}

/** Client capabilities mcp-contract can declare; some servers expose more to such clients. */
export const CLIENT_CAPABILITIES = ["elicitation", "roots", "sampling"] as const;
export type ClientCapability = (typeof CLIENT_CAPABILITIES)[number];

export interface Contract {
  lockfileVersion: number;
  /** serverInfo from initialize, or `_meta["io.modelcontextprotocol/serverInfo"]` from server/discover, verbatim (name, version, title, icons, ...). */
  server: JsonObject;
  /** The protocol version the capture spoke: negotiated in initialize (legacy), or chosen from server/discover's supportedVersions (modern). */
  protocolVersion: string;
  capabilities: JsonObject;
  instructions?: string;
  /** How the surface was captured, so that `check` later captures the same way. */
  capture: CaptureFacts;
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
  /** Only when the server offers the Skills extension, so lockfiles of other servers read as before. */
  skills?: Skill[];
  /** Content hashes of the items by list and identity (hashes.ts); absent in lockfiles written before them. */
  hashes?: Record<string, Record<string, string | string[]>>;
}

/**
 * Facts of the capture rather than of the surface: `diff` compares none of them but
 * supportedVersions (a version dropped there breaks the clients that speak only it).
 * Optional fields are written only when they hold something, so a legacy capture made with
 * the defaults reads byte for byte as lockfiles did before eras were recorded.
 */
/** What a capture learned about the server's legacy era: written only when the answer was clear. */
export const LEGACY_SUPPORT = ["accepted", "refused"] as const;
export type LegacySupport = (typeof LEGACY_SUPPORT)[number];

export interface CaptureFacts {
  /** The client capabilities declared (--client-capabilities). */
  clientCapabilities: ClientCapability[];
  /** The era the capture was told to speak (--era modern|legacy); absent: auto, modern first. */
  era?: Era;
  /** server/discover's supportedVersions, as the server listed them (modern captures only). */
  supportedVersions?: string[];
  /**
   * How the server answered a legacy initialize (a modern capture over HTTP in --era auto asks):
   * "accepted" (it serves both eras) or "refused" (as a modern-only server does; the mock then
   * serves the modern era only). Absent: unknown, because nobody asked (stdio, --era modern, a
   * legacy capture, an older lockfile) or the answer was neither; diff never compares it.
   */
  legacy?: LegacySupport;
  /**
   * The names, never the values, of the environment variables given to a stdio server (--env,
   * a client config's env and envFile) and of the headers sent to an HTTP one (--header, a
   * config's headers, Authorization for --bearer): a surface can depend on them. Sorted.
   */
  env?: string[];
  headers?: string[];
  /** The OAuth scopes of the stored sign-in a capture used (`mcp-contract auth`), never the token. Sorted; absent without OAuth. */
  scopes?: string[];
  /** Converted from another tool's file (src/contract/peers/): what its format could not hold. */
  importedFrom?: ImportedFrom;
}

/**
 * What a surface converted from a peer tool's file does not know. Such a field is unknown,
 * not absent: compared with a full surface, it is taken from the other side, so it shows no change.
 */
export interface ImportedFrom {
  /** The peer format: "mcp-covenant" or "mcp-query". */
  format: string;
  /** The format version the file declared (covenant_version, or mcp-query's version). */
  version: string;
  /** Top-level fields the format cannot hold at all: capabilities, instructions, protocolVersion, resourceTemplates. */
  unknown: string[];
  /** Per part (server, tools, resources, resourceTemplates, prompts, prompts.arguments): the only fields it holds. */
  holds: Record<string, string[]>;
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

/** The Skills extension's key in `capabilities.extensions`, and its list (outside SURFACE_LISTS: optional in a lockfile). */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";
export const SKILLS_LIST = { key: "skills", id: "uri", method: "skills/list", capability: "extensions" } as const;

/** Whether the server advertises the Skills extension. */
export function offersSkills(capabilities: JsonObject): boolean {
  const extensions = capabilities.extensions;
  return isJsonObject(extensions) && extensions[SKILLS_EXTENSION] !== undefined;
}
export type SurfaceKey = SurfaceList["key"];

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A surface with nothing on it: what `check --update` compares with before a lockfile exists, and a base to build on. */
export function emptyContract(): Contract {
  return {
    lockfileVersion: LOCKFILE_VERSION,
    server: {},
    protocolVersion: "",
    capabilities: {},
    capture: { clientCapabilities: [] },
    tools: [],
    resources: [],
    resourceTemplates: [],
    prompts: [],
  };
}
