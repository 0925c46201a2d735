/**
 * Content hashes: the construction (SHA-256 over RFC 8785, "sha256:" + hex), where they sit in
 * the lockfile, that a capture hashes items as the server sent them (not as the lockfile
 * normalizes them), and that lockfiles without hashes still read.
 */
import { describe, expect, test } from "bun:test";
import { type CaptureSession, captureSurface } from "../../../src/capture/capture.ts";
import { serializeContract } from "../../../src/contract/canonical.ts";
import { contentHash, hashList, hashSurface, jcsHash, surfaceHashes } from "../../../src/contract/hashes.ts";
import { emptyContract, type JsonObject } from "../../../src/contract/model.ts";
import { parseContract } from "../../../src/contract/read.ts";

const ECHO: JsonObject = {
  name: "echo",
  description: "Echo",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
};

describe("contentHash", () => {
  test("is sha256 over the RFC 8785 text, in hex (a vector computed with another JSON library)", () => {
    // Python: hashlib.sha256(json.dumps(o, sort_keys=True, separators=(",", ":")).encode()).hexdigest(),
    // which is JCS for an ASCII object without fractions.
    expect(contentHash(ECHO)).toBe("sha256:8bb8b0f371ce2dcdae82306c6f518bfbf6141c2049415b0d0cbcca4c64484052");
  });

  test("does not depend on key order, but on array order and on every field", () => {
    const reordered = JSON.parse(
      '{"inputSchema":{"required":["text"],"properties":{"text":{"type":"string"}},"type":"object"},"description":"Echo","name":"echo"}',
    );
    expect(contentHash(reordered)).toBe(contentHash(ECHO));
    expect(contentHash({ ...ECHO, outputVariants: [] })).not.toBe(contentHash(ECHO));
    const a = { name: "t", inputSchema: { enum: ["a", "b"] } };
    const b = { name: "t", inputSchema: { enum: ["b", "a"] } };
    expect(contentHash(a)).not.toBe(contentHash(b));
  });

  test("takes the sets the lockfile sorts in its order: a schema's required, a skill's files; nothing else", () => {
    const a = { name: "t", inputSchema: { properties: { p: { required: ["x", "y"] } }, required: ["a", "b"] } };
    const b = { name: "t", inputSchema: { properties: { p: { required: ["y", "x"] } }, required: ["b", "a"] } };
    expect(contentHash(b)).toBe(contentHash(a));
    expect(contentHash(b)).toBe(jcsHash(a));
    expect(jcsHash(b)).not.toBe(jcsHash(a));
    // A value named "required" that is data, not a keyword (an enum value, a default), keeps its order.
    const data = { name: "t", inputSchema: { default: { required: ["b", "a"] } } };
    expect(contentHash(data)).toBe(jcsHash(data));
    // Outside a schema, a field named required is the server's own.
    const meta = { name: "t", _meta: { required: ["b", "a"] } };
    expect(contentHash(meta)).toBe(jcsHash(meta));
    const skill = (files: string[]) => ({ uri: "skill://s/SKILL.md", resources: files.map((uri) => ({ uri })) });
    expect(contentHash(skill(["skill://s/b", "skill://s/SKILL.md"]), true)).toBe(
      contentHash(skill(["skill://s/SKILL.md", "skill://s/b"]), true),
    );
  });

  test("a list: one hash per identity, the sorted hashes of every copy of a duplicate", () => {
    const one = { name: "dup", description: "1" };
    const two = { name: "dup", description: "2" };
    const hashes = hashList([two, ECHO, one], "name");
    expect(hashes.echo).toBe(contentHash(ECHO));
    expect(hashes.dup).toEqual([contentHash(one), contentHash(two)].sort());
  });
});

