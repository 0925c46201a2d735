/**
 * The peer formats read as surfaces (src/contract/peers/): shape detection, conversion, the
 * caveat's round trip through our lockfile, and "unknown, not absent" in comparisons.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { serializeContract } from "../../../src/contract/canonical.ts";
import type { Contract } from "../../../src/contract/model.ts";
import { fillUnknown, projectUnknownFields } from "../../../src/contract/peers/project.ts";
import { parseContract } from "../../../src/contract/read.ts";
import { UsageError } from "../../../src/errors.ts";
import { compareSurfaces } from "../../../src/policy/compare.ts";
import { judgeComparison } from "../../../src/policy/judge-comparison.ts";
import { emptyPolicy } from "../../../src/policy/policy.ts";
import { ChangeLocator } from "../../../src/report/locate.ts";
import { toCovenant, toMcpQuery } from "../../fixtures/peers/peer-files.ts";

const ROOT = join(import.meta.dir, "../../..");
const published = (name: string) => readFileSync(join(ROOT, "tests/fixtures/published", name), "utf8");
const peerFixture = (name: string) => readFileSync(join(ROOT, "tests/fixtures/peers", name), "utf8");

/** A full capture with everything the peers cannot hold. */
const FULL: Contract = {
  lockfileVersion: 1,
  server: { name: "demo", version: "1.2.0", title: "Demo server", websiteUrl: "https://example.com" },
  protocolVersion: "2025-11-25",
  capabilities: { tools: { listChanged: true }, resources: { subscribe: true }, prompts: {} },
  instructions: "Search before you fetch.",
  capture: { clientCapabilities: [] },
  tools: [
    {
      name: "search",
      title: "Search",
      description: "Search the catalog",
      inputSchema: {
        type: "object",
        properties: { q: { type: "string" }, limit: { type: "integer", minimum: 1 } },
        required: ["q"],
      },
      outputSchema: { type: "object", properties: { hits: { type: "array" } }, required: ["hits"] },
      annotations: { readOnlyHint: true, openWorldHint: false },
      icons: [{ src: "https://example.com/s.png" }],
      _meta: { "acme/tier": "gold" },
    },
    {
      name: "delete",
      description: "Delete an item",
      inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
      annotations: { destructiveHint: true },
    },
  ],
  resources: [
    { uri: "demo://readme", name: "readme", title: "Read me", description: "Docs", mimeType: "text/plain", size: 10 },
  ],
  resourceTemplates: [
    { uriTemplate: "demo://items/{id}", name: "item", description: "One item", mimeType: "application/json" },
  ],
  prompts: [
    {
      name: "review",
      title: "Review",
      description: "Review code",
      arguments: [
        { name: "diff", title: "Diff", description: "The diff", required: true },
        { name: "style", description: "House style" },
      ],
    },
  ],
};

const covenantOf = (c: Contract) => parseContract(toCovenant(c as never), "mcp-covenant.lock");
const mcpQueryOf = (c: Contract) => parseContract(toMcpQuery(c as never), "mcp.contract.json");
const rulesOf = (before: Contract, after: Contract) =>
  compareSurfaces(before, after).map((c) => `${c.severity} ${c.rule} ${c.target.kind}:${c.target.name} ${c.path}`);
const breakingOf = (before: Contract, after: Contract) =>
  rulesOf(before, after)
    .filter((line) => line.startsWith("breaking"))
    .sort();

function withTools(c: Contract, edit: (tools: Contract["tools"]) => Contract["tools"]): Contract {
  return { ...c, tools: edit(structuredClone(c.tools)) };
}

function usageError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a UsageError");
}

