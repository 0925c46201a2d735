/**
 * GitHub Actions workflow commands: one annotation per change, placed on the lockfile line of
 * the affected item (`::error file=mcp.contract.json,line=12,col=5,title=rule::message`), then
 * the notices and a summary line. Pure.
 *
 * Changes that count toward the verdict are errors; other breaking and minor changes are
 * warnings, patch changes notices. Exempt changes never count: they say why in the message.
 * Escaping follows @actions/core: `%`, CR and LF in the message; also `:` and `,` in
 * properties.
 */
import type { ReportContext } from "./context.ts";
import { ChangeLocator } from "./locate.ts";
import type { Report, ReportChange } from "./model.ts";
import { bumpLine, countsAsFailing, countsLine, exemptionLabel, verdictLine, witnessMeaning } from "./shared.ts";

export function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

export function workflowCommand(
  command: "error" | "warning" | "notice",
  properties: Record<string, string | number | undefined>,
  message: string,
): string {
  const props = Object.entries(properties)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`)
    .join(",");
  return `::${command}${props ? ` ${props}` : ""}::${escapeData(message)}`;
}

function commandFor(change: ReportChange, report: Report): "error" | "warning" | "notice" {
  if (countsAsFailing(change, report.failOn)) return "error";
  return change.severity === "patch" ? "notice" : "warning";
}

function message(change: ReportChange): string {
  const lines = [`${change.severity}: ${change.message}`];
  if (change.renamedTo) {
    lines.push(
      `hint: possibly renamed to ${JSON.stringify(change.renamedTo)} (the removal still breaks callers of the old name)`,
    );
  }
  if (change.witness !== undefined)
    lines.push(`witness (${witnessMeaning(change)}): ${JSON.stringify(change.witness)}`);
  if (change.note) lines.push(`note: ${change.note}`);
  if (change.exempt) lines.push(`does not count: ${exemptionLabel(change.exempt)}`);
  return lines.join("\n");
}

export function renderGithub(report: Report, context: ReportContext = {}): string {
  const locator = new ChangeLocator(context);
  const out: string[] = [];
  for (const change of report.changes) {
    const found = locator.locate(change);
    out.push(
      workflowCommand(
        commandFor(change, report),
        {
          file: found?.file,
          line: found?.line,
          col: found?.column,
          title: change.rule,
        },
        message(change),
      ),
    );
  }
  for (const notice of report.notices) out.push(workflowCommand("warning", { title: "mcp-contract" }, notice));
  const summary =
    report.changes.length === 0
      ? `mcp-contract ${report.command}: no changes`
      : `mcp-contract ${report.command}: ${verdictLine(report)} · ${countsLine(report)} · ${bumpLine(report)}`;
  out.push(summary);
  return `${out.join("\n")}\n`;
}
