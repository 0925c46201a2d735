/**
 * The mock tells the truth about the era (issue #29, item 1): a modern capture records how the
 * server answered a legacy initialize (capture.legacy "accepted" or "refused"; absent when
 * unknown), the lockfile reads and writes it, and the mock of a "refused" contract refuses
 * legacy requests as a modern-only v2 server does, while an "accepted" one serves both eras.
 * In process and fast: the probe's I/O is faked, its real runs are in tests/e2e/mock-era.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { type CaptureSession, captureSurface } from "../../../src/capture/capture.ts";
import { LegacyProbe, type LegacyVerdict, legacyVerdict, refusesLegacy } from "../../../src/connect/legacy-probe.ts";
import { RpcError, type Session } from "../../../src/connect/session.ts";
import { serializeContract } from "../../../src/contract/canonical.ts";
import type { Contract, JsonObject } from "../../../src/contract/model.ts";
import { parseContract } from "../../../src/contract/read.ts";
import { ServerError, UsageError } from "../../../src/errors.ts";
import { type Connection, MockServer, servedVersions } from "../../../src/mock/server.ts";

const MODERN = "2026-07-28";
const ENVELOPE = { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN } };

const modern: Contract = {
  lockfileVersion: 1,
  server: { name: "weather", version: "1" },
  protocolVersion: MODERN,
  capabilities: { tools: {} },
  capture: { clientCapabilities: [], supportedVersions: [MODERN] },
  tools: [{ name: "get_forecast", inputSchema: { type: "object" } }],
  resources: [],
  resourceTemplates: [],
  prompts: [],
};
const modernOnly: Contract = { ...modern, capture: { ...modern.capture, legacy: "refused" } };
const dualEra: Contract = { ...modern, capture: { ...modern.capture, legacy: "accepted" } };

describe("the verdict on a legacy initialize", () => {
  const refusal = { code: -32022, data: { supported: [MODERN], requested: "2025-11-25" } };
  test("-32022 listing no legacy version refuses the legacy era; one that lists one, or another error, does not say", () => {
    expect(refusesLegacy(refusal)).toBe(true);
    expect(refusesLegacy({ code: -32022, data: { supported: [MODERN, "2025-06-18"] } })).toBe(false);
    expect(refusesLegacy({ code: -32601 })).toBe(false);
    expect(refusesLegacy({ code: -32022 })).toBe(false);
  });
  test("read from what the session threw: an RpcError, one wrapped in a ServerError, or an HTTP 400's body", () => {
    expect(legacyVerdict({ opened: true })).toBe("accepted");
    expect(legacyVerdict({ error: new RpcError(refusal.code, "Unsupported protocol version", refusal.data) })).toBe(
      "refused",
    );
    const wrapped = new ServerError("the server answered initialize with an error", {
      cause: new RpcError(refusal.code, "no", refusal.data),
    });
    expect(legacyVerdict({ error: wrapped })).toBe("refused");
    const http = new Error(
      `Streamable HTTP error: Error POSTing to endpoint: ${JSON.stringify({ jsonrpc: "2.0", id: 0, error: { message: "Unsupported protocol version: 2025-11-25", ...refusal } })}`,
    );
    expect(legacyVerdict({ error: http })).toBe("refused");
    expect(legacyVerdict({ error: new RpcError(-32601, "Method not found") })).toBe("unknown");
    expect(legacyVerdict({ error: new ServerError("no answer to initialize after 3 s") })).toBe("unknown");
    expect(legacyVerdict({ error: new Error("HTTP 401") })).toBe("unknown");
  });
});

/** A probe session that answers initialize as told, and notes how it was ended. */
function fakeSession(initialize: () => Promise<unknown>, sessionId?: string) {
  const ended: string[] = [];
  const session = {
    initialize,
    transport: { sessionId, terminateSession: async () => void ended.push("DELETE") },
    close: async () => void ended.push("close"),
  } as unknown as Session;
  return { session, ended };
}

