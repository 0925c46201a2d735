/**
 * Runs one mcp-contract command line in this process and writes what it touched to the file
 * PROBE_OUT names: whether anything read `process.stdout` (creating Node's stream object costs
 * start-up time; output goes through the descriptors, src/cli/std-streams.ts), and every module
 * of ours or of node_modules that was loaded. tests/unit/cli/read-path.test.ts runs it.
 *
 *   PROBE_OUT=/tmp/x.json bun tests/helpers/probe-command.ts diff a.json b.json
 */
import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dir, "../..");
let stdoutReads = 0;
const own = Object.getOwnPropertyDescriptor(process, "stdout");
Object.defineProperty(process, "stdout", {
  configurable: true,
  get() {
    stdoutReads++;
    return own?.get ? own.get.call(process) : own?.value;
  },
});
const before = new Set(Object.keys(require.cache));
const { buildProgram } = await import("../../src/cli/program.ts");
const argv = ["bun", "mcp-contract", ...process.argv.slice(2)];
let exitCode = 0;
try {
  await (await buildProgram(argv)).parseAsync(argv);
} catch (error) {
  exitCode = (error as { exitCode?: number }).exitCode ?? 70;
}
const modules = Object.keys(require.cache)
  .filter((path) => !before.has(path) && path.startsWith(ROOT))
  .map((path) => relative(ROOT, path))
  .sort();
writeFileSync(process.env.PROBE_OUT as string, JSON.stringify({ stdoutReads, modules, exitCode }));
process.exit(0);
