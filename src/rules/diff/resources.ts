/** The diff rules of resources: a resource removed or added, and its fields. Pure data; src/rules/diff/index.ts puts the families in catalog order. */
import type { DiffRuleRow } from "../model.ts";

export const RESOURCE_RULE_ROWS = [
  {
    id: "resource-removed",
    group: "resource",
    input: "breaking",
    output: "breaking",
    summary: "a resource was removed",
    rationale: "Clients reading the URI get an error.",
    example: "resources: [weather://stations] → []",
  },
  {
    id: "resource-added",
    group: "resource",
    input: "minor",
    output: "minor",
    summary: "a resource was added",
    rationale: "Nothing that worked before stops working.",
    example: "resources: [] → [weather://stations]",
  },
  {
    id: "resource-duplicate-added",
    traits: ["duplicate"],
    group: "resource",
    input: "breaking",
    output: "breaking",
    summary: "a second resource with the URI of an existing one was added",
    rationale:
      "resources/read addresses a resource by URI: with two entries for one URI a client cannot tell which name, type and description belong to what it reads, and a new copy can carry texts nobody reviewed. Reported once per new copy; a duplicate the baseline already had, or one that goes away, is not (as with tool-duplicate-added).",
    example: "resources: [weather://stations] → [weather://stations, weather://stations]",
  },
  {
    id: "resource-mime-type-changed",
    group: "resource",
    input: "breaking",
    output: "breaking",
    summary: "a resource's declared mimeType changed or was removed",
    rationale: "Clients parse the contents by their declared type.",
    example: '"mimeType": "application/json" → "text/csv"',
  },
  {
    id: "resource-metadata-changed",
    group: "resource",
    input: "patch",
    output: "patch",
    summary:
      "a resource's name, size, annotations, icons or _meta changed, or a mimeType was declared where there was none",
    rationale: "Display and metadata only.",
    example: '"size": 1024 → 2048',
  },
] as const satisfies readonly DiffRuleRow[];
