/**
 * The report model, both kinds side by side: a Report (what check or diff found between two
 * surfaces: changes by severity) and a LintReport (what lint found on one surface: findings
 * by level), with everything a formatter needs to render either. Severities and levels are
 * three grades each, most severe first, and are judged alike. Formatters never compute
 * verdicts; they only render this. Pure types and functions.
 */
import type { Contract } from "../contract/model.ts";
import { type FnvState, fnv1a64, fnv1a64After, fnvPrefix } from "../diff/fingerprint.ts";
import { bumpFor, type Change, type ChangeTarget, type SemverBump } from "../diff/model.ts";
import type { HostOutcome } from "../lint/hosts/summary.ts";
import type { Finding } from "../lint/model.ts";
import { LINT_LEVELS, type LintLevel, SEVERITIES, type Severity } from "../rules/model.ts";
import { findRule } from "../rules/registry.ts";
import { withTextDiff } from "./text-changes.ts";

/** Bump when the JSON report's shape changes incompatibly (docs/report.schema.json). */
export const REPORT_VERSION = 1;
/** Bump when the JSON lint report's shape changes incompatibly (docs/lint-report.schema.json). */
export const LINT_REPORT_VERSION = 1;

export const FAIL_ON = ["breaking", "minor", "patch", "never"] as const;
export type FailOn = (typeof FAIL_ON)[number];
export const LINT_FAIL_ON = ["error", "warning", "info", "never"] as const;
export type LintFailOn = (typeof LINT_FAIL_ON)[number];

export interface Side {
  /** Where this side came from: a file path, or the live server's description. */
  source: string;
  server: { name?: string; version?: string };
  protocolVersion: string;
  /** The names of the environment variables and headers the capture was given, and its OAuth scopes (capture.env, capture.headers, capture.scopes), when any. */
  given?: GivenNames;
  /** Converted from another tool's file, which records no names: nothing is known about them. */
  givenUnknown?: true;
}

export interface GivenNames {
  env?: string[];
  headers?: string[];
  /** The OAuth scopes of the stored sign-in the capture used (capture.scopes). */
  scopes?: string[];
}

/**
 * The two sides were captured with different sets of environment variable or header names, or
 * OAuth scopes: the surface may depend on them (a server can list more tools with credentials
 * than without, or with a write scope than with a read one).
 */
export interface EnvironmentNote {
  baseline: NoteNames;
  current: NoteNames;
  /** One sentence, shown beside the verdict. */
  message: string;
}

/**
 * Why a change or finding does not count toward the verdict, when it does not: outside what
 * the consumer uses (--used, --used-by), or ignored by the policy file. Such items are still listed.
 */
export interface Exemption {
  kind: "out-of-scope" | "ignored";
  reason: string;
}

export interface ReportChange extends Change {
  exempt?: Exemption;
}

/** A finding as reported: with a stable fingerprint, and why it does not count, when it does not. */
export interface ReportFinding extends Finding {
  /** Stable across runs and commits: same rule, target, path (and evidence, when needed to tell findings apart). */
  fingerprint: string;
  /** Ignored by the policy file: still listed, never counted. */
  exempt?: Exemption;
}

/**
 * What --used and --used-by resolved to on the two surfaces: the report lists it, so that a
 * scope that selects nothing (a typo, a directory without the client's code) is seen.
 */
export interface ResolvedScope {
  /** How it was given: `--used get_*,echo --used-by src/`. */
  given: string;
  /** The --used names and globs. */
  used: string[];
  /** The --used-by paths. */
  usedBy: string[];
  /** The items of either surface that are in scope, in kind order, then natural order. */
  items: ChangeTarget[];
  /** With --used-by: how many of those its string literals selected (0: it found none). */
  fromUsedBy?: number;
}

/** `check --update`: the changes were accepted into this lockfile (or it was created, or left as it was). */
export interface Accepted {
  file: string;
  /** created: there was no lockfile; updated: rewritten; unchanged: the bytes were already those. */
  outcome: "created" | "updated" | "unchanged";
}

