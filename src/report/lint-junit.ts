/**
 * JUnit XML for lint, for CI test-report views: one test suite, one test case per item linted
 * (every tool, resource, template and prompt of the surface, and the server itself), so clean
 * items show as passing tests. Pure. The same conventions as junit.ts:
 *
 * - A finding that counts toward the verdict is a <failure> (type = rule id) of its item.
 * - An item whose only would-be failures are exempt (ignored by the policy) is <skipped>.
 * - Every other finding (below the threshold, or exempt) is listed in the item's <system-out>.
 */
import { isJsonObject, type Json } from "../contract/model.ts";
import { KIND_ORDER } from "../diff/change.ts";
import type { TargetKind } from "../diff/model.ts";
import { type JunitCase, junitXml, LISTS, serverName } from "./junit.ts";
import type { LintReportContext } from "./lint-formats.ts";
import type { LintReport, ReportFinding } from "./lint-model.ts";
import {
  findingMessage,
  isFailingFinding,
  isWaivedFinding,
  lintGroupOf,
  lintVerdictLine,
  toolListLine,
} from "./lint-shared.ts";
import { parseOrUndefined } from "./locate.ts";
import { pointerToDisplay } from "./paths.ts";
import { exemptionLabel } from "./shared.ts";

interface Case {
  kind: TargetKind;
  name: string;
  findings: ReportFinding[];
}

/** Every item of the surface (and the server), each with its findings, in a stable order. */
function collectCases(report: LintReport, context: LintReportContext): Case[] {
  const document =
    (context.contract as unknown as Json | undefined) ??
    (context.lockfile ? parseOrUndefined(context.lockfile.text) : undefined);
  const cases = new Map<string, Case>();
  const add = (kind: TargetKind, name: string) => {
    const key = `${kind}\u0000${name}`;
    let found = cases.get(key);
    if (!found) {
      found = { kind, name, findings: [] };
      cases.set(key, found);
    }
    return found;
  };
  add("server", "");
  if (isJsonObject(document)) {
    for (const list of LISTS) {
      const items = document[list.key];
      if (!Array.isArray(items)) continue;
      for (const item of items) {
        const id = isJsonObject(item) ? item[list.id] : undefined;
        if (typeof id === "string") add(list.kind, id);
      }
    }
  }
  // Findings always find their item; without a surface in the context, items come from the findings.
  for (const finding of report.findings) add(finding.target.kind, finding.target.name).findings.push(finding);
  const sorted = [...cases.values()].sort(
    (a, b) =>
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  // The lockfile's server name, else the subject's (a live server), else "server".
  const name = serverName(document, { server: report.subject.server } as unknown as Json);
  return sorted.map((c) => (c.kind === "server" ? { ...c, name } : c));
}

function failureBody(finding: ReportFinding): string {
  const { group } = lintGroupOf(finding.rule);
  const lines = [
    `${finding.level}: ${findingMessage(finding)}`,
    `rule: ${finding.rule}${group ? ` (${group})` : ""}`,
    ...(finding.path ? [`at: ${pointerToDisplay(finding.path)} (${finding.path})`] : []),
    ...(finding.evidence !== undefined ? [`evidence: ${JSON.stringify(finding.evidence)}`] : []),
    `fingerprint: ${finding.fingerprint}`,
  ];
  return lines.join("\n");
}

function outLine(finding: ReportFinding): string {
  const exempt = finding.exempt ? ` (${exemptionLabel(finding.exempt)})` : "";
  return `[${finding.level}] ${finding.rule}: ${findingMessage(finding)}${exempt}`;
}

export function renderLintJunit(report: LintReport, context: LintReportContext = {}): string {
  const cases = collectCases(report, context).map((c): JunitCase => {
    const failing = c.findings.filter((f) => isFailingFinding(f, report));
    return {
      classname: c.kind,
      name: c.name,
      failures: failing.map((f) => ({ message: findingMessage(f), type: f.rule, body: failureBody(f) })),
      skipped: c.findings.filter((f) => isWaivedFinding(f, report)).map((f) => exemptionLabel(f.exempt!)),
      out: c.findings.filter((f) => !failing.includes(f)).map(outLine),
    };
  });
  return junitXml("mcp-contract lint", cases, [
    ["command", report.command],
    ["subject", report.subject.source],
    ["failOn", report.failOn],
    ["result", report.result],
    ["verdict", lintVerdictLine(report)],
    ["toolList", toolListLine(report.toolList)],
    ...report.notices.map((notice): [string, string] => ["notice", notice]),
  ]);
}
