/** Every generated file is what its generator makes of the source now (`npm run generate` rewrites them). */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { GENERATED } from "../../scripts/generated.ts";

const ROOT = join(import.meta.dir, "../..");

describe("generated files are fresh (run `npm run generate` after changing what they are made from)", () => {
  for (const file of GENERATED) {
    test(`${file.path}, from ${file.from}`, () => {
      expect(readFileSync(join(ROOT, file.path), "utf8")).toBe(file.render());
    });
  }
});
