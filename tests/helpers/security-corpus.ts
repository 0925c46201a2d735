/**
 * The security corpora, read the same way by the test that holds them (tests/unit/lint/
 * poisoning-corpus.test.ts) and the script that prints their figures (scripts/security-corpus.ts):
 * poisoned paraphrases (tests/fixtures/poisoned), captures of published servers (tests/fixtures/
 * benign, tests/fixtures/published), earlier releases of those servers for upgrades
 * (tests/fixtures/benign-upgrades), and legitimate wordings close to poisoning.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Contract, Prompt, Tool } from "../../src/contract/model.ts";
import { DEFAULT_LINT_OPTIONS, type Finding } from "../../src/lint/model.ts";
import { contract } from "../unit/diff/helpers.ts";
import { checkedRules } from "../unit/lint/rule-table.ts";

export const SECURITY_RULES = checkedRules("security");
export const ROOT = join(import.meta.dir, "../..");
export const POISONED = join(ROOT, "tests/fixtures/poisoned");
export const BENIGN = join(ROOT, "tests/fixtures/benign");
export const UPGRADES = join(ROOT, "tests/fixtures/benign-upgrades");

export interface Case {
  text: string;
  /** Where the text goes: a tool description (default), a parameter description, the server instructions, a prompt, a tool name. */
  where?: "description" | "parameter" | "instructions" | "prompt" | "name";
  /** Other tools of the same server that the text names. */
  siblings?: string[];
}

export interface CorpusFile {
  category: string;
  rule: string;
  level?: string;
  cases: Case[];
}

/** The security rules' findings on a contract. */
export function lintSecurity(c: Contract): Finding[] {
  return SECURITY_RULES.flatMap((rule) =>
    rule.check(c, DEFAULT_LINT_OPTIONS).map((f) => ({ ...f, rule: rule.id, level: rule.level })),
  );
}

/** A small server with the case's text in place; its other texts are ordinary. */
export function surfaceWith(c: Case): Contract {
  const plain: Tool = {
    name: "daily_digest",
    description: "Builds a digest of the day's notes.",
    inputSchema: { type: "object", properties: { day: { type: "string", description: "Day, YYYY-MM-DD" } } },
  };
  const siblings: Tool[] = (c.siblings ?? []).map((name) => ({
    name,
    description: "Another tool of the server.",
    inputSchema: { type: "object" },
  }));
  switch (c.where ?? "description") {
    case "description":
      return contract({ tools: [{ ...plain, description: c.text }, ...siblings] });
    case "parameter":
      return contract({
        tools: [
          {
            ...plain,
            inputSchema: { type: "object", properties: { context: { type: "string", description: c.text } } },
          },
          ...siblings,
        ],
      });
    case "instructions":
      return contract({ tools: [plain, ...siblings], instructions: c.text });
    case "prompt":
      return contract({ tools: [plain, ...siblings], prompts: [{ name: "review", description: c.text } as Prompt] });
    case "name":
      return contract({ tools: [{ ...plain, name: c.text }, ...siblings] });
  }
}

export function corpusFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
}

export function readCorpus(file: string): CorpusFile {
  return JSON.parse(readFileSync(join(POISONED, file), "utf8")) as CorpusFile;
}

/** Every capture of a published server: the benign corpus and the published releases. */
export function benignCaptures(): string[] {
  return [
    ...corpusFiles(BENIGN)
      .filter((f) => f.endsWith(".contract.json"))
      .map((f) => join(BENIGN, f)),
    ...corpusFiles(join(ROOT, "tests/fixtures/published")).map((f) => join(ROOT, "tests/fixtures/published", f)),
  ];
}

export function readContract(path: string): Contract {
  return JSON.parse(readFileSync(path, "utf8")) as Contract;
}

/**
 * Upgrades between two published releases: each earlier release in tests/fixtures/benign-upgrades
 * (`<package>@<version>.contract.json`) with the corpus's release of the same package.
 */
export function upgradePairs(): { name: string; before: string; after: string }[] {
  const current = new Map(
    corpusFiles(BENIGN)
      .filter((f) => f.endsWith(".contract.json"))
      .map((f) => [f.slice(0, f.lastIndexOf("@")), join(BENIGN, f)] as const),
  );
  return corpusFiles(UPGRADES).flatMap((f) => {
    const pkg = f.slice(0, f.lastIndexOf("@"));
    const after = current.get(pkg);
    const version = (v: string) => v.slice(v.lastIndexOf("@") + 1).replace(/\.contract\.json$/, "");
    return after === undefined
      ? []
      : [{ name: `${pkg} ${version(f)} → ${version(after)}`, before: join(UPGRADES, f), after }];
  });
}
