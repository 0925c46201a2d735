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
import { attributes, escapeXmlText, LISTS, serverName } from "./junit.ts";
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
  const cases = collectCases(report, context);
  let failures = 0;
  let skipped = 0;
  const body: string[] = [];
  for (const c of cases) {
    const failing = c.findings.filter((f) => isFailingFinding(f, report));
    const waived = c.findings.filter((f) => isWaivedFinding(f, report));
    const other = c.findings.filter((f) => !failing.includes(f));
    const open = `    <testcase${attributes({ classname: c.kind, name: c.name, time: 0 })}`;
    if (c.findings.length === 0) {
      body.push(`${open}/>`);
      continue;
    }
    body.push(`${open}>`);
    if (failing.length > 0) {
      failures++;
      for (const finding of failing) {
        body.push(
          `      <failure${attributes({ message: findingMessage(finding), type: finding.rule })}>${escapeXmlText(failureBody(finding))}</failure>`,
        );
      }
    } else if (waived.length > 0) {
      skipped++;
      const reasons = [...new Set(waived.map((f) => exemptionLabel(f.exempt!)))].join("; ");
      body.push(`      <skipped${attributes({ message: reasons })}/>`);
    }
    if (other.length > 0) {
      body.push(`      <system-out>${escapeXmlText(other.map(outLine).join("\n"))}</system-out>`);
    }
    body.push("    </testcase>");
  }
  const counts = { tests: cases.length, failures, errors: 0, skipped, time: 0 };
  const properties = [
    ["command", report.command],
    ["subject", report.subject.source],
    ["failOn", report.failOn],
    ["result", report.result],
    ["verdict", lintVerdictLine(report)],
    ["toolList", toolListLine(report.toolList)],
    ...report.notices.map((notice) => ["notice", notice]),
  ];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: "mcp-contract lint", ...counts })}>`,
    `  <testsuite${attributes({ name: "mcp-contract lint", ...counts })}>`,
    "    <properties>",
    ...properties.map(([name, value]) => `      <property${attributes({ name: name!, value: value! })}/>`),
    "    </properties>",
    ...body,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
