/**
 * One surface model for both protocol eras: per-message `_meta` keys are not surface, the
 * protocol version is judged within an era only, and the era probe's answers are classified
 * as the 2026-07-28 specification says (transports/stdio, "Backward Compatibility").
 */
import { describe, expect, test } from "bun:test";
import { classifyProbe, type RpcAnswer } from "../../../src/connect/era.ts";
import { type Contract, eraOf, FIRST_MODERN_PROTOCOL_VERSION, type JsonObject } from "../../../src/contract/model.ts";
import { PER_MESSAGE_META_KEYS, withoutMessageMeta } from "../../../src/contract/noise.ts";
import { compareSurfaces } from "../../../src/policy/compare.ts";
import { contract } from "../diff/helpers.ts";

describe("eraOf", () => {
  test.each([
    ["2024-11-05", "legacy"],
    ["2025-11-25", "legacy"],
    ["", "legacy"],
    ["2026-07-28", "modern"],
    ["2027-03-01", "modern"],
  ])("%s is %s", (version, era) => {
    expect(eraOf(version)).toBe(era as "modern" | "legacy");
  });
});

describe("withoutMessageMeta", () => {
  test("removes the keys MCP reserves for one message, by exact key, and keeps vendor and extension keys", () => {
    const item: JsonObject = {
      name: "t",
      _meta: {
        "com.example/owner": "team",
        "io.modelcontextprotocol/ui": { resourceUri: "ui://x" },
        "io.modelcontextprotocol/tasks": {},
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
        "io.modelcontextprotocol/clientCapabilities": {},
        traceparent: "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01",
        tracestate: "a=b",
        baggage: "k=v",
        // Near misses are somebody's own keys.
        "io.modelcontextprotocol/protocolVersionX": 1,
        "com.example/traceparent": 2,
      },
    };
    expect(withoutMessageMeta(item)).toEqual({
      name: "t",
      _meta: {
        "com.example/owner": "team",
        "io.modelcontextprotocol/ui": { resourceUri: "ui://x" },
        "io.modelcontextprotocol/tasks": {},
        "io.modelcontextprotocol/protocolVersionX": 1,
        "com.example/traceparent": 2,
      },
    });
    expect((item._meta as JsonObject).traceparent).toBeDefined(); // the input is not changed
  });

  test("a _meta left empty is dropped; one sent empty, or none, is kept as sent", () => {
    const stamped: JsonObject = { name: "t", _meta: { traceparent: "x", "io.modelcontextprotocol/serverInfo": {} } };
    expect(withoutMessageMeta(stamped)).toEqual({ name: "t" });
    const empty = { name: "t", _meta: {} };
    expect(withoutMessageMeta(empty)).toBe(empty);
    const none = { name: "t" };
    expect(withoutMessageMeta(none)).toBe(none);
    const odd = { name: "t", _meta: "not an object" };
    expect(withoutMessageMeta(odd)).toBe(odd);
  });

  test("covers every reserved per-message key of the 2026-07-28 _meta table, and the 2025-11-25 related-task", () => {
    expect([...PER_MESSAGE_META_KEYS].sort()).toEqual(
      [
        "baggage",
        "io.modelcontextprotocol/clientCapabilities",
        "io.modelcontextprotocol/clientInfo",
        "io.modelcontextprotocol/logLevel",
        "io.modelcontextprotocol/protocolVersion",
        "io.modelcontextprotocol/related-task",
        "io.modelcontextprotocol/serverInfo",
        "io.modelcontextprotocol/subscriptionId",
        "progressToken",
        "traceparent",
        "tracestate",
      ].sort(),
    );
  });
});

