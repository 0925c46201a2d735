/**
 * Table rows for host drift (check/diff --hosts, src/lint/hosts/drift.ts), both directions: a
 * construct a listed host rejects brought in is host-incompatibility-added (breaking), taken out
 * host-incompatibility-removed (minor); without --hosts the same edits report only the schema
 * change. Run by rules.test.ts, with the same shape as its own rows plus the hosts to judge against.
 */
import type { Contract, JsonObject } from "../../../src/contract/model.ts";
import { type Expected, tool } from "./helpers.ts";

interface Row {
  title: string;
  old: Partial<Contract>;
  new: Partial<Contract>;
  hosts?: string[];
  expected: Expected[];
}

const B = "breaking" as const;
const M = "minor" as const;
const P = "patch" as const;

const withLimit = (limit: JsonObject) => ({
  tools: [tool("search", { inputSchema: { type: "object", properties: { limit } } })],
});
const names = (...list: string[]) => ({ tools: list.map((name) => tool(name)) });

export const HOST_ROWS: Row[] = [
  {
    // zed-industries/zed#53919: Gemini's `parameters` rejects a type list.
    title: "--hosts gemini-parameters: a nullable type written as a list brings in a rejection",
    old: withLimit({ type: "integer" }),
    new: withLimit({ type: ["integer", "null"] }),
    hosts: ["gemini-parameters"],
    expected: [
      {
        rule: "null-added",
        severity: M,
        direction: "input",
        path: "/inputSchema/properties/limit",
        message: "null",
      },
      {
        rule: "host-incompatibility-added",
        severity: B,
        path: "/inputSchema/properties/limit/type",
        message:
          'tool "search": gemini-parameters now rejects the whole tool list (gemini-parameters-type-list): "type" at inputSchema.properties.limit is a list',
      },
    ],
  },
  {
    title: "--hosts gemini-parameters: the type list taken out again removes the rejection",
    old: withLimit({ type: ["integer", "null"] }),
    new: withLimit({ type: "integer" }),
    hosts: ["gemini-parameters"],
    expected: [
      {
        rule: "null-removed",
        severity: B,
        direction: "input",
        path: "/inputSchema/properties/limit",
        message: "null",
      },
      {
        rule: "host-incompatibility-removed",
        severity: M,
        path: "/inputSchema/properties/limit/type",
        message:
          "gemini-parameters no longer rejects the whole tool list for this (gemini-parameters-type-list is gone)",
      },
    ],
  },
  {
    title: "without --hosts the same edit is only the schema change",
    old: withLimit({ type: "integer" }),
    new: withLimit({ type: ["integer", "null"] }),
    expected: [
      { rule: "null-added", severity: M, direction: "input", path: "/inputSchema/properties/limit", message: "null" },
    ],
  },
  {
    // Lucassssss/eechat#52: one dotted name fails every OpenAI request.
    title: "--hosts openai: a tool renamed with a dot",
    old: names("read_file"),
    new: names("files.read"),
    hosts: ["openai"],
    expected: [
      { rule: "tool-added", severity: M, path: "", message: 'tool "files.read": added' },
      {
        rule: "host-incompatibility-added",
        severity: B,
        path: "/name",
        message:
          'tool "files.read": openai now rejects the whole tool list (openai-name-invalid): the name contains "."',
      },
      { rule: "tool-removed", severity: B, path: "", message: 'tool "read_file": removed' },
    ],
  },
  {
    title: "--hosts openai: a list the host rejected already loses nothing more by a second dotted name",
    old: names("a.b"),
    new: names("a.b", "c.d"),
    hosts: ["openai"],
    expected: [{ rule: "tool-added", severity: M, path: "", message: 'tool "c.d": added' }],
  },
  {
    // webstudio-is/webstudio#5960: Cursor drops a dotted tool, the others still work.
    title: "--hosts cursor: a new dotted tool is dropped, which breaks no one who had the old surface",
    old: names("a"),
    new: names("a", "meta.index"),
    hosts: ["cursor"],
    expected: [{ rule: "tool-added", severity: M, path: "", message: 'tool "meta.index": added' }],
  },
  {
    // microsoft/vscode-copilot-release#9375: a 129th tool fails every request.
    title: "--hosts vscode: the 129th tool fails the whole list",
    old: names(...Array.from({ length: 128 }, (_, i) => `t${String(i).padStart(3, "0")}`)),
    new: names(...Array.from({ length: 129 }, (_, i) => `t${String(i).padStart(3, "0")}`)),
    hosts: ["vscode"],
    expected: [
      { rule: "tool-added", severity: M, path: "", message: 'tool "t128": added' },
      {
        rule: "host-incompatibility-added",
        severity: B,
        path: "/tools",
        message: "server: vscode now rejects the whole tool list (vscode-too-many-tools): the server lists 129 tools",
      },
    ],
  },
  {
    title: "--hosts claude-code: a description grown past 2,048 characters is a lint warning, not drift",
    old: { tools: [tool("t", { description: "d".repeat(2000) })] },
    new: { tools: [tool("t", { description: "d".repeat(3000) })] },
    hosts: ["claude-code"],
    expected: [{ rule: "description-changed", severity: P, path: "/description", message: "description" }],
  },
];
