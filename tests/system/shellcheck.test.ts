/**
 * The shell the project ships or runs in CI is shellcheck-clean: the Action's scripts and every
 * shell step of the workflows (install.sh is checked in install.test.ts). System tier: needs
 * shellcheck (scripts/test-system.ts).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTempDirs, ROOT, requireTool, run, tempDir } from "../e2e/ship-helpers.ts";

afterAll(cleanupTempDirs);

interface Workflow {
  jobs: Record<string, { steps: { run?: string; shell?: string }[] }>;
}

describe("shellcheck", () => {
  test("the Action's scripts", async () => {
    requireTool("shellcheck");
    const scripts = readdirSync(join(ROOT, "scripts/action")).map((f) => join(ROOT, "scripts/action", f));
    const result = await run(["shellcheck", "--severity=style", ...scripts]);
    expect(result.stdout + result.stderr).toBe("");
    expect(result.code).toBe(0);
  });

  test("the workflows' shell steps", async () => {
    requireTool("shellcheck");
    const dir = tempDir();
    const files: string[] = [];
    for (const file of ["ci", "release"]) {
      const workflow = Bun.YAML.parse(readFileSync(join(ROOT, ".github/workflows", `${file}.yml`), "utf8")) as Workflow;
      for (const [jobName, job] of Object.entries(workflow.jobs)) {
        job.steps.forEach((step, i) => {
          if (step.run === undefined || step.shell === "pwsh") return;
          const path = join(dir, `${file}-${jobName}-${i}.sh`);
          writeFileSync(path, `#!/usr/bin/env bash\nset -eo pipefail\n${step.run}`);
          files.push(path);
        });
      }
    }
    expect(files.length).toBeGreaterThan(0);
    const result = await run(["shellcheck", "--severity=style", ...files]);
    expect(result.stdout + result.stderr).toBe("");
  });
});
