/**
 * Tool-name constraints shared by several hosts: a character class, a first-character rule and
 * a maximum length, with the smallest rename that satisfies them. Pure.
 */
import type { Tool } from "../../contract/model.ts";
import type { HostHit } from "./model.ts";

export interface NameRule {
  /** One allowed character (a regex character class, e.g. /[A-Za-z0-9_-]/). */
  char: RegExp;
  /** The first character, when it is more constrained. */
  first?: RegExp;
  max: number;
}

const WHOLE = new WeakMap<NameRule, RegExp>();

/** The rule as one regex over a whole name, built once: most names pass, and pass fast. */
function wholeOf(rule: NameRule): RegExp {
  let whole = WHOLE.get(rule);
  if (!whole) {
    const first = rule.first ? rule.first.source : rule.char.source;
    whole = new RegExp(`^${first}${rule.char.source}{0,${rule.max - 1}}$`);
    WHOLE.set(rule, whole);
  }
  return whole;
}

/** The name with every character outside the class as "_", a "_" in front when the first is not allowed, cut to the maximum. */
export function renameFor(name: string, rule: NameRule): string {
  let out = "";
  for (const c of name) out += rule.char.test(c) ? c : "_";
  if (out === "") out = "_";
  if (rule.first && !rule.first.test(out.charAt(0))) out = `_${out}`;
  return out.length > rule.max ? out.slice(0, rule.max) : out;
}

/** Whether the name keeps the rule (nameProblem's answer is undefined), without building the answer. */
export function fitsName(name: string, rule: NameRule): boolean {
  return wholeOf(rule).test(name);
}

/** Why the name breaks the rule ("contains \".\"", "is 70 characters, over 64"), or undefined when it does not. */
export function nameProblem(name: string, rule: NameRule): string | undefined {
  if (wholeOf(rule).test(name)) return undefined;
  const bad = [...new Set([...name].filter((c) => !rule.char.test(c)))];
  const problems: string[] = [];
  if (name.length === 0) problems.push("is empty");
  if (bad.length > 0) problems.push(`contains ${bad.map((c) => JSON.stringify(c)).join(", ")}`);
  else if (rule.first && name.length > 0 && !rule.first.test(name.charAt(0)))
    problems.push(`starts with ${JSON.stringify(name.charAt(0))}`);
  if (name.length > rule.max) problems.push(`is ${name.length} characters, over ${rule.max}`);
  return problems.length ? problems.join(" and ") : undefined;
}

/** A tool check that reports a name outside `rule` under `ruleId`, saying what the host does (`does`) and the rename. */
export function checkName(ruleId: string, rule: NameRule, does: string, extra = "") {
  // The whole-name regex kept here once made: the check runs for every tool, and most names pass.
  let whole: RegExp | undefined;
  return (tool: Tool, hit: (h: HostHit) => void): void => {
    const name = typeof tool.name === "string" ? tool.name : "";
    whole ??= wholeOf(rule);
    if (whole.test(name)) return;
    const problem = nameProblem(name, rule);
    if (problem === undefined) return;
    hit({
      rule: ruleId,
      path: "/name",
      message: `the name ${problem}: ${does}; fix: rename it to ${JSON.stringify(renameFor(name, rule))}${extra}`,
      evidence: name,
    });
  };
}
