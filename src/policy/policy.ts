/**
 * The policy file, mcp-contract.config.json: per-rule severity overrides, ignores with
 * reasons and expiry dates, and the default failure threshold. This module parses and
 * validates it and says exactly what is wrong and where (exit 2); src/policy/apply.ts
 * applies it. Pure; the caller reads the file.
 *
 * {
 *   "version": 1,
 *   "rules": { "description-changed": "off", "enum-value-added": { "output": "minor" }, "embedded-url": "info" },
 *   "ignore": [
 *     { "rule": "tool-removed", "target": "tool:legacy_*", "reason": "…", "expires": "2026-06-30" },
 *     { "fingerprint": "3f2a9c0d1e4b5a67", "reason": "…" }
 *   ],
 *   "failOn": "breaking",
 *   "allowHosts": ["notion.com", "203.0.113.7"],
 *   "hosts": ["gemini-parameters", "openai"]
 * }
 */

import { locateJsonError } from "../contract/json-position.ts";
import { isJsonObject, type JsonObject } from "../contract/model.ts";
import type { TargetKind } from "../contract/surface.ts";
import type { Direction } from "../diff/model.ts";
import { UsageError } from "../errors.ts";
import { parseHostNames } from "../lint/hosts/profiles.ts";
import { FAIL_ON, type FailOn } from "../report/model.ts";
import { LINT_LEVELS, type LintLevel, type Severity } from "../rules/model.ts";
import { catalogOf, suggestRuleIds } from "../rules/registry.ts";
import { levenshtein, suggest } from "../util/text.ts";

export const POLICY_FILE = "mcp-contract.config.json";
export const POLICY_VERSION = 1;

export type RuleLevel = Severity | "off";
export const RULE_LEVELS: readonly RuleLevel[] = ["breaking", "minor", "patch", "off"];

/** A rule's override: one level for every change, or one per schema direction. */
export type RuleOverride = { all: RuleLevel } | Partial<Record<Direction, RuleLevel>>;

/** A lint rule's override (`mcp-contract lint`): another level, or "off". */
export type LintRuleLevel = LintLevel | "off";
export const LINT_RULE_LEVELS: readonly LintRuleLevel[] = [...LINT_LEVELS, "off"];

export interface TargetSelector {
  /** Absent: any kind. */
  kind?: TargetKind;
  /** A name glob (src/policy/glob.ts); "" with kind "server". */
  glob: string;
  /** As written in the file, for messages. */
  text: string;
}

export interface IgnoreEntry {
  /** Position in the file's "ignore" array, for messages ($.ignore[2]). */
  index: number;
  rule?: string;
  target?: TargetSelector;
  fingerprint?: string;
  reason: string;
  /** YYYY-MM-DD: the last day the ignore applies. */
  expires?: string;
}

export interface Policy {
  /** The file it came from, for messages. */
  source: string;
  /** Overrides of diff rules (check, diff). */
  rules: ReadonlyMap<string, RuleOverride>;
  /** Overrides of lint rules (lint). */
  lintRules: ReadonlyMap<string, LintRuleLevel>;
  ignore: readonly IgnoreEntry[];
  failOn?: FailOn;
  /**
   * Hosts whose links are neither lint findings (embedded-url, external-link) nor drift in
   * `check`: each covers itself and its subdomains; an IP address only itself. Lowercase.
   */
  allowHosts: readonly string[];
  /** Host profiles lint, check and diff judge against when no --hosts is given (src/lint/hosts/; "all" expanded). */
  hosts?: readonly string[];
}

/** No policy file: nothing overridden, nothing ignored. */
export function emptyPolicy(source = ""): Policy {
  return { source, rules: new Map(), lintRules: new Map(), ignore: [], allowHosts: [] };
}

const TOP_KEYS = ["$schema", "version", "rules", "ignore", "failOn", "allowHosts", "hosts"];

