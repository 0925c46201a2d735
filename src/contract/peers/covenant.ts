/**
 * mcp-covenant's lockfile (mcp-covenant.lock), read as a surface:
 *
 *   {covenant_version, captured_at_unix, server: {name, version, protocolVersion},
 *    surface: {tools, resources, prompts}}
 *
 * Its items are typed structs, so it keeps only these fields: tools name, title, description,
 * inputSchema, outputSchema; resources uri, name, description, mimeType; prompts name,
 * description, arguments (name, description, required, always written). No capabilities,
 * instructions or resource templates. It speaks only the legacy era (initialize), but the era
 * is left to `auto`: a dual-era server has one surface, and a protocol version of the other era
 * is no change (src/diff/server.ts). The capture time is not surface and is dropped. Pure.
 */
import { type Contract, isJsonObject, type JsonObject, LOCKFILE_VERSION } from "../model.ts";
import { describeFound } from "../validate.ts";
import { caveat, type Fail, impliedCapabilities, itemsAt, stringFields } from "./shape.ts";

export const COVENANT = "mcp-covenant";

export const COVENANT_HOLDS = {
  server: ["name", "version"],
  tools: ["name", "title", "description", "inputSchema", "outputSchema"],
  resources: ["uri", "name", "description", "mimeType"],
  prompts: ["name", "description", "arguments"],
  "prompts.arguments": ["name", "description", "required"],
};

export function isCovenantLockfile(data: JsonObject): boolean {
  return data.covenant_version !== undefined && data.lockfileVersion === undefined;
}

export function fromCovenant(data: JsonObject, fail: Fail): Contract {
  if (typeof data.covenant_version !== "string") {
    throw fail("$.covenant_version", `expected a string, found ${describeFound(data.covenant_version)}`);
  }
  const surface = data.surface;
  if (!isJsonObject(surface)) {
    throw fail("$.surface", `expected an object, found ${surface === undefined ? "nothing" : describeFound(surface)}`);
  }
  const server = stringFields(data.server, ["name", "version", "protocolVersion"], "$.server", fail);
  const tools = itemsAt(surface, "tools", "$.surface.tools", "name", fail);
  const resources = itemsAt(surface, "resources", "$.surface.resources", "uri", fail);
  const prompts = itemsAt(surface, "prompts", "$.surface.prompts", "name", fail);
  const protocolVersion = typeof server.protocolVersion === "string" ? server.protocolVersion : undefined;
  const unknown = ["capabilities", "instructions", "resourceTemplates"];
  if (protocolVersion === undefined) unknown.push("protocolVersion");
  const serverInfo: JsonObject = {};
  if (server.name !== undefined) serverInfo.name = server.name;
  if (server.version !== undefined) serverInfo.version = server.version;
  return {
    lockfileVersion: LOCKFILE_VERSION,
    server: serverInfo,
    protocolVersion: protocolVersion ?? "",
    capabilities: impliedCapabilities({ tools, resources, prompts }),
    capture: {
      clientCapabilities: [],
      importedFrom: caveat(COVENANT, data.covenant_version, unknown, COVENANT_HOLDS),
    },
    tools: tools as Contract["tools"],
    resources: resources as Contract["resources"],
    resourceTemplates: [],
    prompts: prompts as Contract["prompts"],
  };
}

/** A path in the converted surface ($.tools[3]…) as the path in the covenant file. */
export function covenantPath(path: string): string {
  return path.replace(/^\$\.(tools|resources|prompts)\b/, "$.surface.$1");
}
