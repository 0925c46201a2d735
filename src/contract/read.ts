/**
 * Reading a lockfile: parse, check its shape, and say exactly what is wrong and where.
 * Pure; the caller reads the file. Every problem is a UsageError (exit 2). Beyond the layout,
 * a lockfile must pass the contract boundary (validate.ts): the fields the engine reads have
 * their types, nothing is nested deeper than MAX_NESTING_DEPTH, every number is finite.
 */
import { UsageError } from "../errors.ts";
import { BIG_INPUT_CHARS } from "./big-input.ts";
import { hashesProblem } from "./hashes.ts";
import { locateJsonError } from "./json-position.ts";
import {
  CLIENT_CAPABILITIES,
  type Contract,
  ERAS,
  isJsonObject,
  LEGACY_SUPPORT,
  LOCKFILE_VERSION,
  SURFACE_LISTS,
} from "./model.ts";
import { readPeerSurface } from "./peers/detect.ts";
import { importedFromProblem } from "./peers/imported.ts";
import { deepFreeze, type ReadSession } from "./read-session.ts";
import { SchemaSpans } from "./schema-spans.ts";
import { parseByTools, type ToolCheck, type ToolReader } from "./tool-spans.ts";
import { describeFound, describeProblem, findContractProblem, MAX_NESTING_DEPTH, toolPasses } from "./validate.ts";

/** The boundary check of a tool as it is parsed: its text is not needed. */
const passes: ToolCheck = (tool) => toolPasses(tool);
const PLAIN: ToolReader = { check: passes };

const HINT = "Regenerate it with `mcp-contract snapshot`, or restore it from version control.";

/**
 * `session`: read the tools one by one and share those the lockfile read before in the session
 * holds too (read-session.ts, tool-spans.ts). Only for callers that never modify a contract they
 * read: the objects then belong to both lockfiles (a session that freezes makes sure). `reader`:
 * read the tools one by one (sharing only with a session) with a reader of their texts (lint's
 * shapes): its check tells right after each tool is parsed whether it passes the boundary,
 * exactly as toolPasses does, and its parse may build the tool (sharing values between tools of
 * this file: again only for callers that never modify what they read). `freeze`: deep-freeze
 * the contract (as a freezing session does).
 */
