/**
 * Where our lockfile's paths are in a peer tool's file, so that reports (SARIF, GitHub
 * annotations) point at the right line of an mcp-covenant.lock or an mcp-query contract: the
 * file's document seen in our layout, and our path segments as the file's. Items keep the
 * file's order when converted (detect.ts), so indexes carry over unchanged. Pure.
 */
import { isJsonObject, type Json } from "../model.ts";
import { isCovenantLockfile } from "./covenant.ts";
import { isMcpQueryContract } from "./mcp-query.ts";

export interface PeerLayout {
  /** The file's document with our list keys (tools, resources, resourceTemplates, prompts) at the top. */
  document: Json;
  /** Our path segments (["tools", "3", "inputSchema"]) as the segments in the file. */
  fileSegments: (segments: readonly string[]) => string[];
}

/** The layout of a parsed file when it is a peer format's; undefined for our own lockfiles. */
export function peerLayout(document: Json | undefined): PeerLayout | undefined {
  if (!isJsonObject(document)) return undefined;
  if (isCovenantLockfile(document)) {
    const surface = isJsonObject(document.surface) ? document.surface : {};
    return {
      document: { ...surface, server: document.server ?? null },
      fileSegments: ([first, ...rest]) => {
        if (first === "tools" || first === "resources" || first === "prompts") return ["surface", first, ...rest];
        if (first === "protocolVersion") return ["server", "protocolVersion"];
        return first === undefined ? [] : [first, ...rest];
      },
    };
  }
  if (isMcpQueryContract(document)) {
    return {
      document: { ...document, resourceTemplates: document.templates ?? null },
      fileSegments: ([first, ...rest]) =>
        first === undefined ? [] : [first === "resourceTemplates" ? "templates" : first, ...rest],
    };
  }
  return undefined;
}
