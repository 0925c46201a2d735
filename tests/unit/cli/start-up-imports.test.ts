/**
 * What a plain `diff A B` loads. Every module in the static import graph of the diff command is
 * loaded and instantiated on every run (each of its top-level functions made, its tables built),
 * whether the run uses it or not, so the modules only some runs need are imported where those
 * runs need them. This holds the line: it fails when a static import brings one back.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../../..");
const transpiler = new Bun.Transpiler({ loader: "ts" });

/** Our modules that `entry` imports statically, directly or not (dynamic imports and require calls are not followed). */
function staticGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [resolve(ROOT, entry)];
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const found of transpiler.scanImports(readFileSync(file, "utf8"))) {
      if (found.kind !== "import-statement" || !found.path.startsWith(".") || !found.path.endsWith(".ts")) continue;
      stack.push(join(dirname(file), found.path));
    }
  }
  return new Set([...seen].map((file) => relative(ROOT, file)));
}

describe("a plain diff loads only what it uses", () => {
  const graph = staticGraph("src/cli/diff.ts");

  test("the graph is read (the text report and the diff engine are in it)", () => {
    expect(graph.has("src/report/text.ts")).toBe(true);
    expect(graph.has("src/diff/diff.ts")).toBe(true);
  });

  test("the report formats other than text load only when --format names one", () => {
    const formats = ["render", "json", "sarif", "junit", "github", "markdown", "changelog"];
    expect(formats.map((f) => `src/report/${f}.ts`).filter((file) => graph.has(file))).toEqual([]);
  });

  test("the lint checks load only for lint (a diff runs the security lens, not the lint pipeline)", () => {
    const lintOnly = [
      "lint/lint.ts",
      "lint/catalog.ts",
      "lint/rules-protocol.ts",
      "lint/rules-quality.ts",
      "lint/schema-meta.ts",
    ];
    expect(lintOnly.map((f) => `src/${f}`).filter((file) => graph.has(file))).toEqual([]);
  });
});