describe("mcp-covenant lockfile", () => {
  test("is read by shape, with only what its structs hold; the era left to auto", () => {
    const contract = covenantOf(FULL);
    expect(contract.server).toEqual({ name: "demo", version: "1.2.0" });
    expect(contract.protocolVersion).toBe("2025-11-25");
    expect(contract.capture.era).toBeUndefined();
    expect(contract.resourceTemplates).toEqual([]);
    expect(contract.instructions).toBeUndefined();
    expect(contract.tools.map((t) => Object.keys(t))).toEqual([
      ["name", "description", "inputSchema"],
      ["name", "title", "description", "inputSchema", "outputSchema"],
    ]);
    expect(contract.prompts[0]?.arguments).toEqual([
      { name: "diff", description: "The diff", required: true },
      { name: "style", description: "House style", required: false },
    ]);
    expect(contract.capture.importedFrom).toMatchObject({
      format: "mcp-covenant",
      version: "0.1.1",
      unknown: ["capabilities", "instructions", "resourceTemplates"],
    });
  });

  test("a file without the server's protocol version leaves it unknown too", () => {
    const data = JSON.parse(toCovenant(FULL as never));
    delete data.server.protocolVersion;
    const contract = parseContract(JSON.stringify(data), "x.lock");
    expect(contract.capture.importedFrom?.unknown).toContain("protocolVersion");
  });

  test("problems name the path in the covenant file", () => {
    const data = JSON.parse(toCovenant(FULL as never));
    data.surface.tools[1].name = 7;
    expect(usageError(() => parseContract(JSON.stringify(data), "c.lock"))).toContain(
      "c.lock looks like an mcp-covenant lockfile but is not a valid one: at $.surface.tools[1].name, expected a string, found a number (7)",
    );
    const schema = JSON.parse(toCovenant(FULL as never));
    schema.surface.tools[0].inputSchema = "object";
    expect(usageError(() => parseContract(JSON.stringify(schema), "c.lock"))).toContain(
      'at $.surface.tools[0].inputSchema (tool "delete"), expected a JSON Schema',
    );
    expect(usageError(() => parseContract('{"covenant_version": "0.1.1"}', "c.lock"))).toContain(
      "at $.surface, expected an object, found nothing",
    );
  });
});

describe("mcp-query contract", () => {
  test("is read by shape: templates become resource templates; no protocol version", () => {
    const contract = mcpQueryOf(FULL);
    expect(contract.resourceTemplates).toEqual([{ uriTemplate: "demo://items/{id}", name: "item" }]);
    expect(contract.protocolVersion).toBe("");
    expect(contract.capabilities).toEqual({ tools: {}, resources: {}, prompts: {} });
    expect(contract.tools.find((t) => t.name === "search")?.annotations).toEqual({
      readOnlyHint: true,
      openWorldHint: false,
    });
    expect(contract.prompts[0]?.arguments).toEqual([{ name: "diff", required: true }, { name: "style" }]);
    expect(contract.capture.importedFrom).toMatchObject({
      format: "mcp-query",
      version: "1",
      unknown: ["capabilities", "instructions", "protocolVersion"],
    });
  });

  test("a newer format version is refused with what to do; a wrong one names its path", () => {
    expect(usageError(() => parseContract('{"version": 2, "tools": []}', "m.json"))).toContain(
      "m.json is an mcp-query contract of version 2, but this mcp-contract reads version 1 of that format at most",
    );
    const data = JSON.parse(toMcpQuery(FULL as never));
    data.templates[0].uriTemplate = null;
    expect(usageError(() => parseContract(JSON.stringify(data), "m.json"))).toContain(
      "at $.templates[0].uriTemplate, expected a string, found null",
    );
  });

  test("a file of neither shape still says what it lacks", () => {
    expect(usageError(() => parseContract('{"tools": []}', "x.json"))).toContain('no "lockfileVersion" field');
  });
});

