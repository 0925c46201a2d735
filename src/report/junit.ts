/**
 * JUnit XML for CI test-report views (GitLab, Jenkins, Azure DevOps, test-reporter actions):
 * one test suite, one test case per item checked (every tool, resource, template and prompt
 * of either side, and the server itself), so unchanged items show as passing tests. Pure.
 *
 * - A change that counts toward the verdict is a <failure> (type = rule id) of its item.
 * - An item whose only would-be failures are exempt (out of scope, ignored) is <skipped>.
 * - Every other change (below the threshold, or exempt) is listed in the item's <system-out>.
 * The suite's `failures` counts failing test cases, `skipped` skipped ones; `errors` is 0
 * (a server that cannot be reached is an exit code, not a report).
 */
import { isJsonObject, type Json } from "../contract/model.ts";
import { KIND_ORDER } from "../diff/change.ts";
import type { TargetKind } from "../diff/model.ts";
import type { ReportContext } from "./context.ts";
import { isFailing, type Report, type ReportChange } from "./model.ts";
import { pointerToDisplay } from "./paths.ts";
import { countsAsFailing, exemptionLabel, verdictLine, witnessMeaning } from "./shared.ts";

export const LISTS: { kind: Exclude<TargetKind, "server">; key: string; id: string }[] = [
  { kind: "tool", key: "tools", id: "name" },
  { kind: "resource", key: "resources", id: "uri" },
  { kind: "resourceTemplate", key: "resourceTemplates", id: "uriTemplate" },
  { kind: "prompt", key: "prompts", id: "name" },
];

/** Characters XML 1.0 does not allow at all (not even as references): replaced by U+FFFD. */
const INVALID_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text content: &, < and > escaped; characters XML cannot carry replaced. */
export function escapeXmlText(text: string): string {
  return text.replace(INVALID_XML, "\uFFFD").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** An attribute value in double quotes; line breaks and tabs as references so parsers keep them. */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text)
    .replace(/"/g, "&quot;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;")
    .replace(/\t/g, "&#9;");
}

export function attributes(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([k, v]) => ` ${k}="${escapeXmlAttribute(String(v))}"`)
    .join("");
}

interface Case {
  kind: TargetKind;
  name: string;
  changes: ReportChange[];
}

function parse(text: string | undefined): Json | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

export function serverName(...documents: (Json | undefined)[]): string {
  for (const document of documents) {
    const server = isJsonObject(document) ? document.server : undefined;
    if (isJsonObject(server) && typeof server.name === "string" && server.name !== "") return server.name;
  }
  return "server";
}

