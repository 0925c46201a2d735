/**
 * Resources (matched by uri) and resource templates (matched by uriTemplate, or by name when
 * the uriTemplate itself changed). Pure.
 */
import type { JsonObject, Resource, ResourceTemplate } from "../contract/model.ts";
import type { DiffRuleId } from "../rules/registry.ts";
import {
  asObject,
  type ChangeSpec,
  copiesById,
  diffById,
  diffFields,
  duplicateSpecs,
  matchCopies,
  removal,
  show,
  type TouchedItem,
  textOrMetadata,
} from "./change.ts";
import { compareStrings, findRenames, type RenameCandidate } from "./rename.ts";
import { explainRest } from "./rewrites.ts";
import { templateVariableNames } from "./uri-template.ts";

// ---------------------------------------------------------------------------------------------
// Resources

export function diffResources(
  oldResources: readonly Resource[],
  newResources: readonly Resource[],
  touched?: TouchedItem[],
): ChangeSpec[] {
  return diffById({
    kind: "resource",
    id: "uri",
    removedRule: "resource-removed",
    addedRule: "resource-added",
    duplicateRule: "resource-duplicate-added",
    before: oldResources,
    after: newResources,
    renameCandidate,
    diffItem: (uri, oldResource, newResource) => {
      const specs = diffItemFields("resource", uri, oldResource, newResource, "uri", RESOURCE_RULES);
      return [...specs, ...explainRest("resource", uri, oldResource, newResource, specs)];
    },
    ...(touched !== undefined && { touched }),
  });
}

const RESOURCE_RULES = { mimeType: "resource-mime-type-changed", metadata: "resource-metadata-changed" } as const;
const TEMPLATE_RULES = { mimeType: "template-mime-type-changed", metadata: "template-metadata-changed" } as const;

/** A resource or template that keeps its name under a new address was most likely moved. */
function renameCandidate(id: string, item: JsonObject): RenameCandidate {
  const name = item.name;
  return typeof name === "string" && name !== "" ? { id, text: id, signature: name } : { id, text: id };
}

/**
 * Every field but the identity: mimeType by its own rule, title and description as texts,
 * annotations key by key, everything else (name, size, icons, _meta, …) as metadata.
 */