const IPV4_HOST = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;
const HOST_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** An allowHosts entry checked: the host in lowercase, or what is wrong with it. */
export function parseAllowedHost(value: unknown): { host: string } | { error: string } {
  if (typeof value !== "string") return { error: `expected a host name like "docs.example.com", ${found(value)}` };
  const text = value.trim().toLowerCase();
  if (text === "") return { error: `expected a host name like "docs.example.com", found an empty string` };
  const url = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:@\s]+)/.exec(text);
  if (url) return { error: `expected a host, not a URL: write ${JSON.stringify(url[1])}, ${found(value)}` };
  if (text.startsWith("*.")) {
    return {
      error: `write ${JSON.stringify(text.slice(2))}: an entry already covers its subdomains, ${found(value)}`,
    };
  }
  if (/[/:?#@\s]/.test(text)) {
    return { error: `expected a bare host name or IPv4 address (no scheme, port or path), ${found(value)}` };
  }
  if (!IPV4_HOST.test(text) && (!HOST_NAME.test(text) || /^[\d.]+$/.test(text))) {
    return { error: `expected a host name like "docs.example.com" or an IPv4 address, ${found(value)}` };
  }
  return { host: text.replace(/\.$/, "") };
}
const IGNORE_KEYS = ["rule", "target", "fingerprint", "reason", "expires"];
const DIRECTION_KEYS = ["input", "output"];

/** Target kinds as written in "target": "KIND:GLOB". `template` is short for resourceTemplate. */
const KIND_PREFIXES: Record<string, TargetKind> = {
  tool: "tool",
  resource: "resource",
  resourceTemplate: "resourceTemplate",
  template: "resourceTemplate",
  prompt: "prompt",
  skill: "skill",
  server: "server",
};