/** Every item of both sides (and the server), each with its changes, in a stable order. */
function collectCases(report: Report, context: ReportContext): Case[] {
  const documents = [
    (context.baselineContract as unknown as Json | undefined) ?? parse(context.baseline?.text),
    (context.currentContract as unknown as Json | undefined) ?? parse(context.current?.text),
  ];
  const cases = new Map<string, Case>();
  const key = (kind: TargetKind, name: string) => `${kind}\u0000${name}`;
  const add = (kind: TargetKind, name: string) => {
    const k = key(kind, name);
    if (!cases.has(k)) cases.set(k, { kind, name, changes: [] });
    return cases.get(k) as Case;
  };
  add("server", "");
  // A template whose uriTemplate changed is one item, reported under its old identity.
  const renamed = new Set(
    report.changes
      .filter((c) => c.target.kind === "resourceTemplate" && c.path === "/uriTemplate" && typeof c.after === "string")
      .map((c) => key("resourceTemplate", c.after as string)),
  );
  for (const [side, document] of documents.entries()) {
    if (!isJsonObject(document)) continue;
    for (const list of LISTS) {
      const items = document[list.key];
      if (!Array.isArray(items)) continue;
      for (const item of items) {
        const id = isJsonObject(item) ? item[list.id] : undefined;
        if (typeof id !== "string") continue;
        if (side === 1 && renamed.has(key(list.kind, id)) && !cases.has(key(list.kind, id))) continue;
        add(list.kind, id);
      }
    }
  }
  // Changes always find their item; when the context has no surfaces, items come from the changes.
  for (const change of report.changes) add(change.target.kind, change.target.name).changes.push(change);
  const sorted = [...cases.values()];
  sorted.sort(
    (a, b) =>
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  const name = serverName(...documents);
  return sorted.map((c) => (c.kind === "server" ? { ...c, name } : c));
}

function failureBody(change: ReportChange): string {
  const lines = [
    `${change.severity}: ${change.message}`,
    `rule: ${change.rule}`,
    ...(change.direction ? [`direction: ${change.direction}`] : []),
    ...(change.path ? [`at: ${pointerToDisplay(change.path)} (${change.path})`] : []),
    ...(change.before !== undefined ? [`before: ${JSON.stringify(change.before)}`] : []),
    ...(change.after !== undefined ? [`after: ${JSON.stringify(change.after)}`] : []),
    ...(change.witness !== undefined ? [`witness (${witnessMeaning(change)}): ${JSON.stringify(change.witness)}`] : []),
    ...(change.renamedTo ? [`hint: possibly renamed to ${JSON.stringify(change.renamedTo)}`] : []),
    ...(change.note ? [`note: ${change.note}`] : []),
    `fingerprint: ${change.fingerprint}`,
  ];
  return lines.join("\n");
}

function outLine(change: ReportChange): string {
  const exempt = change.exempt ? ` (${exemptionLabel(change.exempt)})` : "";
  return `[${change.severity}] ${change.rule}: ${change.message}${exempt}`;
}

export function renderJunit(report: Report, context: ReportContext = {}): string {
  const cases = collectCases(report, context).map((c): JunitCase => {
    const failing = c.changes.filter((change) => countsAsFailing(change, report.failOn));
    const waived = c.changes.filter((change) => change.exempt && isFailing(change.severity, report.failOn));
    return {
      classname: c.kind,
      name: c.name,
      failures: failing.map((change) => ({ message: change.message, type: change.rule, body: failureBody(change) })),
      skipped: waived.map((change) => exemptionLabel(change.exempt!)),
      out: c.changes.filter((change) => !failing.includes(change)).map(outLine),
    };
  });
  return junitXml("mcp-contract", cases, [
    ["command", report.command],
    ["baseline", report.baseline.source],
    ["current", report.current.source],
    ["failOn", report.failOn],
    ["result", report.result],
    ["requiredBump", report.requiredBump],
    ["verdict", verdictLine(report)],
    ...report.notices.map((notice): [string, string] => ["notice", notice]),
  ]);
}

/** One test case of a JUnit report: an item checked, with what failed, was waived, or is only worth a line. */
export interface JunitCase {
  classname: string;
  name: string;
  failures: { message: string; type: string; body: string }[];
  /** Why would-be failures do not count (exempt); the case is <skipped> when it has no failure. */
  skipped: string[];
  /** Lines for <system-out>: everything else about the item. */
  out: string[];
}

/** The XML around the cases, shared by check, diff and lint; counts are derived from the cases. */
export function junitXml(suite: string, cases: readonly JunitCase[], properties: readonly [string, string][]): string {
  let failures = 0;
  let skipped = 0;
  const body: string[] = [];
  for (const c of cases) {
    const open = `    <testcase${attributes({ classname: c.classname, name: c.name, time: 0 })}`;
    if (c.failures.length === 0 && c.skipped.length === 0 && c.out.length === 0) {
      body.push(`${open}/>`);
      continue;
    }
    body.push(`${open}>`);
    if (c.failures.length > 0) {
      failures++;
      for (const f of c.failures) {
        body.push(
          `      <failure${attributes({ message: f.message, type: f.type })}>${escapeXmlText(f.body)}</failure>`,
        );
      }
    } else if (c.skipped.length > 0) {
      skipped++;
      body.push(`      <skipped${attributes({ message: [...new Set(c.skipped)].join("; ") })}/>`);
    }
    if (c.out.length > 0) body.push(`      <system-out>${escapeXmlText(c.out.join("\n"))}</system-out>`);
    body.push("    </testcase>");
  }
  const counts = { tests: cases.length, failures, errors: 0, skipped, time: 0 };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: suite, ...counts })}>`,
    `  <testsuite${attributes({ name: suite, ...counts })}>`,
    "    <properties>",
    ...properties.map(([name, value]) => `      <property${attributes({ name, value })}/>`),
    "    </properties>",
    ...body,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
