/**
 * Until the first release is published (package.json stays private, version 0.1.0), the README's
 * Quick start says so plainly and gives the from-source route first (issue #29).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../../..");

test("the Quick start says releases are not published yet and builds from source first", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { private?: boolean };
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const quick = readme.slice(readme.indexOf("## Quick start"), readme.indexOf("## Install"));
  if (!pkg.private) return; // published: the notice goes
  expect(quick).toContain("Not published yet");
  const fromSource = quick.indexOf("npm install && npm run build");
  expect(fromSource).toBeGreaterThan(-1);
  expect(fromSource).toBeLessThan(quick.indexOf("install.sh | sh"));
});
