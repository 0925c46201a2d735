/**
 * `npm run generate`: rewrites every generated file (scripts/generated.ts) whose content is
 * stale, and says which. `--check`: writes nothing, exits 1 when one is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { GENERATED } from "./generated.ts";

const ROOT = resolve(import.meta.dir, "..");
const check = process.argv.includes("--check");
let stale = 0;
for (const file of GENERATED) {
  const path = join(ROOT, file.path);
  const want = file.render();
  let have: string | undefined;
  try {
    have = readFileSync(path, "utf8");
  } catch {
    have = undefined;
  }
  if (have === want) continue;
  stale++;
  if (check) console.log(`stale: ${file.path} (generated from ${file.from})`);
  else {
    writeFileSync(path, want);
    console.log(`wrote ${file.path}`);
  }
}
if (stale === 0) console.log(`${GENERATED.length} generated files, all up to date`);
process.exit(check && stale > 0 ? 1 : 0);
