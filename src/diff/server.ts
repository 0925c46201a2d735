/**
 * The server itself: capabilities, protocol version, instructions, serverInfo. Target kind
 * "server", name "", paths are JSON Pointers into the lockfile (/capabilities/…, /server/…). Pure.
 */

import { type Contract, eraOf, type Json } from "../contract/model.ts";
import { pointer, pointerToDotted } from "../contract/pointer.ts";
import { asObject, type ChangeSpec, describeFieldChange, diffFields, sortedUnionKeys } from "./change.ts";
import { diffServerCapabilities } from "./extensions.ts";

export function diffServer(oldC: Contract, newC: Contract): ChangeSpec[] {
  const specs: ChangeSpec[] = [];
  specs.push(
    ...diffServerCapabilities(oldC.capabilities, newC.capabilities, (o, n) => diffCapabilities(o, n, "/capabilities")),
  );
  // Across eras the version says how the surface was captured (initialize or server/discover),
  // not what it is: a dual-era server captured each way, or one that moved to the 2026
  // protocol and changed nothing else, is the same surface. Within an era it is a change.
  if (oldC.protocolVersion !== newC.protocolVersion && eraOf(oldC.protocolVersion) === eraOf(newC.protocolVersion)) {
    specs.push({
      rule: "protocol-version-changed",
      kind: "server",
      name: "",
      path: "/protocolVersion",
      before: oldC.protocolVersion,
      after: newC.protocolVersion,
      message: describeFieldChange("protocolVersion", oldC.protocolVersion, newC.protocolVersion),
    });
  }
  if (oldC.instructions !== newC.instructions) {
    specs.push({
      rule: "instructions-changed",
      kind: "server",
      name: "",
      path: "/instructions",
      ...(oldC.instructions !== undefined && { before: oldC.instructions }),
      ...(newC.instructions !== undefined && { after: newC.instructions }),
      message: describeFieldChange("instructions", oldC.instructions, newC.instructions),
    });
  }
  specs.push(
    ...diffFields(
      "server",
      "",
      oldC.server,
      newC.server,
      "/server",
      new Set(),
      () => "server-info-changed",
      (key) => `serverInfo.${key}`,
    ),
  );
  return specs;
}

/**
 * A capability is present unless absent, false or null. Present → not present is a removal
 * and the reverse an addition, reported once at the highest key that changed (removing
 * `resources` does not also report `resources.subscribe`). Where both sides are present,
 * sub-capabilities are compared; a bare `true` counts as an object with no sub-capabilities.
 */
function diffCapabilities(oldValue: Json | undefined, newValue: Json | undefined, path: string): ChangeSpec[] {
  const oldObject = asObject(oldValue);
  const newObject = asObject(newValue);
  const specs: ChangeSpec[] = [];
  for (const key of sortedUnionKeys(oldObject, newObject)) {
    const before = oldObject[key];
    const after = newObject[key];
    const childPath = pointer(path, key);
    const label = pointerToDotted(childPath).replace(/^capabilities\.?/, "");
    if (isPresent(before) && !isPresent(after)) {
      specs.push({
        rule: "capability-removed",
        kind: "server",
        name: "",
        path: childPath,
        before: before!,
        ...(after !== undefined && { after }),
        message: `capability ${JSON.stringify(label)} removed`,
      });
    } else if (!isPresent(before) && isPresent(after)) {
      specs.push({
        rule: "capability-added",
        kind: "server",
        name: "",
        path: childPath,
        ...(before !== undefined && { before }),
        after: after!,
        message: `capability ${JSON.stringify(label)} added`,
      });
    } else if (isPresent(before) && isPresent(after)) {
      specs.push(...diffCapabilities(before, after, childPath));
    }
  }
  return specs;
}

function isPresent(value: Json | undefined): boolean {
  return value !== undefined && value !== null && value !== false;
}
