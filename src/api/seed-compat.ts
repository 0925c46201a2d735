/**
 * The programmatic names users of the mcp-query family's contract tool already call, with the
 * call shapes they wrote, over this project's engine (README: "Coming from mcp-covenant or
 * mcp-query"). Their results are this project's: the full lockfile model, the judged changes
 * with their rule ids and witnesses' absence (these are synchronous), and its report formats.
 *
 *   captureContract(connectedSdkClient)            → Contract (a connected @modelcontextprotocol client)
 *   diffContract(pinned, live, { used })           → { changes, breaking, compatible, report }
 *   diffSchema(prev, next, "in" | "out")           → the changes between two JSON Schemas
 *   mockFromContract(contract)                     → a running mock on Streamable HTTP
 *   formatDiff(diff)                               → the text report
 */
import { type CaptureSession, captureSurface } from "../capture/capture.ts";
import type { Opening } from "../connect/session.ts";
import type { ClientCapability, Contract, Json, JsonObject } from "../contract/model.ts";
import { isJsonObject } from "../contract/model.ts";
import { UsageError } from "../errors.ts";
import { compareSurfaces } from "../policy/compare.ts";
import { applyScope, parseUsedList } from "../policy/scope.ts";
import { finishVerdict } from "../policy/verdict.ts";
import { buildReport, type Report, type ReportChange, sideOf } from "../report/model.ts";
import { renderReport } from "../report/render.ts";
import { diffRule } from "../rules/registry.ts";
import { compareSchemas } from "../schema/compare/index.ts";

/** What captureContract needs of a connected SDK client (both SDK generations have it). */
export interface ConnectedClient {
  getServerCapabilities(): unknown;
  getServerVersion(): unknown;
  getInstructions?(): string | undefined;
  /** v2 SDK: the version and era the connection negotiated. */
  getNegotiatedProtocolVersion?(): string | undefined;
  getProtocolEra?(): string | undefined;
  getDiscoverResult?(): unknown;
  // biome-ignore lint/suspicious/noExplicitAny: each SDK generation types its own request and result schema.
  request(request: { method: string; params?: JsonObject }, resultSchema: any): Promise<unknown>;
}

/** A result schema that keeps everything the server sent: typed parsing strips what imperfect servers add. */
const PASS_THROUGH = {
  // zod v3 and v4 shapes, as both SDK generations accept a schema with safeParse/parse.
  parse: (value: unknown) => value,
  safeParse: (value: unknown) => ({ success: true, data: value }),
  "~standard": { version: 1, vendor: "mcp-contract", validate: (value: unknown) => ({ value }) },
};

export interface CaptureContractOptions {
  /**
   * The protocol version the connection negotiated, for an SDK client that does not say (the v1
   * SDK keeps it to itself); the v2 SDK's client reports its own. Default: 2025-11-25.
   */
  protocolVersion?: string;
  clientCapabilities?: readonly ClientCapability[];
}

/**
 * Capture the surface of an MCP server through an SDK client the caller already connected, as
 * `mcp-contract snapshot` captures it (every list, paginated; items exactly as sent). The client
 * stays connected; closing it is the caller's.
 */
