/**
 * The replay report as SARIF 2.1.0: one result per replay finding and per counted schema change
 * reaching a call, located in the recording (file and line) the consumer committed; the rules
 * are the replay finding kinds (and the diff rules the schema changes cite). Pure.
 */

import { VERSION } from "../../version.ts";
import { REPLAY_FINDINGS, type ReplayReport } from "../replay-model.ts";
import { INFORMATION_URI, ruleHelpUri } from "../shared.ts";
import { callTitle } from "./shared.ts";

/** A relative path as a relative URI reference; an absolute one (outside the repository) as a file: URI. */
function asUri(path: string): string {
  const slashed = path.replace(/\\/g, "/");
  const encoded = slashed.split("/").map(encodeURIComponent).join("/");
  if (slashed.startsWith("/")) return `file://${encoded}`;
  if (/^[A-Za-z]:\//.test(slashed)) return `file:///${slashed.slice(0, 2)}${encoded.slice(encoded.indexOf("/"))}`;
  return encoded;
}

export function renderReplaySarif(report: ReplayReport): string {
  const rules = new Map<string, { id: string; shortDescription: { text: string }; helpUri?: string }>();
  const results: object[] = [];
  const location = (at: string) => {
    const colon = at.lastIndexOf(":");
    const line = colon > 0 ? Number(at.slice(colon + 1)) : Number.NaN;
    const uri = Number.isInteger(line) ? at.slice(0, colon) : at;
    return [
      {
        physicalLocation: {
          artifactLocation: { uri: asUri(uri) },
          ...(Number.isInteger(line) && { region: { startLine: line } }),
        },
      },
    ];
  };
  for (const section of report.sections) {
    for (const call of section.calls) {
      for (const finding of call.findings) {
        rules.set(finding.kind, { id: finding.kind, shortDescription: { text: REPLAY_FINDINGS[finding.kind] } });
        results.push({
          ruleId: finding.kind,
          level: "error",
          message: { text: `${section.consumer}: ${callTitle(call)}: ${finding.message}` },
          locations: location(call.at),
          partialFingerprints: {
            "mcpContractReplay/v1": `${section.consumer}|${call.at}|${finding.kind}|${finding.path ?? ""}`,
          },
        });
      }
      for (const hit of call.schema ?? []) {
        rules.set(hit.rule, { id: hit.rule, shortDescription: { text: hit.rule }, helpUri: ruleHelpUri(hit.rule) });
        results.push({
          ruleId: hit.rule,
          level: "error",
          message: { text: `${section.consumer}: ${callTitle(call)}: ${hit.message}` },
          locations: location(call.at),
          partialFingerprints: { "mcpContractReplay/v1": `${section.consumer}|${call.at}|${hit.rule}|${hit.path}` },
        });
      }
    }
  }
  const sarif = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "mcp-contract",
            version: VERSION,
            informationUri: INFORMATION_URI,
            rules: [...rules.values()],
          },
        },
        results,
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}
