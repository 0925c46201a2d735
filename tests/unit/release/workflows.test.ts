/**
 * The workflows: they parse, CI runs .ci/run, the release builds every target once (Linux and
 * Windows on Linux, macOS on macOS, signed), its shell steps are shellcheck-clean and splice
 * no event data into scripts, and the scripts they call exist.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { TARGETS } from "../../../scripts/release-config.ts";
import { cleanupTempDirs, ROOT } from "../../e2e/ship-helpers.ts";

afterAll(cleanupTempDirs);

interface Step {
  name?: string;
  run?: string;
  shell?: string;
  uses?: string;
}
interface Workflow {
  on: unknown;
  jobs: Record<string, { "runs-on": string; steps: Step[] }>;
}
const load = (name: string) => Bun.YAML.parse(readFileSync(join(ROOT, ".github/workflows", name), "utf8")) as Workflow;

describe("workflows", () => {
  const ci = load("ci.yml");
  const release = load("release.yml");

  test("ci.yml runs .ci/run", () => {
    expect(Object.values(ci.jobs).some((job) => job.steps.some((s) => s.run === "bash .ci/run"))).toBe(true);
  });

  test("release.yml runs on version tags, runs CI first, and builds every target exactly once", () => {
    expect(release.on).toEqual({ push: { tags: ["v[0-9]+.[0-9]+.[0-9]+*"] } });
    expect(release.jobs.build?.steps.some((s) => s.run === "bash .ci/run")).toBe(true);
    const built = Object.values(release.jobs)
      .flatMap((job) => job.steps)
      .flatMap((s) => [...(s.run ?? "").matchAll(/--targets ([\w,-]+)/g)].flatMap((m) => (m[1] as string).split(",")));
    expect(built.sort()).toEqual(TARGETS.map((t) => t.name).sort());
    const mac = release.jobs.macos;
    expect(mac?.["runs-on"]).toStartWith("macos");
    expect(mac?.steps.some((s) => s.run?.includes("--targets darwin-arm64,darwin-x64 --sign"))).toBe(true);
  });

  test("their shell steps put no expression inside a script (shellcheck runs on them in tests/system)", () => {
    for (const [file, workflow] of [
      ["ci", ci],
      ["release", release],
    ] as const) {
      for (const [jobName, job] of Object.entries(workflow.jobs)) {
        job.steps.forEach((step, i) => {
          if (step.run === undefined || step.shell === "pwsh") return;
          expect({ step: `${file}/${jobName}/${i}`, expression: step.run.includes("${{") }).toEqual({
            step: `${file}/${jobName}/${i}`,
            expression: false,
          });
        });
      }
    }
  });

  test("the scripts they call exist", () => {
    const text = readFileSync(join(ROOT, ".github/workflows/release.yml"), "utf8");
    for (const m of text.matchAll(/bun (scripts\/[\w-]+\.ts)/g))
      expect(existsSync(join(ROOT, m[1] as string))).toBe(true);
  });
});
