/**
 * GitHub Actions workflow commands, for every kind: one annotation per change or finding,
 * placed on the lockfile line of the affected item when there is a lockfile
 * (`::error file=mcp.contract.json,line=12,col=5,title=rule::message`), then the notices and a
 * summary line. Pure.
 *
 * Items that count toward the verdict are errors; other items are warnings, except the least
 * severe grade (patch changes, info findings), which are notices. Exempt items never count:
 * they say why in the message. Escaping follows @actions/core: `%`, CR and LF in the message;
 * also `:` and `,` in properties; control and bidi characters are escaped first (escapeControls).
 */
import type { ReportContext } from "./context.ts";
import { ChangeLocator } from "./locate.ts";
import { type AnyReport, gradeOf, gradeRank, isChange, isCounted, itemsOf, type ReportItem } from "./model.ts";
import {
  bumpLine,
  countsLine,
  escapeControls,
  exemptionLabel,
  itemMessage,
  renameHint,
  toolListLine,
  verdictLine,
  witnessMeaning,
} from "./shared.ts";

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
    .map(([k, v]) => `${k}=${escapeProperty(escapeControls(String(v)))}`)
    .join(",");
  return `::${command}${props ? ` ${props}` : ""}::${escapeData(escapeControls(message))}`;
}

function commandFor(item: ReportItem, report: AnyReport): "error" | "warning" | "notice" {
  if (isCounted(item, report.failOn)) return "error";
  return gradeRank(gradeOf(item)) === 2 ? "notice" : "warning";
}

function message(item: ReportItem): string {
  const lines = [`${gradeOf(item)}: ${itemMessage(item)}`];
  if (isChange(item)) {
    if (item.renamedTo) lines.push(`hint: ${renameHint(JSON.stringify(item.renamedTo))}`);
    if (item.witness !== undefined) lines.push(`witness (${witnessMeaning(item)}): ${JSON.stringify(item.witness)}`);
    if (item.note) lines.push(`note: ${item.note}`);
  }
  if (item.exempt) lines.push(`does not count: ${exemptionLabel(item.exempt)}`);
  return lines.join("\n");
}

function summaryLine(report: AnyReport): string {
  const command = `mcp-contract ${report.command}`;
  if (report.command !== "lint") {
    return report.changes.length === 0
      ? `${command}: no changes`
      : `${command}: ${verdictLine(report)} · ${countsLine(report)} · ${bumpLine(report)}`;
  }
  const body =
    report.findings.length === 0
      ? `no findings${report.result === "fail" ? ` · ${verdictLine(report)}` : ""}`
      : `${verdictLine(report)} · ${countsLine(report)}`;
  return `${command}: ${body} · ${toolListLine(report.toolList)}`;
}

export function renderGithub(report: AnyReport, context: ReportContext = {}): string {
  const locator = new ChangeLocator(context);
  const out = itemsOf(report).map((item) => {
    const found = locator.locate(item);
    const properties = { file: found?.file, line: found?.line, col: found?.column, title: item.rule };
    return workflowCommand(commandFor(item, report), properties, message(item));
  });
  for (const notice of report.notices) out.push(workflowCommand("warning", { title: "mcp-contract" }, notice));
  out.push(summaryLine(report));
  return `${out.join("\n")}\n`;
}
