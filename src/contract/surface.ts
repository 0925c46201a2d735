/**
 * The kinds of surface item and where each lives in a Contract, once: a tool is in `tools`
 * and identified by `name`, a resource template in `resourceTemplates` by `uriTemplate`, …
 * Changes, findings and report locations all name their target by these kinds. Pure.
 */
import { SURFACE_LISTS, type SurfaceKey, type SurfaceList } from "./model.ts";

/**
 * What a change or finding is about; "server" is the surface as a whole (capabilities, instructions, …);
 * "skill" a skill of the Skills extension, by the URI of its SKILL.md.
 */
export type TargetKind = "tool" | "resource" | "resourceTemplate" | "prompt" | "skill" | "server";
/** The kinds of the four lists every lockfile has (skills are optional, outside them). */
export type ItemKind = Exclude<TargetKind, "server" | "skill">;

const KIND_OF_LIST = {
  tools: "tool",
  resources: "resource",
  resourceTemplates: "resourceTemplate",
  prompts: "prompt",
} as const satisfies Record<SurfaceKey, ItemKind>;

export type ItemList = SurfaceList & { kind: ItemKind };

/** The four lists in lockfile order, each with its item kind. */
export const ITEM_LISTS: readonly ItemList[] = SURFACE_LISTS.map((list) => ({ ...list, kind: KIND_OF_LIST[list.key] }));

/** The list an item kind lives in. */
export const LIST_OF: Readonly<Record<ItemKind, ItemList>> = Object.fromEntries(
  ITEM_LISTS.map((list) => [list.kind, list]),
) as Record<ItemKind, ItemList>;