/** A JSON path segment: .key for identifiers, ["key"] otherwise. */
export function pathKey(parent: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

function didYouMean(word: string, candidates: readonly string[]): string {
  const close = suggest(word, candidates);
  return close.length ? ` Did you mean ${close.map((c) => JSON.stringify(c)).join(" or ")}?` : "";
}

const found = (value: unknown) => `found ${JSON.stringify(value)}`;

export function isValidDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Parse "tool:get_*", "resource:weather://x", "server:" or a bare glob (any kind). */
export function parseTargetSelector(text: string): TargetSelector | { error: string } {
  const colon = text.indexOf(":");
  if (colon > 0) {
    const prefix = text.slice(0, colon);
    const rest = text.slice(colon + 1);
    const kind = KIND_PREFIXES[prefix];
    if (kind) {
      if (kind === "server") {
        return rest === "" || rest === "*"
          ? { kind, glob: "", text }
          : { error: `"server:" stands alone (server-level changes have no name), ${found(text)}` };
      }
      if (rest === "") return { error: `expected a name or glob after "${prefix}:", ${found(text)}` };
      return { kind, glob: rest, text };
    }
    // "tools:x" is a typo for a kind; "weather://x" or "urn:x" is a URI glob.
    if (/^[A-Za-z]+$/.test(prefix) && !rest.startsWith("//")) {
      const close = suggest(prefix, Object.keys(KIND_PREFIXES), 1);
      if (close.length && levenshtein(close[0] as string, prefix) <= 2) {
        return {
          error: `unknown target kind ${JSON.stringify(prefix)}. Did you mean "${close[0]}:${rest}"? Kinds are ${Object.keys(KIND_PREFIXES).join(", ")}; a bare glob matches any kind`,
        };
      }
    }
  }
  if (text === "") return { error: "expected a name or glob, found an empty string" };
  return { glob: text, text };
}

export function parsePolicy(text: string, source: string): Policy {
  const hint = `See "Policy file" in the README for the format.`;
  if (text.trim() === "") {
    throw new UsageError(`${source} is empty. A policy file needs at least {"version": ${POLICY_VERSION}}. ${hint}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    const where = locateJsonError(text);
    throw new UsageError(`${source}:${where.line}:${where.column}: not valid JSON: ${where.message}.`);
  }
  const problem = (path: string, what: string) =>
    new UsageError(`${source} is not a valid policy file: at ${path}, ${what}. ${hint}`);
  const checkKeys = (object: JsonObject, path: string, allowed: readonly string[]) => {
    for (const key of Object.keys(object)) {
      if (!allowed.includes(key)) {
        throw problem(
          pathKey(path, key),
          `unknown field ${JSON.stringify(key)}.${didYouMean(key, allowed)} Allowed: ${allowed.join(", ")}`,
        );
      }
    }
  };
  const checkLevel = (value: unknown, path: string): RuleLevel => {
    if (typeof value !== "string" || !RULE_LEVELS.includes(value as RuleLevel)) {
      throw problem(path, `expected "breaking", "minor", "patch" or "off", ${found(value)}`);
    }
    return value as RuleLevel;
  };
  const checkRuleId = (id: string, path: string) => {
    if (!catalogOf(id)) {
      const close = suggestRuleIds(id);
      throw problem(
        path,
        `unknown rule id ${JSON.stringify(id)}.${close.length ? ` Did you mean ${close.map((c) => JSON.stringify(c)).join(" or ")}?` : ""} Run \`mcp-contract rules\` for the list`,
      );
    }
  };

  if (!isJsonObject(data)) throw problem("$", "expected an object");
  checkKeys(data, "$", TOP_KEYS);
  if (data.version === undefined) {
    throw problem("$", `missing "version": add "version": ${POLICY_VERSION}`);
  }
  if (typeof data.version !== "number" || !Number.isInteger(data.version) || data.version < 1) {
    throw problem("$.version", `expected ${POLICY_VERSION}, ${found(data.version)}`);
  }
  if (data.version > POLICY_VERSION) {
    throw new UsageError(
      `${source} uses policy version ${data.version}, but this mcp-contract reads version ${POLICY_VERSION} at most: it was written for a newer mcp-contract. Upgrade mcp-contract to use it.`,
    );
  }
  if (data.$schema !== undefined && typeof data.$schema !== "string") {
    throw problem("$.$schema", `expected a string, ${found(data.$schema)}`);
  }

  const rules = new Map<string, RuleOverride>();
  const lintRules = new Map<string, LintRuleLevel>();
  if (data.rules !== undefined) {
    if (!isJsonObject(data.rules))
      throw problem("$.rules", `expected an object of rule id → level, ${found(data.rules)}`);
    for (const [id, value] of Object.entries(data.rules)) {
      const path = pathKey("$.rules", id);
      checkRuleId(id, path);
      if (catalogOf(id) === "lint") {
        if (typeof value !== "string" || !LINT_RULE_LEVELS.includes(value as LintRuleLevel)) {
          throw problem(
            path,
            `${JSON.stringify(id)} is a lint rule: expected "error", "warning", "info" or "off", ${found(value)}`,
          );
        }
        lintRules.set(id, value as LintRuleLevel);
      } else if (isJsonObject(value)) {
        checkKeys(value, path, DIRECTION_KEYS);
        if (Object.keys(value).length === 0) throw problem(path, `expected "input" and/or "output", found {}`);
        const override: Partial<Record<Direction, RuleLevel>> = {};
        for (const direction of DIRECTION_KEYS as Direction[]) {
          if (value[direction] !== undefined)
            override[direction] = checkLevel(value[direction], pathKey(path, direction));
        }
        rules.set(id, override);
      } else {
        if (typeof value !== "string" || !RULE_LEVELS.includes(value as RuleLevel)) {
          throw problem(
            path,
            `expected "breaking", "minor", "patch", "off" or {"input": …, "output": …}, ${found(value)}`,
          );
        }
        rules.set(id, { all: value as RuleLevel });
      }
    }
  }

  const ignore: IgnoreEntry[] = [];
  if (data.ignore !== undefined) {
    if (!Array.isArray(data.ignore)) throw problem("$.ignore", `expected an array, ${found(data.ignore)}`);
    data.ignore.forEach((item, index) => {
      const path = `$.ignore[${index}]`;
      if (!isJsonObject(item)) throw problem(path, `expected an object, ${found(item)}`);
      checkKeys(item, path, IGNORE_KEYS);
      const entry: IgnoreEntry = { index, reason: "" };
      if (item.rule !== undefined) {
        if (typeof item.rule !== "string") throw problem(`${path}.rule`, `expected a rule id, ${found(item.rule)}`);
        checkRuleId(item.rule, `${path}.rule`);
        entry.rule = item.rule;
      }
      if (item.target !== undefined) {
        if (typeof item.target !== "string") {
          throw problem(
            `${path}.target`,
            `expected a string like "tool:get_forecast" or "get_*", ${found(item.target)}`,
          );
        }
        const selector = parseTargetSelector(item.target);
        if ("error" in selector) throw problem(`${path}.target`, selector.error);
        entry.target = selector;
      }
      if (item.fingerprint !== undefined) {
        if (typeof item.fingerprint !== "string" || !/^[0-9a-f]{16}$/.test(item.fingerprint)) {
          throw problem(
            `${path}.fingerprint`,
            `expected 16 lowercase hex digits (a change's "fingerprint" in the JSON report), ${found(item.fingerprint)}`,
          );
        }
        entry.fingerprint = item.fingerprint;
      }
      if (entry.rule === undefined && entry.target === undefined && entry.fingerprint === undefined) {
        throw problem(path, `expected "rule", "target" or "fingerprint" to say which changes it ignores`);
      }
      if (item.reason === undefined) {
        throw problem(path, `missing "reason": say why these changes are acceptable (it is shown in the report)`);
      }
      if (typeof item.reason !== "string" || item.reason.trim() === "") {
        throw problem(`${path}.reason`, `expected a non-empty string, ${found(item.reason)}`);
      }
      entry.reason = item.reason.trim();
      if (item.expires !== undefined) {
        if (typeof item.expires !== "string" || !isValidDate(item.expires)) {
          throw problem(`${path}.expires`, `expected a date YYYY-MM-DD, ${found(item.expires)}`);
        }
        entry.expires = item.expires;
      }
      ignore.push(entry);
    });
  }

  const allowHosts: string[] = [];
  if (data.allowHosts !== undefined) {
    if (!Array.isArray(data.allowHosts)) {
      throw problem("$.allowHosts", `expected an array of host names, ${found(data.allowHosts)}`);
    }
    data.allowHosts.forEach((value, index) => {
      const parsed = parseAllowedHost(value);
      if ("error" in parsed) throw problem(`$.allowHosts[${index}]`, parsed.error);
      if (!allowHosts.includes(parsed.host)) allowHosts.push(parsed.host);
    });
  }

  let hosts: string[] | undefined;
  if (data.hosts !== undefined) {
    if (!Array.isArray(data.hosts) || data.hosts.some((h) => typeof h !== "string")) {
      throw problem("$.hosts", `expected an array of host profile names (or ["all"]), ${found(data.hosts)}`);
    }
    const parsed = parseHostNames(data.hosts as string[]);
    if ("error" in parsed) throw problem("$.hosts", parsed.error);
    hosts = parsed.hosts;
  }

  let failOn: FailOn | undefined;
  if (data.failOn !== undefined) {
    if (typeof data.failOn !== "string" || !FAIL_ON.includes(data.failOn as FailOn)) {
      throw problem("$.failOn", `expected one of ${FAIL_ON.map((f) => `"${f}"`).join(", ")}, ${found(data.failOn)}`);
    }
    failOn = data.failOn as FailOn;
  }
  return { source, rules, lintRules, ignore, allowHosts, ...(failOn ? { failOn } : {}), ...(hosts && { hosts }) };
}
