import { describe, expect, test } from "bun:test";
import type { Contract } from "../../../src/contract/model.ts";
import { breakGlassFrom, comparisonNotices, finishVerdict } from "../../../src/policy/verdict.ts";
import { buildReport, type FailOn, type ReportChange, type Side } from "../../../src/report/model.ts";
import { change } from "./helpers.ts";

const side = (version: string | undefined, source: string): Side => ({
  source,
  server: version === undefined ? { name: "w" } : { name: "w", version },
  protocolVersion: "2025-11-25",
});

function report(changes: ReportChange[], from = "1.4.2", to = "1.4.3", failOn: FailOn = "breaking") {
  return buildReport("check", side(from, "old.json"), side(to, "new.json"), changes, failOn, ["earlier notice"]);
}

const breaking = change("tool-removed", "breaking", "tool", "legacy");
const minor = change("tool-added", "minor", "tool", "fresh");

describe("finishVerdict", () => {
  test("a passing report passes unchanged, with the next version its changes require", () => {
    const r = report([minor]);
    expect(finishVerdict(r, {})).toEqual({ report: { ...r, nextVersion: "1.5.0" }, exitCode: 0 });
    // Below 1.0.0 the rules shift one place; with no semantic version there is none.
    expect(finishVerdict(report([breaking], "0.4.2", "0.4.3"), {}).report.nextVersion).toBe("0.5.0");
    expect(finishVerdict(report([minor], "0.4.2", "0.4.3"), {}).report.nextVersion).toBe("0.4.3");
    expect(finishVerdict(report([breaking], "latest", "x"), {}).report.nextVersion).toBeUndefined();
    expect(finishVerdict(report([]), {}).report.nextVersion).toBeUndefined();
  });

  test("a failing report exits 1", () => {
    const out = finishVerdict(report([breaking]), {});
    expect(out.exitCode).toBe(1);
    expect(out.report.result).toBe("fail");
    expect(out.warning).toBeUndefined();
  });

  test("semver: passing adds nothing", () => {
    const r = report([breaking], "1.4.2", "2.0.0", "never");
    expect(finishVerdict(r, { enforceSemver: true })).toEqual({ report: { ...r, nextVersion: "2.0.0" }, exitCode: 0 });
  });

  test("semver: a breaking change in a patch release fails even with --fail-on never", () => {
    const out = finishVerdict(report([breaking], "1.4.2", "1.4.3", "never"), { enforceSemver: true });
    expect(out.exitCode).toBe(1);
    expect(out.report.result).toBe("fail");
    expect(out.report.failing).toBe(0);
    expect(out.report.notices).toEqual([
      "earlier notice",
      "semver: breaking changes shipped as 1.4.2 → 1.4.3; requires 2.0.0.",
    ]);
  });

  test("semver counts exempt changes: the version speaks to every client", () => {
    const exempt = { ...breaking, exempt: { kind: "out-of-scope" as const, reason: "x" } };
    const out = finishVerdict(report([exempt]), { enforceSemver: true });
    expect(out.exitCode).toBe(1);
  });

  test("break-glass turns a failure into exit 0 with a loud notice, hiding nothing", () => {
    const failing = report([breaking, breaking]);
    const out = finishVerdict(failing, { breakGlass: { source: "--allow-breaking", reason: "hotfix INC-42" } });
    const notice =
      "break-glass: 2 breaking changes allowed by --allow-breaking (reason: hotfix INC-42). The run exits 0, but nothing above is hidden or accepted into the baseline.";
    expect(out).toEqual({
      report: { ...failing, nextVersion: "2.0.0", notices: ["earlier notice", notice] },
      exitCode: 0,
      warning: notice,
    });
    expect(out.report.result).toBe("fail");
    expect(out.report.changes).toHaveLength(2);
  });

  test("break-glass names the threshold, the semver failure and a missing reason", () => {
    const out = finishVerdict(report([minor], "1.4.2", "1.4.2", "minor"), {
      enforceSemver: true,
      breakGlass: { source: "MCP_CONTRACT_ALLOW_BREAKING=1" },
    });
    expect(out.exitCode).toBe(0);
    expect(out.warning).toBe(
      "break-glass: 1 change at or above minor and the failed semver check allowed by MCP_CONTRACT_ALLOW_BREAKING=1 (no reason given; set MCP_CONTRACT_ALLOW_BREAKING_REASON to record one). The run exits 0, but nothing above is hidden or accepted into the baseline.",
    );
  });

  test("break-glass on a passing run adds nothing", () => {
    const r = report([minor]);
    expect(finishVerdict(r, { breakGlass: { source: "--allow-breaking" } })).toEqual({
      report: { ...r, nextVersion: "1.5.0" },
      exitCode: 0,
    });
  });
});

