import { describe, expect, test } from "bun:test";
import {
  applyIgnores,
  applyLintOverrides,
  applyRuleOverrides,
  describeIgnore,
  todayUtc,
} from "../../../src/policy/apply.ts";
import { parsePolicy } from "../../../src/policy/policy.ts";
import type { LintRuleId } from "../../../src/rules/registry.ts";
import { change } from "./helpers.ts";

const FILE = "mcp-contract.config.json";
const policy = (body: object) => parsePolicy(JSON.stringify({ version: 1, ...body }), FILE);

const required = change("required-added", "breaking", "tool", "get_forecast", { direction: "input" });
const enumOut = change("enum-value-added", "breaking", "tool", "get_forecast", { direction: "output" });
const enumIn = change("enum-value-added", "minor", "tool", "set_alert", { direction: "input" });
const removed = change("tool-removed", "breaking", "tool", "legacy_lookup");
const description = change("description-changed", "patch", "tool", "get_forecast");
const promptGone = change("prompt-removed", "breaking", "prompt", "legacy_prompt");
const capability = change("capability-removed", "breaking", "server", "");
const ALL = [required, enumOut, enumIn, removed, description, promptGone, capability];

describe("severity overrides", () => {
  test("no rules: nothing changes", () => {
    expect(applyRuleOverrides(ALL, policy({}))).toEqual(ALL);
  });

  test("a level replaces the severity; off removes the change", () => {
    const out = applyRuleOverrides(ALL, policy({ rules: { "tool-removed": "minor", "description-changed": "off" } }));
    expect(out.map((c) => `${c.rule}:${c.severity}`)).toEqual([
      "required-added:breaking",
      "enum-value-added:breaking",
      "enum-value-added:minor",
      "tool-removed:minor",
      "prompt-removed:breaking",
      "capability-removed:breaking",
    ]);
  });

  test("a per-direction override touches only that direction", () => {
    const out = applyRuleOverrides(ALL, policy({ rules: { "enum-value-added": { output: "minor" } } }));
    expect(out.find((c) => c === enumIn)).toBe(enumIn);
    expect(out.find((c) => c.fingerprint === enumOut.fingerprint)?.severity).toBe("minor");
  });

  test("a per-direction override does not touch changes without a direction", () => {
    const out = applyRuleOverrides([removed], policy({ rules: { "tool-removed": { input: "patch" } } }));
    expect(out).toEqual([removed]);
  });

  test("the input is not modified", () => {
    applyRuleOverrides(ALL, policy({ rules: { "required-added": "patch" } }));
    expect(required.severity).toBe("breaking");
  });
});

