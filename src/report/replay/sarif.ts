/**
 * The replay report as SARIF 2.1.0: one result per replay finding and per counted schema change
 * reaching a call, located in the recording (file and line) the consumer committed; the rules
 * are the replay finding kinds (and the diff rules the schema changes cite). Pure.
 */

import { findRule } from "../../rules/registry.ts";
import { VERSION } from "../../version.ts";
import { REPLAY_FINDINGS, type ReplayFindingKind, type ReplayReport } from "../replay-model.ts";
import { pascalCase, SARIF_SCHEMA } from "../sarif.ts";
import { escapeJsonText, INFORMATION_URI, ruleHelpUri } from "../shared.ts";
import { callTitle } from "./shared.ts";

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const REPLAY_HELP = `${INFORMATION_URI}#replay`;

/** A replay finding kind as a SARIF rule (GitHub code scanning needs a full description and help). */
function replayDescriptor(kind: ReplayFindingKind) {
  const summary = `${capital(REPLAY_FINDINGS[kind])}.`;
  const why =
    "Provider verification re-sends a consumer's recorded call to the new server and checks that the answer still gives the consumer what it read; this finding means a consumer deployed today would break.";
  return {
    id: kind,
    name: pascalCase(kind),
    shortDescription: { text: summary },
    fullDescription: { text: `${summary} ${why}` },
    helpUri: REPLAY_HELP,
    help: {
      text: `${summary}\n\n${why}\n\nMore: ${REPLAY_HELP}`,
      markdown: `**${summary}**\n\n${why}\n\n[Replay](${REPLAY_HELP})`,
    },
    defaultConfiguration: { level: "error" },
  };
}

/** A diff rule a schema change cites, described from the rule registry. */
function schemaDescriptor(id: string) {
  const rule = findRule(id);
  const summary = `${capital(rule?.summary ?? id)}.`;
  const rationale = rule?.rationale ?? summary;
  const helpUri = ruleHelpUri(id);
  return {
    id,
    name: pascalCase(id),
    shortDescription: { text: summary },
    fullDescription: { text: rationale },
    helpUri,
    help: {
      text: `${summary}\n\n${rationale}\n\nMore: ${helpUri}`,
      markdown: `**${summary}**\n\n${rationale}\n\n[Rule reference](${helpUri})`,
    },
    defaultConfiguration: { level: "error" },
  };
}

/** A relative path as a relative URI reference; an absolute one (outside the repository) as a file: URI. */
function asUri(path: string): string {
  const slashed = path.replace(/\\/g, "/");
  const encoded = slashed.split("/").map(encodeURIComponent).join("/");
  if (slashed.startsWith("/")) return `file://${encoded}`;
  if (/^[A-Za-z]:\//.test(slashed)) return `file:///${slashed.slice(0, 2)}${encoded.slice(encoded.indexOf("/"))}`;
  return encoded;
}

export function renderReplaySarif(report: ReplayReport): string {
  const rules = new Map<string, object>();
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
        rules.set(finding.kind, replayDescriptor(finding.kind));
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
        rules.set(hit.rule, schemaDescriptor(hit.rule));
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
    $schema: SARIF_SCHEMA,
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
  // Findings quote server text: control and bidi characters as `\u` escapes, as the other SARIF logs.
  return `${escapeJsonText(JSON.stringify(sarif, null, 2))}\n`;
}
