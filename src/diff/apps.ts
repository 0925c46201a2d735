/**
 * A tool's `_meta`, with the MCP Apps metadata judged (extension `io.modelcontextprotocol/ui`,
 * specification 2026-01-26, "Resource Discovery"): `_meta.ui.resourceUri` names the ui://
 * view a host renders the tool's results in (the deprecated flat `_meta["ui/resourceUri"]`
 * too: hosts read both), and `_meta.ui.visibility` says who may call the tool: "model" (the
 * agent sees and calls it) and "app" (views of this server call it); absent means both.
 * Effective values are compared, so rewriting one encoding as the other, or spelling out the
 * default, changes no verdict. The rest of `_meta` stays metadata (tool-metadata-changed, at
 * /_meta as before), reported only when something besides the judged values changed. Pure.
 */
import { jsonEqual } from "../contract/json-equal.ts";
import { isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import type { DiffRuleId } from "../rules/registry.ts";
import { type ChangeSpec, describeFieldChange, show } from "./change.ts";

type Audience = "model" | "app";

/** The spec's default when `visibility` is absent. */
const DEFAULT_VISIBILITY: readonly Audience[] = ["model", "app"];
const FLAT_RESOURCE_URI = "ui/resourceUri";

interface UiFacts {
  resourceUri?: string;
  /** Where the URI was read from, as a JSON Pointer inside the tool. */
  resourceUriPath: string;
  visibility: ReadonlySet<string>;
  /** `_meta.ui.visibility` as sent (undefined when absent). */
  visibilityRaw?: Json;
}

const AUDIENCE_RULES: readonly {
  audience: Audience;
  gained: DiffRuleId;
  lost: DiffRuleId;
  who: string;
}[] = [
  { audience: "model", gained: "tool-now-visible-to-model", lost: "tool-no-longer-visible-to-model", who: "the model" },
  { audience: "app", gained: "tool-now-visible-to-app", lost: "tool-no-longer-visible-to-app", who: "app views" },
];

/** The changes of a tool's `_meta`: MCP Apps rules, then the rest as tool-metadata-changed. */
export function diffToolMeta(name: string, oldMeta: Json | undefined, newMeta: Json | undefined): ChangeSpec[] {
  if (jsonEqual(oldMeta, newMeta)) return [];
  const before = uiFacts(oldMeta);
  const after = uiFacts(newMeta);
  const specs: ChangeSpec[] = [];

  const uriChanged = before.resourceUri !== after.resourceUri;
  if (uriChanged) specs.push(resourceUriSpec(name, before, after));

  let visibilityChanged = false;
  for (const { audience, gained, lost, who } of AUDIENCE_RULES) {
    const had = before.visibility.has(audience);
    const has = after.visibility.has(audience);
    if (had === has) continue;
    visibilityChanged = true;
    const absent = before.visibilityRaw === undefined || after.visibilityRaw === undefined;
    specs.push({
      rule: has ? gained : lost,
      kind: "tool",
      name,
      path: "/_meta/ui/visibility",
      ...(before.visibilityRaw !== undefined && { before: before.visibilityRaw }),
      ...(after.visibilityRaw !== undefined && { after: after.visibilityRaw }),
      message: `${has ? "now" : "no longer"} visible to ${who} (_meta.ui.visibility ${show(before.visibilityRaw)} → ${show(after.visibilityRaw)})`,
      ...(absent && { note: `An absent visibility means ${show([...DEFAULT_VISIBILITY])}.` }),
    });
  }

  const strip = { resourceUri: uriChanged, visibility: visibilityChanged };
  if (!jsonEqual(residual(oldMeta, strip), residual(newMeta, strip))) {
    specs.push({
      rule: "tool-metadata-changed",
      kind: "tool",
      name,
      path: "/_meta",
      before: oldMeta,
      after: newMeta,
      message: describeFieldChange("_meta", oldMeta, newMeta),
    });
  }
  return specs;
}

function resourceUriSpec(name: string, before: UiFacts, after: UiFacts): ChangeSpec {
  const common = { kind: "tool" as const, name };
  if (before.resourceUri === undefined) {
    return {
      ...common,
      rule: "tool-ui-added",
      path: after.resourceUriPath,
      after: after.resourceUri as string,
      message: `now shows its results in the MCP Apps view ${show(after.resourceUri)}`,
    };
  }
  if (after.resourceUri === undefined) {
    return {
      ...common,
      rule: "tool-ui-removed",
      path: before.resourceUriPath,
      before: before.resourceUri,
      message: `no longer shows its results in an MCP Apps view (was ${show(before.resourceUri)})`,
    };
  }
  return {
    ...common,
    rule: "tool-ui-resource-changed",
    path: after.resourceUriPath,
    before: before.resourceUri,
    after: after.resourceUri,
    message: `MCP Apps view changed from ${show(before.resourceUri)} to ${show(after.resourceUri)}`,
  };
}

function uiFacts(meta: Json | undefined): UiFacts {
  const object: JsonObject = isJsonObject(meta) ? meta : {};
  const ui: JsonObject = isJsonObject(object.ui) ? object.ui : {};
  const facts: UiFacts = { resourceUriPath: "/_meta/ui/resourceUri", visibility: new Set(DEFAULT_VISIBILITY) };
  if (typeof ui.resourceUri === "string") facts.resourceUri = ui.resourceUri;
  else if (typeof object[FLAT_RESOURCE_URI] === "string") {
    facts.resourceUri = object[FLAT_RESOURCE_URI] as string;
    facts.resourceUriPath = "/_meta/ui~1resourceUri";
  }
  if (ui.visibility !== undefined) facts.visibilityRaw = ui.visibility;
  if (Array.isArray(ui.visibility)) {
    facts.visibility = new Set(ui.visibility.filter((v): v is string => typeof v === "string"));
  }
  return facts;
}

/**
 * `_meta` without the values whose change a rule above reported, so that what is left says
 * whether anything else changed. A `ui` (or `_meta`) emptied only by that counts as absent.
 */
function residual(meta: Json | undefined, strip: { resourceUri: boolean; visibility: boolean }): Json | undefined {
  if (!isJsonObject(meta)) return meta;
  const copy: JsonObject = { ...meta };
  if (strip.resourceUri) delete copy[FLAT_RESOURCE_URI];
  if (isJsonObject(meta.ui)) {
    const ui: JsonObject = { ...meta.ui };
    if (strip.resourceUri) delete ui.resourceUri;
    if (strip.visibility) delete ui.visibility;
    if (Object.keys(ui).length > 0 || Object.keys(meta.ui).length === 0) copy.ui = ui;
    else delete copy.ui;
  }
  return Object.keys(copy).length > 0 || Object.keys(meta).length === 0 ? copy : undefined;
}