/** The check and diff report. */
export interface Report {
  command: "check" | "diff";
  baseline: Side;
  current: Side;
  failOn: FailOn;
  changes: ReportChange[];
  /** Things the reader must see beside the changes: expired ignores, break-glass, semver. */
  notices: string[];
  /** Counts by severity; `security` counts the security drift among the breaking ones. */
  summary: Record<Severity, number> & { security: number; total: number };
  /**
   * The semver level of the changes, in 1.x terms: "major" for a breaking change, "minor" for
   * an addition, "patch" for a fix; equivalent rewrites and notes need no release ("none").
   */
  changeLevel: SemverBump;
  /**
   * The part of the version number to bump from the baseline's version: the change level, or
   * below 1.0.0 one place lower (a breaking change is a MINOR bump of 0.y.z). Every output says
   * this one (text, JSON, SARIF, JUnit, the Action's required-bump), so they agree.
   */
  requiredBump: SemverBump;
  /**
   * The smallest server version that allows `changeLevel` after the baseline's version, when
   * that is a semantic version (below 1.0.0 the rules shift one place, src/policy/semver.ts).
   */
  nextVersion?: string;
  /** Changes at or above the threshold. */
  failing: number;
  result: "pass" | "fail";
  /** --used / --used-by, as resolved on the two surfaces. */
  scope?: ResolvedScope;
  /** `check --update`: the changes were accepted into the baseline; the run passes. */
  accepted?: Accepted;
  /** The sides were captured with different environment variable or header names. */
  environment?: EnvironmentNote;
}

/** The estimated size of the tool list in a model's context (src/lint/rules-quality.ts toolListSize). */
export interface ToolListSize {
  tools: number;
  characters: number;
  tokens: number;
  /** The budget tool-list-too-large warns over. */
  budget: number;
}

/** The lint report. */
export interface LintReport {
  command: "lint";
  /** The surface linted: a lockfile path or the live server's description. */
  subject: Side;
  failOn: LintFailOn;
  /** Most severe first; within a level, in catalog order, then target and path. */
  findings: ReportFinding[];
  /** Things the reader must see beside the findings: expired or unused ignores, break-glass. */
  notices: string[];
  summary: Record<LintLevel, number> & { total: number };
  toolList: ToolListSize;
  /** Findings at or above the threshold that are not exempt. */
  failing: number;
  result: "pass" | "fail";
  /** `--hosts`: per host profile, what it does to this surface (src/lint/hosts/summary.ts). */
  hosts?: HostOutcome[];
}

/** Either report, told apart by `command` ("lint", or "check"/"diff"). */
export type AnyReport = Report | LintReport;
/** What a report lists: changes (check, diff) or findings (lint). */
export type ReportItem = ReportChange | ReportFinding;
/** A change's severity or a finding's level. */
export type Grade = Severity | LintLevel;

/** 0, 1, 2: breaking and error, minor and warning, patch and info. */
const RANKS = new Map<string, number>([...SEVERITIES.entries(), ...LINT_LEVELS.entries()].map(([i, g]) => [g, i]));

export function gradeRank(grade: Grade): number {
  return RANKS.get(grade) as number;
}

/**
 * Security drift that fails like a breaking change (security-finding-introduced): a section of
 * its own in every format. A security warning brought in (security-warning-introduced, minor)
 * is listed with the minor changes.
 */
export function isSecurity(item: ReportItem): boolean {
  return isChange(item) && item.severity === "breaking" && findRule(item.rule)?.group === "security";
}

/** A change (check, diff) rather than a finding (lint). */
export function isChange(item: ReportItem): item is ReportChange {
  return "severity" in item;
}

export function gradeOf(item: ReportItem): Grade {
  return isChange(item) ? item.severity : item.level;
}

/** The grades of the report's kind, most severe first: its sections, in order. */
export function gradesOf(report: AnyReport): readonly Grade[] {
  return report.command === "lint" ? LINT_LEVELS : SEVERITIES;
}

/** The report's changes or findings of one grade. */
export function itemsOfGrade(report: AnyReport, grade: Grade): ReportItem[] {
  return itemsOf(report).filter((item) => gradeOf(item) === grade);
}

