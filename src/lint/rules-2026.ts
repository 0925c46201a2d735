/**
 * Protocol checks for what MCP 2026-07-28 changed in tools: `x-mcp-header` declarations
 * (mcp-header-invalid), and outputSchema roots, which may be any schema object from that
 * revision on (output-schema-not-object keeps its 2025 reading for surfaces captured in a
 * legacy revision). Wired into PROTOCOL_CHECKS (rules-protocol.ts). Pure.
 */
import { type Contract, eraOf, isJsonObject } from "../contract/model.ts";
import { mcpHeaderDeclarations } from "../schema/mcp-header.ts";
import { type Found, perToolSchema, type SchemaFound, show } from "./found.ts";

/** One finding per invalid `x-mcp-header` in a tool's inputSchema. */
export function checkMcpHeaders(contract: Contract): Found[] {
  return perToolSchema(contract, ["inputSchema"], (schema) => {
    const out: SchemaFound[] = [];
    for (const declaration of mcpHeaderDeclarations(schema)) {
      if (declaration.problem === undefined) continue;
      const where = declaration.property ? ` on property ${show(declaration.property.join("."))}` : "";
      out.push({
        path: `/inputSchema${declaration.path}`,
        message: `x-mcp-header ${typeof declaration.value === "string" ? show(declaration.value) : JSON.stringify(declaration.value)}${where} is invalid: ${declaration.problem}; clients on Streamable HTTP drop the tool`,
        evidence: declaration.value,
      });
    }
    return out;
  });
}

/**
 * The contract whose outputSchemas output-schema-not-object judges: all of them for a surface
 * captured in a legacy revision (structuredContent is an object there); from 2026-07-28 on,
 * where structuredContent may be any JSON value, only the tools whose outputSchema is not a
 * schema object at all (a boolean schema, a string).
 */
export function outputSchemaTools(contract: Contract): Contract {
  if (eraOf(contract.protocolVersion) === "legacy") return contract;
  return {
    ...contract,
    tools: contract.tools.filter((tool) => tool.outputSchema !== undefined && !isJsonObject(tool.outputSchema)),
  };
}