describe("ignores", () => {
  const TODAY = "2026-03-15";

  test("rule + target glob", () => {
    const { changes, notices } = applyIgnores(
      ALL,
      policy({ ignore: [{ rule: "tool-removed", target: "tool:legacy_*", reason: "removed in 2.0 as announced" }] }),
      TODAY,
    );
    expect(changes.filter((c) => c.exempt)).toEqual([
      { ...removed, exempt: { kind: "ignored", reason: "removed in 2.0 as announced" } },
    ]);
    expect(notices).toEqual([]);
  });

  test("the target kind must match; a bare glob matches any kind", () => {
    const typed = applyIgnores(ALL, policy({ ignore: [{ target: "prompt:legacy_*", reason: "r" }] }), TODAY);
    expect(typed.changes.filter((c) => c.exempt).map((c) => c.target.name)).toEqual(["legacy_prompt"]);
    const bare = applyIgnores(ALL, policy({ ignore: [{ target: "legacy_*", reason: "r" }] }), TODAY);
    expect(bare.changes.filter((c) => c.exempt).map((c) => c.target.name)).toEqual(["legacy_lookup", "legacy_prompt"]);
  });

  test("server: selects server-level changes", () => {
    const { changes } = applyIgnores(ALL, policy({ ignore: [{ target: "server:", reason: "r" }] }), TODAY);
    expect(changes.filter((c) => c.exempt)).toHaveLength(1);
    expect(changes.find((c) => c.exempt)?.rule).toBe("capability-removed");
  });

  test("a rule alone selects every change of that rule", () => {
    const { changes } = applyIgnores(ALL, policy({ ignore: [{ rule: "enum-value-added", reason: "r" }] }), TODAY);
    expect(changes.filter((c) => c.exempt).map((c) => c.target.name)).toEqual(["get_forecast", "set_alert"]);
  });

  test("a fingerprint selects exactly one change", () => {
    const { changes } = applyIgnores(
      ALL,
      policy({ ignore: [{ fingerprint: required.fingerprint, reason: "accepted in review #12" }] }),
      TODAY,
    );
    expect(changes.filter((c) => c.exempt).map((c) => c.rule)).toEqual(["required-added"]);
  });

  test("the ignore still applies on its expiry date, and stops the day after", () => {
    const entry = { rule: "tool-removed", target: "tool:legacy_lookup", reason: "grace period", expires: TODAY };
    expect(applyIgnores(ALL, policy({ ignore: [entry] }), TODAY).changes.some((c) => c.exempt)).toBe(true);

    const { changes, notices } = applyIgnores(ALL, policy({ ignore: [entry] }), "2026-03-16");
    expect(changes.some((c) => c.exempt)).toBe(false);
    expect(notices).toEqual([
      `ignore for rule tool-removed on tool:legacy_lookup expired on 2026-03-15 (grace period): it no longer applies. Remove it from ${FILE} ($.ignore[0]), or move its "expires" date if it is still needed.`,
    ]);
  });

  test("an ignore that matched nothing adds a notice", () => {
    const { notices } = applyIgnores(
      ALL,
      policy({
        ignore: [
          { rule: "tool-removed", target: "tool:legacy_*", reason: "used" },
          { rule: "tool-removed", target: "tool:gone", reason: "stale" },
        ],
      }),
      TODAY,
    );
    expect(notices).toEqual([
      `unused ignore for rule tool-removed on tool:gone (stale): it matched no change. Remove it from ${FILE} ($.ignore[1]) if it is no longer needed.`,
    ]);
  });

  test("two ignores for one change: the first gives the reason, neither is unused", () => {
    const { changes, notices } = applyIgnores(
      [removed],
      policy({
        ignore: [
          { rule: "tool-removed", reason: "first" },
          { target: "legacy_lookup", reason: "second" },
        ],
      }),
      TODAY,
    );
    expect(changes[0]?.exempt?.reason).toBe("first");
    expect(notices).toEqual([]);
  });

  test("a change that is already exempt is left alone", () => {
    const scoped = { ...removed, exempt: { kind: "out-of-scope" as const, reason: "x" } };
    const { changes, notices } = applyIgnores(
      [scoped],
      policy({ ignore: [{ rule: "tool-removed", reason: "r" }] }),
      TODAY,
    );
    expect(changes[0]?.exempt?.kind).toBe("out-of-scope");
    expect(notices[0]).toStartWith("unused ignore");
  });

  test("how an ignore is described", () => {
    const p = policy({
      ignore: [
        { rule: "tool-removed", target: "tool:x", reason: "r" },
        { rule: "tool-removed", reason: "r" },
        { target: "get_*", reason: "r" },
        { fingerprint: "0123456789abcdef", reason: "r" },
        { rule: "tool-removed", fingerprint: "0123456789abcdef", reason: "r" },
      ],
    });
    expect(p.ignore.map(describeIgnore)).toEqual([
      "rule tool-removed on tool:x",
      "rule tool-removed",
      "get_*",
      "fingerprint 0123456789abcdef",
      "rule tool-removed (fingerprint 0123456789abcdef)",
    ]);
  });

  test("today is the UTC date", () => {
    expect(todayUtc(new Date("2026-01-01T23:30:00-05:00"))).toBe("2026-01-02");
  });
});

describe("lint findings", () => {
  const TODAY = "2026-03-15";
  const finding = (rule: LintRuleId, level: "error" | "warning" | "info", name: string) => ({
    rule,
    level,
    target: { kind: "tool" as const, name },
    path: "/description",
    message: `${rule} on ${name}`,
    fingerprint: "0123456789abcdef",
  });
  const url = finding("embedded-url", "warning", "fetch_docs");
  const hidden = finding("hidden-instructions", "error", "add");
  const params = finding("parameter-description-missing", "info", "add");
  const FINDINGS = [url, hidden, params];

  test("level overrides change the level; off drops the finding; diff overrides do not touch findings", () => {
    const out = applyLintOverrides(
      FINDINGS,
      policy({ rules: { "embedded-url": "info", "parameter-description-missing": "off", "tool-removed": "minor" } }),
    );
    expect(out.map((f) => `${f.rule}:${f.level}`)).toEqual(["embedded-url:info", "hidden-instructions:error"]);
  });

  test("lint ignores exempt findings; diff-rule ignores are left to check (no notice either way)", () => {
    const p = policy({
      ignore: [
        { rule: "embedded-url", target: "tool:fetch_*", reason: "documentation links" },
        { rule: "tool-removed", reason: "for check", expires: "2020-01-01" },
      ],
    });
    const { changes, notices } = applyIgnores(FINDINGS, p, TODAY, "lint");
    expect(changes.map((f) => f.exempt?.reason)).toEqual(["documentation links", undefined, undefined]);
    expect(notices).toEqual([]);
    // check does not call the lint ignore unused, and reports its own expired one.
    const forCheck = applyIgnores(ALL, p, TODAY, "diff");
    expect(forCheck.notices).toHaveLength(1);
    expect(forCheck.notices[0]).toContain("rule tool-removed expired on 2020-01-01");
  });

  test("an unused lint ignore is reported by lint; a rule-less one is not (it may be for check)", () => {
    const p = policy({
      ignore: [
        { rule: "encoded-blob", reason: "hashes" },
        { target: "tool:legacy_*", reason: "being removed" },
      ],
    });
    const { notices } = applyIgnores(FINDINGS, p, TODAY, "lint");
    expect(notices).toEqual([
      `unused ignore for rule encoded-blob (hashes): it matched no finding. Remove it from ${FILE} ($.ignore[0]) if it is no longer needed.`,
    ]);
  });
});