/** The report's changes or findings, most severe first. */
export function itemsOf(report: AnyReport): readonly ReportItem[] {
  return report.command === "lint" ? report.findings : report.changes;
}

/** "change" or "finding": what the report lists, for sentences. */
export function itemNoun(report: AnyReport): string {
  return report.command === "lint" ? "finding" : "change";
}

/** At or above the threshold (exemptions aside). */
export function isFailing(grade: Grade, failOn: FailOn | LintFailOn): boolean {
  return failOn !== "never" && gradeRank(grade) <= gradeRank(failOn);
}

/** Counts toward the verdict: not exempt, and at or above the threshold. */
export function isCounted(item: ReportItem, failOn: FailOn | LintFailOn): boolean {
  return !item.exempt && isFailing(gradeOf(item), failOn);
}

/** Exempt, but at or above the threshold: would fail without its exemption. */
export function isWaived(item: ReportItem, failOn: FailOn | LintFailOn): boolean {
  return item.exempt !== undefined && isFailing(gradeOf(item), failOn);
}

export function sideOf(contract: Contract, source: string): Side {
  const { name, version } = contract.server;
  const { env, headers, scopes } = contract.capture;
  const given = {
    ...(env?.length && { env: [...env] }),
    ...(headers?.length && { headers: [...headers] }),
    ...(scopes?.length && { scopes: [...scopes] }),
  };
  return {
    source,
    server: { ...(typeof name === "string" ? { name } : {}), ...(typeof version === "string" ? { version } : {}) },
    protocolVersion: contract.protocolVersion,
    ...(Object.keys(given).length > 0 && { given }),
    ...(contract.capture.importedFrom !== undefined && { givenUnknown: true as const }),
  };
}

/** What a side of an EnvironmentNote was given; `scopes` only when either side had some. */
export interface NoteNames {
  env: string[];
  headers: string[];
  scopes?: string[];
}

/** "env GITHUB_TOKEN and header X-Api-Key", "scopes notes:read", or "none". */
function describeNames(names: NoteNames): string {
  const parts = [
    ...(names.env.length ? [`env ${names.env.join(", ")}`] : []),
    ...(names.headers.length
      ? [`${names.headers.length === 1 ? "header" : "headers"} ${names.headers.join(", ")}`]
      : []),
    ...(names.scopes?.length ? [`${names.scopes.length === 1 ? "scope" : "scopes"} ${names.scopes.join(" ")}`] : []),
  ];
  return parts.length ? parts.join(" and ") : "none";
}

/** When the sides were given different names (header names compared case-insensitively) or scopes, say so. */
export function environmentNote(baseline: Side, current: Side): EnvironmentNote | undefined {
  if (baseline.givenUnknown || current.givenUnknown) return undefined;
  const scoped = Boolean(baseline.given?.scopes?.length || current.given?.scopes?.length);
  const names = (side: Side): NoteNames => ({
    env: side.given?.env ?? [],
    headers: side.given?.headers ?? [],
    ...(scoped && { scopes: side.given?.scopes ?? [] }),
  });
  const before = names(baseline);
  const after = names(current);
  const key = (n: NoteNames) =>
    JSON.stringify([[...n.env].sort(), n.headers.map((h) => h.toLowerCase()).sort(), [...(n.scopes ?? [])].sort()]);
  if (key(before) === key(after)) return undefined;
  const now = current.source.startsWith("live ") ? "this capture" : current.source;
  const message = `the baseline was captured with ${describeNames(before)}; ${now} had ${describeNames(after)} — the surface may depend on them.`;
  return { baseline: before, current: after, message };
}

/** The counts by grade (in grade order), then the total. */
function summarize<G extends Grade>(grades: readonly G[], items: readonly ReportItem[]) {
  const summary = Object.fromEntries(grades.map((g) => [g, 0])) as Record<G, number> & { total: number };
  summary.total = items.length;
  for (const item of items) summary[gradeOf(item) as G]++;
  return summary;
}

