/**
 * `npm install` of a fresh clone prints no install-script warning for our own dependencies
 * (issue #29): every locked package that has an install script is named in package.json's
 * allowScripts, so npm runs it without asking.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../../..");
const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), "utf8"));

test("every package with an install script is allowed in package.json", () => {
  const lock = read("package-lock.json") as { packages: Record<string, { hasInstallScript?: boolean }> };
  const allowed = Object.keys(read("package.json").allowScripts ?? {});
  const scripted = Object.entries(lock.packages)
    .filter(([, meta]) => meta.hasInstallScript)
    .map(([path]) => path.replace(/^.*node_modules\//, ""));
  expect(scripted.length).toBeGreaterThan(0);
  expect(scripted.filter((name) => !allowed.includes(name))).toEqual([]);
});
