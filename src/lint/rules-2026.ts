/**
 * Protocol checks for what MCP 2026-07-28 changed in tools: `x-mcp-header` declarations
 * (mcp-header-invalid, a visitor of the shared schema walk), and outputSchema roots, which may be any schema object from that
 * revision on (output-schema-not-object keeps its 2025 reading for surfaces captured in a
 * legacy revision). Wired into rules-protocol.ts. Pure.
 */
import { type Contract, eraOf, isJsonObject } from "../contract/model.ts";
import { MCP_HEADER_KEYWORD, mcpHeaderDeclarations } from "../schema/mcp-header.ts";
import { type SchemaFound, show } from "./found.ts";
import type { SchemaVisitor } from "./schema-pass.ts";

/**
 * One finding per invalid `x-mcp-header` in a tool's inputSchema. A visitor of the shared schema
 * walk (schema-pass.ts) that only notes whether a node declares one: almost no schema does, and
 * only those are read again by mcpHeaderDeclarations, which needs the whole schema at once
 * (duplicates across it, and whether a property is reached through `properties` alone).
 */
export const mcpHeaders: SchemaVisitor = {
  keys: ["inputSchema"],
  on: [MCP_HEADER_KEYWORD],
  visit(node, _root, _key, out) {
    if (out.length === 0 && Object.hasOwn(node.schema, MCP_HEADER_KEYWORD)) out.push(DECLARES);
  },
  finish(root, _key, seen) {
    const out: SchemaFound[] = [];
    if (seen.length === 0) return out;
    for (const declaration of mcpHeaderDeclarations(root)) {
      if (declaration.problem === undefined) continue;
      const where = declaration.property ? ` on property ${show(declaration.property.join("."))}` : "";
      out.push({
        path: `/inputSchema${declaration.path}`,
        message: `x-mcp-header ${typeof declaration.value === "string" ? show(declaration.value) : JSON.stringify(declaration.value)}${where} is invalid: ${declaration.problem}; clients on Streamable HTTP drop the tool`,
        evidence: declaration.value,
      });
    }
    return out;
  },
};

/** What mcpHeaders' visit notes: the schema declares a header somewhere (never a finding itself). */
const DECLARES: SchemaFound = { path: "", message: "" };

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