/** Most severe first; a stable sort keeps the order within a grade. */
function bySeverity<T extends ReportItem>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => gradeRank(gradeOf(a)) - gradeRank(gradeOf(b)));
}

export function buildReport(
  command: Report["command"],
  baseline: Side,
  current: Side,
  changes: ReportChange[],
  failOn: FailOn,
  notices: string[] = [],
): Report {
  const failing = changes.filter((c) => isCounted(c, failOn)).length;
  const { total, ...bySeverityCount } = summarize(SEVERITIES, changes);
  const environment = environmentNote(baseline, current);
  return {
    command,
    baseline,
    current,
    failOn,
    // Texts (descriptions, titles, instructions) say what changed as a word diff.
    changes: bySeverity(changes.map(withTextDiff)),
    notices,
    summary: { ...bySeverityCount, security: changes.filter(isSecurity).length, total },
    changeLevel: bumpFor(changes),
    // Until the verdict knows the baseline's version (src/policy/verdict.ts): the level itself.
    requiredBump: bumpFor(changes),
    failing,
    result: failing > 0 ? "fail" : "pass",
    ...(environment && { environment }),
  };
}

export function buildLintReport(
  subject: Side,
  findings: readonly ReportFinding[],
  toolList: ToolListSize,
  failOn: LintFailOn,
  notices: string[] = [],
): LintReport {
  const failing = findings.filter((f) => isCounted(f, failOn)).length;
  return {
    command: "lint",
    subject,
    failOn,
    // Within a level, catalog order.
    findings: bySeverity(findings),
    notices,
    summary: summarize(LINT_LEVELS, findings),
    toolList,
    failing,
    result: failing > 0 ? "fail" : "pass",
  };
}

/**
 * Fingerprints for findings, computed the way diff fingerprints are: from rule, target and
 * path; findings that share those (two URLs in one description) are told apart by their
 * evidence, then by order. Independent of levels, so a severity override keeps them.
 */
export function fingerprintFindings(findings: readonly Finding[]): ReportFinding[] {
  const prints = plainFingerprints(findings);
  // Every fingerprint distinct, so every key (the usual case): nothing to tell apart.
  if (new Set(prints).size === prints.length) {
    return findings.map((finding, i) => ({ ...finding, fingerprint: prints[i] as string }));
  }
  const keyOf = (f: Finding) => `lint|${f.rule}|${f.target.kind}|${f.target.name}|${f.path}`;
  const keys = findings.map(keyOf);
  const counts = countOf(keys);
  const refined = findings.map((f, i) =>
    (counts.get(keys[i] as string) as number) > 1
      ? `${keys[i]}|${JSON.stringify(f.evidence ?? null)}`
      : (keys[i] as string),
  );
  const refinedCounts = countOf(refined);
  const seen = new Map<string, number>();
  return findings.map((finding, i) => {
    let key = refined[i] as string;
    if ((refinedCounts.get(key) as number) > 1) {
      const n = seen.get(key) ?? 0;
      seen.set(key, n + 1);
      key = `${key}|#${n}`;
    }
    return { ...finding, fingerprint: fnv1a64(key) };
  });
}

/**
 * fnv1a64 of each finding's key (`lint|rule|kind|name|path`), the `lint|rule|kind|` part hashed
 * once per rule and kind: a --hosts report has thousands of findings of a few rules.
 */
function plainFingerprints(findings: readonly Finding[]): string[] {
  // By rule, then kind: looked up by strings the registry and the checks share, not by a new one.
  const prefixes = new Map<string, Map<string, FnvState>>();
  const prints: string[] = [];
  for (const { rule, target, path } of findings) {
    let byKind = prefixes.get(rule);
    if (byKind === undefined) {
      byKind = new Map();
      prefixes.set(rule, byKind);
    }
    let prefix = byKind.get(target.kind);
    if (prefix === undefined) {
      prefix = fnvPrefix(`lint|${rule}|${target.kind}|`);
      byKind.set(target.kind, prefix);
    }
    prints.push(fnv1a64After(prefix, `${target.name}|${path}`));
  }
  return prints;
}

function countOf(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}
