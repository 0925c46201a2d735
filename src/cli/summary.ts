import type { Contract } from "../contract/model.ts";
import { plural } from "../util/text.ts";

/** "13 tools, 7 resources, 2 templates, 4 prompts" */
export function surfaceCounts(contract: Contract): string {
  return [
    plural(contract.tools.length, "tool"),
    plural(contract.resources.length, "resource"),
    plural(contract.resourceTemplates.length, "template"),
    plural(contract.prompts.length, "prompt"),
    // Only for servers with the Skills extension: other summaries read as before.
    ...(contract.skills === undefined ? [] : [plural(contract.skills.length, "skill")]),
  ].join(", ");
}

/** "mcp-servers/everything 2.0.0 (protocol 2025-11-25)" */
export function serverLabel(contract: Contract): string {
  const name =
    typeof contract.server.name === "string" && contract.server.name.trim() !== ""
      ? contract.server.name
      : "unnamed server";
  // An empty version (some servers send "") adds nothing, not a double space.
  const version =
    typeof contract.server.version === "string" && contract.server.version.trim() !== ""
      ? ` ${contract.server.version}`
      : "";
  return `${name}${version} (protocol ${contract.protocolVersion})`;
}