describe("the protocol version is compared within an era", () => {
  const at = (protocolVersion: string, capture: Contract["capture"] = { clientCapabilities: [] }) =>
    contract({ protocolVersion, capture, tools: [{ name: "t", inputSchema: { type: "object" } }] });

  test("legacy ↔ modern, with the capture facts of each, is no change at all", () => {
    const legacy = at("2025-11-25");
    const modern = at("2026-07-28", { clientCapabilities: [], era: "modern", supportedVersions: ["2026-07-28"] });
    expect(compareSurfaces(legacy, modern)).toEqual([]);
    expect(compareSurfaces(modern, legacy)).toEqual([]);
  });

  test("a new version within an era is still a minor change", () => {
    expect(compareSurfaces(at("2025-06-18"), at("2025-11-25")).map((c) => [c.rule, c.severity])).toEqual([
      ["protocol-version-changed", "minor"],
    ]);
    expect(compareSurfaces(at("2026-07-28"), at("2027-03-01")).map((c) => c.rule)).toEqual([
      "protocol-version-changed",
    ]);
  });
});

describe("classifyProbe", () => {
  const discover = (supportedVersions: unknown, capabilities: unknown = {}): RpcAnswer => ({
    result: { supportedVersions, capabilities } as never,
  });
  const error = (code: number, message: string, data?: unknown): RpcAnswer => ({
    error: { code, message, data: data as never },
  });

  test("a DiscoverResult naming 2026-07-28 is modern", () => {
    expect(classifyProbe(discover(["2027-01-01", "2026-07-28"])).kind).toBe("modern");
  });

  test.each([
    ["method not found (TypeScript SDK 1.x)", error(-32601, "Method not found")],
    ["invalid params (Python SDK)", error(-32602, "Invalid request parameters")],
    ["any other code", error(-32000, "Server not initialized")],
    ["an unsupported-version error listing legacy versions only", error(-32022, "no", { supported: ["2025-06-18"] })],
    ["an unsupported-version error without a list", error(-32022, "no")],
    ["a result that is no DiscoverResult", { result: { tools: [] } } as RpcAnswer],
    ["a DiscoverResult listing legacy versions only", discover(["2025-11-25"])],
  ])("%s is legacy", (_, answer) => {
    expect(classifyProbe(answer).kind).toBe("legacy");
  });

  test("modern versions we do not speak: a modern server with nothing in common, not a legacy one", () => {
    expect(classifyProbe(error(-32022, "Unsupported protocol version", { supported: ["2027-01-01"] }))).toMatchObject({
      kind: "unsupported",
      supported: ["2027-01-01"],
    });
    expect(classifyProbe(discover(["2027-01-01"]))).toMatchObject({ kind: "unsupported" });
  });
});

describe("the era facts agree with the official v2 SDK (@modelcontextprotocol/client 2.4.0)", () => {
  test("the reserved _meta keys, the legacy versions and the first modern one", async () => {
    const sdk = await import("@modelcontextprotocol/client");
    const { META_KEYS, LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS } = await import(
      "../../../src/connect/era.ts"
    );
    expect(META_KEYS).toEqual({
      protocolVersion: sdk.PROTOCOL_VERSION_META_KEY,
      clientInfo: sdk.CLIENT_INFO_META_KEY,
      clientCapabilities: sdk.CLIENT_CAPABILITIES_META_KEY,
      serverInfo: sdk.SERVER_INFO_META_KEY,
      subscriptionId: sdk.SUBSCRIPTION_ID_META_KEY,
    });
    expect([...LEGACY_PROTOCOL_VERSIONS]).toEqual([...sdk.SUPPORTED_PROTOCOL_VERSIONS]);
    expect(MODERN_PROTOCOL_VERSIONS[0]).toBe(FIRST_MODERN_PROTOCOL_VERSION);
    for (const key of [
      sdk.PROTOCOL_VERSION_META_KEY,
      sdk.CLIENT_INFO_META_KEY,
      sdk.CLIENT_CAPABILITIES_META_KEY,
      sdk.SERVER_INFO_META_KEY,
      sdk.SUBSCRIPTION_ID_META_KEY,
      sdk.LOG_LEVEL_META_KEY,
      sdk.RELATED_TASK_META_KEY,
      sdk.TRACEPARENT_META_KEY,
      sdk.TRACESTATE_META_KEY,
      sdk.BAGGAGE_META_KEY,
    ]) {
      expect(PER_MESSAGE_META_KEYS.has(key)).toBe(true);
    }
    expect(sdk.METHOD_NOT_FOUND).toBe(-32601);
  });
});
