/** The machine report: a documented, stable shape (docs/report.schema.json). */
import { VERSION } from "../version.ts";
import { REPORT_VERSION, type Report } from "./model.ts";

export function renderJson(report: Report): string {
  const document = {
    reportVersion: REPORT_VERSION,
    tool: { name: "mcp-contract", version: VERSION },
    command: report.command,
    baseline: report.baseline,
    current: report.current,
    failOn: report.failOn,
    result: report.result,
    requiredBump: report.requiredBump,
    summary: report.summary,
    changes: report.changes.map((c) => ({
      rule: c.rule,
      severity: c.severity,
      target: c.target,
      ...(c.direction ? { direction: c.direction } : {}),
      path: c.path,
      ...(c.before !== undefined ? { before: c.before } : {}),
      ...(c.after !== undefined ? { after: c.after } : {}),
      message: c.message,
      ...(c.note ? { note: c.note } : {}),
      ...(c.renamedTo ? { renamedTo: c.renamedTo } : {}),
      ...(c.witness !== undefined ? { witness: c.witness } : {}),
      fingerprint: c.fingerprint,
      ...(c.exempt ? { exempt: { kind: c.exempt.kind, reason: c.exempt.reason } } : {}),
    })),
    notices: report.notices,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
