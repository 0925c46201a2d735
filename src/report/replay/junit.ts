/**
 * The replay report as JUnit XML: one test suite per consumer, one test case per recorded call
 * (a broken call, or one a counted schema change reaches, is a <failure>; a skipped or not
 * replayed one is <skipped> with the reason), plus, for can-i-deploy, one case for counted schema
 * changes that reach no call (a server-level change). Pure.
 */
import { escapeXmlAttribute, escapeXmlText } from "../junit.ts";
import { isCounted } from "../model.ts";
import type { ReplayReport } from "../replay-model.ts";
import { callFails, callTitle, findingLine, schemaLines } from "./shared.ts";

const attrs = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([k, v]) => ` ${k}="${escapeXmlAttribute(String(v))}"`)
    .join("");

export function renderReplayJunit(report: ReplayReport): string {
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let skipped = 0;
  for (const section of report.sections) {
    const cases: string[] = [];
    let suiteFailures = 0;
    let suiteSkipped = 0;
    const classname = `${report.command}.${section.consumer}`;
    for (const call of section.calls) {
      const name = callTitle(call);
      if (callFails(call)) {
        suiteFailures++;
        const lines = [...call.findings.map(findingLine), ...schemaLines(call).map((l) => `schema: ${l}`)];
        const type = [
          ...new Set([...call.findings.map((f) => f.kind), ...(call.schema ?? []).map((h) => h.rule)]),
        ].join(" ");
        cases.push(
          `    <testcase${attrs({ classname, name, ...(call.ms !== undefined && { time: call.ms / 1000 }) })}>\n      <failure${attrs({ message: lines[0] ?? "broken", type })}>${escapeXmlText(lines.join("\n"))}</failure>\n    </testcase>`,
        );
      } else if (call.status === "skipped" || (call.status === "planned" && !section.schema)) {
        suiteSkipped++;
        cases.push(
          `    <testcase${attrs({ classname, name })}>\n      <skipped${attrs({ message: call.reason ?? call.status })}/>\n    </testcase>`,
        );
      } else {
        cases.push(
          `    <testcase${attrs({ classname, name, ...(call.ms !== undefined && { time: call.ms / 1000 }) })}/>`,
        );
      }
    }
    if (section.schema) {
      // Counted changes no call reaches (server-level ones): one more case, so none goes unseen.
      const reached = new Set(section.calls.flatMap((c) => (c.schema ?? []).map((h) => `${h.rule}|${h.path}`)));
      const schema = section.schema;
      const other = schema.changes.filter((c) => isCounted(c, schema.failOn) && !reached.has(`${c.rule}|${c.path}`));
      const name = "surface (changes no recorded call reaches)";
      if (other.length > 0) {
        suiteFailures++;
        const text = other.map(
          (c) => `${c.rule} (${c.severity}) ${c.target.kind} ${c.target.name} at ${c.path}: ${c.message}`,
        );
        cases.push(
          `    <testcase${attrs({ classname, name })}>\n      <failure${attrs({ message: text[0] as string, type: [...new Set(other.map((c) => c.rule))].join(" ") })}>${escapeXmlText(text.join("\n"))}</failure>\n    </testcase>`,
        );
      } else {
        cases.push(`    <testcase${attrs({ classname, name })}/>`);
      }
    }
    tests += cases.length;
    failures += suiteFailures;
    skipped += suiteSkipped;
    suites.push(
      `  <testsuite${attrs({ name: section.consumer, tests: cases.length, failures: suiteFailures, errors: 0, skipped: suiteSkipped })}>\n${cases.join("\n")}\n  </testsuite>`,
    );
  }
  const name = report.command === "can-i-deploy" ? `can-i-deploy ${report.environment ?? ""}`.trim() : "replay";
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attrs({ name, tests, failures, errors: 0, skipped })}>\n${suites.join("\n")}\n</testsuites>\n`;
}
