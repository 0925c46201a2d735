/**
 * What MCP 2026-07-28 and its extensions added to a tool's surface, end to end against a real
 * server written with the official v2 SDK (tests/fixtures/v2/server.ts --mode surface-2026):
 * `x-mcp-header` on input properties, MCP Apps metadata (`_meta.ui`), non-object outputSchema
 * roots, and `capabilities.extensions`. The capture is linted, diffed against the same server
 * captured in the 2025 era, and checked against edited lockfiles in both directions. Runs the
 * compiled binary when MCP_CONTRACT_BIN is set.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUN, ROOT, runCli, tempDir } from "./e2e-helpers.ts";

const V2_SERVER = join(ROOT, "tests/fixtures/v2/server.ts");
const TARGET = ["--", BUN, V2_SERVER, "--mode", "surface-2026"];
const CASE_MS = 60_000;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

interface ReportChange {
  rule: string;
  severity: string;
  direction?: string;
  target: { kind: string; name: string };
  path: string;
  message: string;
  witness?: Json;
}
interface Finding {
  rule: string;
  level: string;
  path: string;
  message: string;
}

let dir: string;
let modern: string;
let legacy: string;

const read = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Obj;
const tools = (lockfile: Obj) => lockfile.tools as Obj[];
const toolNamed = (lockfile: Obj, name: string) => tools(lockfile).find((t) => t.name === name) as Obj;

/** The lockfile with `edit` applied, written beside it. */
function edited(from: string, name: string, edit: (lockfile: Obj) => void): string {
  const lockfile = read(from);
  edit(lockfile);
  const file = join(dir, name);
  writeFileSync(file, `${JSON.stringify(lockfile, null, 2)}\n`);
  return file;
}

async function changesOf(args: string[]): Promise<{ code: number; changes: ReportChange[] }> {
  // Options go before `--`: everything after it is the server's command line.
  const at = args.indexOf("--");
  const withFormat =
    at === -1 ? [...args, "--format", "json"] : [...args.slice(0, at), "--format", "json", ...args.slice(at)];
  const result = await runCli(withFormat);
  if (![0, 1].includes(result.code)) throw new Error(`${args.join(" ")} failed (${result.code}): ${result.stderr}`);
  return { code: result.code, changes: (JSON.parse(result.stdout) as { changes: ReportChange[] }).changes };
}

const brief = (changes: ReportChange[]) =>
  changes.map((c) => `${c.severity} ${c.rule} ${c.target.name}${c.path}`).sort();

beforeAll(async () => {
  dir = tempDir();
  modern = join(dir, "modern.json");
  legacy = join(dir, "legacy.json");
  const [m, l] = await Promise.all([
    runCli(["snapshot", "-o", modern, "--era", "modern", ...TARGET]),
    runCli(["snapshot", "-o", legacy, "--era", "legacy", ...TARGET]),
  ]);
  if (m.code !== 0 || l.code !== 0) throw new Error(`capture failed: ${m.stderr}\n${l.stderr}`);
}, CASE_MS);

