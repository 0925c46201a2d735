/**
 * No silent pass: a change to a field the engine does not model is `unmodelled-field-changed`
 * (minor, "not modelled: review"), never the patch-level metadata rule that reported it. The
 * modelled fields are those the MCP schema defines for each item, in revisions 2025-11-25 and
 * 2026-07-28 (schema/<revision>/schema.ts of the specification repository: Tool, ToolAnnotations,
 * ToolExecution, Resource, ResourceTemplate, Annotations, Prompt, PromptArgument, and the
 * BaseMetadata and Icons they extend). Skills (SEP-2640) carry their own frontmatter, which is
 * free-form by design, and are left to their rules. Pure.
 */
import { pointerSegments } from "../contract/pointer.ts";
import type { TargetKind } from "../contract/surface.ts";
import type { DiffRuleId } from "../rules/registry.ts";
import type { ChangeSpec } from "./change.ts";

/** Fields of the item itself that every kind has: BaseMetadata's title, Icons, `_meta`. */
const COMMON = ["title", "description", "icons", "_meta"];
/** The Annotations of resources and templates (2025-11-25 and 2026-07-28 alike). */
const ANNOTATIONS = new Set(["audience", "priority", "lastModified"]);

/**
 * Per item kind, per object inside the item (a JSON Pointer; "*" for any array index), the
 * fields the schema defines there. Objects not listed (`_meta`, `icons`, the schemas) are
 * judged as a whole by their own rules.
 */
const MODELLED: Partial<Record<TargetKind, Record<string, ReadonlySet<string>>>> = {
  tool: {
    // execution (task support) is 2025-11-25's; 2026-07-28 moved tasks to an extension.
    "": new Set(["name", ...COMMON, "inputSchema", "outputSchema", "annotations", "execution"]),
    "/annotations": new Set(["title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]),
    "/execution": new Set(["taskSupport"]),
  },
  resource: {
    "": new Set(["uri", "name", ...COMMON, "mimeType", "size", "annotations"]),
    "/annotations": ANNOTATIONS,
  },
  resourceTemplate: {
    "": new Set(["uriTemplate", "name", ...COMMON, "mimeType", "annotations"]),
    "/annotations": ANNOTATIONS,
  },
  prompt: {
    "": new Set(["name", ...COMMON, "arguments"]),
    // `_meta` is MCP's place for extensions everywhere: metadata, not an unknown field.
    "/arguments/*": new Set(["name", "title", "description", "required", "_meta"]),
  },
};

/** The rules that report a field change as display or metadata: where an unknown field's change lands. */
const METADATA_RULES: ReadonlySet<DiffRuleId> = new Set([
  "tool-metadata-changed",
  "resource-metadata-changed",
  "template-metadata-changed",
  "prompt-metadata-changed",
]);

/** The field a change's path names when the schema does not define it there, else undefined. */
export function unmodelledField(kind: TargetKind, path: string): string | undefined {
  const segments = pointerSegments(path);
  const field = segments.pop();
  if (field === undefined) return undefined;
  const parent = segments.map((s) => (/^\d+$/.test(s) ? "/*" : `/${s}`)).join("");
  const known = MODELLED[kind]?.[parent];
  return known === undefined || known.has(field) ? undefined : field;
}

/** The spec as an unmodelled-field change when its metadata rule reported a field the schema does not define. */
export function markUnmodelled(spec: ChangeSpec): ChangeSpec {
  if (!METADATA_RULES.has(spec.rule)) return spec;
  const field = unmodelledField(spec.kind, spec.path);
  if (field === undefined) return spec;
  return {
    ...spec,
    rule: "unmodelled-field-changed",
    note: `not modelled: review. ${JSON.stringify(field)} is not a field the MCP schema (2025-11-25, 2026-07-28) defines here, so mcp-contract cannot judge whether clients that read it break.`,
  };
}
