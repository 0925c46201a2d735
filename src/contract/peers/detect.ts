/**
 * Reading a peer tool's file as a surface, told apart by its shape: mcp-covenant's lockfile
 * (`covenant_version`) or the mcp-query family's contract (`version` and `tools`). The result
 * is a Contract carrying what the format could not hold (capture.importedFrom), checked at the
 * same boundary as our own lockfiles; problems name the path in the peer's file (exit 2). Pure.
 */
import { UsageError } from "../../errors.ts";
import type { Contract, JsonObject } from "../model.ts";
import { findContractProblem } from "../validate.ts";
import { COVENANT, covenantPath, fromCovenant, isCovenantLockfile } from "./covenant.ts";
import { fromMcpQuery, isMcpQueryContract, MCP_QUERY, MCP_QUERY_VERSION, mcpQueryPath } from "./mcp-query.ts";

interface PeerFormat {
  name: string;
  /** What the file is called in messages. */
  noun: string;
  matches: (data: JsonObject) => boolean;
  convert: (data: JsonObject, fail: (path: string, what: string) => Error) => Contract;
  /** A path in the converted surface as the path in the peer's file. */
  filePath: (path: string) => string;
}

const FORMATS: PeerFormat[] = [
  {
    name: COVENANT,
    noun: "mcp-covenant lockfile",
    matches: isCovenantLockfile,
    convert: fromCovenant,
    filePath: covenantPath,
  },
  {
    name: MCP_QUERY,
    noun: "mcp-query contract",
    matches: isMcpQueryContract,
    convert: fromMcpQuery,
    filePath: mcpQueryPath,
  },
];

const HINT =
  "Capture the server again with that tool, or capture it with `mcp-contract snapshot`, which records the whole surface.";

/** The peer format a parsed file has the shape of, if any. */
export function peerFormatOf(data: JsonObject): string | undefined {
  return FORMATS.find((f) => f.matches(data))?.name;
}

/** The file as a surface when it has a peer format's shape; undefined when it has none. */
export function readPeerSurface(data: JsonObject, source: string): Contract | undefined {
  const format = FORMATS.find((f) => f.matches(data));
  if (format === undefined) return undefined;
  if (format.name === MCP_QUERY && typeof data.version === "number" && data.version > MCP_QUERY_VERSION) {
    throw new UsageError(
      `${source} is an mcp-query contract of version ${data.version}, but this mcp-contract reads version ${MCP_QUERY_VERSION} of that format at most. Capture the server with \`mcp-contract snapshot\` instead.`,
    );
  }
  const fail = (path: string, what: string) =>
    new UsageError(`${source} looks like an ${format.noun} but is not a valid one: at ${path}, ${what}. ${HINT}`);
  const contract = format.convert(data, fail);
  const problem = findContractProblem(contract);
  if (problem) {
    const item = problem.item === undefined ? "" : ` (${problem.item})`;
    throw fail(`${format.filePath(problem.path)}${item}`, problem.what);
  }
  return contract;
}
