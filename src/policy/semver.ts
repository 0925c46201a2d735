/**
 * --enforce-semver: did the server's version move as far as its changes require? Versions
 * are MAJOR.MINOR.PATCH with an optional leading "v"; prerelease and build metadata are
 * ignored for ordering. Below 1.0.0 the rules shift one place, as Cargo does: 0.4.2 → 0.5.0
 * may break, 0.4.2 → 0.4.3 may add, and every 0.0.z → 0.0.(z+1) may break. Pure.
 */
import type { SemverBump } from "../diff/model.ts";

export interface Semver {
  major: number;
  minor: number;
  patch: number;
}

const SEMVER =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

export function parseSemver(text: string): Semver | undefined {
  const m = SEMVER.exec(text.trim());
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) };
}

export function formatSemver(v: Semver): string {
  return `${v.major}.${v.minor}.${v.patch}`;
}

export function compareSemver(a: Semver, b: Semver): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

const RANK: Record<SemverBump, number> = { none: 0, patch: 1, minor: 2, major: 3 };

/**
 * What the move from `from` to `to` allows, in 1.x terms: "major" allows breaking changes,
 * "minor" additions, "patch" fixes, "none" nothing (the same version, or going backwards).
 */
export function allowedBump(from: Semver, to: Semver): SemverBump {
  if (compareSemver(to, from) <= 0) return "none";
  if (to.major !== from.major) return "major";
  if (from.major === 0) {
    if (to.minor !== from.minor) return "major";
    // 0.0.z: every release may break. 0.y.z: a patch bump may add.
    return from.minor === 0 ? "major" : "minor";
  }
  return to.minor !== from.minor ? "minor" : "patch";
}

/** The smallest version after `from` that allows `bump`. */
export function nextVersion(from: Semver, bump: Exclude<SemverBump, "none">): Semver {
  const { major, minor, patch } = from;
  if (major === 0) {
    if (minor === 0) return { major: 0, minor: 0, patch: patch + 1 };
    if (bump === "major") return { major: 0, minor: minor + 1, patch: 0 };
    return { major: 0, minor, patch: patch + 1 };
  }
  if (bump === "major") return { major: major + 1, minor: 0, patch: 0 };
  if (bump === "minor") return { major, minor: minor + 1, patch: 0 };
  return { major, minor, patch: patch + 1 };
}

export interface SemverVerdict {
  ok: boolean;
  /** Why it failed; absent when it passed (passing adds nothing to the report). */
  notice?: string;
}

const WHAT: Record<Exclude<SemverBump, "none">, string> = {
  major: "breaking changes",
  minor: "minor changes (additions)",
  patch: "patch-level changes",
};

export interface VersionSide {
  /** "baseline" / "current", for messages. */
  role: string;
  version: string | undefined;
}

export function checkSemver(baseline: VersionSide, current: VersionSide, required: SemverBump): SemverVerdict {
  const parsed: Semver[] = [];
  for (const side of [baseline, current]) {
    const v = side.version === undefined ? undefined : parseSemver(side.version);
    if (!v) {
      const what =
        side.version === undefined
          ? `the ${side.role} has no server version (serverInfo.version)`
          : `the ${side.role} server version ${JSON.stringify(side.version)} is not a semantic version (MAJOR.MINOR.PATCH)`;
      return {
        ok: false,
        notice: `semver: cannot check the version: ${what}. --enforce-semver needs a semantic version on both sides.`,
      };
    }
    parsed.push(v);
  }
  const [from, to] = parsed as [Semver, Semver];
  if (required === "none") return { ok: true };
  const allowed = allowedBump(from, to);
  if (RANK[allowed] >= RANK[required]) return { ok: true };
  const shipped = `${baseline.version} → ${current.version}`;
  const how =
    compareSemver(to, from) < 0
      ? `${shipped} (the version went backwards)`
      : compareSemver(to, from) === 0
        ? `${shipped} (the version did not change)`
        : shipped;
  const zero =
    from.major === 0 && required !== "patch"
      ? from.minor === 0
        ? " (every 0.0.z release may break)"
        : " (below 1.0.0, a minor bump may break and a patch bump may add)"
      : "";
  return {
    ok: false,
    notice: `semver: ${WHAT[required]} shipped as ${how}; requires ${formatSemver(nextVersion(from, required))}${zero}.`,
  };
}
