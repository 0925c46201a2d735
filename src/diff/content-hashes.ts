/**
 * content-hash-changed: both lockfiles record content hashes (src/contract/hashes.ts), an
 * item is on both sides, the diff found nothing in it, and yet its hash differs: it never should
 * (the hash is over what the comparison reads), so a lockfile was edited by hand, or the item
 * differs where the engine sees no change. Lockfiles without recorded hashes (written before
 * them) are not compared. Pure.
 */
import type { Contract } from "../contract/model.ts";
import type { TargetKind } from "../contract/surface.ts";
import type { ChangeSpec } from "./change.ts";

/** The lists of items, skills last (they are optional). */
const LISTS: readonly {
  key: "tools" | "resources" | "resourceTemplates" | "prompts" | "skills";
  kind: TargetKind;
  id: string;
}[] = [
  { key: "tools", kind: "tool", id: "name" },
  { key: "resources", kind: "resource", id: "uri" },
  { key: "resourceTemplates", kind: "resourceTemplate", id: "uriTemplate" },
  { key: "prompts", kind: "prompt", id: "name" },
  { key: "skills", kind: "skill", id: "uri" },
];

/** Identities listed exactly once: a duplicate's hashes are a set, and the duplicate rules speak for it. */
function once(items: readonly Record<string, unknown>[], id: string): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const item of items) {
    const identity = item[id];
    if (typeof identity !== "string") continue;
    if (seen.has(identity)) twice.add(identity);
    seen.add(identity);
  }
  for (const identity of twice) seen.delete(identity);
  return seen;
}

/** One change per item whose recorded hash changed while no other change was found in it (`specs`). */
export function diffContentHashes(oldC: Contract, newC: Contract, specs: readonly ChangeSpec[]): ChangeSpec[] {
  if (oldC.hashes === undefined || newC.hashes === undefined) return [];
  const touched = new Set(specs.map((spec) => `${spec.kind}\u0000${spec.name}`));
  const out: ChangeSpec[] = [];
  for (const list of LISTS) {
    const before = oldC.hashes[list.key] ?? {};
    const after = newC.hashes[list.key] ?? {};
    const oldOnce = once(oldC[list.key] ?? [], list.id);
    const newOnce = once(newC[list.key] ?? [], list.id);
    for (const [name, hash] of Object.entries(before)) {
      const other = after[name];
      if (typeof hash !== "string" || typeof other !== "string" || hash === other) continue;
      if (!oldOnce.has(name) || !newOnce.has(name) || touched.has(`${list.kind}\u0000${name}`)) continue;
      out.push({
        rule: "content-hash-changed",
        kind: list.kind,
        name,
        path: "",
        before: hash,
        after: other,
        message: "content hash changed, but nothing in the item did",
        note: "The hash is over the whole item, so this should not happen: a lockfile's items or hashes were edited by hand, or the item changed in a way the comparison does not see. Clients that pin items by hash see a change.",
      });
    }
  }
  return out;
}