describe("the caveat in our lockfile", () => {
  for (const [name, convert] of [
    ["mcp-covenant", covenantOf],
    ["mcp-query", mcpQueryOf],
  ] as const) {
    test(`${name}: imported, written and read again gives the same bytes and surface`, () => {
      const imported = convert(FULL);
      const text = serializeContract(imported);
      const again = parseContract(text, "mcp.contract.json");
      expect(again).toEqual(JSON.parse(text));
      expect(serializeContract(again)).toBe(text);
      expect(again.capture.importedFrom).toEqual(imported.capture.importedFrom as never);
      // Still unknown, not absent, once it is our lockfile.
      expect(compareSurfaces(again, FULL)).toEqual([]);
    });
  }

  test("a wrong caveat is a lockfile error with its path", () => {
    const lock = JSON.parse(serializeContract(covenantOf(FULL)));
    lock.capture.importedFrom.unknown = ["tools"];
    expect(usageError(() => parseContract(JSON.stringify(lock), "l.json"))).toContain(
      "at $.capture.importedFrom.unknown[0], expected one of capabilities, instructions, protocolVersion, resourceTemplates",
    );
    lock.capture.importedFrom = { format: "mcp-covenant", version: "1", unknown: [], holds: { tools: "name" } };
    expect(usageError(() => parseContract(JSON.stringify(lock), "l.json"))).toContain(
      '$.capture.importedFrom.holds["tools"], expected an array of field names',
    );
  });
});

describe("unknown, not absent", () => {
  for (const [name, convert] of [
    ["mcp-covenant", covenantOf],
    ["mcp-query", mcpQueryOf],
  ] as const) {
    test(`${name} baseline vs a full capture of the same surface: no change, either way round`, () => {
      expect(rulesOf(convert(FULL), FULL)).toEqual([]);
      expect(rulesOf(FULL, convert(FULL))).toEqual([]);
      expect(rulesOf(convert(FULL), convert(FULL))).toEqual([]);
    });

    test(`${name} baseline vs a changed surface: the same breaking changes as our own lockfile`, () => {
      const changed = withTools(FULL, (tools) => {
        const search = tools[0] as Contract["tools"][number];
        (search.inputSchema as { required: string[] }).required = ["q", "limit"];
        (search.outputSchema as { required: string[] }).required = [];
        return [search];
      });
      const ours = breakingOf(FULL, changed);
      expect(ours.length).toBeGreaterThanOrEqual(3);
      expect(breakingOf(convert(FULL), changed)).toEqual(ours);
    });
  }

  test("a field the format holds is compared: a covenant tool recorded without outputSchema had none", () => {
    const before = covenantOf(withTools(FULL, (tools) => tools.filter((t) => t.name === "delete")));
    const after = withTools(FULL, (tools) =>
      tools.filter((t) => t.name === "delete").map((t) => ({ ...t, outputSchema: { type: "object" } })),
    );
    expect(rulesOf(before, after).some((line) => line.includes("output-schema-added"))).toBe(true);
  });

  test("a field mcp-query cannot hold (an argument's description, a template's mimeType) is unknown", () => {
    const edited = structuredClone(FULL);
    const [prompt] = edited.prompts as [Contract["prompts"][number]];
    (prompt.arguments as [{ description?: string }])[0].description = "Another text";
    (edited.resourceTemplates as [Contract["resourceTemplates"][number]])[0].mimeType = "text/html";
    expect(rulesOf(mcpQueryOf(FULL), edited)).toEqual([]);
    // Our own lockfile sees both.
    expect(rulesOf(FULL, edited).length).toBe(2);
  });

  test("two peer formats compared: what neither holds ends up equal", () => {
    expect(rulesOf(covenantOf(FULL), mcpQueryOf(FULL))).toEqual([]);
    const [was, now] = projectUnknownFields(covenantOf(FULL), mcpQueryOf(FULL));
    expect(was.capabilities).toEqual(now.capabilities);
    expect(was.resourceTemplates).toEqual(now.resourceTemplates);
  });

  test("a surface without a caveat is left as it is", () => {
    expect(fillUnknown(FULL, covenantOf(FULL))).toBe(FULL);
  });

  test("published server-filesystem: a covenant baseline of the same release shows nothing; of an older one, our own breaking changes", () => {
    const v2025 = parseContract(published("filesystem-2025.8.21.contract.json"), "2025.json");
    const v2026 = parseContract(published("filesystem-2026.8.31.contract.json"), "2026.json");
    for (const format of ["mcp-covenant.lock", "mcp-query.contract.json"]) {
      const same = parseContract(peerFixture(`filesystem-2026.8.31.${format}`), format);
      expect(rulesOf(same, v2026)).toEqual([]);
      const older = parseContract(peerFixture(`filesystem-2025.8.21.${format}`), format);
      expect(breakingOf(older, v2026)).toEqual(breakingOf(v2025, v2026));
      expect(breakingOf(older, v2026).length).toBeGreaterThan(0);
    }
  });

  test("the committed fixtures are what the converter writes today", () => {
    for (const version of ["2025.8.21", "2026.8.31"]) {
      const lock = JSON.parse(published(`filesystem-${version}.contract.json`));
      expect(peerFixture(`filesystem-${version}.mcp-covenant.lock`)).toBe(toCovenant(lock));
      expect(peerFixture(`filesystem-${version}.mcp-query.contract.json`)).toBe(toMcpQuery(lock));
    }
  });
});

