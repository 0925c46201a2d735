/**
 * JUnit XML for CI test-report views (GitLab, Jenkins, Azure DevOps, test-reporter actions),
 * for every kind: one test suite, one test case per item checked or linted (every tool,
 * resource, template and prompt of either side, or of the linted surface, and the server
 * itself), so unchanged or clean items show as passing tests. Pure.
 *
 * - A change or finding that counts toward the verdict is a <failure> (type = rule id) of its item.
 * - An item whose only would-be failures are exempt (out of scope, ignored) is <skipped>.
 * - Every other change or finding (below the threshold, or exempt) is listed in the item's <system-out>.
 * The suite's `failures` counts failing test cases, `skipped` skipped ones; `errors` is 0
 * (a server that cannot be reached is an exit code, not a report).
 */
import { isJsonObject, type Json, SKILLS_LIST } from "../contract/model.ts";
import { pointerToDotted } from "../contract/pointer.ts";
import { ITEM_LISTS } from "../contract/surface.ts";
import { KIND_ORDER } from "../diff/change.ts";
import type { TargetKind } from "../diff/model.ts";
import type { ReportContext } from "./context.ts";
import { type Entry, entriesOf } from "./entries.ts";
import { parseOrUndefined } from "./locate.ts";
import {
  type AnyReport,
  gradeOf,
  isChange,
  isCounted,
  isSecurity,
  isWaived,
  itemsOf,
  type ReportItem,
} from "./model.ts";
import {
  escapeControls,
  exemptionLabel,
  itemMessage,
  lintGroupOf,
  SECURITY_EXPLAINED,
  toolListLine,
  verdictLine,
  witnessMeaning,
} from "./shared.ts";

/**
 * Characters XML 1.0 does not allow at all (not even as references) that escapeControls leaves:
 * lone surrogates and U+FFFE, U+FFFF, replaced by U+FFFD.
 */
const INVALID_XML = /[\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text content: control and bidi characters escaped (escapeControls: XML cannot carry most C0
 * controls, and the others must not reach a viewer raw), &, < and > escaped, and the other
 * characters XML cannot carry replaced.
 */
export function escapeXmlText(text: string): string {
  return escapeControls(text)
    .replace(INVALID_XML, "\uFFFD")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

/** An attribute value in double quotes; line breaks and tabs as references so parsers keep them. */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text)
    .replace(/"/g, "&quot;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;")
    .replace(/\t/g, "&#9;");
}

function attributes(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([k, v]) => ` ${k}="${escapeXmlAttribute(String(v))}"`)
    .join("");
}

/** An item of the surface(s), with its changes or findings. */
interface Item {
  kind: TargetKind;
  name: string;
  items: ReportItem[];
}

/** The first server name the documents give, else "server". */
function serverName(documents: readonly (Json | undefined)[]): string {
  for (const document of documents) {
    const server = isJsonObject(document) ? document.server : undefined;
    if (isJsonObject(server) && typeof server.name === "string" && server.name !== "") return server.name;
  }
  return "server";
}

