/**
 * Reports for the formatter tests, built the real way: two lockfiles serialized like
 * `snapshot` writes them, diffed by diffContracts, judged by buildReport. The drift covers
 * every target kind, both schema directions, a change behind a $ref, added and removed
 * items, server-level changes, witnesses, notes, rename hints, both kinds of exemption and
 * notices, and names that need escaping in every output format.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { serializeContract } from "../../../src/contract/canonical.ts";
import type { Contract, Json, JsonObject } from "../../../src/contract/model.ts";
import { attachWitnesses } from "../../../src/diff/witnesses.ts";
import { compareSurfaces } from "../../../src/policy/compare.ts";
import type { ReportContext } from "../../../src/report/context.ts";
import { buildReport, type FailOn, type Report, type ReportChange, sideOf } from "../../../src/report/model.ts";

export const ROOT = join(import.meta.dir, "../../..");

/** A fixed working directory, so that paths in reports (and golden files) do not depend on the machine. */
export const CWD = "/repo";
export const BASELINE_PATH = "/repo/mcp.contract.json";
export const CURRENT_PATH = "/repo/build/next.contract.json";

function weather(): Contract {
  return JSON.parse(readFileSync(join(ROOT, "examples/weather.contract.json"), "utf8")) as Contract;
}

/** The baseline: the weather example plus items that the drift removes or changes behind a $ref. */
export function baselineContract(): Contract {
  const c = weather();
  c.tools.push({
    name: "locate",
    description: "Find a place | by coordinates",
    inputSchema: {
      type: "object",
      $defs: { Point: { type: "object", properties: { lat: { type: "number", minimum: -90, maximum: 90 } } } },
      properties: { at: { $ref: "#/$defs/Point" } },
      required: ["at"],
    },
  });
  c.tools.push({ name: "legacy_lookup", inputSchema: { type: "object", properties: { q: { type: "string" } } } });
  c.resources.push({ uri: "weather://radar", name: "radar", mimeType: "image/png" });
  return c;
}

/** A copy of `value` with each JSON Pointer set to its new value, or removed (undefined); the pointer's parent must exist. */
function edit(value: Json | undefined, edits: [pointer: string, value: Json | undefined][]): Json {
  const copy = structuredClone(value) as Json;
  for (const [pointer, next] of edits) {
    const segments = pointer.slice(1).split("/");
    const last = segments.pop() as string;
    let node = copy as JsonObject;
    for (const segment of segments) node = node[segment] as JsonObject;
    if (next === undefined) delete node[last];
    else node[last] = next;
  }
  return copy;
}

