/**
 * GitHub Actions workflow commands, for every kind: one annotation per entry (a change, a
 * tool's hint changes, a run of one change on many items; for lint, a finding), placed on the
 * lockfile line of the affected item when there is a lockfile in the repository
 * (`::error file=packages/srv/mcp.contract.json,line=12,col=5,title=rule::message`: paths from
 * the repository root, src/report/locate.ts), then the notices and a summary line. Pure.
 *
 * Levels (check, diff): what fails the run and breaking changes are errors, minor changes
 * notices, patch changes not annotated (the summary line counts them); exempt items never
 * count, they are notices that say why. Lint: what fails is an error, other errors and
 * warnings warnings, info notices. Escaping follows @actions/core: `%`, CR and LF in the
 * message; also `:` and `,` in properties; control and bidi characters are escaped first (escapeControls).
 */
import type { ReportContext } from "./context.ts";
import { type Entry, entriesOf, rangeOf, type SectionKey, sectionsOf } from "./entries.ts";
import { ChangeLocator } from "./locate.ts";
import { type AnyReport, gradeRank, isChange, isCounted, type ReportItem } from "./model.ts";
import {
  bumpLine,
  countsLine,
  escapeControls,
  exemptionLabel,
  itemMessage,
  kindWord,
  renameHint,
  SECURITY_SHORT,
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

type Command = "error" | "warning" | "notice";

/**
 * Check and diff: what fails the run and every breaking change are errors, minor changes
 * notices, patch changes no annotation at all (the summary line counts them), exempt changes
 * notices. Lint: what fails is an error, other errors and warnings warnings, info notices.
 */
function commandFor(entry: Entry, report: AnyReport): Command | undefined {
  // check --update accepted every change: nothing fails, each is a notice (patch ones none).
  if (report.command !== "lint" && report.accepted) return gradeRank(entry.grade) === 2 ? undefined : "notice";
  if (entry.items.some((item) => isCounted(item, report.failOn))) return "error";
  if (report.command === "lint") return gradeRank(entry.grade) === 2 ? "notice" : "warning";
  if (entry.exempt) return gradeRank(entry.grade) === 2 ? undefined : "notice";
  return ["error", "notice", undefined][gradeRank(entry.grade)] as Command | undefined;
}

/** At most this many names in a run's annotation; the JSON and SARIF reports list every one. */
const MAX_NAMES = 20;

function message(entry: Entry, section: SectionKey): string {
  const item = entry.items[0] as ReportItem;
  const label = section === "security" ? "security" : entry.grade;
  const lines = [`${label}: ${entry.kind === "item" ? itemMessage(item) : entry.message}`];
  if (entry.kind === "item" && isChange(item)) {
    if (item.renamedTo) lines.push(`hint: ${renameHint(JSON.stringify(item.renamedTo))}`);
    if (item.witness !== undefined) lines.push(`witness (${witnessMeaning(item)}): ${JSON.stringify(item.witness)}`);
  }
  const example = entry.example;
  if (example?.witness !== undefined) {
    lines.push(
      `witness, e.g. on ${JSON.stringify(example.target.name)} (${witnessMeaning(example)}): ${JSON.stringify(example.witness)}`,
    );
  }
  // A run whose line shows only its first and last items: all of them (up to MAX_NAMES) below.
  if (entry.run && rangeOf(entry.run.names, (name) => name).includes(" … ")) {
    const names = entry.run.names;
    const more = names.length > MAX_NAMES ? `, …and ${names.length - MAX_NAMES} more` : "";
    lines.push(`${names.length} ${kindWord(entry.run.kind)}s: ${names.slice(0, MAX_NAMES).join(", ")}${more}`);
  }
  if (entry.note) lines.push(`note: ${entry.note}`);
  if (entry.exempt) lines.push(`does not count: ${exemptionLabel(entry.exempt)}`);
  return lines.join("\n");
}

function summaryLine(report: AnyReport): string {
  const command = `mcp-contract ${report.command}`;
  if (report.command !== "lint") {
    if (report.changes.length === 0) {
      return report.accepted ? `${command}: no changes · ${verdictLine(report)}` : `${command}: no changes`;
    }
    const security = report.summary.security > 0 ? ` (${SECURITY_SHORT})` : "";
    const patch = report.summary.patch > 0 ? ` · patch changes are not annotated` : "";
    return `${command}: ${verdictLine(report)} · ${countsLine(report)}${security} · ${bumpLine(report)}${patch}`;
  }
  const body =
    report.findings.length === 0
      ? `no findings${report.result === "fail" ? ` · ${verdictLine(report)}` : ""}`
      : `${verdictLine(report)} · ${countsLine(report)}`;
  return `${command}: ${body} · ${toolListLine(report.toolList)}`;
}

export function renderGithub(report: AnyReport, context: ReportContext = {}): string {
  const locator = new ChangeLocator(context, report);
  const out: string[] = [];
  // check --all interleaves servers: each annotation's title, and the summary line, names its own.
  const of = context.server === undefined ? "" : ` (server ${context.server})`;
  for (const section of sectionsOf(report)) {
    for (const entry of entriesOf(report, section.items)) {
      const command = commandFor(entry, report);
      if (!command) continue;
      const found = locator.locate(entry.items[0] as ReportItem);
      const title = `${entry.rules.join(", ")}${of}`;
      const properties = { file: found?.file, line: found?.line, col: found?.column, title };
      out.push(workflowCommand(command, properties, message(entry, section.key)));
    }
  }
  for (const notice of report.notices) out.push(workflowCommand("warning", { title: `mcp-contract${of}` }, notice));
  out.push(context.server === undefined ? summaryLine(report) : `server ${context.server}: ${summaryLine(report)}`);
  return `${out.join("\n")}\n`;
}
