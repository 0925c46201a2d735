/**
 * Which profiles' node checks can hit at a schema node, from what each profile declares
 * (HostProfile.wakes), read in one pass over the node's keys: most nodes of a real inputSchema
 * ({"type": "string", "description": …}) wake none, and calling every profile's check at every
 * node was most of what the host lens added to lint's schema pass (four calls and two key loops
 * per node, in code too short-lived for the JIT to make them cheap). A profile without `wakes`
 * is woken at every node. Pure.
 */
import type { JsonObject } from "../../contract/model.ts";
import type { HostProfile } from "./model.ts";

export class Wakes {
  /** Each key some profile names (in `keys` or `within`): the profiles its presence wakes. */
  private readonly byKey: Record<string, number | undefined> = Object.create(null);
  /** The profiles any other key wakes: those with `within`. */
  private readonly otherKey: number = 0;
  /** Each type name some profile names: the profiles a `type` of that name wakes. */
  private readonly byType: Record<string, number | undefined> = Object.create(null);
  /** The profiles a `type` list wakes. */
  private readonly typeList: number = 0;
  /** The profiles woken at every node (no `wakes`). */
  private readonly always: number = 0;

  /** Profile i of `profiles` is bit 1 << i of the answers (at most 31 profiles). */
  constructor(profiles: readonly HostProfile[]) {
    if (profiles.length > 31) throw new Error("at most 31 profiles");
    const named = new Set<string>();
    for (const { wakes } of profiles) {
      for (const key of wakes?.keys ?? []) named.add(key);
      for (const key of wakes?.within ?? []) named.add(key);
    }
    for (const key of named) this.byKey[key] = 0;
    for (let i = 0; i < profiles.length; i++) {
      const wakes = profiles[i]!.wakes;
      const bit = 1 << i;
      if (!wakes) {
        this.always |= bit;
        continue;
      }
      for (const key of wakes.keys ?? []) this.byKey[key] = (this.byKey[key] as number) | bit;
      const within = wakes.within;
      if (within) {
        this.otherKey |= bit;
        for (const key of named) if (!within.has(key)) this.byKey[key] = (this.byKey[key] as number) | bit;
      }
      for (const type of wakes.types ?? []) this.byType[type] = (this.byType[type] ?? 0) | bit;
      if (wakes.typeList) this.typeList |= bit;
    }
  }

  /** The profiles (bits) whose node check may hit at a node whose schema is `schema`. */
  of(schema: JsonObject): number {
    let woken = this.always;
    // for...in: JSON objects inherit no enumerable keys, and Object.keys allocates per node.
    for (const key in schema) {
      const bits = this.byKey[key];
      woken |= bits === undefined ? this.otherKey : bits;
    }
    const type = schema.type;
    if (typeof type === "string") woken |= this.byType[type] ?? 0;
    else if (typeof type === "object" && Array.isArray(type)) woken |= this.typeList;
    return woken;
  }
}