/** The current side: the baseline with drift of every kind. */
export function currentContract(): Contract {
  const c = baselineContract();
  const forecast = c.tools[0]!;
  const input = edit(forecast.inputSchema, [
    ["/properties/units/enum", ["metric"]], // enum-value-removed (input: breaking, with a witness)
    ["/required", ["city", "days"]], // required-added (input: breaking: its default goes, below)
    ["/properties/days/default", undefined], // a required property with a default would be required-added-with-default
    ["/properties/days/maximum", 14], // maximum-raised (input: minor)
  ]);
  const output = edit(forecast.outputSchema, [
    ["/properties/days/items/properties/conditions/enum", ["sunny", "cloudy", "rain", "snow", "hail"]], // enum-value-added (output: breaking)
  ]);
  c.tools[0] = {
    ...forecast,
    description: "Daily forecast *with* `markdown` | pipes",
    inputSchema: input,
    outputSchema: output,
  };
  // set_alert: no longer idempotent (breaking, with a note), a pattern added (breaking, with a witness)
  const alert = c.tools[1]!;
  c.tools[1] = {
    ...alert,
    annotations: { destructiveHint: false, readOnlyHint: false },
    inputSchema: edit(alert.inputSchema, [["/properties/city/pattern", "^[A-Z][a-z]+$"]]),
  };
  // locate: a bound inside the $ref'd definition (the change's path goes through $ref)
  const locate = c.tools[2]!;
  c.tools[2] = { ...locate, inputSchema: edit(locate.inputSchema, [["/$defs/Point/properties/lat/maximum", 80]]) };
  // legacy_lookup removed, lookup_city added (a rename hint)
  c.tools.splice(3, 1, {
    name: "legacy_lookup_v2",
    inputSchema: { type: "object", properties: { q: { type: "string" } } },
  });
  // resources: one removed, one changed, one added with characters to escape
  c.resources = [
    { ...c.resources[0]!, mimeType: "text/csv" },
    { uri: "weather://alerts?region=eu&kind=<all>", name: "alerts", mimeType: "application/json" },
  ];
  // template: a variable added
  c.resourceTemplates[0] = { ...c.resourceTemplates[0]!, uriTemplate: "weather://city/{city}/{day}" };
  // prompt: an argument became required, a required one was added, reordered
  c.prompts[0] = {
    ...c.prompts[0]!,
    arguments: [
      { name: "nights", description: "Nights", required: true },
      { name: "days", description: "Length of the trip in days", required: true },
      { name: "city", description: "Destination city", required: true },
    ],
  };
  // server: a capability added, another removed, protocol, instructions and version
  c.capabilities = { ...c.capabilities, logging: {} };
  delete (c.capabilities as Record<string, unknown>).prompts;
  c.protocolVersion = "2026-01-01";
  c.instructions = "Use get_forecast first.\nThen set_alert: 100% reliable, honest.";
  c.server = { ...c.server, version: "1.3.0" };
  return c;
}

export interface Scenario {
  report: Report;
  context: ReportContext;
  baselineText: string;
  currentText: string;
}

async function changesOf(before: Contract, after: Contract, exempt: boolean): Promise<ReportChange[]> {
  const changes: ReportChange[] = await attachWitnesses(compareSurfaces(before, after), before, after);
  if (!exempt) return changes;
  return changes.map((change) => {
    if (change.rule === "required-added" && change.target.name === "get_forecast") {
      return { ...change, exempt: { kind: "ignored", reason: "days is always sent by our client (JIRA-123)" } };
    }
    if (change.target.kind === "tool" && change.target.name === "set_alert") {
      return { ...change, exempt: { kind: "out-of-scope", reason: "set_alert is not in --used tools.json" } };
    }
    return change;
  });
}

const NOTICES = [
  'ignore "enum-value-removed" on tool "old_tool" expired on 2025-01-01 and no longer applies',
  "--enforce-semver: the server version went 1.2.0 → 1.3.0 but the changes require a MAJOR bump",
];

/** `mcp-contract diff OLD NEW`: both sides are files. */
export async function diffScenario(failOn: FailOn = "breaking"): Promise<Scenario> {
  const before = baselineContract();
  const after = currentContract();
  const baselineText = serializeContract(before);
  const currentText = serializeContract(after);
  const report = buildReport(
    "diff",
    sideOf(before, BASELINE_PATH),
    sideOf(after, CURRENT_PATH),
    await changesOf(before, after, true),
    failOn,
    NOTICES,
  );
  return {
    report,
    baselineText,
    currentText,
    context: {
      baseline: { path: BASELINE_PATH, text: baselineText },
      current: { path: CURRENT_PATH, text: currentText },
      cwd: CWD,
    },
  };
}

/** `mcp-contract check`: the baseline file against a live server (no current file). */
export async function checkScenario(failOn: FailOn = "breaking"): Promise<Scenario> {
  const before = baselineContract();
  const after = currentContract();
  const baselineText = serializeContract(before);
  const report = buildReport(
    "check",
    sideOf(before, "mcp.contract.json"),
    sideOf(after, "live node examples/weather-server.mjs"),
    await changesOf(before, after, false),
    failOn,
  );
  return {
    report,
    baselineText,
    currentText: serializeContract(after),
    context: {
      baseline: { path: "mcp.contract.json", text: baselineText },
      baselineContract: before,
      currentContract: after,
      cwd: CWD,
    },
  };
}
