/** Host drift (check/diff --hosts; src/lint/hosts/drift.ts): a change that makes a listed host reject the surface, or accept it again. Pure data; src/rules/diff/index.ts puts the families in catalog order. */
import type { DiffRuleRow } from "../model.ts";

export const HOST_DRIFT_RULE_ROWS = [
  {
    id: "host-incompatibility-added",
    group: "tool",
    summary: "a host named by --hosts now rejects the tool or the whole tool list",
    input: "breaking",
    output: "breaking",
    rationale:
      "Only with `--hosts` (or the policy file's `hosts`): the new surface brings in a construct a listed host rejects (a `$ref` for Gemini's `parameters`, a dotted name for OpenAI, a 129th tool for Copilot Chat…), so that host's users lose the tool, or every tool of the server, although nothing changed for MCP. The change names the host, the host rule that rejects it (its sources are in `mcp-contract rules ID`) and the smallest fix. A new tool that a host drops is not reported: no one had it. Cut texts and rewritten names are lint warnings, not drift.",
    example: '--hosts openai: "name": "read_file" → "name": "files.read"',
  },
  {
    id: "host-incompatibility-removed",
    group: "tool",
    summary: "a host named by --hosts no longer rejects the tool or the whole tool list",
    input: "minor",
    output: "minor",
    rationale:
      "Only with `--hosts`: a construct a listed host rejected is gone, so the tool (or the whole list) works there again. A compatible improvement for that host's users.",
    example: '--hosts gemini-parameters: "additionalProperties": false dropped from every inputSchema',
  },
] as const satisfies readonly DiffRuleRow[];
