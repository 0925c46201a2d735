/**
 * Control and bidi characters from a server (names, URIs, descriptions, schema property
 * names, serverInfo) never reach a report raw: every format escapes them through one helper
 * (src/report/shared.ts escapeControls, escapeJsonText). Text, Markdown, GitHub annotations and
 * JUnit show them escaped; JSON and SARIF write them as `\u` escapes, so the data parses back
 * exactly, and SARIF's message texts (which viewers show as they are) are escaped like text.
 */
import { describe, expect, test } from "bun:test";
import type { Contract } from "../../../src/contract/model.ts";
import { lintContract } from "../../../src/lint/lint.ts";
import { DEFAULT_LINT_OPTIONS } from "../../../src/lint/model.ts";
import { toolListSize } from "../../../src/lint/rules-quality.ts";
import { compareSurfaces } from "../../../src/policy/compare.ts";
import { renderGithub } from "../../../src/report/github.ts";
import { renderJson } from "../../../src/report/json.ts";
import { renderJunit } from "../../../src/report/junit.ts";
import { renderMarkdown } from "../../../src/report/markdown.ts";
import {
  type AnyReport,
  buildLintReport,
  buildReport,
  fingerprintFindings,
  sideOf,
} from "../../../src/report/model.ts";
import { renderSarif } from "../../../src/report/sarif.ts";
import { escapeControls, escapeJsonText } from "../../../src/report/shared.ts";
import { renderText } from "../../../src/report/text.ts";
import { contract, tool } from "../diff/helpers.ts";

/** ESC (a terminal escape), BEL, NUL, CR, DEL, CSI (C1), RLO, LRI, PDI, LINE SEPARATOR. */
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;

const EVIL_NAME = "get\u001b[2J\u001b]0;pwned\u0007\u0000\r\u007f\u009b\u202eexe.txt\u2066x\u2069\u2028";
const EVIL_TEXT = "Adds.\u001b[8mhidden\u001b[0m \u202edesrever\u202c";

function hostile(): [Contract, Contract] {
  const before = contract({
    server: { name: "s", version: "1.0.0" },
    tools: [tool("add", { description: "Adds." }), tool("gone")],
  });
  const after = contract({
    server: { name: "s\u001b[31m\u202e", version: "2.0.0\u0007" },
    tools: [
      tool("add", {
        description: EVIL_TEXT,
        inputSchema: {
          type: "object",
          properties: { "a\u001bb\u202e": { type: "string" } },
          required: ["a\u001bb\u202e"],
        },
      }),
      tool(EVIL_NAME, { description: EVIL_TEXT }),
    ],
    resources: [{ uri: "file:///\u202etxt.exe", name: "r\u0007" }],
  });
  return [before, after];
}

function reports(): AnyReport[] {
  const [before, after] = hostile();
  const changes = compareSurfaces(before, after);
  const diff = buildReport(
    "check",
    sideOf(before, "mcp.contract.json"),
    sideOf(after, "live `x`"),
    changes,
    "breaking",
    [`notice about ${EVIL_NAME}`],
  );
  const findings = fingerprintFindings(lintContract(after, DEFAULT_LINT_OPTIONS));
  const lint = buildLintReport(
    sideOf(after, "live `x`"),
    findings,
    { ...toolListSize(after), budget: DEFAULT_LINT_OPTIONS.tokenBudget },
    "error",
    [`notice about ${EVIL_NAME}`],
  );
  return [diff, lint];
}

const context = () => {
  const [before, after] = hostile();
  return { baselineContract: before, currentContract: after };
};

describe("control and bidi characters in reports", () => {
  test("the helper: controls as \\u escapes, bidi spelled out, tab and line feed kept", () => {
    expect(escapeControls("a\u001b[31mb\u0007\u0000\u009b\tc\nd")).toBe("a\\u001b[31mb\\u0007\\u0000\\u009b\tc\nd");
    expect(escapeControls("x\u202ey\u2066z")).toBe("x<U+202E RIGHT-TO-LEFT OVERRIDE>y<U+2066 LEFT-TO-RIGHT ISOLATE>z");
    expect(escapeControls("plain: é ü 😀 <b>")).toBe("plain: é ü 😀 <b>");
    const json = JSON.stringify({ name: EVIL_NAME });
    expect(escapeJsonText(json)).not.toMatch(UNSAFE);
    expect(JSON.parse(escapeJsonText(json))).toEqual({ name: EVIL_NAME });
  });

  test.each(["text", "markdown", "github", "junit"] as const)("%s shows none of them raw", (format) => {
    for (const report of reports()) {
      const out =
        format === "text"
          ? renderText(report, { color: false })
          : format === "markdown"
            ? renderMarkdown(report)
            : format === "github"
              ? renderGithub(report, context())
              : renderJunit(report, context());
      expect(out).not.toMatch(UNSAFE);
      // The names are there, escaped.
      expect(out).toContain("\\u001b");
      expect(out).toMatch(/<U\+202E RIGHT-TO-LEFT OVERRIDE|&lt;U\+202E RIGHT-TO-LEFT OVERRIDE/);
    }
  });

  test("text with colour keeps its own colours and escapes the server's", () => {
    const [diff] = reports();
    const out = renderText(diff!, { color: true });
    // Every ESC left is one of ours: an SGR sequence that the renderer painted.
    expect(out.replace(/\u001b\[[0-9;]*m/g, "")).not.toMatch(UNSAFE);
    expect(out).not.toContain("\u001b[2J");
    expect(out).not.toContain("\u001b]0;");
  });

  test("JSON and SARIF: no raw character in the file, and the data parses back exactly", () => {
    for (const report of reports()) {
      const json = renderJson(report);
      expect(json).not.toMatch(UNSAFE);
      const parsed = JSON.parse(json) as {
        changes?: { target: { name: string } }[];
        findings?: { target: { name: string } }[];
      };
      const names = (parsed.changes ?? parsed.findings ?? []).map((item) => item.target.name);
      expect(names).toContain(EVIL_NAME);

      const sarifText = renderSarif(report, context());
      expect(sarifText).not.toMatch(UNSAFE);
      const sarif = JSON.parse(sarifText) as {
        runs: { results: { message: { text: string }; properties: { target: { name: string } } }[] }[];
      };
      const results = sarif.runs[0]!.results;
      expect(results.map((r) => r.properties.target.name)).toContain(EVIL_NAME);
      // What viewers show as it is: escaped like text.
      for (const result of results) expect(result.message.text).not.toMatch(UNSAFE);
    }
  });
});