/** Every item of the surfaces (and the server), each with its changes or findings, in a stable order. */
function collectItems(report: AnyReport, context: ReportContext): Item[] {
  const documents = [
    (context.baselineContract as unknown as Json | undefined) ??
      (context.baseline ? parseOrUndefined(context.baseline.text) : undefined),
    (context.currentContract as unknown as Json | undefined) ??
      (context.current ? parseOrUndefined(context.current.text) : undefined),
  ];
  const found = new Map<string, Item>();
  const key = (kind: TargetKind, name: string) => `${kind}\u0000${name}`;
  const add = (kind: TargetKind, name: string) => {
    const k = key(kind, name);
    if (!found.has(k)) found.set(k, { kind, name, items: [] });
    return found.get(k) as Item;
  };
  add("server", "");
  // A template whose uriTemplate changed is one item, reported under its old identity.
  const renamed = new Set(
    (report.command === "lint" ? [] : report.changes)
      .filter((c) => c.target.kind === "resourceTemplate" && c.path === "/uriTemplate" && typeof c.after === "string")
      .map((c) => key("resourceTemplate", c.after as string)),
  );
  for (const [side, document] of documents.entries()) {
    if (!isJsonObject(document)) continue;
    for (const list of JUNIT_LISTS) {
      const entries = document[list.key];
      if (!Array.isArray(entries)) continue;
      for (const entry of entries) {
        const id = isJsonObject(entry) ? entry[list.id] : undefined;
        if (typeof id !== "string") continue;
        if (side === 1 && renamed.has(key(list.kind, id)) && !found.has(key(list.kind, id))) continue;
        add(list.kind, id);
      }
    }
  }
  // Changes and findings always find their item; without surfaces in the context, items come from them.
  for (const item of itemsOf(report)) add(item.target.kind, item.target.name).items.push(item);
  const sorted = [...found.values()];
  sorted.sort(
    (a, b) =>
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  // A live server linted has no lockfile: its name is the subject's.
  const lintSubject = report.command === "lint" ? [{ server: report.subject.server } as unknown as Json] : [];
  const name = serverName([...documents, ...lintSubject]);
  return sorted.map((c) => (c.kind === "server" ? { ...c, name } : c));
}

/** The lists whose items are test cases: the four, and the skills of the Skills extension. */
const JUNIT_LISTS: readonly { key: string; id: string; kind: TargetKind }[] = [
  ...ITEM_LISTS,
  { ...SKILLS_LIST, kind: "skill" },
];

/** "breaking", or "security" for security drift (it fails like a breaking change). */
const gradeLabel = (item: ReportItem) => (isSecurity(item) ? "security" : gradeOf(item));

function failureBody(item: ReportItem): string {
  const at = item.path ? [`at: ${pointerToDotted(item.path)} (${item.path})`] : [];
  const lines = [`${gradeLabel(item)}: ${itemMessage(item)}`];
  if (isChange(item)) {
    lines.push(
      `rule: ${item.rule}`,
      ...(item.direction ? [`direction: ${item.direction}`] : []),
      ...at,
      ...(item.before !== undefined ? [`before: ${JSON.stringify(item.before)}`] : []),
      ...(item.after !== undefined ? [`after: ${JSON.stringify(item.after)}`] : []),
      ...(item.witness !== undefined ? [`witness (${witnessMeaning(item)}): ${JSON.stringify(item.witness)}`] : []),
      ...(item.renamedTo ? [`hint: possibly renamed to ${JSON.stringify(item.renamedTo)}`] : []),
      ...(item.note ? [`note: ${item.note}`] : []),
    );
  } else {
    const { group } = lintGroupOf(item.rule);
    lines.push(
      `rule: ${item.rule}${group ? ` (${group})` : ""}`,
      ...at,
      ...(item.evidence !== undefined ? [`evidence: ${JSON.stringify(item.evidence)}`] : []),
    );
  }
  lines.push(`fingerprint: ${item.fingerprint}`);
  return lines.join("\n");
}

/** One line of system-out per entry (a change, or a tool's hint changes in one). */
function outLine(entry: Entry): string {
  const item = entry.items[0] as ReportItem;
  const exempt = entry.exempt ? ` (${exemptionLabel(entry.exempt)})` : "";
  const message = entry.kind === "item" ? itemMessage(item) : entry.message;
  return `[${gradeLabel(item)}] ${entry.rules.join(", ")}: ${message}${exempt}`;
}

/** The suite's properties: the command, its sides, the verdict, then the notices. */
function properties(report: AnyReport): [string, string][] {
  const verdict: [string, string][] = [
    ["failOn", report.failOn],
    ["result", report.result],
  ];
  const notices = report.notices.map((notice): [string, string] => ["notice", notice]);
  if (report.command === "lint") {
    return [
      ["command", report.command],
      ["subject", report.subject.source],
      ...verdict,
      ["verdict", verdictLine(report)],
      ["toolList", toolListLine(report.toolList)],
      ...notices,
    ];
  }
  return [
    ["command", report.command],
    ["baseline", report.baseline.source],
    ["current", report.current.source],
    ...verdict,
    ["changeLevel", report.changeLevel],
    ["requiredBump", report.requiredBump],
    ["verdict", verdictLine(report)],
    ...(report.summary.security > 0 ? [["security", SECURITY_EXPLAINED] as [string, string]] : []),
    ...notices,
  ];
}

export function renderJunit(report: AnyReport, context: ReportContext = {}): string {
  let failures = 0;
  let skipped = 0;
  const body: string[] = [];
  const items = collectItems(report, context);
  for (const item of items) {
    const entries = entriesOf(report, item.items, { runs: false, rewrites: false });
    const counted = (entry: Entry) => entry.items.some((i) => isCounted(i, report.failOn));
    const failing = entries.filter(counted);
    const waived = item.items.filter((i) => isWaived(i, report.failOn));
    const out = entries.filter((e) => !counted(e)).map(outLine);
    const open = `    <testcase${attributes({ classname: item.kind, name: item.name, time: 0 })}`;
    if (failing.length === 0 && waived.length === 0 && out.length === 0) {
      body.push(`${open}/>`);
      continue;
    }
    body.push(`${open}>`);
    if (failing.length > 0) {
      failures++;
      for (const f of failing) {
        const message = f.kind === "item" ? itemMessage(f.items[0] as ReportItem) : f.message;
        const text = f.items.map(failureBody).join("\n\n");
        body.push(`      <failure${attributes({ message, type: f.rules.join(" ") })}>${escapeXmlText(text)}</failure>`);
      }
    } else if (waived.length > 0) {
      skipped++;
      const reasons = new Set(waived.map((i) => exemptionLabel(i.exempt!)));
      body.push(`      <skipped${attributes({ message: [...reasons].join("; ") })}/>`);
    }
    if (out.length > 0) body.push(`      <system-out>${escapeXmlText(out.join("\n"))}</system-out>`);
    body.push("    </testcase>");
  }
  const suite = report.command === "lint" ? "mcp-contract lint" : "mcp-contract";
  const counts = { tests: items.length, failures, errors: 0, skipped, time: 0 };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: suite, ...counts })}>`,
    `  <testsuite${attributes({ name: suite, ...counts })}>`,
    "    <properties>",
    ...properties(report).map(([name, value]) => `      <property${attributes({ name, value })}/>`),
    "    </properties>",
    ...body,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
