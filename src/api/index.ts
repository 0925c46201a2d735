/**
 * The programmatic API, for Node.js (20+) and Bun: typed ESM functions over the same pure
 * core the CLI runs. `npm install mcp-contract`, then
 *
 *   import { capture, diffContracts, diffSchema, lint, parseContract, formatReport } from "mcp-contract";
 *
 * - parseContract / serializeContract: read (and validate) a lockfile text; write one byte-stable.
 * - diffContracts(before, after): the check/diff verdict of two surfaces, as a Report.
 * - diffSchema(before, after, "input" | "output"): one JSON Schema compared under a direction.
 * - lint(contract): protocol, quality and security findings, as a LintReport.
 * - capture(target): a live server's surface (stdio or HTTP). Only this loads the MCP SDK.
 * - formatReport(report, format): text, json, sarif, markdown, junit or github.
 * - contentHash(item): the content hash a lockfile records for an item ("sha256:" + hex of
 *   SHA-256 over its RFC 8785 canonical JSON), to compare with other pinning tools.
 *
 * Errors are CliError subclasses with the CLI's exit code: UsageError (2) for bad input such
 * as an invalid lockfile, ServerError (3) when a server fails.
 * - serveMock(contract, options): the contract as an MCP server on Streamable HTTP (both eras),
 *   as `mcp-contract mock --http` serves it, for a consumer's tests.
 * - The mcp-query family's names, with their call shapes (./seed-compat.ts): captureContract(client),
 *   diffContract(pinned, live, { used }), diffSchema(prev, next, "in" | "out"),
 *   mockFromContract(contract), formatDiff(diff).
 */

import type { EraSetting } from "../connect/era.ts";
import type { ClientCapability, Contract, Json } from "../contract/model.ts";
import { parseContract as parseLockfile } from "../contract/read.ts";
import type { Direction } from "../diff/model.ts";
import { UsageError } from "../errors.ts";
import { DEFAULT_LINT_OPTIONS } from "../lint/model.ts";
import { todayUtc } from "../policy/apply.ts";
import { judgeLint } from "../policy/judge.ts";
import { judgeComparison } from "../policy/judge-comparison.ts";
import { emptyPolicy, type Policy, parsePolicy } from "../policy/policy.ts";
import { parseUsedList } from "../policy/scope.ts";
import type { Format } from "../report/context.ts";
import type { FailOn, LintFailOn, LintReport, Report } from "../report/model.ts";
import { renderReport } from "../report/render.ts";
import type { Severity } from "../rules/model.ts";
import { diffRule } from "../rules/registry.ts";
import { compareSchemas } from "../schema/compare/index.ts";
import { VERSION } from "../version.ts";
import { diffSchemaSeed, type SeedSchemaChange } from "./seed-compat.ts";

export type { EraSetting } from "../connect/era.ts";
export { serializeContract } from "../contract/canonical.ts";
export { contentHash } from "../contract/hashes.ts";
export type { ClientCapability, Contract, Json, JsonObject } from "../contract/model.ts";
export type { Change, Direction } from "../diff/model.ts";
export { CliError, ServerError, UsageError } from "../errors.ts";
export type { Finding } from "../lint/model.ts";
export { FORMATS, type Format } from "../report/context.ts";
export type { FailOn, LintFailOn, LintReport, Report, ReportChange, ReportFinding } from "../report/model.ts";
export type { Severity } from "../rules/model.ts";
export type { DiffRuleId, LintRuleId, RuleId } from "../rules/registry.ts";

/** The mcp-contract version. */
export const version: string = VERSION;
export {
  type CaptureContractOptions,
  type ConnectedClient,
  type ContractChange,
  type ContractDiff,
  captureContract,
  diffContract,
  formatDiff,
  type SeedSchemaChange,
} from "./seed-compat.ts";

/** A lockfile's text → its Contract, validated exactly as the CLI validates lockfiles (UsageError otherwise). */
export function parseContract(text: string, source = "contract"): Contract {
  return parseLockfile(text, source);
}

/** A Contract, or a lockfile's text. */
export type ContractInput = Contract | string;

function contractOf(input: ContractInput, source: string): Contract {
  return typeof input === "string" ? parseLockfile(input, source) : input;
}

/** A policy file's text, or its parsed content (validated the same way either way). */
export type PolicyInput = string | Record<string, unknown>;

function policyOf(input: PolicyInput | undefined): Policy {
  if (input === undefined) return emptyPolicy();
  return parsePolicy(typeof input === "string" ? input : JSON.stringify(input), "policy");
}