describe("break-glass switches", () => {
  test.each([
    [true, {}, { source: "--allow-breaking" }],
    [true, { MCP_CONTRACT_ALLOW_BREAKING_REASON: " INC-42 " }, { source: "--allow-breaking", reason: "INC-42" }],
    [undefined, {}, undefined],
    [undefined, { MCP_CONTRACT_ALLOW_BREAKING: "" }, undefined],
    [undefined, { MCP_CONTRACT_ALLOW_BREAKING: "0" }, undefined],
    [undefined, { MCP_CONTRACT_ALLOW_BREAKING: "false" }, undefined],
    [undefined, { MCP_CONTRACT_ALLOW_BREAKING: "1" }, { source: "MCP_CONTRACT_ALLOW_BREAKING=1" }],
    [undefined, { MCP_CONTRACT_ALLOW_BREAKING: "TRUE" }, { source: "MCP_CONTRACT_ALLOW_BREAKING=TRUE" }],
    [
      undefined,
      { MCP_CONTRACT_ALLOW_BREAKING: "yes", MCP_CONTRACT_ALLOW_BREAKING_REASON: "why" },
      { source: "MCP_CONTRACT_ALLOW_BREAKING=yes", reason: "why" },
    ],
  ])("flag %p, case %#", (flag, env, expected) => {
    expect(breakGlassFrom(flag, env as Record<string, string>)).toEqual(expected as never);
  });

  test("an unclear value is an error, not a guess", () => {
    expect(breakGlassFrom(undefined, { MCP_CONTRACT_ALLOW_BREAKING: "maybe" })).toEqual({
      error:
        'MCP_CONTRACT_ALLOW_BREAKING="maybe" is neither on nor off: set it to 1 to let a failing run exit 0, or to 0 (or unset it).',
    });
  });
});

describe("what the pair itself says", () => {
  const surface = (name: string, clientCapabilities: string[]): Contract =>
    ({
      lockfileVersion: 1,
      server: { name, version: "1.0.0" },
      protocolVersion: "2025-11-25",
      capabilities: {},
      capture: { clientCapabilities },
      tools: [],
      resources: [],
      resourceTemplates: [],
      prompts: [],
    }) as Contract;

  test("the same server, captured alike: nothing", () => {
    expect(comparisonNotices(surface("w", ["roots"]), surface("w", ["roots", "sampling"]))).toEqual([]);
  });

  test("two different servers, and a capture that declared fewer client capabilities than the baseline", () => {
    expect(comparisonNotices(surface("weather", ["roots", "sampling"]), surface("billing", ["roots"]))).toEqual([
      'the two sides are different servers: "weather" (baseline) and "billing" (current). If that is not intended, compare the lockfiles of one server.',
      "the current side was captured declaring fewer client capabilities (roots) than the baseline (roots, sampling): what a server shows only to clients that declare sampling looks removed. Capture with --client-capabilities roots,sampling to compare like with like.",
    ]);
    expect(comparisonNotices(surface("w", ["roots"]), surface("w", []))[0]).toContain(
      "fewer client capabilities (none)",
    );
  });
});
