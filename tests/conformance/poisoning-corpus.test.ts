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
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compareSurfaces } from "../../src/policy/compare.ts";
import {
  BENIGN,
  benignCaptures,
  type Case,
  corpusFiles,
  lintSecurity as lint,
  POISONED,
  ROOT,
  readContract,
  readCorpus,
  SECURITY_RULES,
  surfaceWith,
  upgradePairs,
} from "../helpers/security-corpus.ts";

describe("the poisoned corpus: every case is caught by its rule", () => {
  const files = corpusFiles(POISONED);
  test("one file per intent, many paraphrases each", () => {
    expect(files.length).toBeGreaterThanOrEqual(11);
    for (const file of files) {
      const corpus = readCorpus(file);
      expect(SECURITY_RULES.map((r) => r.id as string)).toContain(corpus.rule);
      expect(corpus.cases.length).toBeGreaterThanOrEqual(10);
      expect(new Set(corpus.cases.map((c) => c.text)).size).toBe(corpus.cases.length);
    }
  });

  for (const file of files) {
    const corpus = readCorpus(file);
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
  const captures = benignCaptures();

  test("the captures are many real servers with many texts", () => {
    expect(captures.length).toBeGreaterThanOrEqual(30);
  });

  for (const path of captures) {
    test(path.slice(ROOT.length + 1), () => {
      const c = readContract(path);
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

describe("upgrades between two published releases: no security drift fails the run", () => {
  const pairs = upgradePairs();
  test("there are many", () => {
    expect(pairs.length).toBeGreaterThanOrEqual(20);
  });
  for (const pair of pairs) {
    test(pair.name, () => {
      const changes = compareSurfaces(readContract(pair.before), readContract(pair.after));
      const drift = changes.filter(
        (c) => c.rule === "security-finding-introduced" || c.rule === "security-warning-introduced",
      );
      expect(drift.map((c) => `${c.rule}: ${c.message}`)).toEqual([]);
    });
  }
});