export interface DiffOptions {
  /** The result is "fail" when a change reaches this severity (default "breaking"). */
  failOn?: FailOn;
  /** The policy file (mcp-contract.config.json): rule overrides and ignores. */
  policy?: PolicyInput;
  /** Only changes to these names and globs count (like --used). */
  used?: readonly string[];
  /** Also fail when server.version moved less than the changes require (like --enforce-semver). */
  enforceSemver?: boolean;
  /** Attach witness values to breaking schema changes (default true). */
  witness?: boolean;
  /** Names for the two sides in the report (default "before" and "after"). */
  sources?: { before?: string; after?: string };
  /** YYYY-MM-DD (UTC) for expiring ignores (default today). */
  today?: string;
}

/** Compare two surfaces, as `mcp-contract diff` does, and return the report (result, requiredBump, changes). */
export async function diffContracts(
  before: ContractInput,
  after: ContractInput,
  options: DiffOptions = {},
): Promise<Report> {
  const beforeSource = options.sources?.before ?? "before";
  const afterSource = options.sources?.after ?? "after";
  const patterns = parseUsedList(options.used ?? []);
  const verdict = await judgeComparison({
    command: "diff",
    baseline: { contract: contractOf(before, beforeSource), source: beforeSource },
    current: { contract: contractOf(after, afterSource), source: afterSource },
    policy: {
      policy: policyOf(options.policy),
      today: options.today ?? todayUtc(),
      enforceSemver: options.enforceSemver,
      ...(patterns.length ? { usage: { patterns, description: `used: ${patterns.join(", ")}` } } : {}),
    },
    failOn: options.failOn ?? "breaking",
    witness: options.witness ?? true,
  });
  return verdict.report;
}

/** One change between two JSON Schemas, judged for the direction the values flow. */
export interface SchemaDiffChange {
  rule: string;
  severity: Severity;
  direction: Direction;
  /** JSON Pointer from the schema root ("" for the root itself). */
  path: string;
  before?: Json;
  after?: Json;
  message: string;
  note?: string;
  /** For a breaking change: a value that shows it, checked against both schemas. */
  witness?: Json;
}

/**
 * Compare two JSON Schemas as sets of values. "input" (what callers send, like a tool's
 * inputSchema) is contravariant: accepting less breaks callers; "output" (what callers
 * receive, like an outputSchema) is covariant: producing more breaks them. Witnesses are
 * attached, so this form is async. The mcp-query family's form, `diffSchema(prev, next,
 * "in" | "out")`, answers at once, without witnesses, as its callers wrote it.
 */
export function diffSchema(prev: Json | undefined, next: Json | undefined, variance: "in" | "out"): SeedSchemaChange[];
export function diffSchema(
  before: Json,
  after: Json,
  direction: Direction,
  options?: { witness?: boolean },
): Promise<SchemaDiffChange[]>;
export function diffSchema(
  before: Json | undefined,
  after: Json | undefined,
  direction: Direction | "in" | "out",
  options: { witness?: boolean } = {},
): Promise<SchemaDiffChange[]> | SeedSchemaChange[] {
  if (direction === "in" || direction === "out") return diffSchemaSeed(before, after, direction);
  return diffSchemaWithWitnesses(before ?? {}, after ?? {}, direction, options);
}

async function diffSchemaWithWitnesses(
  before: Json,
  after: Json,
  direction: Direction,
  options: { witness?: boolean },
): Promise<SchemaDiffChange[]> {
  if (direction !== "input" && direction !== "output") {
    throw new UsageError(`direction must be "input" or "output", got ${JSON.stringify(direction)}.`);
  }
  const changes: SchemaDiffChange[] = compareSchemas(before, after).map((sc) => ({
    rule: sc.rule,
    severity: diffRule(sc.rule)[direction],
    direction,
    path: sc.path,
    ...(sc.before !== undefined && { before: sc.before }),
    ...(sc.after !== undefined && { after: sc.after }),
    message: sc.message,
    ...(sc.note !== undefined && { note: sc.note }),
  }));
  if (options.witness === false || !changes.some((c) => c.severity === "breaking")) return changes;
  const { findWitness, releaseValidators } = await import("../schema/witness.ts");
  try {
    return changes.map((change) => {
      if (change.severity !== "breaking") return change;
      const witness = findWitness(
        before,
        after,
        { rule: change.rule as never, path: change.path, before: change.before, after: change.after },
        direction,
      );
      return witness === undefined ? change : { ...change, witness };
    });
  } finally {
    releaseValidators();
  }
}

export interface LintOptions {
  /** The result is "fail" when a finding reaches this level (default "error"). */
  failOn?: LintFailOn;
  /** Lint rule ids to turn off. */
  disable?: readonly string[];
  /** Warn when the tool list is estimated over this many tokens (default 10,000). */
  tokenBudget?: number;
  /** The policy file: level overrides and ignores. */
  policy?: PolicyInput;
  /** The name of the linted surface in the report (default "contract"). */
  source?: string;
  today?: string;
}