function diffItemFields(
  kind: "resource" | "resourceTemplate",
  id: string,
  oldItem: JsonObject,
  newItem: JsonObject,
  identity: string,
  rules: { mimeType: DiffRuleId; metadata: DiffRuleId },
): ChangeSpec[] {
  const skip = new Set([identity, "annotations"]);
  // A mimeType declared where there was none tells clients more and breaks nothing.
  const mimeRule = oldItem.mimeType === undefined ? rules.metadata : rules.mimeType;
  const ruleFor = (key: string) => (key === "mimeType" ? mimeRule : textOrMetadata(rules.metadata)(key));
  return [
    ...diffFields(kind, id, oldItem, newItem, "", skip, ruleFor),
    ...diffFields(
      kind,
      id,
      asObject(oldItem.annotations),
      asObject(newItem.annotations),
      "/annotations",
      new Set(),
      () => rules.metadata,
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// Resource templates

export function diffTemplates(
  oldTemplates: readonly ResourceTemplate[],
  newTemplates: readonly ResourceTemplate[],
  touched?: TouchedItem[],
): ChangeSpec[] {
  const before = copiesById(oldTemplates, "uriTemplate");
  const after = copiesById(newTemplates, "uriTemplate");
  const first = (copies: Map<string, ResourceTemplate[]>, t: string) => (copies.get(t) as ResourceTemplate[])[0]!;
  const removed = [...before.keys()].filter((t) => !after.has(t)).sort(compareStrings);
  const added = new Set([...after.keys()].filter((t) => !before.has(t)).sort(compareStrings));

  const specs: ChangeSpec[] = [];
  // A new copy of a uriTemplate already taken: reported, and its texts looked at like an added template's.
  const duplicated = (uriTemplate: string, extra: readonly ResourceTemplate[], count: number) => {
    const rule = "template-duplicate-added";
    specs.push(...duplicateSpecs(rule, "resourceTemplate", "uriTemplate", uriTemplate, extra.length, count));
    for (const copy of extra) touched?.push({ kind: "resourceTemplate", name: uriTemplate, after: copy });
  };
  // A template whose uriTemplate changed but whose name did not is the same template, changed.
  const unpaired: string[] = [];
  const addedByName = new Map<string, string[]>();
  for (const uriTemplate of added) {
    const name = nameOf(first(after, uriTemplate));
    if (name !== undefined) addedByName.set(name, [...(addedByName.get(name) ?? []), uriTemplate]);
  }
  for (const uriTemplate of removed) {
    const oldTemplate = first(before, uriTemplate);
    const name = nameOf(oldTemplate);
    const partner = name === undefined ? undefined : addedByName.get(name)?.shift();
    if (partner === undefined) {
      unpaired.push(uriTemplate);
      continue;
    }
    added.delete(partner);
    const [newTemplate, ...extra] = after.get(partner)!;
    touched?.push({ kind: "resourceTemplate", name: uriTemplate, before: oldTemplate, after: newTemplate! });
    specs.push(...diffTemplate(uriTemplate, oldTemplate, newTemplate!));
    duplicated(partner, extra, extra.length + 1);
  }

  const renames = findRenames(
    unpaired.map((t) => ({ id: t, text: t })),
    [...added].map((t) => ({ id: t, text: t })),
  );
  for (const uriTemplate of unpaired) {
    specs.push(removal("template-removed", "resourceTemplate", uriTemplate, renames.get(uriTemplate)));
  }
  for (const uriTemplate of added) {
    const [newTemplate, ...extra] = after.get(uriTemplate)!;
    specs.push({ rule: "template-added", kind: "resourceTemplate", name: uriTemplate, path: "", message: "added" });
    touched?.push({ kind: "resourceTemplate", name: uriTemplate, after: newTemplate! });
    duplicated(uriTemplate, extra, extra.length + 1);
  }
  for (const [uriTemplate, oldCopies] of before) {
    const newCopies = after.get(uriTemplate);
    if (!newCopies) continue;
    const { changed, extra } = matchCopies(oldCopies, newCopies);
    for (const [oldTemplate, newTemplate] of changed) {
      touched?.push({ kind: "resourceTemplate", name: uriTemplate, before: oldTemplate, after: newTemplate });
      specs.push(...diffTemplate(uriTemplate, oldTemplate, newTemplate));
    }
    duplicated(uriTemplate, extra, newCopies.length);
  }
  return specs;
}

function nameOf(template: ResourceTemplate): string | undefined {
  return typeof template.name === "string" && template.name !== "" ? template.name : undefined;
}

/** The target is the old uriTemplate: the identity the lockfile pinned. */
function diffTemplate(id: string, oldTemplate: ResourceTemplate, newTemplate: ResourceTemplate): ChangeSpec[] {
  const specs = diffItemFields("resourceTemplate", id, oldTemplate, newTemplate, "uriTemplate", TEMPLATE_RULES);
  specs.push(...explainRest("resourceTemplate", id, oldTemplate, newTemplate, specs, ["/uriTemplate"]));
  const oldText = oldTemplate.uriTemplate;
  const newText = newTemplate.uriTemplate;
  if (oldText === newText) return specs;

  const oldVariables = templateVariableNames(oldText);
  const newVariables = templateVariableNames(newText);
  const base = { kind: "resourceTemplate" as const, name: id, path: "/uriTemplate", before: oldText, after: newText };
  const now = `(uriTemplate now ${show(newText)})`;
  for (const variable of newVariables.filter((v) => !oldVariables.includes(v))) {
    specs.push({
      ...base,
      rule: "template-variable-added",
      message: `variable ${JSON.stringify(variable)} added ${now}`,
      discriminator: variable,
    });
  }
  for (const variable of oldVariables.filter((v) => !newVariables.includes(v))) {
    specs.push({
      ...base,
      rule: "template-variable-removed",
      message: `variable ${JSON.stringify(variable)} removed ${now}`,
      discriminator: variable,
    });
  }
  const sameVariables =
    oldVariables.length === newVariables.length && oldVariables.every((v) => newVariables.includes(v));
  if (sameVariables) {
    specs.push({ ...base, rule: "template-changed", message: `uriTemplate changed to ${show(newText)}` });
  }
  return specs;
}
