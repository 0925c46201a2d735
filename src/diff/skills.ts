/**
 * Skills of the Skills extension (SEP-2640), matched by the URI of their SKILL.md; their files
 * matched by URI. The frontmatter description is routing text: description-changed, as a
 * tool's description (the drift lens reads the touched skills). A lockfile without skills (a
 * server without the extension) has none to compare. Pure.
 */
import { isJsonObject, type Json, type JsonObject, type Skill } from "../contract/model.ts";
import { pointer } from "../contract/pointer.ts";
import { type ChangeSpec, diffById, diffFields, jsonEqual, show, type TouchedItem } from "./change.ts";
import type { RenameCandidate } from "./rename.ts";
import { explainRest } from "./rewrites.ts";

export function diffSkills(
  oldSkills: readonly Skill[] = [],
  newSkills: readonly Skill[] = [],
  touched?: TouchedItem[],
): ChangeSpec[] {
  return diffById({
    kind: "skill",
    id: "uri",
    removedRule: "skill-removed",
    addedRule: "skill-added",
    duplicateRule: "skill-duplicate-added",
    before: oldSkills,
    after: newSkills,
    renameCandidate: (uri, skill) => renameCandidate(uri, skill),
    diffItem: diffSkill,
    ...(touched !== undefined && { touched }),
  });
}

/** The same frontmatter name under a new URI is a likely rename (a moved skill folder). */
function renameCandidate(uri: string, skill: Skill): RenameCandidate {
  const name = frontmatterOf(skill).name;
  const candidate: RenameCandidate = { id: uri, text: uri };
  if (typeof name === "string" && name !== "") candidate.signature = name;
  return candidate;
}

function frontmatterOf(skill: JsonObject): JsonObject {
  return isJsonObject(skill.frontmatter) ? skill.frontmatter : {};
}

/** Frontmatter keys with a rule of their own; the rest are skill-metadata-changed. */
const FRONTMATTER_RULES: Record<string, ChangeSpec["rule"]> = {
  name: "skill-name-changed",
  description: "description-changed",
  "allowed-tools": "skill-allowed-tools-changed",
};

function diffSkill(uri: string, oldSkill: Skill, newSkill: Skill): ChangeSpec[] {
  const specs = diffFields(
    "skill",
    uri,
    frontmatterOf(oldSkill),
    frontmatterOf(newSkill),
    "/frontmatter",
    new Set(),
    (key) => FRONTMATTER_RULES[key] ?? "skill-metadata-changed",
  );
  specs.push(
    ...diffFields(
      "skill",
      uri,
      oldSkill,
      newSkill,
      "",
      new Set(["uri", "frontmatter", "resources"]),
      () => "skill-metadata-changed",
    ),
  );
  specs.push(...diffFiles(uri, oldSkill.resources, newSkill.resources));
  return [...specs, ...explainRest("skill", uri, oldSkill, newSkill, specs)];
}

/** "sha256:9b20f1a717f1…": enough of a digest to tell two apart in a one-line message (the change holds both whole). */
function digestText(digest: Json | undefined): string {
  return typeof digest === "string" && digest.length > 19 ? JSON.stringify(`${digest.slice(0, 19)}…`) : show(digest);
}

interface File {
  index: number;
  value: JsonObject;
}

/** A manifest's files by URI, first of each. */
function filesByUri(files: Json[]): Map<string, File> {
  const byUri = new Map<string, File>();
  files.forEach((value, index) => {
    if (isJsonObject(value) && typeof value.uri === "string" && !byUri.has(value.uri)) {
      byUri.set(value.uri, { index, value });
    }
  });
  return byUri;
}

function diffFiles(uri: string, before: Json | undefined, after: Json | undefined): ChangeSpec[] {
  if (jsonEqual(before, after)) return [];
  const listed = (v: Json | undefined): v is Json[] => Array.isArray(v);
  if (!listed(before) || !listed(after)) {
    // One side "dynamic" (or malformed): the manifest as a whole changed kind.
    if (listed(before) && after === "dynamic") {
      return [
        {
          rule: "skill-files-now-dynamic",
          kind: "skill",
          name: uri,
          path: "/resources",
          before,
          after,
          message: `files now "dynamic" (${before.length} listed with digests before): their content is no longer pinned`,
        },
      ];
    }
    if (before === "dynamic" && listed(after)) {
      return [
        {
          rule: "skill-files-no-longer-dynamic",
          kind: "skill",
          name: uri,
          path: "/resources",
          before,
          after,
          message: `files now listed with digests (${after.length}; "dynamic" before)`,
        },
      ];
    }
    return [];
  }
  const oldFiles = filesByUri(before);
  const newFiles = filesByUri(after);
  const specs: ChangeSpec[] = [];
  const file = (fileUri: string) => `file ${JSON.stringify(fileUri)}`;
  for (const [fileUri, { index }] of oldFiles) {
    if (newFiles.has(fileUri)) continue;
    specs.push({
      rule: "skill-file-removed",
      kind: "skill",
      name: uri,
      path: pointer("/resources", index),
      before: fileUri,
      message: `${file(fileUri)} removed`,
      discriminator: fileUri,
    });
  }
  for (const [fileUri, { index, value }] of newFiles) {
    const old = oldFiles.get(fileUri);
    const path = pointer("/resources", index);
    if (old === undefined) {
      specs.push({
        rule: "skill-file-added",
        kind: "skill",
        name: uri,
        path,
        after: fileUri,
        message: `${file(fileUri)} added`,
        discriminator: fileUri,
      });
      continue;
    }
    if (!jsonEqual(old.value.digest, value.digest)) {
      // The size goes with the content: one finding for both.
      const sized = !jsonEqual(old.value.size, value.size);
      specs.push({
        rule: "skill-file-digest-changed",
        kind: "skill",
        name: uri,
        path: pointer(path, "digest"),
        before: old.value.digest,
        after: value.digest,
        message: `${file(fileUri)} content changed: digest ${digestText(old.value.digest)} → ${digestText(value.digest)}${
          sized ? ` (size ${show(old.value.size)} → ${show(value.size)})` : ""
        }`,
        ...(sized && { explains: [pointer(path, "digest"), pointer(path, "size")] }),
      });
    }
    specs.push(
      ...diffFields(
        "skill",
        uri,
        old.value,
        value,
        path,
        new Set(["uri", "digest", ...(jsonEqual(old.value.digest, value.digest) ? [] : ["size"])]),
        () => "skill-metadata-changed",
        (key) => `${file(fileUri)} ${key}`,
      ),
    );
  }
  return specs;
}
