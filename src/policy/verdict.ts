/**
 * The last word on a report: --enforce-semver can fail a run that the changes alone pass,
 * and break-glass (--allow-breaking) turns a failing run into exit 0 while saying so loudly.
 * Neither hides a change. Pure: the caller decides where break-glass came from.
 */
import type { Contract } from "../contract/model.ts";
import type { SemverBump } from "../diff/model.ts";
import type { Report } from "../report/model.ts";
import { plural } from "../util/text.ts";
import { checkSemver, formatSemver, nextVersion, parseSemver } from "./semver.ts";

export interface BreakGlass {
  /** How it was switched on, for messages: "--allow-breaking" or "MCP_CONTRACT_ALLOW_BREAKING=1". */
  source: string;
  reason?: string;
}

export interface VerdictOptions {
  enforceSemver?: boolean;
  breakGlass?: BreakGlass;
}

export interface Verdict {
  report: Report;
  exitCode: 0 | 1;
  /** A line for stderr when break-glass let a failing run pass. */
  warning?: string;
}

/**
 * Things the reader must know about the pair itself, before any change: the two sides are
 * different servers, or the current side was captured declaring fewer client capabilities
 * than the baseline (tools a server shows only to such clients then look removed).
 */
export function comparisonNotices(before: Contract, after: Contract): string[] {
  const notices: string[] = [];
  const name = (c: Contract) => (typeof c.server.name === "string" && c.server.name !== "" ? c.server.name : undefined);
  const [was, now] = [name(before), name(after)];
  if (was !== undefined && now !== undefined && was !== now) {
    notices.push(
      `the two sides are different servers: ${JSON.stringify(was)} (baseline) and ${JSON.stringify(now)} (current). If that is not intended, compare the lockfiles of one server.`,
    );
  }
  const declared = after.capture.clientCapabilities;
  const missing = before.capture.clientCapabilities.filter((cap) => !declared.includes(cap));
  if (missing.length > 0) {
    const list = (caps: readonly string[]) => (caps.length ? caps.join(", ") : "none");
    notices.push(
      `the current side was captured declaring fewer client capabilities (${list(declared)}) than the baseline (${list(before.capture.clientCapabilities)}): what a server shows only to clients that declare ${missing.join(", ")} looks removed. Capture with --client-capabilities ${before.capture.clientCapabilities.join(",")} to compare like with like.`,
    );
  }
  return notices;
}

/**
 * The smallest server version after the baseline's that allows the change level, and the part
 * of the version that moves to get there, when the baseline's version is semantic.
 */
function nextVersionOf(report: Report): { nextVersion: string; requiredBump: SemverBump } | undefined {
  if (report.changeLevel === "none" || report.baseline.server.version === undefined) return undefined;
  const from = parseSemver(report.baseline.server.version);
  if (!from) return undefined;
  const to = nextVersion(from, report.changeLevel);
  const part = to.major !== from.major ? "major" : to.minor !== from.minor ? "minor" : "patch";
  return { nextVersion: formatSemver(to), requiredBump: part };
}

export function finishVerdict(input: Report, options: VerdictOptions): Verdict {
  const next = nextVersionOf(input);
  const report = next === undefined ? input : { ...input, ...next };
  const notices = [...report.notices];
  let result = report.result;
  let semverFailed = false;
  if (options.enforceSemver) {
    const semver = checkSemver(
      { role: "baseline", version: report.baseline.server.version },
      { role: "current", version: report.current.server.version },
      report.changeLevel,
    );
    if (!semver.ok) {
      semverFailed = true;
      result = "fail";
      if (semver.notice) notices.push(semver.notice);
    }
  }
  if (result === "fail" && options.breakGlass) {
    const { source, reason } = options.breakGlass;
    const what: string[] = [];
    if (report.failing > 0) {
      what.push(
        report.failOn === "breaking"
          ? plural(report.failing, "breaking change")
          : `${plural(report.failing, "change")} at or above ${report.failOn}`,
      );
    }
    if (semverFailed) what.push("the failed semver check");
    const why = reason ? `reason: ${reason}` : "no reason given; set MCP_CONTRACT_ALLOW_BREAKING_REASON to record one";
    const notice = `break-glass: ${what.join(" and ")} allowed by ${source} (${why}). The run exits 0, but nothing above is hidden or accepted into the baseline.`;
    notices.push(notice);
    return { report: { ...report, notices, result }, exitCode: 0, warning: notice };
  }
  return { report: { ...report, notices, result }, exitCode: result === "fail" ? 1 : 0 };
}

const ON = ["1", "true", "yes", "on"];
const OFF = ["0", "false", "no", "off"];

/**
 * Break-glass from the --allow-breaking flag or the MCP_CONTRACT_ALLOW_BREAKING environment
 * variable (1/true/yes/on; 0/false/no/off or unset is off), with the optional reason from
 * MCP_CONTRACT_ALLOW_BREAKING_REASON. A value that is neither is an error, not a guess.
 */
export function breakGlassFrom(
  flag: boolean | undefined,
  env: Record<string, string | undefined>,
): BreakGlass | { error: string } | undefined {
  const reason = env.MCP_CONTRACT_ALLOW_BREAKING_REASON?.trim() || undefined;
  const withReason = (source: string): BreakGlass => (reason ? { source, reason } : { source });
  if (flag) return withReason("--allow-breaking");
  const raw = env.MCP_CONTRACT_ALLOW_BREAKING?.trim();
  if (raw === undefined || raw === "") return undefined;
  if (ON.includes(raw.toLowerCase())) return withReason(`MCP_CONTRACT_ALLOW_BREAKING=${raw}`);
  if (OFF.includes(raw.toLowerCase())) return undefined;
  return {
    error: `MCP_CONTRACT_ALLOW_BREAKING=${JSON.stringify(raw)} is neither on nor off: set it to 1 to let a failing run exit 0, or to 0 (or unset it).`,
  };
}