export async function captureContract(
  client: ConnectedClient,
  options: CaptureContractOptions = {},
): Promise<Contract> {
  if (!client || typeof client.request !== "function" || typeof client.getServerCapabilities !== "function") {
    throw new UsageError("captureContract needs a connected MCP SDK client (await client.connect(transport) first).");
  }
  const capabilities = client.getServerCapabilities();
  if (!isJsonObject(capabilities as Json)) {
    throw new UsageError("captureContract needs a connected MCP SDK client: this one has no server capabilities yet.");
  }
  const modern = client.getProtocolEra?.() === "modern";
  const discover = modern ? client.getDiscoverResult?.() : undefined;
  const protocolVersion = client.getNegotiatedProtocolVersion?.() ?? options.protocolVersion ?? "2025-11-25";
  const instructions = client.getInstructions?.();
  const result: JsonObject = isJsonObject(discover as Json)
    ? (discover as JsonObject)
    : {
        protocolVersion,
        capabilities: capabilities as JsonObject,
        serverInfo: (client.getServerVersion() ?? {}) as JsonObject,
        ...(instructions !== undefined && { instructions }),
      };
  const opening: Opening = {
    era: modern && isJsonObject(discover as Json) ? "modern" : "legacy",
    protocolVersion,
    result,
  };
  const session: CaptureSession = {
    opening,
    era: opening.era,
    changedLists: new Set(),
    // The SDK client opened any listen stream it wanted; a list that changes mid-capture is read as it is.
    listen: async () => false,
    assertHealthy: async () => undefined,
    request: async (method: string, params: JsonObject | undefined) =>
      (await client.request({ method, ...(params && { params }) }, PASS_THROUGH)) as JsonObject,
  };
  return captureSurface(session, [...(options.clientCapabilities ?? [])]);
}

/** One change as the seed's callers read it, with this project's rule beside it. */
export interface ContractChange {
  category: ReportChange["target"]["kind"];
  /** The item: tool or prompt name, resource URI, template; "" for the server. */
  target: string;
  /** breaking, or compatible (minor and patch). */
  level: "breaking" | "compatible";
  detail: string;
  rule: string;
  severity: ReportChange["severity"];
  path: string;
}

export interface ContractDiff {
  changes: ContractChange[];
  /** How many breaking changes the consumer's scope (`used`) reaches. */
  breaking: number;
  compatible: number;
  /** The full report, for formatReport and the other formats. */
  report: Report;
}

/**
 * Every change between two contracts (pinned, then live), judged with variance; `used` scopes
 * the breaking ones to what a consumer calls (names or `*` globs, as --used). Synchronous.
 */
export function diffContract(
  pinned: Contract,
  live: Contract,
  options: { used?: readonly string[] } = {},
): ContractDiff {
  const patterns = parseUsedList(options.used ?? []);
  let changes: ReportChange[] = compareSurfaces(pinned, live);
  if (patterns.length > 0) changes = applyScope(changes, { patterns, description: `used: ${patterns.join(", ")}` });
  const report = finishVerdict(
    buildReport("diff", sideOf(pinned, "pinned"), sideOf(live, "live"), changes, "breaking", []),
    {},
  ).report;
  const counted = changes.filter((c) => c.exempt === undefined);
  const seen: ContractChange[] = counted.map((c) => ({
    category: c.target.kind,
    target: c.target.name,
    level: c.severity === "breaking" ? "breaking" : "compatible",
    detail: c.message,
    rule: c.rule,
    severity: c.severity,
    path: c.path,
  }));
  return {
    changes: seen,
    breaking: seen.filter((c) => c.level === "breaking").length,
    compatible: seen.filter((c) => c.level === "compatible").length,
    report,
  };
}

/** One change between two JSON Schemas, as the seed's diffSchema gave it (path, level, detail) and ours. */
export interface SeedSchemaChange {
  path: string;
  level: "breaking" | "compatible";
  detail: string;
  rule: string;
  severity: ReportChange["severity"];
}

/** Two JSON Schemas compared as sets of values: "in" for what callers send, "out" for what they receive. */
export function diffSchemaSeed(
  prev: Json | undefined,
  next: Json | undefined,
  variance: "in" | "out",
): SeedSchemaChange[] {
  if (variance !== "in" && variance !== "out") {
    throw new UsageError(`variance must be "in" or "out", got ${JSON.stringify(variance)}.`);
  }
  const direction = variance === "in" ? "input" : "output";
  return compareSchemas(prev, next).map((change) => {
    const severity = diffRule(change.rule)[direction];
    return {
      path: change.path,
      level: severity === "breaking" ? "breaking" : "compatible",
      detail: change.message,
      rule: change.rule,
      severity,
    };
  });
}

/** The text report of a diffContract result. */
export function formatDiff(diff: ContractDiff): string {
  return renderReport(diff.report, "text", {}, false);
}
