/** Golden files: compare a rendering with tests/fixtures/golden/NAME, or (re)write it when UPDATE_GOLDEN=1. */
import { expect } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT } from "./cli.ts";

const GOLDEN = join(ROOT, "tests/fixtures/golden");

export function expectGolden(name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(file)) {
    // In CI a missing golden file is a failure, not a file to write.
    if (process.env.UPDATE_GOLDEN !== "1" && process.env.CI) throw new Error(`missing golden file ${file}`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
  }
  expect(actual).toBe(readFileSync(file, "utf8"));
}
