/**
 * Building the two sides of a comparison for the check/diff/rules end-to-end tests: tool
 * definitions the fixture server serves verbatim (`{ tools: [...] }`), hand-written
 * lockfiles for `diff` and `check --against`, the JSON report's schema, and running
 * `check` against a fixture. Generic process and fixture helpers come from e2e-helpers.ts.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { fixtureTarget, type Lockfile, ROOT, runCli, snapshotFixture, tempDir } from "./e2e-helpers.ts";

export type Schema = Record<string, unknown>;

export interface ToolDef {
  name: string;
  description?: string;
  inputSchema: Schema;
  outputSchema?: Schema;
  annotations?: Record<string, unknown>;
  [key: string]: unknown;
}

export function objectSchema(properties: Record<string, Schema>, required: string[] = []): Schema {
  return { type: "object", properties, ...(required.length ? { required } : {}) };
}

/** A tool with a small default input schema (`q` required); `extra` replaces any field. */
export function tool(name: string, extra: Partial<ToolDef> = {}): ToolDef {
  return {
    name,
    description: `The ${name} tool`,
    inputSchema: objectSchema({ q: { type: "string" } }, ["q"]),
    ...extra,
  };
}

/** The surface the live `check` tests start from. */
export const BASE_TOOLS: ToolDef[] = [
  tool("search", {
    description: "Search the catalogue",
    inputSchema: objectSchema({ q: { type: "string" }, limit: { type: "integer", minimum: 1 } }, ["q"]),
    outputSchema: objectSchema({ hits: { type: "array", items: { type: "string" } } }, ["hits"]),
    annotations: { readOnlyHint: true },
  }),
  tool("fetch", {
    description: "Fetch one item",
    inputSchema: objectSchema({ id: { type: "string" } }, ["id"]),
  }),
];

/** BASE_TOOLS with one tool replaced (matched by name) or added. */
export function withTool(replacement: ToolDef, tools: ToolDef[] = BASE_TOOLS): ToolDef[] {
  const others = tools.filter((t) => t.name !== replacement.name);
  return [...others, replacement];
}

export function baseTool(name: string): ToolDef {
  const found = BASE_TOOLS.find((t) => t.name === name);
  if (!found) throw new Error(`no base tool ${name}`);
  return structuredClone(found);
}

/** A complete, valid lockfile around the given lists (the fields a real capture writes). */
export function lockfile(parts: Partial<Lockfile> = {}): Lockfile {
  const tools = (parts.tools ?? []) as Lockfile["tools"];
  return {
    lockfileVersion: 1,
    server: { name: "fixture", version: "1.0.0" },
    protocolVersion: "2025-11-25",
    capabilities: tools.length ? { tools: {} } : {},
    capture: { clientCapabilities: [] },
    resources: [],
    resourceTemplates: [],
    prompts: [],
    ...parts,
    tools,
  };
}

/** Write `content` (an object as 2-space JSON, or text as is) to DIR/NAME; returns the path. */
export function writeFile(dir: string, name: string, content: object | string): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`);
  return path;
}

/** Two lockfiles OLD/NEW holding these tools, in a fresh directory. */
export function writePair(
  oldTools: ToolDef[],
  newTools: ToolDef[],
  names: [string, string] = ["old.json", "new.json"],
): { dir: string; before: string; after: string } {
  const dir = tempDir("mcp-contract-diff-");
  return {
    dir,
    before: writeFile(dir, names[0], lockfile({ tools: oldTools as Lockfile["tools"] })),
    after: writeFile(dir, names[1], lockfile({ tools: newTools as Lockfile["tools"] })),
  };
}

/** Snapshot the fixture serving `config` into DIR/NAME; throws when the capture fails. */
export async function snapshotBaseline(
  config: object,
  dir: string,
  name = "baseline.json",
  extra: string[] = [],
): Promise<string> {
  const path = join(dir, name);
  const result = await snapshotFixture(config, path, extra);
  if (result.code !== 0) throw new Error(`baseline capture failed (${result.code}): ${result.stderr}`);
  return path;
}

/** `check --baseline BASELINE [...extra] --env FIXTURE=... -- bun fixture-server.ts` */
export function checkFixture(baseline: string, config: object, extra: string[] = [], cwd?: string) {
  return runCli(["check", "--baseline", baseline, ...extra, ...fixtureTarget(config)], { cwd });
}

// ---------------------------------------------------------------- the JSON report

export interface ReportChange {
  rule: string;
  severity: "breaking" | "minor" | "patch";
  target: { kind: string; name: string };
  direction?: "input" | "output";
  path: string;
  before?: unknown;
  after?: unknown;
  message: string;
  note?: string;
  renamedTo?: string;
  witness?: unknown;
  fingerprint: string;
}

export interface JsonReport {
  reportVersion: number;
  tool: { name: string; version: string };
  command: "check" | "diff";
  baseline: { source: string; server: { name?: string; version?: string }; protocolVersion: string };
  current: { source: string; server: { name?: string; version?: string }; protocolVersion: string };
  failOn: string;
  result: "pass" | "fail";
  requiredBump: "major" | "minor" | "patch" | "none";
  summary: { breaking: number; minor: number; patch: number; total: number };
  changes: ReportChange[];
}

const ajv = new Ajv2020({ allErrors: true, strict: false });
const validateReport = ajv.compile(JSON.parse(readFileSync(join(ROOT, "docs/report.schema.json"), "utf8")));

/** Parse a JSON report and check it against docs/report.schema.json; throws with ajv's errors. */
export function parseReport(text: string): JsonReport {
  const report = JSON.parse(text) as unknown;
  if (!validateReport(report)) {
    throw new Error(`report does not match docs/report.schema.json: ${ajv.errorsText(validateReport.errors)}`);
  }
  return report as JsonReport;
}

/** rule:severity:target for each change, the compact form assertions compare. */
export function verdicts(report: JsonReport): string[] {
  return report.changes.map((c) => `${c.rule}:${c.severity}:${c.target.name}`);
}

// ---------------------------------------------------------------- text reports

/** The lines under one severity heading of a text report (without the heading). */
export function section(text: string, heading: "SECURITY" | "BREAKING" | "MINOR" | "PATCH"): string[] {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.startsWith(`${heading} (`));
  if (start < 0) return [];
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === "") break;
    out.push(line);
  }
  return out;
}

export const ANSI = /\u001b\[/;
