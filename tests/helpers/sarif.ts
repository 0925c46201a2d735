/**
 * Validating SARIF logs the two ways the report tests do: against the SARIF 2.1.0 JSON Schema
 * (ajv), and with Microsoft's validator (`sarif-multitool validate`, with its GitHub
 * ingestion rules) from node_modules.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { ROOT, tempDir } from "./cli.ts";

/** A validator for the SARIF 2.1.0 JSON Schema: "" when `log` is valid, else ajv's errors. */
export function sarifSchemaValidator(): (log: unknown) => string {
  const schema = JSON.parse(
    readFileSync(join(ROOT, "node_modules/@microsoft/sarif-multitool-linux/sarif-2.1.0.json"), "utf8"),
  );
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  return (log) => (validate(log) ? "" : ajv.errorsText(validate.errors));
}

/**
 * Notes the validator may leave on our logs: advice that does not apply here (message ids,
 * rule id style, snippets, unreachable URLs).
 */
export const TOLERATED_NOTES = ["SARIF2002", "SARIF2003", "SARIF2006", "SARIF2009", "SARIF2010", "SARIF2011"];

export interface MultitoolRun {
  code: number;
  /** stdout and stderr. */
  output: string;
  /** The validator's lines about one of the logs (by its name), e.g. `/tmp/…/diff.sarif(3,5): error SARIF1009: …`. */
  linesFor(name: string): string[];
  /** Whether the canary (a copy of the first log with a rule index out of range) got its known error. */
  canaryCaught: boolean;
}

/**
 * Run `sarif-multitool validate` (SARIF and GitHub rules; errors, warnings and notes) once on
 * every log, named by `name.sarif`, plus a canary file with a known error that proves the
 * validator really analysed what it was given. It takes a few seconds. The URLs in the logs
 * (the placeholder home page, the schema) cannot be fetched here: a dead proxy makes that
 * fail fast instead of waiting for DNS, and unreachable URLs are only notes.
 */
export async function runSarifMultitool(logs: Record<string, string>): Promise<MultitoolRun> {
  const dir = tempDir("mcp-contract-sarif-");
  const files = Object.entries(logs).map(([name, text]) => {
    const file = join(dir, `${name}.sarif`);
    writeFileSync(file, text);
    return file;
  });
  const first = Object.values(logs)[0];
  if (first === undefined) throw new Error("no SARIF logs to validate");
  const bad = JSON.parse(first) as { runs: { results: { ruleIndex?: number }[] }[] };
  const result = bad.runs[0]?.results[0];
  if (!result) throw new Error("the first SARIF log needs a result to make a canary of");
  result.ruleIndex = 9999;
  const canary = join(dir, "canary.sarif");
  writeFileSync(canary, JSON.stringify(bad, null, 2));
  const proc = Bun.spawn(
    [
      join(ROOT, "node_modules/.bin/sarif-multitool"),
      "validate",
      ...files,
      canary,
      // The launcher runs the tool through a shell: quote the lists.
      "--rule-kind",
      "'Sarif;Gh'",
      "--level",
      "'Error;Warning;Note'",
    ],
    {
      env: { ...process.env, HTTP_PROXY: "http://127.0.0.1:9", HTTPS_PROXY: "http://127.0.0.1:9" },
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  const output = `${stdout}${stderr}`;
  const lines = output.split("\n");
  return {
    code,
    output,
    linesFor: (name) => lines.filter((line) => line.includes(`/${name}.sarif(`) || line.includes(`\\${name}.sarif(`)),
    canaryCaught: /canary\.sarif\(\d+,\d+\): error SARIF1009/.test(output),
  };
}

/** The rule ids of the notes in some validator lines. */
export function noteIds(lines: readonly string[]): string[] {
  return [...new Set(lines.map((line) => /: note (\w+):/.exec(line)?.[1]).filter((id) => id !== undefined))];
}