/** Lint a surface, as `mcp-contract lint` does. */
export function lint(contract: ContractInput, options: LintOptions = {}): LintReport {
  const source = options.source ?? "contract";
  return judgeLint({
    contract: contractOf(contract, source),
    source,
    policy: policyOf(options.policy),
    today: options.today ?? todayUtc(),
    tokenBudget: options.tokenBudget ?? DEFAULT_LINT_OPTIONS.tokenBudget,
    disabled: new Set(options.disable ?? []),
    failOn: options.failOn ?? "error",
  }).report;
}

/** Render a report as the CLI would (no colour). */
export function formatReport(report: Report | LintReport, format: Format): string {
  return renderReport(report, format, {}, false);
}

/** Which server to capture: a stdio command, an HTTP URL, or a server of an MCP client config. */
export type CaptureTarget =
  | { command: readonly string[]; env?: Record<string, string>; cwd?: string }
  | {
      url: string;
      headers?: Record<string, string>;
      bearer?: string;
      transport?: "auto" | "http" | "sse";
    }
  | { server: string; config?: string };

export interface CaptureOptions {
  /** Give up after this many seconds (default 30). */
  timeoutSeconds?: number;
  /** Refuse a single server message larger than this many MiB (default 64). */
  maxResponseMiB?: number;
  /** Client capabilities to declare. */
  clientCapabilities?: readonly ClientCapability[];
  /** The protocol era to speak: modern (2026-07-28), legacy (initialize), or auto (default), as --era. */
  era?: EraSetting;
}

/**
 * Capture a live server's surface into a Contract, as `mcp-contract snapshot` does (write it
 * with serializeContract). The server is started (stdio) or connected to (HTTP), and always
 * closed; a stdio server's whole process group is ended. While the capture runs, SIGINT and
 * SIGTERM end the server and then this process, as they do the CLI. Loads the MCP SDK.
 */
export async function capture(target: CaptureTarget, options: CaptureOptions = {}): Promise<Contract> {
  const [{ resolveTarget }, { captureTarget }, { Ui }] = await Promise.all([
    import("../cli/target-options.ts"),
    import("../cli/capture-target.ts"),
    import("../cli/ui.ts"),
  ]);
  const t = target as { command?: readonly string[]; env?: Record<string, string>; cwd?: string } & {
    url?: string;
    headers?: Record<string, string>;
    bearer?: string;
    transport?: "auto" | "http" | "sse";
  } & { server?: string; config?: string };
  const resolved = resolveTarget(
    [...(t.command ?? [])],
    {
      url: t.url,
      header: Object.entries(t.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
      bearer: t.bearer,
      transport: t.transport ?? "auto",
      server: t.server,
      config: t.config ?? ".mcp.json",
      env: Object.entries(t.env ?? {}).map(([k, v]) => `${k}=${v}`),
      cwd: t.cwd,
      timeout: options.timeoutSeconds ?? 30,
      maxResponseSize: options.maxResponseMiB,
      clientCapabilities: options.clientCapabilities?.join(","),
      era: options.era,
    },
    () => "cli",
  );
  const { contract, closed } = await captureTarget(resolved, new Ui({ quiet: true }));
  await closed;
  return contract;
}

export interface MockOptions {
  /** Where to listen (default 127.0.0.1; port 0, the default, picks a free one). */
  host?: string;
  port?: number;
  /** Varies generated results (default 1, as the CLI's --seed); the same seed, tool and arguments give the same result. */
  seed?: number;
  /** Items per list page (default 100). */
  pageSize?: number;
  /** Every request with its answer, as `mcp-contract mock --record` writes them. */
  onExchange?: (exchange: unknown) => void;
}

export interface RunningMock {
  /** The Streamable HTTP endpoint, e.g. http://127.0.0.1:41234/mcp. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serve a contract as an MCP server over Streamable HTTP, in both protocol eras, as
 * `mcp-contract mock --http` does: arguments validated against each tool's inputSchema,
 * results generated (seeded) to its outputSchema. Point a client at `url` in a test.
 */
export async function serveMock(contract: ContractInput, options: MockOptions = {}): Promise<RunningMock> {
  const [{ MockServer }, { serveNodeHttp }] = await Promise.all([
    import("../mock/server.ts"),
    import("../mock/node-http.ts"),
  ]);
  const server = new MockServer(contractOf(contract, "contract"), {
    seed: options.seed ?? 1,
    pageSize: options.pageSize ?? 100,
    ...(options.onExchange ? { onExchange: options.onExchange } : {}),
  });
  return serveNodeHttp(server, options.host ?? "127.0.0.1", options.port ?? 0);
}

/** The mcp-query family's name for serveMock: the contract as a running mock MCP server (Streamable HTTP). */
export function mockFromContract(contract: ContractInput, options: MockOptions = {}): Promise<RunningMock> {
  return serveMock(contract, options);
}