describe("LegacyProbe", () => {
  test("sends initialize once without notifications/initialized, and ends the session it opened (DELETE when it has an id)", async () => {
    const announced: unknown[] = [];
    const { session, ended } = fakeSession(async (...args: unknown[]) => {
      announced.push(...args);
      return {};
    }, "abc");
    let opened = 0;
    const heard: LegacyVerdict[] = [];
    const probe = new LegacyProbe(
      async () => {
        opened++;
        return session;
      },
      (v) => heard.push(v),
    );
    expect(await probe.start()).toBe("accepted");
    expect(await probe.start()).toBe("accepted");
    expect({ opened, announced, ended, heard }).toEqual({
      opened: 1,
      announced: [false],
      ended: ["DELETE", "close"],
      heard: ["accepted"],
    });
  });
  test("a refusal is refused; a session that cannot even be opened is unknown, never an error", async () => {
    const refused = fakeSession(async () => {
      throw new RpcError(-32022, "Unsupported", { supported: [MODERN], requested: "2025-11-25" });
    });
    expect(await new LegacyProbe(async () => refused.session).start()).toBe("refused");
    expect(refused.ended).toEqual(["close"]);
    const failing = new LegacyProbe(async () => {
      throw new Error("ECONNREFUSED");
    });
    expect(await failing.start()).toBe("unknown");
  });
  test("a server whose legacy side never answers: unknown once the grace is over, and the probe's session is ended", async () => {
    let fail: (error: Error) => void = () => {};
    const ended: string[] = [];
    const session = {
      initialize: () =>
        new Promise((_, reject) => {
          fail = reject;
        }),
      transport: {},
      close: async () => {
        ended.push("close");
        fail(new ServerError("the connection to the server closed during initialize"));
      },
    } as unknown as Session;
    const heard: LegacyVerdict[] = [];
    const probe = new LegacyProbe(
      async () => session,
      (v) => heard.push(v),
    );
    expect(await probe.within(5)).toBe("unknown");
    // Heard at once (the -v note comes before the capture's summary), and once only.
    expect(heard).toEqual(["unknown"]);
    await probe.start();
    expect({ ended, heard }).toEqual({ ended: ["close"], heard: ["unknown"] });
  });
  test("stopped (the capture's session closed) before it started: unknown, and nothing is opened", async () => {
    let opened = 0;
    const probe = new LegacyProbe(async () => {
      opened++;
      return fakeSession(async () => ({})).session;
    });
    await probe.stop();
    expect(await probe.start()).toBe("unknown");
    expect(opened).toBe(0);
  });
});

/** A capture session over a fixed surface, in `era`, with a probe that answers `verdict`. */
function captureSession(era: "modern" | "legacy", verdict: LegacyVerdict | undefined) {
  let started = 0;
  const result: JsonObject =
    era === "modern"
      ? { supportedVersions: [MODERN], capabilities: { tools: {} }, _meta: {} }
      : { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } };
  const session: CaptureSession = {
    opening: { era, protocolVersion: era === "modern" ? MODERN : "2025-11-25", result },
    era,
    changedLists: new Set(),
    request: async () => ({ tools: [] }),
    listen: async () => false,
    assertHealthy: async () => undefined,
    legacyProbe:
      verdict === undefined
        ? undefined
        : ({
            start: async () => {
              started++;
              return verdict;
            },
            within: async () => verdict,
          } as unknown as LegacyProbe),
  };
  return { session, started: () => started };
}