describe("the report says once what the baseline could not hold", () => {
  const judge = (baseline: Contract, current: Contract) =>
    judgeComparison({
      command: "check",
      baseline: { contract: baseline, source: "mcp-covenant.lock" },
      current: { contract: current, source: "live demo" },
      policy: { policy: emptyPolicy(), today: "2026-12-01" },
      failOn: "breaking",
      witness: false,
    });

  test("one notice naming the format and what it does not record", async () => {
    const { report, exitCode } = await judge(covenantOf(FULL), FULL);
    expect(exitCode).toBe(0);
    expect(report.changes).toEqual([]);
    const notices = report.notices.filter((n) => n.includes("mcp-covenant"));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("the baseline mcp-covenant.lock is an mcp-covenant 0.1.1 lockfile");
    expect(notices[0]).toContain("does not record capabilities, instructions or resource templates");
    expect(notices[0]).toContain("name, title, description, inputSchema and outputSchema of tools");
  });

  test("no such notice for our own lockfiles", async () => {
    const { report } = await judge(FULL, FULL);
    expect(report.notices).toEqual([]);
  });
});

describe("reports point into the peer file", () => {
  const lineOf = (text: string, needle: string, after = 0) => {
    const at = text.indexOf(needle, after);
    expect(at).toBeGreaterThanOrEqual(0);
    return text.slice(0, at).split("\n").length;
  };

  test("a covenant lockfile: the tool's schema under surface.tools", () => {
    const text = peerFixture("filesystem-2025.8.21.mcp-covenant.lock");
    const locator = new ChangeLocator({ baseline: { path: "mcp-covenant.lock", text }, cwd: ROOT });
    const found = locator.locate({
      rule: "min-items-raised",
      target: { kind: "tool", name: "read_multiple_files" },
      path: "/inputSchema/properties/paths/minItems",
    });
    const item = text.indexOf('"name": "read_multiple_files"');
    expect(found?.line).toBe(lineOf(text, '"paths": {', item));
    expect(found?.pointer).toStartWith("/surface/tools/");
  });

  test("an mcp-query contract: a resource template under templates", () => {
    const text = toMcpQuery(FULL as never);
    const locator = new ChangeLocator({ baseline: { path: "mcp.contract.json", text }, cwd: ROOT });
    const found = locator.locate({
      rule: "template-removed",
      target: { kind: "resourceTemplate", name: "demo://items/{id}" },
      path: "",
    });
    expect(found?.line).toBe(lineOf(text, '"uriTemplate": "demo://items/{id}"') - 1);
    expect(found?.pointer).toBe("/templates/0");
  });
});
