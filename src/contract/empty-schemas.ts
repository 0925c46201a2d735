/**
 * Tools whose inputSchema says nothing at all: `{}` or only `$schema`. MCP requires an object
 * schema, and the SDKs write `{"type": "object"}` even for a tool without arguments, so an empty
 * one is almost always a broken conversion: a server built against zod 3 that resolves zod 4 at
 * run time (npm installs today's zod beside it) turns every schema into nothing. A lockfile that
 * pins such schemas makes every later check compare nothing. Pure.
 */

import type { Contract } from "./model.ts";
import { isJsonObject } from "./model.ts";

export function emptySchemaTools(contract: Contract): string[] {
  return contract.tools
    .filter((tool) => {
      const schema = tool.inputSchema;
      return isJsonObject(schema) && Object.keys(schema).every((key) => key === "$schema");
    })
    .map((tool) => tool.name)
    .sort();
}

/** The one paragraph `snapshot` and `check` print when a capture has such tools. */
export function emptySchemaWarning(names: readonly string[], total: number): string {
  const shown = names
    .slice(0, 5)
    .map((n) => JSON.stringify(n))
    .join(", ");
  const more = names.length > 5 ? ` and ${names.length - 5} more` : "";
  const which = names.length === total ? `all ${total} tools` : `${names.length} of ${total} tools`;
  return `${which} came out with an empty inputSchema ({} or only $schema): ${shown}${more}. The likely cause is a server written for zod 3 running with zod 4 (npm installed today's zod beside it), whose schema conversion writes nothing; a lockfile pinning these schemas makes every later check meaningless. Install zod@^3.25 beside the server (npm install zod@^3.25), or use a release built for zod 4, and capture again.`;
}
