/**
 * The mcp-query family's contract file (mcp-contract of mcp-query, mcp.contract.json), read as
 * a surface:
 *
 *   {version: 1, server: {name, version}, tools: [{name, description, inputSchema, outputSchema,
 *    annotations}], resources: [{uri, name, mimeType}], templates: [{uriTemplate, name}],
 *    prompts: [{name, description, arguments: [{name, required}]}]}
 *
 * It records no protocol version, capabilities, instructions, titles, icons or _meta, and of
 * resources and templates no description. Pure.
 */
import { type Contract, isJsonObject, type JsonObject, LOCKFILE_VERSION } from "../model.ts";
import { describeFound } from "../validate.ts";
import { caveat, type Fail, impliedCapabilities, itemsAt, stringFields } from "./shape.ts";

export const MCP_QUERY = "mcp-query";
/** The newest contract format version this reader knows. */
export const MCP_QUERY_VERSION = 1;

export const MCP_QUERY_HOLDS = {
  server: ["name", "version"],
  tools: ["name", "description", "inputSchema", "outputSchema", "annotations"],
  resources: ["uri", "name", "mimeType"],
  resourceTemplates: ["uriTemplate", "name"],
  prompts: ["name", "description", "arguments"],
  "prompts.arguments": ["name", "required"],
};

/** `version` and a `tools` list, and none of our own or covenant's fields. */
export function isMcpQueryContract(data: JsonObject): boolean {
  return (
    data.lockfileVersion === undefined &&
    data.covenant_version === undefined &&
    data.version !== undefined &&
    Array.isArray(data.tools)
  );
}

export function fromMcpQuery(data: JsonObject, fail: Fail): Contract {
  const version = data.version;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
    throw fail("$.version", `expected a positive integer, found ${describeFound(version)}`);
  }
  if (data.server !== undefined && data.server !== null && !isJsonObject(data.server)) {
    throw fail("$.server", `expected an object, found ${describeFound(data.server)}`);
  }
  const server = stringFields(data.server, ["name", "version"], "$.server", fail);
  const tools = itemsAt(data, "tools", "$.tools", "name", fail);
  const resources = itemsAt(data, "resources", "$.resources", "uri", fail);
  const templates = itemsAt(data, "templates", "$.templates", "uriTemplate", fail);
  const prompts = itemsAt(data, "prompts", "$.prompts", "name", fail);
  return {
    lockfileVersion: LOCKFILE_VERSION,
    server,
    protocolVersion: "",
    capabilities: impliedCapabilities({ tools, resources: [...resources, ...templates], prompts }),
    capture: {
      clientCapabilities: [],
      importedFrom: caveat(
        MCP_QUERY,
        String(version),
        ["capabilities", "instructions", "protocolVersion"],
        MCP_QUERY_HOLDS,
      ),
    },
    tools: tools as Contract["tools"],
    resources: resources as Contract["resources"],
    resourceTemplates: templates as Contract["resourceTemplates"],
    prompts: prompts as Contract["prompts"],
  };
}

/** A path in the converted surface as the path in the mcp-query file. */
export function mcpQueryPath(path: string): string {
  return path.replace(/^\$\.resourceTemplates\b/, "$.templates");
}
