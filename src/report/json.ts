/**
 * The machine report, for every kind, in a documented, stable shape: check and diff as in
 * docs/report.schema.json (changes), lint as in docs/lint-report.schema.json (findings). Every
 * change is listed as it is (no merging or collapsing, src/report/entries.ts), with its rule's
 * group ("security" for security drift); check and diff also carry the resolved --used/--used-by
 * scope, the next version the changes require, and what --update did. Pure.
 */
import { findRule } from "../rules/registry.ts";
import { VERSION } from "../version.ts";
import { stringifyWithList } from "./json-chunks.ts";
import {
  type AnyReport,
  LINT_REPORT_VERSION,
  REPORT_VERSION,
  type ReportChange,
  type ReportFinding,
  type ReportItem,
} from "./model.ts";
import { escapeJsonText, lintGroupOf, tallyFields, verdictFields } from "./shared.ts";

/** An item's exemption as the report shows it (kind and reason only). */
const exemptionOf = ({ exempt }: ReportItem) => exempt && { kind: exempt.kind, reason: exempt.reason };

function changeJson(c: ReportChange) {
  const group = findRule(c.rule)?.group;
  return {
    rule: c.rule,
    severity: c.severity,
    ...(group && { group }),
    target: c.target,
    ...(c.direction ? { direction: c.direction } : {}),
    path: c.path,
    ...(c.explains !== undefined ? { explains: c.explains } : {}),
    ...(c.before !== undefined ? { before: c.before } : {}),
    ...(c.after !== undefined ? { after: c.after } : {}),
    message: c.message,
    ...(c.note ? { note: c.note } : {}),
    ...(c.renamedTo ? { renamedTo: c.renamedTo } : {}),
    ...(c.witness !== undefined ? { witness: c.witness } : {}),
    fingerprint: c.fingerprint,
    ...(c.exempt && { exempt: exemptionOf(c) }),
  };
}

/** Each lint rule's group field, looked up once per rule: a big report has thousands of findings of one rule. */
const GROUPS = new Map<string, ReturnType<typeof lintGroupOf>>();

function findingJson(f: ReportFinding) {
  let group = GROUPS.get(f.rule);
  if (!group) {
    group = lintGroupOf(f.rule);
    GROUPS.set(f.rule, group);
  }
  // Written field by field, not spread: a --hosts report has thousands of findings, and each
  // spread is a generic copy in a process too short-lived for the JIT to make it cheap.
  const out: Record<string, unknown> = { rule: f.rule, level: f.level };
  if (group.group !== undefined) out.group = group.group;
  if (group.host !== undefined) out.host = group.host;
  out.target = f.target;
  out.path = f.path;
  out.message = f.message;
  if (f.evidence !== undefined) out.evidence = f.evidence;
  out.fingerprint = f.fingerprint;
  if (f.exempt) out.exempt = exemptionOf(f);
  return out;
}

export function renderJson(report: AnyReport): string {
  const lint = report.command === "lint";
  const document = {
    reportVersion: lint ? LINT_REPORT_VERSION : REPORT_VERSION,
    tool: { name: "mcp-contract", version: VERSION },
    ...verdictFields(report),
    ...tallyFields(report),
    ...(report.command === "lint"
      ? {
          ...(report.hosts && {
            hosts: report.hosts.map(({ host, toolsRejected, toolsDropped, toolsAltered, listRejected }) => ({
              host,
              toolsRejected,
              toolsDropped,
              toolsAltered,
              listRejected,
            })),
          }),
          findings: report.findings.map(findingJson),
        }
      : {
          ...(report.nextVersion !== undefined && { nextVersion: report.nextVersion }),
          ...(report.scope && { scope: report.scope }),
          ...(report.accepted && { accepted: report.accepted }),
          ...(report.environment && !report.accepted && { environment: report.environment }),
          changes: report.changes.map(changeJson),
        }),
    notices: report.notices,
  };
  // Control and bidi characters in any string as `\u` escapes: the same data, safe to print.
  return `${escapeJsonText(stringifyWithList(document, lint ? "findings" : "changes"))}\n`;
}
