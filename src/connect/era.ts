/**
 * Protocol eras, as the MCP 2026-07-28 specification defines them (basic/versioning:
 * "Backward Compatibility with Initialization-Based Versions"; transports/stdio and
 * streamable-http: "Backward Compatibility"): the versions each era has, the reserved `_meta`
 * keys of the per-request envelope, and how the answer to a `server/discover` probe tells
 * a modern server from a legacy one. Pure: no I/O, no SDK.
 */
import { FIRST_MODERN_PROTOCOL_VERSION, isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import { ServerError } from "../errors.ts";

/** `--era`: a forced era, or `auto` (modern first, legacy when the server shows it is legacy). */
export const ERA_SETTINGS = ["auto", "modern", "legacy"] as const;
export type EraSetting = (typeof ERA_SETTINGS)[number];

/** Modern revisions mcp-contract speaks, preferred first. */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = [FIRST_MODERN_PROTOCOL_VERSION];
/** Legacy revisions mcp-contract accepts from initialize, newest first; it offers the first. */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07",
];

/** The reserved `_meta` keys of the modern per-request envelope and of results. */
export const META_KEYS = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

export const METHOD_NOT_FOUND = -32601;
/** UnsupportedProtocolVersionError: `data.supported` lists the versions the server speaks. */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** How the versions mcp-contract speaks are named in messages. */
export const SPOKEN_VERSIONS = `${MODERN_PROTOCOL_VERSIONS.join(", ")} (modern) and ${LEGACY_PROTOCOL_VERSIONS.at(-1)} through ${LEGACY_PROTOCOL_VERSIONS[0]} (legacy)`;

export function isModernVersion(version: string): boolean {
  return version >= FIRST_MODERN_PROTOCOL_VERSION;
}

/** A JSON-RPC answer as the session received it. */
export type RpcAnswer = { result: JsonObject } | { error: { code: number; message: string; data?: Json } };

/** What a `server/discover` probe says about the server. */
export type ProbeVerdict =
  /** A DiscoverResult naming a version we speak. */
  | { kind: "modern"; version: string; result: JsonObject }
  /** Anything else that is not a recognized modern error: a legacy server. */
  | { kind: "legacy"; evidence: string }
  /** A modern server with no version in common with us. */
  | { kind: "unsupported"; supported: string[]; evidence: string };

/**
 * The stdio rule, which the HTTP rule matches once a status has been read: a DiscoverResult
 * is modern; UnsupportedProtocolVersionError naming modern versions is modern (the versions
 * may still have nothing in common with ours); any other answer, whatever its code, is legacy:
 * the fallback must not hinge on one error code, since legacy servers answer an unknown
 * request before initialize as they please (-32601 from the TypeScript SDK, -32602 from the
 * Python one).
 */
export function classifyProbe(answer: RpcAnswer): ProbeVerdict {
  if ("result" in answer) {
    const { result } = answer;
    const supported = result.supportedVersions;
    if (
      !Array.isArray(supported) ||
      !supported.every((v) => typeof v === "string") ||
      !isJsonObject(result.capabilities)
    ) {
      return {
        kind: "legacy",
        evidence: "a result that is not a DiscoverResult (no supportedVersions and capabilities)",
      };
    }
    const version = MODERN_PROTOCOL_VERSIONS.find((v) => supported.includes(v));
    if (version !== undefined) return { kind: "modern", version, result };
    if (!supported.some(isModernVersion)) {
      return { kind: "legacy", evidence: `a DiscoverResult listing legacy versions only (${supported.join(", ")})` };
    }
    return { kind: "unsupported", supported, evidence: `supportedVersions ${supported.join(", ")}` };
  }
  const { code } = answer.error;
  const said = describeRpcError(answer.error);
  const supported = supportedVersionsOf(answer.error);
  if (code === UNSUPPORTED_PROTOCOL_VERSION && supported) {
    if (!supported.some(isModernVersion)) return { kind: "legacy", evidence: said };
    return { kind: "unsupported", supported, evidence: said };
  }
  return { kind: "legacy", evidence: said };
}

/** The `data.supported` list of an UnsupportedProtocolVersionError, when it has one. */
export function supportedVersionsOf(error: { code: number; data?: Json }): string[] | undefined {
  if (error.code !== UNSUPPORTED_PROTOCOL_VERSION || !isJsonObject(error.data)) return undefined;
  const supported = error.data.supported;
  if (!Array.isArray(supported) || supported.length === 0 || !supported.every((v) => typeof v === "string")) {
    return undefined;
  }
  return supported as string[];
}

/** `"Method not found" (-32601)` */
export function describeRpcError(error: { code: number; message: string }): string {
  const text = error.message.length > 160 ? `${error.message.slice(0, 160)}…` : error.message;
  return `${JSON.stringify(text)} (${error.code})`;
}

const LEGACY_ERA = `legacy MCP (the initialize handshake, protocol ${LEGACY_PROTOCOL_VERSIONS[0]} and earlier)`;
const MODERN_ERA = `modern MCP (protocol ${MODERN_PROTOCOL_VERSIONS.join(", ")}: server/discover and a _meta envelope on every request, no initialize)`;

/** --era modern, and the server answered the probe as a legacy server does. */
export function legacyOnlyError(evidence: string): ServerError {
  return new ServerError(
    `the server speaks ${LEGACY_ERA} only: it answered the modern server/discover request with ${evidence}. With --era modern, mcp-contract speaks ${MODERN_ERA} only; capture this server with --era legacy, or with --era auto (the default), which detects the era.`,
  );
}

/** --era legacy (or a legacy fallback), and the server refused initialize as a modern-only server does. */
export function modernOnlyError(supported: string[], evidence: string, setting: EraSetting): ServerError {
  const told =
    setting === "legacy"
      ? `With --era legacy, mcp-contract speaks ${LEGACY_ERA} only; capture this server with --era modern, or with --era auto (the default), which detects the era.`
      : "Capture it with --era modern.";
  return new ServerError(
    `the server speaks modern MCP only (protocol ${supported.join(", ")}: server/discover and a _meta envelope on every request, no initialize handshake): it refused initialize with ${evidence}. ${told}`,
  );
}

/** A modern server whose versions are all unknown to us. */
export function noCommonVersionError(supported: string[]): ServerError {
  return new ServerError(
    `the server speaks protocol ${supported.join(", ")} only, and mcp-contract speaks ${SPOKEN_VERSIONS}: no version in common. A newer mcp-contract may speak the server's; check for an update.`,
  );
}

/**
 * The JSON-RPC error in the body of a refused HTTP request, when it is an
 * UnsupportedProtocolVersionError: a modern-only endpoint answers initialize that way, with 400.
 */
export function refusalInBody(text: string): { code: number; message: string; data?: Json } | undefined {
  const start = text.indexOf("{");
  if (start === -1) return undefined;
  try {
    const body = JSON.parse(text.slice(start)) as { error?: unknown };
    const error = body?.error as { code?: unknown; message?: unknown; data?: Json } | undefined;
    if (typeof error?.code !== "number" || typeof error.message !== "string") return undefined;
    const found = { code: error.code, message: error.message, data: error.data };
    return supportedVersionsOf(found) ? found : undefined;
  } catch {
    return undefined;
  }
}
