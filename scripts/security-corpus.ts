/**
 * The security gate's figures on the corpora (issue #26's targets), printed:
 *
 * - poisoned paraphrases caught at their rule and level (target: all);
 * - error-level security findings on the benign captures of published servers (target: 0), and
 *   the share of their tools with a security warning (target: at most 1 %);
 * - legitimate wordings close to poisoning that get an error or a warning (target: 0);
 * - upgrades from an earlier published release to the corpus's release: security drift that
 *   fails the run (security-finding-introduced; target: 0) and warnings for review.
 *
 *   bun scripts/security-corpus.ts          # exits 1 when a target is missed
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compareSurfaces } from "../src/policy/compare.ts";
import {
  BENIGN,
  benignCaptures,
  type Case,
  corpusFiles,
  lintSecurity,
  POISONED,
  readContract,
  readCorpus,
  surfaceWith,
  upgradePairs,
} from "../tests/helpers/security-corpus.ts";

const pct = (n: number, of: number) => (of === 0 ? "0 %" : `${((100 * n) / of).toFixed(2)} %`);
const missed: string[] = [];

console.log("poisoned corpus (caught at its rule and level)");
let caught = 0;
let cases = 0;
for (const file of corpusFiles(POISONED)) {
  const corpus = readCorpus(file);
  const level = corpus.level ?? "error";
  const hits = corpus.cases.filter((c) =>
    lintSecurity(surfaceWith(c)).some((f) => f.rule === corpus.rule && f.level === level),
  ).length;
  caught += hits;
  cases += corpus.cases.length;
  console.log(`  ${file.padEnd(24)} ${String(hits).padStart(3)}/${corpus.cases.length} ${corpus.rule} (${level})`);
}
console.log(`  all: ${caught}/${cases}`);
if (caught < cases) missed.push(`${cases - caught} poisoned cases not caught`);

let tools = 0;
let errors = 0;
const warned = new Set<string>();
const captures = benignCaptures();
for (const path of captures) {
  const c = readContract(path);
  tools += c.tools.length;
  for (const f of lintSecurity(c)) {
    if (f.level === "error") errors++;
    if (f.level === "warning" && f.target.kind === "tool") warned.add(`${path}|${f.target.name}`);
  }
}
console.log(`\nbenign corpus: ${captures.length} captures of published servers, ${tools} tools`);
console.log(`  error-level security findings: ${errors} (target 0)`);
console.log(`  tools with a security warning: ${warned.size} = ${pct(warned.size, tools)} (target at most 1 %)`);
if (errors > 0) missed.push(`${errors} security errors on the benign corpus`);
if (warned.size > tools / 100) missed.push("security warnings on more than 1 % of benign tools");

const phrases = JSON.parse(readFileSync(join(BENIGN, "legit-phrases.json"), "utf8")) as { cases: Case[] };
const loud = phrases.cases.filter((c) => lintSecurity(surfaceWith(c)).some((f) => f.level !== "info"));
console.log(
  `\nlegitimate wordings close to poisoning: ${loud.length}/${phrases.cases.length} get an error or warning (target 0)`,
);
if (loud.length > 0) missed.push(`${loud.length} legitimate wordings flagged`);

const pairs = upgradePairs();
let failing = 0;
let warnings = 0;
console.log(`\nupgrades between two published releases: ${pairs.length}`);
for (const pair of pairs) {
  const changes = compareSurfaces(readContract(pair.before), readContract(pair.after));
  const fail = changes.filter((c) => c.rule === "security-finding-introduced");
  const warn = changes.filter((c) => c.rule === "security-warning-introduced");
  failing += fail.length;
  warnings += warn.length;
  if (fail.length + warn.length > 0) {
    console.log(`  ${pair.name}: ${fail.length} failing, ${warn.length} warnings`);
    for (const c of [...fail, ...warn]) console.log(`    ${c.rule}: ${c.message.slice(0, 160)}`);
  }
}
console.log(`  security-finding-introduced: ${failing} (target 0); security-warning-introduced: ${warnings}`);
if (failing > 0) missed.push(`${failing} failing security drifts on published upgrades`);

console.log(missed.length === 0 ? "\nall targets hold" : `\nmissed: ${missed.join("; ")}`);
process.exit(missed.length === 0 ? 0 : 1);