export function parseContract(
  text: string,
  source: string,
  options: { session?: ReadSession; reader?: ToolReader; freeze?: boolean } = {},
): Contract {
  if (text.trim() === "") {
    throw new UsageError(`${source} is empty, so it holds no contract. ${HINT}`);
  }
  // Tool by tool where the layout is ours (tool-spans.ts): tools the lockfile read before holds too are shared.
  const { session, reader } = options;
  const spans =
    session && !reader && text.length >= BIG_INPUT_CHARS ? new SchemaSpans({ before: session.spans }) : undefined;
  const byTools = session || reader ? parseByTools(text, reader ?? spans ?? PLAIN, session?.tools) : undefined;
  spans?.release();
  let data: unknown = byTools?.data;
  try {
    data ??= JSON.parse(text);
  } catch {
    const where = locateJsonError(text);
    throw new UsageError(`${source}:${where.line}:${where.column}: not valid JSON: ${where.message}. ${HINT}`);
  }
  const problem = (path: string, what: string) =>
    new UsageError(`${source} is not a valid mcp-contract lockfile: at ${path}, ${what}. ${HINT}`);

  if (!isJsonObject(data)) throw problem("$", "expected an object");
  const version = data.lockfileVersion;
  if (version === undefined) {
    // A peer tool's file (mcp-covenant, mcp-query), told apart by its shape.
    const peer = readPeerSurface(data, source);
    if (peer) return options.freeze || session?.options.freeze ? deepFreeze(peer) : peer;
    throw new UsageError(
      `${source} is not an mcp-contract lockfile: it has no "lockfileVersion" field, and it is no mcp-covenant lockfile (covenant_version) or mcp-query contract (version, tools) either. Create one with \`mcp-contract snapshot -o ${source} -- <server command>\`.`,
    );
  }
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
    throw problem("$.lockfileVersion", `expected a positive integer, found ${describeFound(version)}`);
  }
  if (version > LOCKFILE_VERSION) {
    throw new UsageError(
      `${source} uses lockfile version ${version}, but this mcp-contract reads version ${LOCKFILE_VERSION} at most: it was written by a newer mcp-contract. Upgrade mcp-contract to read it.`,
    );
  }
  if (!isJsonObject(data.server)) throw problem("$.server", "expected an object (the server's serverInfo)");
  if (typeof data.protocolVersion !== "string") throw problem("$.protocolVersion", "expected a string");
  if (!isJsonObject(data.capabilities)) throw problem("$.capabilities", "expected an object");
  if (data.instructions !== undefined && typeof data.instructions !== "string") {
    throw problem("$.instructions", "expected a string");
  }
  const capture = data.capture;
  if (!isJsonObject(capture)) throw problem("$.capture", "expected an object");
  if (!Array.isArray(capture.clientCapabilities)) throw problem("$.capture.clientCapabilities", "expected an array");
  capture.clientCapabilities.forEach((cap, i) => {
    if (!CLIENT_CAPABILITIES.includes(cap as never)) {
      throw problem(
        `$.capture.clientCapabilities[${i}]`,
        `expected one of ${CLIENT_CAPABILITIES.join(", ")}, found ${describeFound(cap)}`,
      );
    }
  });
  // Written since eras were recorded; a lockfile without them was captured with --era auto.
  if (capture.era !== undefined && !ERAS.includes(capture.era as never)) {
    throw problem("$.capture.era", `expected one of ${ERAS.join(", ")}, found ${describeFound(capture.era)}`);
  }
  if (capture.supportedVersions !== undefined) {
    if (!Array.isArray(capture.supportedVersions)) throw problem("$.capture.supportedVersions", "expected an array");
    capture.supportedVersions.forEach((version, i) => {
      if (typeof version !== "string") {
        throw problem(`$.capture.supportedVersions[${i}]`, `expected a string, found ${describeFound(version)}`);
      }
    });
  }
  // Written only when a modern capture over HTTP got a clear answer to a legacy initialize.
  if (capture.legacy !== undefined && !LEGACY_SUPPORT.includes(capture.legacy as never)) {
    throw problem(
      "$.capture.legacy",
      `expected ${LEGACY_SUPPORT.map((v) => JSON.stringify(v)).join(" or ")} (or no such field), found ${describeFound(capture.legacy)}`,
    );
  }
  // Names of the environment variables and headers a capture was given; absent when none were.
  for (const key of ["env", "headers", "scopes"] as const) {
    const names = capture[key];
    if (names === undefined) continue;
    if (!Array.isArray(names)) throw problem(`$.capture.${key}`, "expected an array of names");
    names.forEach((name, i) => {
      if (typeof name !== "string") {
        throw problem(`$.capture.${key}[${i}]`, `expected a string, found ${describeFound(name)}`);
      }
    });
  }
  if (capture.importedFrom !== undefined) {
    const wrong = importedFromProblem(capture.importedFrom);
    if (wrong) throw problem(`$.capture.importedFrom${wrong.path}`, wrong.what);
  }
  for (const list of SURFACE_LISTS) {
    if (!Array.isArray(data[list.key])) throw problem(`$.${list.key}`, "expected an array");
  }
  // Written only for servers that offer the Skills extension.
  if (data.skills !== undefined && !Array.isArray(data.skills)) throw problem("$.skills", "expected an array");
  // Written since content hashes were recorded; an older lockfile's are computed when needed (hashes.ts).
  if (data.hashes !== undefined) {
    const wrong = hashesProblem(data.hashes);
    if (wrong) throw problem(`$.hashes${wrong.path}`, wrong.what);
  }
  // Every item's fields, nesting depth and numbers: the same check a capture passes.
  // Tools shared with the lockfile read before passed these checks at the same depth there;
  // the others were checked as they were parsed. Any that did not pass are checked here, in order.
  // Most often every tool passed: the list is then not looked at again (a call per tool was not free).
  const passed = byTools?.passed;
  const found = findContractProblem(
    data as unknown as Contract,
    MAX_NESTING_DEPTH,
    true,
    passed && (passed.includes(false) ? (i) => passed[i] === true : true),
  );
  if (found) {
    throw new UsageError(`${source} is not a valid mcp-contract lockfile: ${describeProblem(found)}. ${HINT}`);
  }
  if (byTools && session) session.remember(byTools, spans);
  const contract = data as unknown as Contract;
  return options.freeze || session?.options.freeze ? deepFreeze(contract) : contract;
}
