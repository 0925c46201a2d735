/**
 * Skills (SEP-2640) in the lockfile: the canonical writer, the reader's checks with their JSON
 * paths, the capture boundary (exit 3 naming skills/list), and lockfiles without skills
 * unchanged; plus the two edges that serve or judge them in process: the mock's skills/list and
 * skills/get, and the description quality rules. In process and fast.
 */
import { describe, expect, test } from "bun:test";
import { type CaptureSession, captureSurface } from "../../../src/capture/capture.ts";
import { serializeContract } from "../../../src/contract/canonical.ts";
import type { Contract, JsonObject, Skill } from "../../../src/contract/model.ts";
import { parseContract } from "../../../src/contract/read.ts";
import { assertCapturedSurface } from "../../../src/contract/validate.ts";
import { ServerError, UsageError } from "../../../src/errors.ts";
import { lintContract } from "../../../src/lint/lint.ts";
import { MockServer } from "../../../src/mock/server.ts";
import { compareSurfaces } from "../../../src/policy/compare.ts";

const DIGEST = `sha256:${"0".repeat(64)}`;

const base: Contract = {
  lockfileVersion: 1,
  server: { name: "s", version: "1" },
  protocolVersion: "2025-11-25",
  capabilities: { resources: {}, extensions: { "io.modelcontextprotocol/skills": {} } },
  capture: { clientCapabilities: [] },
  tools: [],
  resources: [],
  resourceTemplates: [],
  prompts: [],
};

const skill = (name: string, extra: Partial<Skill> = {}): Skill => ({
  uri: `skill://${name}/SKILL.md`,
  frontmatter: { name, description: `Plan a trip around the weather with ${name}.` },
  resources: [{ uri: `skill://${name}/SKILL.md`, digest: DIGEST, size: 10 }],
  ...extra,
});

