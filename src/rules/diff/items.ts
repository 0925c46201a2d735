/**
 * The diff rules of group "item": what any item of the surface (tool, resource, resource
 * template, prompt; skills for the content hash) can show beyond its own kind's rules. A field the engine does not model
 * changed, or the item's content hash changed while nothing in the item did. src/rules/diff/index.ts
 * puts them after the skill rules in the catalog. Pure data.
 */
import type { DiffRuleRow } from "../model.ts";

export const ITEM_RULE_ROWS = [
  {
    id: "unmodelled-field-changed",
    group: "item",
    input: "minor",
    output: "minor",
    summary: "a field the MCP schema does not define for the item changed, was added or was removed",
    rationale:
      "The engine judges the fields the MCP schema defines (revisions 2025-11-25 and 2026-07-28): a tool's name, title, description, icons, inputSchema, outputSchema, annotations (its title and four hints), execution.taskSupport and _meta; a resource's or template's identity, name, title, description, mimeType, size, annotations (audience, priority, lastModified), icons and _meta; a prompt's and its arguments' fields. Anything else a server sends (a draft's `outputVariants` or `secureInputSchema`, a vendor field outside `_meta`, an annotation no revision defines) is kept in the lockfile verbatim, and a change to it cannot be judged: clients that read it may break, or nothing may. So it is never patch: minor, with the note \"not modelled: review\", listed under its own heading in text and Markdown reports. An unknown field that does not change says nothing. Vendor data belongs in `_meta`, which is metadata.",
    example: '"outputVariants": [{"mimeType": "text/csv"}] → [{"mimeType": "application/json"}]',
  },
  {
    id: "content-hash-changed",
    group: "item",
    input: "patch",
    output: "patch",
    summary: "an item's content hash changed while the item as stored did not",
    rationale:
      "Each item's content hash is SHA-256 over its RFC 8785 canonical JSON as the server sent it, with the arrays the lockfile stores as sets (each schema's `required`, a skill's files) in its order, so the hash covers exactly what the comparison reads. When both lockfiles record hashes and only the hash differs, a lockfile's items or hashes were edited by hand, or the item changed in a way the comparison does not see: it should never happen. It breaks no client, but pinning tools that hash what the server sends (tool pinning, signed declarations) see a changed item and may ask users to approve it again. Lockfiles written before hashes have none, and nothing is compared then.",
    example: '"hashes": {"tools": {"search": "sha256:5d1c…"}} → {"tools": {"search": "sha256:a3e0…"}}',
  },
] as const satisfies readonly DiffRuleRow[];
