/**
 * Lint of the skills a server serves through the Skills extension (SEP-2640): the entry shape
 * the extension defines (a digest per file, sizes, the skill's own SKILL.md in its manifest, a
 * name and a description), and the Agent Skills naming rules the extension delegates the format
 * to (agentskills.io/specification). Hosts skip or refuse skills that break them. Pure.
 */
import { type Contract, isJsonObject, type Json } from "../contract/model.ts";
import { pointer } from "../contract/pointer.ts";
import type { LintRuleId } from "../rules/registry.ts";
import { describeJson, type Found, found, show } from "./found.ts";
import type { LintCheck } from "./model.ts";

/** "sha256:" and 64 lowercase hex digits: SEP-2640's digest of a file's raw bytes. */
const DIGEST = /^sha256:[0-9a-f]{64}$/;
/** Agent Skills: 1–64 lowercase letters, digits and hyphens, no hyphen at either end or twice in a row. */
const SKILL_NAME = /^[a-z0-9](?:[a-z0-9]|-(?!-)){0,63}$/;

/** A value for a message: a string quoted, anything else by its kind. */
function shown(value: Json | undefined): string {
  return typeof value === "string" ? show(value) : describeJson(value);
}

function checkSkillEntries(contract: Contract): Found[] {
  const out: Found[] = [];
  for (const skill of contract.skills ?? []) {
    const at = (path: string, message: string, evidence?: Json) =>
      out.push(found("skill", skill.uri, path, `skill ${show(skill.uri)}: ${message}`, evidence));
    if (!skill.uri.endsWith("/SKILL.md"))
      at("/uri", "the URI does not name a SKILL.md (a skill is addressed by the URI of its SKILL.md)", skill.uri);
    const front = isJsonObject(skill.frontmatter) ? skill.frontmatter : {};
    for (const key of ["name", "description"]) {
      const value = front[key];
      if (typeof value !== "string" || value.trim() === "") {
        at(`/frontmatter/${key}`, `the frontmatter has no ${key} (Agent Skills requires one)`, value ?? null);
      }
    }
    const files = skill.resources;
    if (!Array.isArray(files)) continue;
    if (!files.some((file) => isJsonObject(file) && file.uri === skill.uri)) {
      at("/resources", "its manifest does not list its own SKILL.md: every file of the skill must be listed");
    }
    files.forEach((file, i) => {
      if (!isJsonObject(file)) return;
      const here = pointer("/resources", i);
      if (typeof file.digest !== "string" || !DIGEST.test(file.digest)) {
        at(
          pointer(here, "digest"),
          `file ${shown(file.uri)} has digest ${shown(file.digest)}, not "sha256:" and 64 lowercase hex digits, so a host cannot verify it`,
          file.digest ?? null,
        );
      }
      if (typeof file.size !== "number" || !Number.isInteger(file.size) || file.size < 0) {
        at(
          pointer(here, "size"),
          `file ${shown(file.uri)} has size ${shown(file.size)}, not a byte count`,
          file.size ?? null,
        );
      }
    });
  }
  return out;
}

function checkSkillNames(contract: Contract): Found[] {
  const out: Found[] = [];
  for (const skill of contract.skills ?? []) {
    const name = isJsonObject(skill.frontmatter) ? skill.frontmatter.name : undefined;
    if (typeof name !== "string" || name.trim() === "") continue; // skill-entry-invalid says so
    const where = (message: string) =>
      out.push(found("skill", skill.uri, "/frontmatter/name", `skill ${show(skill.uri)}: ${message}`, name));
    if (!SKILL_NAME.test(name)) {
      where(
        `name ${show(name)} breaks the Agent Skills naming rules: 1–64 lowercase letters, digits and hyphens, no hyphen at either end or twice in a row`,
      );
      continue;
    }
    // The skill's folder: the URI segment before SKILL.md.
    const folder = /\/([^/]+)\/SKILL\.md$/.exec(skill.uri)?.[1];
    if (folder !== undefined && folder !== name) {
      where(`name ${show(name)} does not match its folder ${show(folder)} (Agent Skills: the name is the folder's)`);
    }
  }
  return out;
}

export const SKILL_CHECKS = {
  "skill-entry-invalid": checkSkillEntries,
  "skill-name-invalid": checkSkillNames,
} satisfies Partial<Record<LintRuleId, LintCheck>>;
