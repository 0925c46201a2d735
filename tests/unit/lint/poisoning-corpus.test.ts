/**
 * The security lint against two corpora (docs/lint-survey.md publishes their sizes and results):
 *
 * - poisoned (tests/fixtures/poisoned/*.json): paraphrases of tool poisoning written for this
 *   test, one file per intent, each case a text placed in a tool description (or a parameter
 *   description, the server instructions, a prompt). Every case must be caught by its rule, at
 *   its level (error, unless the file says otherwise).
 * - benign: captures of published servers (tests/fixtures/benign/*.contract.json and
 *   tests/fixtures/published/), and hand-written legitimate wordings that come close to the
 *   poisoned ones (tests/fixtures/benign/legit-phrases.json). No security rule may report an
 *   error or a warning on them (external-link infos are expected: documentation links).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Contract, Prompt, Tool } from "../../../src/contract/model.ts";
import { DEFAULT_LINT_OPTIONS, type Finding } from "../../../src/lint/model.ts";
import { contract } from "../diff/helpers.ts";
import { checkedRules } from "./rule-table.ts";

const SECURITY_RULES = checkedRules("security");
const ROOT = join(import.meta.dir, "../../..");
const POISONED = join(ROOT, "tests/fixtures/poisoned");
const BENIGN = join(ROOT, "tests/fixtures/benign");

interface Case {
  text: string;
  /** Where the text goes: a tool description (default), a parameter description, the server instructions, a prompt, a tool name. */
  where?: "description" | "parameter" | "instructions" | "prompt" | "name";
  /** Other tools of the same server that the text names. */
  siblings?: string[];
}

interface CorpusFile {
  category: string;
  rule: string;
  level?: string;
  cases: Case[];
}

function lint(c: Contract): Finding[] {
  return SECURITY_RULES.flatMap((rule) =>
    rule.check(c, DEFAULT_LINT_OPTIONS).map((f) => ({ ...f, rule: rule.id, level: rule.level })),
  );
}

/** A small server with the case's text in place; its other texts are ordinary. */
function surfaceWith(c: Case): Contract {
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

function corpusFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
}

describe("the poisoned corpus: every case is caught by its rule", () => {
  const files = corpusFiles(POISONED);
  test("one file per intent, many paraphrases each", () => {
    expect(files.length).toBeGreaterThanOrEqual(11);
    for (const file of files) {
      const corpus = JSON.parse(readFileSync(join(POISONED, file), "utf8")) as CorpusFile;
      expect(SECURITY_RULES.map((r) => r.id as string)).toContain(corpus.rule);
      expect(corpus.cases.length).toBeGreaterThanOrEqual(10);
      expect(new Set(corpus.cases.map((c) => c.text)).size).toBe(corpus.cases.length);
    }
  });

  for (const file of files) {
    const corpus = JSON.parse(readFileSync(join(POISONED, file), "utf8")) as CorpusFile;
    const level = corpus.level ?? "error";
    test(`${file}: ${corpus.category} → ${corpus.rule} (${level})`, () => {
      const missed: string[] = [];
      for (const c of corpus.cases) {
        const hits = lint(surfaceWith(c)).filter((f) => f.rule === corpus.rule && f.level === level);
        if (hits.length === 0) missed.push(c.text);
        // Explainable: each finding quotes a span of the text it was found in.
        for (const f of hits) expect(f.message).toMatch(/: "[^"]+/);
      }
      expect(missed).toEqual([]);
    });
  }
});

describe("the benign corpus: no errors or warnings", () => {
  const captures = [
    ...corpusFiles(BENIGN)
      .filter((f) => f.endsWith(".contract.json"))
      .map((f) => join(BENIGN, f)),
    ...corpusFiles(join(ROOT, "tests/fixtures/published")).map((f) => join(ROOT, "tests/fixtures/published", f)),
  ];

  test("the captures are many real servers with many texts", () => {
    expect(captures.length).toBeGreaterThanOrEqual(30);
  });

  for (const path of captures) {
    test(path.slice(ROOT.length + 1), () => {
      const c = JSON.parse(readFileSync(path, "utf8")) as Contract;
      expect(c.tools.length + c.prompts.length + c.resources.length).toBeGreaterThan(0);
      const loud = lint(c).filter((f) => f.level !== "info");
      expect(loud.map((f) => `${f.rule} ${f.target.name}${f.path}: ${f.message}`)).toEqual([]);
    });
  }

  test("legitimate wordings that come close to poisoning", () => {
    const phrases = JSON.parse(readFileSync(join(BENIGN, "legit-phrases.json"), "utf8")) as { cases: Case[] };
    expect(phrases.cases.length).toBeGreaterThanOrEqual(30);
    const loud: string[] = [];
    for (const c of phrases.cases) {
      for (const f of lint(surfaceWith(c))) if (f.level !== "info") loud.push(`${f.rule}: ${f.message}`);
    }
    expect(loud).toEqual([]);
  });
});
