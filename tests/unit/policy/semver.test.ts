import { describe, expect, test } from "bun:test";
import type { SemverBump } from "../../../src/diff/model.ts";
import {
  allowedBump,
  checkSemver,
  formatSemver,
  nextVersion,
  parseSemver,
  type Semver,
} from "../../../src/policy/semver.ts";

const v = (text: string) => parseSemver(text) as Semver;

describe("parsing", () => {
  test.each([
    ["1.4.2", "1.4.2"],
    ["v2.0.0", "2.0.0"],
    ["1.4.3-beta.1", "1.4.3"],
    ["1.4.3+build.7", "1.4.3"],
    ["0.0.1-rc.1+sha.abc", "0.0.1"],
    [" 1.2.3 ", "1.2.3"],
  ])("%p", (text, core) => {
    expect(formatSemver(v(text))).toBe(core);
  });

  test.each(["1.4", "1", "latest", "", "1.4.2.1", "01.2.3", "1.2.x", "1.2.3-", "v"])("%p is not semver", (text) => {
    expect(parseSemver(text)).toBeUndefined();
  });
});

describe("the bump a version move allows", () => {
  test.each([
    ["1.4.2", "2.0.0", "major"],
    ["1.4.2", "2.0.0-rc.1", "major"],
    ["1.4.2", "1.5.0", "minor"],
    ["1.4.2", "1.4.3", "patch"],
    ["1.4.2", "1.4.2", "none"],
    ["1.4.2", "1.4.2-beta", "none"],
    ["1.4.2", "1.3.9", "none"],
    ["1.4.2", "0.9.0", "none"],
    // below 1.0.0, shifted one place (Cargo)
    ["0.4.2", "0.5.0", "major"],
    ["0.4.2", "0.4.3", "minor"],
    ["0.4.2", "1.0.0", "major"],
    ["0.0.3", "0.0.4", "major"],
    ["0.0.3", "0.1.0", "major"],
  ])("%s → %s allows %s", (from, to, bump) => {
    expect(allowedBump(v(from), v(to))).toBe(bump as SemverBump);
  });

  test.each([
    ["1.4.2", "major", "2.0.0"],
    ["1.4.2", "minor", "1.5.0"],
    ["1.4.2", "patch", "1.4.3"],
    ["0.4.2", "major", "0.5.0"],
    ["0.4.2", "minor", "0.4.3"],
    ["0.4.2", "patch", "0.4.3"],
    ["0.0.3", "major", "0.0.4"],
    ["0.0.3", "patch", "0.0.4"],
  ])("after %s, %s needs %s", (from, bump, next) => {
    expect(formatSemver(nextVersion(v(from), bump as "major" | "minor" | "patch"))).toBe(next);
  });
});

describe("checkSemver", () => {
  const run = (from: string | undefined, to: string | undefined, required: SemverBump) =>
    checkSemver({ role: "baseline", version: from }, { role: "current", version: to }, required);

  test("passing adds nothing", () => {
    expect(run("1.4.2", "2.0.0", "major")).toEqual({ ok: true });
    expect(run("1.4.2", "1.5.0", "minor")).toEqual({ ok: true });
    expect(run("1.4.2", "2.0.0", "patch")).toEqual({ ok: true });
    expect(run("1.4.2", "1.4.2", "none")).toEqual({ ok: true });
    expect(run("0.4.2", "0.5.0", "major")).toEqual({ ok: true });
    expect(run("0.4.2", "0.4.3", "minor")).toEqual({ ok: true });
  });

  test("breaking changes in a patch release", () => {
    expect(run("1.4.2", "1.4.3", "major")).toEqual({
      ok: false,
      notice: "semver: breaking changes shipped as 1.4.2 → 1.4.3; requires 2.0.0.",
    });
  });

  test("additions without a minor bump", () => {
    expect(run("1.4.2", "1.4.3", "minor").notice).toBe(
      "semver: minor changes (additions) shipped as 1.4.2 → 1.4.3; requires 1.5.0.",
    );
  });

  test("changes without any bump, and a version that went backwards", () => {
    expect(run("1.4.2", "1.4.2", "patch").notice).toBe(
      "semver: patch-level changes shipped as 1.4.2 → 1.4.2 (the version did not change); requires 1.4.3.",
    );
    expect(run("1.4.2", "1.3.0", "major").notice).toBe(
      "semver: breaking changes shipped as 1.4.2 → 1.3.0 (the version went backwards); requires 2.0.0.",
    );
  });

  test("below 1.0.0 the message says why the next minor is enough", () => {
    expect(run("0.4.2", "0.4.3", "major").notice).toBe(
      "semver: breaking changes shipped as 0.4.2 → 0.4.3; requires 0.5.0 (below 1.0.0, a minor bump may break and a patch bump may add).",
    );
    expect(run("0.0.3", "0.0.3", "major").notice).toBe(
      "semver: breaking changes shipped as 0.0.3 → 0.0.3 (the version did not change); requires 0.0.4 (every 0.0.z release may break).",
    );
  });

  test("a version that is not semver fails with a clear message, even without changes", () => {
    expect(run("1.4.2", "latest", "none")).toEqual({
      ok: false,
      notice:
        'semver: cannot check the version: the current server version "latest" is not a semantic version (MAJOR.MINOR.PATCH). --enforce-semver needs a semantic version on both sides.',
    });
    expect(run(undefined, "1.0.0", "major").notice).toContain("the baseline has no server version");
  });
});