describe("a 2026 tool surface (x-mcp-header, _meta.ui, an array outputSchema, extensions)", () => {
  test("is captured as the server sent it", () => {
    const lockfile = read(modern);
    expect(lockfile.protocolVersion).toBe("2026-07-28");
    expect(lockfile.capabilities).toEqual({
      extensions: { "io.modelcontextprotocol/ui": {} },
      resources: {},
      tools: {},
    });
    const forecast = toolNamed(lockfile, "forecast_days");
    const properties = (forecast.inputSchema as Obj).properties as Obj;
    expect((properties.region as Obj)["x-mcp-header"]).toBe("Region");
    expect((properties.days as Obj)["x-mcp-header"]).toBe("Days");
    expect(forecast._meta).toEqual({ ui: { resourceUri: "ui://weather/forecast-view", visibility: ["model", "app"] } });
    expect((forecast.outputSchema as Obj).type).toBe("array");
    expect(toolNamed(lockfile, "refresh_view").outputSchema).toEqual({ type: "string" });
    // The SDK gives 2025 clients the same tools with the outputSchema wrapped as {result} (SEP-2106).
    const wrapped = toolNamed(read(legacy), "forecast_days").outputSchema as Obj;
    expect(wrapped.type).toBe("object");
    expect(wrapped.required).toEqual(["result"]);
  });

  test(
    "lint: no protocol error for the 2026 capture; the array and string roots are errors in a 2025 one",
    async () => {
      const clean = await runCli(["lint", "--from", modern, "--format", "json"]);
      expect(clean.code).toBe(0);
      const findings = (JSON.parse(clean.stdout) as { findings: Finding[] }).findings;
      expect(findings.filter((f) => f.level === "error")).toEqual([]);

      // The same tools said to be captured in 2025-11-25, where structuredContent is an object.
      const old = edited(modern, "as-2025.json", (lockfile) => {
        lockfile.protocolVersion = "2025-11-25";
        delete (lockfile.capture as Obj).supportedVersions;
      });
      const result = await runCli(["lint", "--from", old, "--format", "json"]);
      expect(result.code).toBe(1);
      const errors = (JSON.parse(result.stdout) as { findings: Finding[] }).findings.filter((f) => f.level === "error");
      expect(errors.map((f) => `${f.rule} ${f.path}`)).toEqual([
        "output-schema-not-object /outputSchema/type",
        "output-schema-not-object /outputSchema/type",
      ]);
    },
    CASE_MS,
  );

  test(
    "lint: an invalid x-mcp-header is an error (clients on Streamable HTTP drop the tool)",
    async () => {
      const bad = edited(modern, "bad-header.json", (lockfile) => {
        const properties = (toolNamed(lockfile, "forecast_days").inputSchema as Obj).properties as Obj;
        (properties.region as Obj)["x-mcp-header"] = "Cloud Region";
      });
      const result = await runCli(["lint", "--from", bad]);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        'tool "forecast_days": x-mcp-header "Cloud Region" on property "region" is invalid: its value is not an HTTP header name: it contains U+0020; clients on Streamable HTTP drop the tool [mcp-header-invalid]',
      );
    },
    CASE_MS,
  );

  test(
    "the same server captured in each era diffs as no breaking and no minor change, both ways",
    async () => {
      for (const [before, after] of [
        [legacy, modern],
        [modern, legacy],
      ] as const) {
        const { code, changes } = await changesOf(["diff", before, after, "--fail-on", "minor"]);
        expect(changes.filter((c) => c.severity !== "patch")).toEqual([]);
        expect(code).toBe(0);
      }
    },
    CASE_MS,
  );

  test(
    "check against the live server: headers removed and renamed, hidden from the model, a new output value",
    async () => {
      // The live server is the new side; the baseline is an edited copy of its lockfile.
      const baseline = edited(modern, "baseline.json", (lockfile) => {
        const forecast = toolNamed(lockfile, "forecast_days");
        const properties = (forecast.inputSchema as Obj).properties as Obj;
        (properties.region as Obj)["x-mcp-header"] = "Zone"; // live: Region (a rename)
        (properties.city as Obj)["x-mcp-header"] = "City"; // live: none (removed)
        delete (properties.days as Obj)["x-mcp-header"]; // live: Days (added)
        const day = (forecast.outputSchema as Obj).items as Obj;
        ((day.properties as Obj).summary as Obj).enum = ["sunny"]; // live: sunny, rain
        const view = toolNamed(lockfile, "refresh_view");
        (view._meta as Obj).ui = { resourceUri: "ui://weather/forecast-view", visibility: ["model", "app"] }; // live: app only
        (forecast._meta as Obj).ui = { resourceUri: "ui://weather/old-view", visibility: ["model", "app"] };
        (lockfile.capabilities as Obj).extensions = {
          "io.modelcontextprotocol/ui": {},
          "io.modelcontextprotocol/tasks": {},
        }; // live: no tasks extension
      });
      const { code, changes } = await changesOf(["check", "--baseline", baseline, ...TARGET]);
      expect(code).toBe(1);
      expect(brief(changes)).toEqual(
        [
          "breaking enum-value-added forecast_days/outputSchema/items/properties/summary/enum",
          "breaking extension-removed /capabilities/extensions/io.modelcontextprotocol~1tasks",
          "breaking mcp-header-changed forecast_days/inputSchema/properties/region/x-mcp-header",
          "breaking mcp-header-removed forecast_days/inputSchema/properties/city/x-mcp-header",
          "breaking tool-no-longer-visible-to-model refresh_view/_meta/ui/visibility",
          "minor mcp-header-added forecast_days/inputSchema/properties/days/x-mcp-header",
          "minor tool-ui-resource-changed forecast_days/_meta/ui/resourceUri",
        ].sort(),
      );
      // The witness is a whole structuredContent value of the array root.
      const added = changes.find((c) => c.rule === "enum-value-added");
      expect(added?.direction).toBe("output");
      expect(Array.isArray(added?.witness)).toBe(true);
      expect(JSON.stringify(added?.witness)).toContain('"summary":"rain"');
      const hidden = changes.find((c) => c.rule === "tool-no-longer-visible-to-model");
      expect(hidden?.message).toBe(
        'tool "refresh_view": no longer visible to the model (_meta.ui.visibility ["model","app"] → ["app"])',
      );
    },
    CASE_MS,
  );

  test(
    "diff the other way: the reverse verdicts (headers added, visible to the model again, an output value gone)",
    async () => {
      const changed = edited(modern, "changed.json", (lockfile) => {
        const forecast = toolNamed(lockfile, "forecast_days");
        const properties = (forecast.inputSchema as Obj).properties as Obj;
        (properties.city as Obj)["x-mcp-header"] = "City";
        const day = (forecast.outputSchema as Obj).items as Obj;
        ((day.properties as Obj).summary as Obj).enum = ["sunny"];
        (toolNamed(lockfile, "refresh_view")._meta as Obj).ui = { resourceUri: "ui://weather/forecast-view" };
        (lockfile.capabilities as Obj).extensions = {};
      });
      const { code, changes } = await changesOf(["diff", modern, changed, "--fail-on", "breaking"]);
      expect(brief(changes)).toEqual(
        [
          "breaking extension-removed /capabilities/extensions/io.modelcontextprotocol~1ui",
          "minor enum-value-removed forecast_days/outputSchema/items/properties/summary/enum",
          "minor mcp-header-added forecast_days/inputSchema/properties/city/x-mcp-header",
          "minor tool-now-visible-to-model refresh_view/_meta/ui/visibility",
        ].sort(),
      );
      expect(code).toBe(1);
      const back = await changesOf(["diff", changed, modern]);
      expect(brief(back.changes)).toEqual(
        [
          "breaking enum-value-added forecast_days/outputSchema/items/properties/summary/enum",
          "breaking mcp-header-removed forecast_days/inputSchema/properties/city/x-mcp-header",
          "breaking tool-no-longer-visible-to-model refresh_view/_meta/ui/visibility",
          "minor extension-added /capabilities/extensions/io.modelcontextprotocol~1ui",
        ].sort(),
      );
    },
    CASE_MS,
  );
});
