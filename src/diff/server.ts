/**
 * The server itself: capabilities, protocol version, the versions a modern server lists,
 * instructions, serverInfo. Target kind "server", name "", paths are JSON Pointers into the
 * lockfile (/capabilities/…, /capture/supportedVersions, /capture/legacy, /server/…). Pure.
 */

import { type Contract, eraOf, type Json } from "../contract/model.ts";
import { pointer, pointerToDotted } from "../contract/pointer.ts";
import {
  asObject,
  type ChangeSpec,
  describeFieldChange,
  diffFields,
  jsonEqual,
  show,
  sortedUnionKeys,
} from "./change.ts";
import { diffServerCapabilities, taskEncodingMoved } from "./extensions.ts";
import { explainRest } from "./rewrites.ts";

export function diffServer(oldC: Contract, newC: Contract): ChangeSpec[] {
  const specs: ChangeSpec[] = [];
  specs.push(
    ...diffServerCapabilities(oldC.capabilities, newC.capabilities, (o, n) => diffCapabilities(o, n, "/capabilities")),
  );
  // Every capability line is explained, unless tasks only moved between encodings (not a change).
  if (!taskEncodingMoved(oldC.capabilities, newC.capabilities)) {
    const before = { capabilities: oldC.capabilities };
    specs.push(...explainRest("server", "", before, { capabilities: newC.capabilities }, specs));
  }
  // Across eras the version says how the surface was captured (initialize or server/discover),
  // not what it is: a dual-era server captured each way, or one that moved to the 2026
  // protocol and changed nothing else, is the same surface. Within an era it is a change.
  if (oldC.protocolVersion !== newC.protocolVersion && eraOf(oldC.protocolVersion) === eraOf(newC.protocolVersion)) {
    specs.push(protocolVersionChange(oldC.protocolVersion, newC.protocolVersion));
  }
  specs.push(...diffSupportedVersions(oldC.capture.supportedVersions, newC.capture.supportedVersions));
  specs.push(...diffLegacyEra(oldC, newC));
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
    if (path === "/capabilities" && !SERVER_CAPABILITIES.has(key)) {
      if (!jsonEqual(before, after)) specs.push(nonServerCapability(key, childPath, before, after));
      continue;
    }
    const announces = NOTIFICATION_FLAGS[label];
    if (isPresent(before) && !isPresent(after)) {
      // A sub-flag that only announces notifications makes no request invalid when it goes.
      specs.push({
        rule: announces === undefined ? "capability-removed" : "capability-notifications-removed",
        kind: "server",
        name: "",
        path: childPath,
        before: before!,
        ...(after !== undefined && { after }),
        message: `capability ${JSON.stringify(label)} removed`,
        ...(announces !== undefined && {
          note: `It only announced ${announces}; without it clients re-list or re-read when they need to, and every request they send stays valid.`,
        }),
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

// ---------------------------------------------------------------------------------------------
// Capabilities in the spec's vocabulary (ServerCapabilities, 2025-11-25 and 2026-07-28).

/** The keys of ServerCapabilities; `extensions` is compared by extensions.ts. */
const SERVER_CAPABILITIES: ReadonlySet<string> = new Set([
  "experimental",
  "logging",
  "completions",
  "prompts",
  "resources",
  "tools",
  "tasks",
  "extensions",
]);

/** Keys of ClientCapabilities: what a confused server may echo under its own capabilities. */
const CLIENT_CAPABILITIES: ReadonlySet<string> = new Set(["roots", "sampling", "elicitation"]);

/** Sub-flags that only announce notifications: what a client receives while they are set. */
const NOTIFICATION_FLAGS: Readonly<Record<string, string>> = {
  "tools.listChanged": "notifications/tools/list_changed",
  "prompts.listChanged": "notifications/prompts/list_changed",
  "resources.listChanged": "notifications/resources/list_changed",
  "resources.subscribe":
    "that clients may subscribe to resources (resources/subscribe and notifications/resources/updated)",
};

function nonServerCapability(key: string, path: string, before: Json | undefined, after: Json | undefined): ChangeSpec {
  const what = CLIENT_CAPABILITIES.has(key)
    ? `"${key}" is a client capability (declared by clients in ClientCapabilities), not a server one`
    : `"${key}" is not a server capability in the spec (ServerCapabilities has ${[...SERVER_CAPABILITIES].join(", ")}); a vendor feature belongs under "experimental"`;
  return {
    rule: "non-server-capability-changed",
    kind: "server",
    name: "",
    path,
    ...(before !== undefined && { before }),
    ...(after !== undefined && { after }),
    message: describeFieldChange(`capability ${JSON.stringify(key)}`, before, after),
    note: `${what}: clients take nothing from it, so no request or notification changes.`,
  };
}

// ---------------------------------------------------------------------------------------------
// Protocol version: revisions are dates, so they order as strings. A newer revision keeps
// clients of an older one working (they negotiate down); an older one lacks what came after.

/** What each revision added that clients use, for the note on a downgrade. */
const REVISION_FEATURES: readonly [revision: string, features: string][] = [
  ["2025-03-26", "tool annotations, audio content, completions, Streamable HTTP, OAuth 2.1 authorization"],
  [
    "2025-06-18",
    "structured tool output (outputSchema, structuredContent), elicitation, resource links in tool results, title fields",
  ],
  ["2025-11-25", "tasks, icons, URL-mode elicitation, tool calls in sampling, default values in elicitation"],
];

function protocolVersionChange(before: string, after: string): ChangeSpec {
  const downgrade = after < before;
  const lacks = REVISION_FEATURES.filter(([revision]) => revision > after && revision <= before).map(
    ([revision, features]) => `${revision}: ${features}`,
  );
  const note = downgrade
    ? lacks.length > 0
      ? `The older revision lacks what came after it (${lacks.join("; ")}); clients that use those features lose them.`
      : "Features of the newer revision are not part of the older one; clients that use them lose them."
    : undefined;
  return {
    rule: downgrade ? "protocol-version-downgraded" : "protocol-version-changed",
    kind: "server",
    name: "",
    path: "/protocolVersion",
    before,
    after,
    message: describeFieldChange("protocolVersion", before, after),
    ...(note !== undefined && { note }),
  };
}

/**
 * Whether a modern server accepts a legacy initialize (capture.legacy), compared only where both
 * captures got a clear answer. Absent is unknown (stdio, --era modern or a legacy capture cannot
 * ask; an older lockfile did not; the probe got no clear answer), and unknown is no change: a
 * lockfile written before the question existed, or captured over stdio, raises nothing.
 */
function diffLegacyEra(oldC: Contract, newC: Contract): ChangeSpec[] {
  const [before, after] = [oldC.capture.legacy, newC.capture.legacy];
  if (before === undefined || after === undefined || before === after) return [];
  const base = { kind: "server" as const, name: "", path: "/capture/legacy", before, after };
  return after === "refused"
    ? [
        {
          ...base,
          rule: "legacy-era-dropped",
          message:
            "now refuses legacy clients (a legacy initialize was accepted before, refused now): clients that speak only protocol 2025-11-25 or older can no longer connect",
        },
      ]
    : [
        {
          ...base,
          rule: "legacy-era-added",
          message: "now accepts legacy clients (a legacy initialize was refused before, accepted now)",
        },
      ];
}

/**
 * The versions server/discover listed (capture.supportedVersions), compared as sets: one change
 * per version the old list has and the new one lacks, or the reverse. Only when both sides
 * have the list: a legacy capture negotiated one version and an older lockfile recorded none,
 * so which versions such a server speaks is unknown. A new order (of preference) is no change.
 * The path is the list, which both lockfiles have (an index into the old list would name a
 * different version in the new one); the version tells the changes at that path apart.
 */
function diffSupportedVersions(
  before: readonly string[] | undefined,
  after: readonly string[] | undefined,
): ChangeSpec[] {
  if (before === undefined || after === undefined) return [];
  const [had, has] = [new Set(before), new Set(after)];
  const base = { kind: "server" as const, name: "", path: "/capture/supportedVersions" };
  const only = (from: Set<string>, to: Set<string>) => [...from].filter((version) => !to.has(version));
  return [
    ...only(had, has).map(
      (version): ChangeSpec => ({
        ...base,
        rule: "protocol-version-support-dropped",
        before: version,
        message: `protocol version ${show(version)} no longer supported (removed from supportedVersions): clients that speak only that version can no longer connect`,
        discriminator: version,
      }),
    ),
    ...only(has, had).map(
      (version): ChangeSpec => ({
        ...base,
        rule: "protocol-version-support-added",
        after: version,
        message: `protocol version ${show(version)} now supported (added to supportedVersions)`,
        discriminator: version,
      }),
    ),
  ];
}