function readError(value: object): string {
  try {
    parseContract(JSON.stringify(value), "mcp.contract.json");
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a UsageError");
}

describe("skills in the lockfile", () => {
  test("written canonically: skills and their files by URI, frontmatter name and description first", () => {
    const text = serializeContract({
      ...base,
      skills: [
        {
          resources: [
            { size: 3, uri: "skill://b/z.md", digest: DIGEST },
            { uri: "skill://b/SKILL.md", digest: DIGEST, size: 1 },
          ],
          frontmatter: { license: "MIT", description: "B things, when the user asks for them.", name: "b" },
          uri: "skill://b/SKILL.md",
        },
        skill("a"),
      ],
    });
    const written = JSON.parse(text).skills;
    expect(written.map((s: Skill) => s.uri)).toEqual(["skill://a/SKILL.md", "skill://b/SKILL.md"]);
    expect(Object.keys(written[1])).toEqual(["uri", "frontmatter", "resources"]);
    expect(Object.keys(written[1].frontmatter)).toEqual(["name", "description", "license"]);
    expect(written[1].resources).toEqual([
      { uri: "skill://b/SKILL.md", digest: DIGEST, size: 1 },
      { uri: "skill://b/z.md", digest: DIGEST, size: 3 },
    ]);
    // Read back and written again: the same bytes.
    expect(serializeContract(parseContract(text, "x"))).toBe(text);
  });

  test('a lockfile without skills stays as it was: no "skills" key is written or required', () => {
    const text = serializeContract(base);
    expect(text).not.toContain('"skills"');
    expect(parseContract(text, "x").skills).toBeUndefined();
    expect(serializeContract(parseContract(text, "x"))).toBe(text);
  });

  test('"dynamic" files are kept as written', () => {
    const text = serializeContract({ ...base, skills: [skill("d", { resources: "dynamic" })] });
    expect(parseContract(text, "x").skills?.[0]?.resources).toBe("dynamic");
  });

  test("a wrong shape is exit 2 with the JSON path and the skill", () => {
    expect(readError({ ...base, skills: {} })).toContain("at $.skills, expected an array");
    expect(readError({ ...base, skills: [{ frontmatter: {}, resources: [] }] })).toContain(
      "at $.skills[0].uri, expected a string (the URI of its SKILL.md), found nothing",
    );
    expect(readError({ ...base, skills: [skill("a", { frontmatter: "x" })] })).toContain(
      'at $.skills[0].frontmatter (skill "skill://a/SKILL.md"), expected the frontmatter object',
    );
    expect(readError({ ...base, skills: [skill("a", { resources: "all" })] })).toContain(
      'at $.skills[0].resources (skill "skill://a/SKILL.md"), expected an array of files or "dynamic", found a string ("all")',
    );
    expect(
      readError({ ...base, skills: [skill("a", { resources: [{ uri: "skill://a/SKILL.md", digest: 7 }] })] }),
    ).toContain(
      'at $.skills[0].resources[0].digest (skill "skill://a/SKILL.md"), expected a string, found a number (7)',
    );
  });

  test("a server that sends such a skill fails the capture (exit 3), naming skills/list", () => {
    const bad = { ...base, skills: [skill("a", { frontmatter: { name: "a", description: 5 } })] };
    expect(() => assertCapturedSurface(bad)).toThrow(ServerError);
    expect(() => assertCapturedSurface(bad)).toThrow(
      /skills\/list result cannot be recorded in a lockfile: at \$\.skills\[0\]\.frontmatter\.description/,
    );
  });
});

describe("mock", () => {
  const server = new MockServer({ ...base, skills: [skill("a"), skill("b")] }, { seed: 1, pageSize: 1 });

  test("skills/list pages the recorded skills; skills/get answers one by URI", () => {
    expect(server.handle("skills/list", {}, {})).toEqual({ result: { skills: [skill("a")], nextCursor: "page:1" } });
    expect(server.handle("skills/list", { cursor: "page:1" }, {})).toEqual({ result: { skills: [skill("b")] } });
    expect(server.handle("skills/get", { uri: "skill://b/SKILL.md" }, {})).toEqual({ result: { skill: skill("b") } });
    expect(server.handle("skills/get", { uri: "skill://nope/SKILL.md" }, {})).toMatchObject({
      error: { code: -32002 },
    });
  });

  test("resources/directory/read lists a skill folder's direct children from the manifests, where declared", () => {
    const guide = { uri: "skill://a/references/GUIDE.md", digest: DIGEST, size: 7 };
    const withFiles = skill("a", { resources: [{ uri: "skill://a/SKILL.md", digest: DIGEST, size: 10 }, guide] });
    const declared = { resources: {}, extensions: { "io.modelcontextprotocol/skills": { directoryRead: true } } };
    const mock = new MockServer({ ...base, capabilities: declared, skills: [withFiles] }, { seed: 1, pageSize: 100 });
    const read = (uri: string) => mock.handle("resources/directory/read", { uri }, {});
    expect(read("skill://a")).toEqual({
      result: {
        resources: [
          { uri: "skill://a/SKILL.md", name: "SKILL.md", size: 10 },
          { uri: "skill://a/references", name: "references", mimeType: "inode/directory" },
        ],
      },
    });
    expect(read("skill://a/references")).toEqual({
      result: { resources: [{ uri: "skill://a/references/GUIDE.md", name: "GUIDE.md", size: 7 }] },
    });
    expect(read("skill://a/SKILL.md")).toMatchObject({ error: { code: -32602 } });
    // Not declared (no directoryRead): an unknown method, as on the server.
    expect(server.handle("resources/directory/read", { uri: "skill://a" }, {})).toMatchObject({
      error: { code: -32601 },
    });
  });

  test("without the extension the skills methods are unknown", () => {
    const plain = new MockServer({ ...base, capabilities: { resources: {} } }, { seed: 1, pageSize: 1 });
    expect(plain.handle("skills/list", {}, {})).toMatchObject({ error: { code: -32601 } });
  });
});

describe("lint", () => {
  test("a skill description goes through the description quality rules as a tool's does", () => {
    const findings = lintContract({
      ...base,
      skills: [
        skill("search", { frontmatter: { name: "search", description: "Search" } }),
        skill("long", { frontmatter: { name: "long", description: "x ".repeat(1200) } }),
      ],
    });
    const on = (uri: string) => findings.filter((f) => f.target.kind === "skill" && f.target.name === uri);
    expect(on("skill://search/SKILL.md").map((f) => [f.rule, f.path])).toEqual([
      ["tool-description-too-short", "/frontmatter/description"],
    ]);
    expect(on("skill://long/SKILL.md").map((f) => [f.rule, f.path])).toEqual([
      ["description-too-long", "/frontmatter/description"],
    ]);
  });
});

describe("peer formats", () => {
  test("a side converted from a peer tool's file (which cannot hold skills) shows no skill changes", () => {
    const imported: Contract = {
      ...base,
      capture: {
        clientCapabilities: [],
        importedFrom: {
          format: "mcp-covenant",
          version: "0.1.0",
          unknown: ["capabilities"],
          holds: { tools: ["name"] },
        },
      },
    };
    const withSkills = { ...base, skills: [skill("a")] };
    const skillChanges = (a: Contract, b: Contract) => compareSurfaces(a, b).filter((c) => c.target.kind === "skill");
    expect(skillChanges(imported, withSkills)).toEqual([]);
    expect(skillChanges(withSkills, imported)).toEqual([]);
    // Two lockfiles of ours do differ.
    expect(skillChanges(base, withSkills).map((c) => c.rule)).toEqual(["skill-added"]);
  });
});

describe("capture", () => {
  /** A session whose server answers skills/list with `pages` (by cursor), and records what was asked. */
  function skillsSession(
    pages: Record<string, JsonObject>,
    capabilities: JsonObject = { extensions: { "io.modelcontextprotocol/skills": {} } },
  ) {
    const asked: string[] = [];
    const session = {
      opening: {
        era: "legacy",
        protocolVersion: "2025-11-25",
        result: { serverInfo: { name: "fake", version: "1" }, capabilities },
      },
      era: "legacy",
      changedLists: new Set(),
      request: async (method: string, params?: JsonObject) => {
        asked.push(`${method} ${String(params?.cursor ?? "")}`.trim());
        const page = pages[String(params?.cursor ?? "")];
        if (method !== "skills/list" || page === undefined) throw new Error(`unexpected ${method}`);
        return structuredClone(page);
      },
      listen: async () => true,
      assertHealthy: async () => {},
    } as unknown as CaptureSession;
    return { session, asked };
  }

  test("skills/list is drained page by page; per-response hints and per-message _meta are not kept", async () => {
    const { session, asked } = skillsSession({
      "": { skills: [skill("b")], nextCursor: "2", ttlMs: 0, cacheScope: "private" },
      "2": {
        skills: [{ ...skill("a"), _meta: { traceparent: "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01" } }],
      },
    });
    const contract = await captureSurface(session, []);
    expect(asked).toEqual(["skills/list", "skills/list 2"]);
    expect(contract.skills).toEqual([skill("b"), skill("a")]);
  });

  test("a server without the extension is not asked, and its contract has no skills", async () => {
    const { session, asked } = skillsSession({}, { tools: {} });
    session.request = async () => ({ tools: [] });
    const contract = await captureSurface(session, []);
    expect(asked).toEqual([]);
    expect(contract.skills).toBeUndefined();
  });

  test("an answer without a skills array, or a skill without a URI, is the server's fault (exit 3)", async () => {
    await expect(captureSurface(skillsSession({ "": { items: [] } }).session, [])).rejects.toThrow(
      'the server\'s answer to skills/list has no "skills" array',
    );
    await expect(captureSurface(skillsSession({ "": { skills: [{ frontmatter: {} }] } }).session, [])).rejects.toThrow(
      'skills/list result holds an item without a string "uri"',
    );
  });
});