/** A session that answers the opening and the lists from fixed pages. */
function fakeSession(lists: Record<string, JsonObject[]>): CaptureSession {
  return {
    opening: {
      era: "legacy",
      protocolVersion: "2025-11-25",
      result: { serverInfo: { name: "fake", version: "1" }, capabilities: { tools: {}, prompts: {} } },
    },
    era: "legacy",
    changedLists: new Set(),
    request: async (method: string) => {
      const key = method === "tools/list" ? "tools" : "prompts";
      return { [key]: structuredClone(lists[key] ?? []) } as JsonObject;
    },
    listen: async () => true,
    assertHealthy: async () => {},
  } as unknown as CaptureSession;
}

describe("capture and lockfile", () => {
  const sent: JsonObject = {
    name: "search",
    inputSchema: { type: "object", properties: { q: {}, n: {} }, required: ["q", "n"] },
    _meta: { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "com.example/x": 1 },
  };

  test("a capture hashes each item as sent, its sets in the lockfile's order, without per-message _meta", async () => {
    const contract = await captureSurface(fakeSession({ tools: [sent] }), []);
    const asSent = { ...sent, _meta: { "com.example/x": 1 } };
    expect(contract.hashes).toEqual({ tools: { search: contentHash(asSent) } });
    // The lockfile sorts `required`: the stored item hashes the same, so an older lockfile's
    // derived hashes, and a capture of the mock serving the stored item, agree with the record.
    const text = serializeContract(contract);
    const read = parseContract(text, "a.json");
    expect(read.tools[0]?.inputSchema).toEqual({ type: "object", properties: { q: {}, n: {} }, required: ["n", "q"] });
    expect(read.hashes?.tools?.search).toBe(contentHash(asSent));
    expect(contentHash(read.tools[0] as JsonObject)).toBe(contentHash(asSent));
    expect(surfaceHashes(read)).toEqual({ hashes: contract.hashes as never, derived: false });
    const { hashes: _hashes, ...older } = read;
    expect(surfaceHashes(older as never).hashes).toEqual(contract.hashes as never);
  });

  test("the hashes section is written last, keys sorted, and the file is byte-stable", async () => {
    const contract = await captureSurface(fakeSession({ tools: [sent, ECHO], prompts: [{ name: "p" }] }), []);
    const text = serializeContract(contract);
    const lock = JSON.parse(text);
    expect(Object.keys(lock).at(-1)).toBe("hashes");
    expect(Object.keys(lock.hashes)).toEqual(["prompts", "tools"]);
    expect(Object.keys(lock.hashes.tools)).toEqual(["echo", "search"]);
    expect(serializeContract(parseContract(text, "a.json"))).toBe(text);
  });

  test("skills are hashed too, by the URI of their SKILL.md", () => {
    const skill = { uri: "skill://triage/SKILL.md", frontmatter: { name: "triage", description: "Sort issues." } };
    const withSkills = { ...emptyContract(), skills: [skill as never] };
    expect(hashSurface(withSkills)).toEqual({ skills: { "skill://triage/SKILL.md": contentHash(skill, true) } });
  });

  test("a lockfile without hashes reads as before; its hashes are derived from what is stored", () => {
    const old = { ...emptyContract(), tools: [ECHO as never] };
    const text = serializeContract(old);
    expect(text).not.toContain('"hashes"');
    const read = parseContract(text, "old.json");
    expect(read.hashes).toBeUndefined();
    expect(surfaceHashes(read)).toEqual({ hashes: { tools: { echo: contentHash(ECHO) } }, derived: true });
  });

  test.each([
    [{ tools: [] }, '$.hashes["tools"], expected an object of content hashes by item identity'],
    [{ tools: { echo: "md5:abc" } }, '$.hashes["tools"]["echo"], expected a content hash'],
    [{ tools: { echo: ["sha256:00", 1] } }, '$.hashes["tools"]["echo"][0], expected a content hash'],
    ["x", "$.hashes, expected an object of content hashes by list"],
  ])("a malformed hashes section is a clear error: %j", (hashes, message) => {
    const text = JSON.stringify({ ...emptyContract(), hashes });
    expect(() => parseContract(text, "bad.json")).toThrow(message);
  });
});
