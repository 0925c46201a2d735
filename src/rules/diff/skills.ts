/**
 * The diff rules of group "skill": the skills a server serves through the Skills extension
 * (SEP-2640, `io.modelcontextprotocol/skills`), each addressed by the URI of its SKILL.md and
 * carrying its frontmatter and a manifest of its files with SHA-256 digests. A skill's
 * description is judged by description-changed and the security drift lens, as a tool's is.
 * src/rules/diff/index.ts puts them after the prompt rules in the catalog. Pure data.
 */
import type { DiffRuleRow } from "../model.ts";

export const SKILL_RULE_ROWS = [
  {
    id: "skill-removed",
    group: "skill",
    input: "breaking",
    output: "breaking",
    summary: "a skill was removed, or its SKILL.md URI changed",
    rationale:
      "Hosts address a skill by the URI of its SKILL.md: skills/get and resources/read of that URI now fail, and a host that installed or pinned the skill loses it. A skill served under a new URI with the same frontmatter name is a rename, and a rename is a removal for every host that knew the old URI; the report names the new URI as a hint.",
    example: "skills: [skill://triage/SKILL.md] → []",
  },
  {
    id: "skill-added",
    group: "skill",
    input: "minor",
    output: "minor",
    summary: "a skill was added",
    rationale:
      "Nothing that worked before stops working. Its description is new routing text for the model: the security drift lens reads it.",
    example: "skills: [] → [skill://forecast/SKILL.md]",
  },
  {
    id: "skill-duplicate-added",
    traits: ["duplicate"],
    group: "skill",
    input: "breaking",
    output: "breaking",
    summary: "a second skill with the URI of an existing one was added",
    rationale:
      "Of two entries with one SKILL.md URI a host can use only one, and which one is up to it; the new copy can carry a description and files nobody reviewed (as with tool-duplicate-added).",
    example: "skills: [skill://forecast/SKILL.md] → [skill://forecast/SKILL.md, skill://forecast/SKILL.md]",
  },
  {
    id: "skill-name-changed",
    group: "skill",
    input: "breaking",
    output: "breaking",
    summary: "a skill's frontmatter name changed",
    rationale:
      "Users invoke a skill by its name (a slash command, a mention) and models choose it by name and description; instructions elsewhere that name it (another skill, the server's instructions) stop matching.",
    example: '"name": "forecast" → "name": "trip-forecast"',
  },
  {
    id: "skill-file-digest-changed",
    group: "skill",
    input: "breaking",
    output: "breaking",
    summary: "the content of a file of a skill changed (its SHA-256 digest is new)",
    rationale:
      "A skill is instructions an agent follows, often with tools pre-approved, and the digest is how a host knows it serves what a person reviewed and approved: hosts that install skills verify every file against its digest and keep the verified copy. A new digest is content nobody reviewed under the approval given for the old one; this is how an approved skill turns hostile (a rug pull), and the lockfile holds digests, not text, so no lint can read the change. So the verdict is breaking: `check` fails until someone has read the new content and accepted it (`check --update`, or an ignore in the policy file). Because SKILL.md holds the frontmatter, a description edit changes its digest too; the description's own change is reported beside it (description-changed, and the drift lens).",
    example: '"digest": "sha256:9b20f1…" → "digest": "sha256:40e1c7…"',
  },
  {
    id: "skill-file-removed",
    group: "skill",
    input: "breaking",
    output: "breaking",
    summary: "a file was dropped from a skill's manifest",
    rationale:
      "SKILL.md tells the agent to read its files by relative path (references/GUIDE.md); reading the dropped one now fails mid-workflow.",
    example: "resources: [SKILL.md, references/packing.md] → [SKILL.md]",
  },
  {
    id: "skill-file-added",
    group: "skill",
    input: "minor",
    output: "minor",
    summary: "a file was added to a skill's manifest",
    rationale:
      "Nothing that worked stops working; the agent reads the new file only if SKILL.md (whose digest then changes too) points to it. Review it with the skill.",
    example: "resources: [SKILL.md] → [SKILL.md, references/packing.md]",
  },
  {
    id: "skill-files-now-dynamic",
    group: "skill",
    input: "breaking",
    output: "breaking",
    summary: 'a skill\'s file manifest became "dynamic"',
    rationale:
      'With `"resources": "dynamic"` the server no longer lists the skill\'s files or their digests: a host can no longer verify what it reads against what was approved, and the lockfile no longer pins the skill\'s content.',
    example: '"resources": [{"uri": "skill://forecast/SKILL.md", …}] → "resources": "dynamic"',
  },
  {
    id: "skill-files-no-longer-dynamic",
    group: "skill",
    input: "minor",
    output: "minor",
    summary: 'a skill\'s "dynamic" file manifest became a list of files with digests',
    rationale: "Hosts can now verify the skill's files; nothing that worked stops working.",
    example: '"resources": "dynamic" → "resources": [{"uri": "skill://forecast/SKILL.md", …}]',
  },
  {
    id: "skill-allowed-tools-changed",
    group: "skill",
    input: "minor",
    output: "minor",
    summary: "a skill's allowed-tools frontmatter changed",
    rationale:
      "Agent Skills' `allowed-tools` lists the tools a skill may use without asking the user each time: a change moves what runs unattended. Nothing a client sends stops working, so minor, for review.",
    example: '"allowed-tools": "Read" → "allowed-tools": "Read Bash(git:*)"',
  },
  {
    id: "skill-metadata-changed",
    group: "skill",
    input: "patch",
    output: "patch",
    summary:
      "a skill's license, compatibility, metadata, _meta, a file's size alone, or another field without its own rule changed",
    rationale: "Documentation and metadata only for compatibility.",
    example: '"license": "MIT" → "license": "Apache-2.0"',
  },
] as const satisfies readonly DiffRuleRow[];