describe("capture records a clear answer either way, and nothing when it is unknown", () => {
  test("refused and accepted are written as such, after supportedVersions", async () => {
    for (const verdict of ["refused", "accepted"] as const) {
      const contract = await captureSurface(captureSession("modern", verdict).session, []);
      expect(contract.capture.legacy).toBe(verdict);
      expect(Object.keys(JSON.parse(serializeContract(contract)).capture)).toEqual([
        "clientCapabilities",
        "supportedVersions",
        "legacy",
      ]);
    }
  });
  test("unknown, or no probe (stdio, --era modern): nothing recorded", async () => {
    for (const verdict of ["unknown", undefined] as const) {
      const contract = await captureSurface(captureSession("modern", verdict).session, []);
      expect({ verdict, legacy: "legacy" in contract.capture }).toEqual({ verdict, legacy: false });
    }
  });
  test("a legacy capture never starts the probe", async () => {
    const { session, started } = captureSession("legacy", "refused");
    const contract = await captureSurface(session, []);
    expect(started()).toBe(0);
    expect(contract.capture.legacy).toBeUndefined();
  });
});

describe("the lockfile reads the field", () => {
  test('"refused" and "accepted" round-trip; anything else is an invalid lockfile (exit 2) naming $.capture.legacy', () => {
    for (const contract of [modernOnly, dualEra]) {
      const text = serializeContract(contract);
      expect(parseContract(text, "x.json").capture.legacy).toBe(contract.capture.legacy);
      expect(serializeContract(parseContract(text, "x.json"))).toBe(text);
    }
    const text = serializeContract(modernOnly);
    for (const wrong of [false, "unknown", "Accepted", true, 1]) {
      const data = JSON.parse(text);
      data.capture.legacy = wrong;
      expect(() => parseContract(JSON.stringify(data), "x.json")).toThrow(UsageError);
      expect(() => parseContract(JSON.stringify(data), "x.json")).toThrow("$.capture.legacy");
    }
  });
});

describe("the mock of a modern-only contract", () => {
  test('serves the modern era only; an "accepted" contract, or one without the field, serves both', () => {
    expect(servedVersions(modernOnly)).toEqual({ modern: [MODERN], legacy: [] });
    expect(servedVersions(dualEra).legacy).toContain("2025-11-25");
    expect(servedVersions(modern).legacy).toContain("2025-11-25");
  });
  test("refuses initialize as the v2 SDK's modern-only server does, naming the versions it speaks", () => {
    const server = new MockServer(modernOnly, { seed: 1, pageSize: 10 });
    const connection: Connection = {};
    const answer = server.handle("initialize", { protocolVersion: "2025-11-25", capabilities: {} }, connection);
    expect(answer).toEqual({
      error: {
        code: -32022,
        message: "Unsupported protocol version: 2025-11-25",
        data: { supported: [MODERN], requested: "2025-11-25" },
      },
    });
    expect(connection.refusedLegacy).toBe(true);
    expect(connection.legacyVersion).toBeUndefined();
  });
  test("a request without the envelope is refused without `requested`; with it, served", () => {
    const server = new MockServer(modernOnly, { seed: 1, pageSize: 10 });
    expect(server.handle("tools/list", {}, {})).toEqual({
      error: {
        code: -32022,
        message: "Unsupported protocol version: the request did not name a protocol version",
        data: { supported: [MODERN] },
      },
    });
    const connection: Connection = {};
    expect(server.handle("tools/list", ENVELOPE, connection)).toMatchObject({
      result: { tools: [{ name: "get_forecast" }], resultType: "complete" },
    });
    expect(connection.refusedLegacy).toBeUndefined();
    expect(server.handle("server/discover", ENVELOPE, {})).toMatchObject({
      result: { supportedVersions: [MODERN] },
    });
  });
  test('the mock of an "accepted" contract, or one without the field (unknown), answers initialize and the envelope', () => {
    for (const contract of [dualEra, modern]) {
      const server = new MockServer(contract, { seed: 1, pageSize: 10 });
      const connection: Connection = {};
      expect(server.handle("initialize", { protocolVersion: "2025-11-25" }, connection)).toMatchObject({
        result: { protocolVersion: "2025-11-25" },
      });
      expect(connection.refusedLegacy).toBeUndefined();
      expect(server.handle("tools/list", ENVELOPE, {})).toMatchObject({
        result: { tools: [{ name: "get_forecast" }] },
      });
    }
  });
});
