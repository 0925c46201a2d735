/**
 * The contract as an MCP server, transport-free: one JSON-RPC message in, its answer out.
 * The eras the captured server served are served on one endpoint, as the official v2 server
 * SDK does (servedVersions): a request with the modern `_meta` envelope is answered in the
 * modern era (server/discover, `resultType`), `initialize` opens a legacy session, and a
 * modern-only contract refuses it as a modern-only server does. Everything the contract recorded
 * (server info, capabilities, instructions, the items of each list) is served verbatim, so
 * that capturing the mock reproduces the contract.
 */
import {
  LEGACY_PROTOCOL_VERSIONS,
  META_KEYS,
  MODERN_PROTOCOL_VERSIONS,
  UNSUPPORTED_PROTOCOL_VERSION,
} from "../connect/era.ts";
import {
  type Contract,
  type Era,
  eraOf,
  isJsonObject,
  type Json,
  type JsonObject,
  offersSkills,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  SKILLS_EXTENSION,
  type Skill,
  type Tool,
} from "../contract/model.ts";
import type { Fixtures } from "./fixtures.ts";
import { generateValid, seedFor } from "./generate.ts";
import { judgeOutput, type OutputVerdict } from "./output-check.ts";
import { fitsTemplate } from "./uri-template.ts";
import { describeProblem, validatorOf } from "./validate.ts";

export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INVALID_REQUEST = -32600;
/** The 2025-era code for an unknown resource URI. */
export const RESOURCE_NOT_FOUND = -32002;

export interface MockOptions {
  /** Varies generated results; the same seed, tool and arguments give the same result. */
  seed: number;
  /** Items per list page. */
  pageSize: number;
  fixtures?: Fixtures;
  /** Every request with its answer (and every notification), as it was handled. */
  onExchange?: (exchange: Exchange) => void;
}

export interface Exchange {
  time: string;
  era: Era;
  method: string;
  params?: Json;
  result?: Json;
  error?: RpcErrorBody;
  /** A notification (no answer). */
  notification?: true;
  /**
   * Set by `mcp-contract record` on a request or notification the server started (sampling,
   * elicitation, progress): the mock starts none, and readers of calls skip them.
   */
  from?: "server";
}

export interface RpcErrorBody {
  code: number;
  message: string;
  data?: Json;
}

/** What one connection (a stdio pipe; an HTTP request, stateless) has said so far. */
export interface Connection {
  /** The version initialize negotiated on this connection, if it has been sent. */
  legacyVersion?: string;
  /** A legacy request was refused as a modern-only server refuses it (over HTTP: status 400, as the v2 SDK sends). */
  refusedLegacy?: boolean;
}

export type Answer = { result: JsonObject } | { error: RpcErrorBody };

/** A request answered later (subscriptions/listen): the transport keeps it open. */
export interface Listening {
  listen: JsonObject;
}

class RpcFailure extends Error {
  constructor(readonly body: RpcErrorBody) {
    super(body.message);
  }
}

const fail = (code: number, message: string, data?: Json): never => {
  throw new RpcFailure(data === undefined ? { code, message } : { code, message, data });
};

/** Draws a call tries before it falls back on the value its tool's verdict found. */
const CALL_ATTEMPTS = 4;

/**
 * The protocol versions the mock speaks, in each era, as far as the contract's capture shows
 * how the real server spoke, so that a consumer negotiates with the mock as with production:
 * - a legacy capture made in auto asked server/discover first, and the server did not answer
 *   it as a modern server: legacy only, up to the version it negotiated (server/discover is an
 *   unknown method, as it was there);
 * - a legacy capture made with --era legacy never asked: both eras, as the SDKs serve them;
 * - a modern capture lists server/discover's supportedVersions, served in the modern era. Whether
 *   the server also accepts initialize is not something server/discover says (the v2 SDK lists
 *   only 2026-07-28 whether or not it serves 2025 clients too); the capture asks when it can
 *   (src/connect/legacy-probe.ts) and records the answer: `capture.legacy: "refused"` is served
 *   in the modern era only; "accepted", or no answer recorded (not asked, as over stdio), in the
 *   legacy era as well, with the legacy versions the list names, or all of them. So a capture
 *   over HTTP of the mock asks again and records the same answer.
 */
export function servedVersions(contract: Contract): { modern: string[]; legacy: string[] } {
  const negotiated = contract.protocolVersion;
  if (eraOf(negotiated) === "modern") {
    const listed = contract.capture.supportedVersions ?? [negotiated];
    const modern = listed.length > 0 ? listed : [negotiated];
    if (contract.capture.legacy === "refused") return { modern, legacy: [] };
    const legacy = listed.filter((v) => eraOf(v) === "legacy");
    return { modern, legacy: legacy.length > 0 ? legacy : [...LEGACY_PROTOCOL_VERSIONS] };
  }
  const legacy = LEGACY_PROTOCOL_VERSIONS.filter((v) => v <= negotiated);
  if (!legacy.includes(negotiated)) legacy.unshift(negotiated);
  return { modern: contract.capture.era === "legacy" ? [...MODERN_PROTOCOL_VERSIONS] : [], legacy };
}

export class MockServer {
  private readonly tools = new Map<string, Tool>();
  private readonly resources = new Map<string, Resource>();
  private readonly prompts = new Map<string, Prompt>();
  readonly legacyVersions: string[];
  readonly modernVersions: string[];
  /** Per tool with an outputSchema, whether the mock can answer it (see output-check.ts); judged once. */
  private readonly verdicts = new Map<string, OutputVerdict>();

  constructor(
    readonly contract: Contract,
    readonly options: MockOptions,
  ) {
    for (const tool of contract.tools) if (!this.tools.has(tool.name)) this.tools.set(tool.name, tool);
    for (const r of contract.resources) if (!this.resources.has(r.uri)) this.resources.set(r.uri, r);
    for (const p of contract.prompts) if (!this.prompts.has(p.name)) this.prompts.set(p.name, p);
    const versions = servedVersions(contract);
    this.modernVersions = versions.modern;
    this.legacyVersions = versions.legacy;
  }

  /** The verdict on a tool's outputSchema, judged on first need. */
  private verdictFor(tool: Tool, schema: Json): OutputVerdict {
    let verdict = this.verdicts.get(tool.name);
    if (!verdict) {
      verdict = judgeOutput(schema, seedFor(this.options.seed, tool.name));
      this.verdicts.set(tool.name, verdict);
    }
    return verdict;
  }

  /**
   * Judge every tool whose results are generated, calling `report` once per tool the mock cannot
   * answer (the CLI prints one line each at start-up). Each schema costs milliseconds to compile,
   * so this yields to the event loop every `sliceMs`: a contract of thousands of tools is served
   * at once, and a call that comes first judges its own tool on the spot. `signal` stops it
   * when the mock stops serving.
   */
  async checkOutputs(report: (name: string, why: string) => void, signal?: AbortSignal, sliceMs = 50): Promise<void> {
    let sliceStart = performance.now();
    for (const tool of this.tools.values()) {
      if (signal?.aborted) return;
      const schema = outputSchemaOf(tool);
      if (schema === undefined || this.options.fixtures?.answersEveryCall(tool.name)) continue;
      const verdict = this.verdictFor(tool, schema);
      if ("why" in verdict) report(tool.name, verdict.why);
      if (performance.now() - sliceStart > sliceMs) {
        await new Promise((resume) => setImmediate(resume));
        sliceStart = performance.now();
      }
    }
  }

  /**
   * The era a request is in: the modern envelope, or legacy. A mock of a legacy-only server
   * knows no envelope: like that server, it reads every request as legacy (server/discover is
   * then an unknown method).
   */
  eraOf(params: unknown): Era {
    if (this.modernVersions.length === 0) return "legacy";
    const meta = isJsonObject(params) && isJsonObject(params._meta) ? params._meta : undefined;
    return meta && typeof meta[META_KEYS.protocolVersion] === "string" ? "modern" : "legacy";
  }

  /** Answer one request. A listen request answers { listen } and is kept open by the transport. */
  handle(method: string, params: Json | undefined, connection: Connection): Answer | Listening {
    const era = method === "initialize" ? "legacy" : this.eraOf(params);
    let answer: Answer | Listening;
    try {
      if (era === "legacy" && this.legacyVersions.length === 0) {
        connection.refusedLegacy = true;
        this.refuseLegacy(method, params);
      }
      const result = this.dispatch(method, isJsonObject(params) ? params : {}, era, connection);
      if (method === "subscriptions/listen") {
        answer = { listen: result.listen as JsonObject };
      } else {
        answer = { result: era === "modern" ? this.modernResult(method, result) : result };
      }
    } catch (error) {
      if (!(error instanceof RpcFailure)) throw error;
      answer = { error: error.body };
    }
    this.record(era, method, params, answer);
    return answer;
  }

  /**
   * A modern result as the v2 SDK sends it: `resultType`, the cache hints on discover and the
   * lists (which its client requires), and the server info in `_meta`.
   */
  private modernResult(method: string, result: JsonObject): JsonObject {
    const out: JsonObject = { ...result, resultType: "complete" };
    if (
      method === "server/discover" ||
      method.endsWith("/list") ||
      method === "resources/read" ||
      method === "skills/get" ||
      method === "resources/directory/read"
    ) {
      out.ttlMs = 0;
      out.cacheScope = "private";
    }
    const meta = isJsonObject(result._meta) ? result._meta : {};
    out._meta = { ...meta, [META_KEYS.serverInfo]: this.contract.server };
    return out;
  }

  /** A notification from the client: recorded, never answered. */
  notified(method: string, params: Json | undefined): void {
    const exchange: Exchange = { time: new Date().toISOString(), era: this.eraOf(params), method, notification: true };
    if (params !== undefined) exchange.params = params;
    this.options.onExchange?.(exchange);
  }

  /** A listen stream is recorded when it opens, without an answer (it has none until it ends). */
  private record(era: Era, method: string, params: Json | undefined, answer: Answer | Listening): void {
    if (!this.options.onExchange) return;
    const exchange: Exchange = { time: new Date().toISOString(), era, method };
    if (params !== undefined) exchange.params = params;
    if ("result" in answer) exchange.result = answer.result;
    else if ("error" in answer) exchange.error = answer.error;
    this.options.onExchange(exchange);
  }

  private dispatch(method: string, params: JsonObject, era: Era, connection: Connection): JsonObject {
    if (era === "modern") this.checkEnvelope(params);
    const caps = this.contract.capabilities;
    const need = (capability: string) => {
      if (caps[capability] === undefined) fail(METHOD_NOT_FOUND, `Method not found: ${method}`);
    };
    switch (method) {
      case "initialize":
        return this.initialize(params, connection);
      case "server/discover":
        if (era !== "modern") return fail(METHOD_NOT_FOUND, "Method not found: server/discover");
        return this.discover();
      case "ping":
        return {};
      case "subscriptions/listen":
        if (era !== "modern") return fail(METHOD_NOT_FOUND, "Method not found: subscriptions/listen");
        return { listen: isJsonObject(params.notifications) ? params.notifications : {} };
      case "tools/list":
        need("tools");
        return this.page("tools", this.contract.tools, params);
      case "tools/call":
        need("tools");
        return this.callTool(params);
      case "resources/list":
        need("resources");
        return this.page("resources", this.contract.resources, params);
      case "resources/templates/list":
        need("resources");
        return this.page("resourceTemplates", this.contract.resourceTemplates, params);
      case "resources/read":
        need("resources");
        return this.readResource(params, era);
      case "resources/subscribe":
      case "resources/unsubscribe":
        need("resources");
        return {};
      case "prompts/list":
        need("prompts");
        return this.page("prompts", this.contract.prompts, params);
      case "prompts/get":
        need("prompts");
        return this.getPrompt(params);
      case "skills/list":
        if (!offersSkills(caps)) return fail(METHOD_NOT_FOUND, `Method not found: ${method}`);
        return this.page("skills", this.contract.skills ?? [], params);
      case "skills/get":
        if (!offersSkills(caps)) return fail(METHOD_NOT_FOUND, `Method not found: ${method}`);
        return this.getSkill(params, era);
      case "resources/directory/read":
        // Only where the server declared it (the skills extension's directoryRead).
        if (!skillsDirectoryRead(caps)) return fail(METHOD_NOT_FOUND, `Method not found: ${method}`);
        return this.readSkillDirectory(params);
      case "completion/complete":
        need("completions");
        return { completion: { values: [], hasMore: false } };
      case "logging/setLevel":
        need("logging");
        return {};
      default:
        return fail(METHOD_NOT_FOUND, `Method not found: ${method}`);
    }
  }

  /**
   * A modern-only server's answer to a request without the modern envelope (initialize among
   * them), as the 2026-07-28 v2 SDK gives it: UnsupportedProtocolVersionError listing the
   * versions it speaks, so that a 2025 client learns from the error alone that it must move on;
   * `requested` echoes initialize's version, and is left out when the request named none.
   */
  private refuseLegacy(method: string, params: Json | undefined): never {
    const requested = method === "initialize" && isJsonObject(params) ? params.protocolVersion : undefined;
    if (typeof requested === "string") {
      return fail(UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${requested}`, {
        supported: this.modernVersions,
        requested,
      });
    }
    return fail(
      UNSUPPORTED_PROTOCOL_VERSION,
      "Unsupported protocol version: the request did not name a protocol version",
      {
        supported: this.modernVersions,
      },
    );
  }

  /** A modern request names a version this contract's server speaks, as the v2 SDK requires. */
  private checkEnvelope(params: JsonObject): void {
    const meta = params._meta as JsonObject;
    const version = meta[META_KEYS.protocolVersion] as string;
    if (!this.modernVersions.includes(version)) {
      fail(UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${version}`, {
        supported: this.modernVersions,
        requested: version,
      });
    }
  }

  private initialize(params: JsonObject, connection: Connection): JsonObject {
    const requested = typeof params.protocolVersion === "string" ? params.protocolVersion : "";
    const version = this.legacyVersions.includes(requested) ? requested : (this.legacyVersions[0] as string);
    connection.legacyVersion = version;
    const result: JsonObject = {
      protocolVersion: version,
      capabilities: this.contract.capabilities,
      serverInfo: this.contract.server,
    };
    if (this.contract.instructions !== undefined) result.instructions = this.contract.instructions;
    return result;
  }

  private discover(): JsonObject {
    const result: JsonObject = {
      supportedVersions: this.modernVersions,
      capabilities: this.contract.capabilities,
      _meta: { [META_KEYS.serverInfo]: this.contract.server },
    };
    if (this.contract.instructions !== undefined) result.instructions = this.contract.instructions;
    return result;
  }

  private page(key: string, items: JsonObject[], params: JsonObject): JsonObject {
    let offset = 0;
    if (params.cursor !== undefined && params.cursor !== null) {
      const match = typeof params.cursor === "string" ? /^page:(\d+)$/.exec(params.cursor) : null;
      if (!match) return fail(INVALID_PARAMS, `Invalid cursor: ${JSON.stringify(params.cursor)}`);
      offset = Number(match[1]);
    }
    const size = Math.max(1, this.options.pageSize);
    const result: JsonObject = { [key]: items.slice(offset, offset + size) };
    if (offset + size < items.length) result.nextCursor = `page:${offset + size}`;
    return result;
  }

  private callTool(params: JsonObject): JsonObject {
    const name = params.name;
    if (typeof name !== "string") return fail(INVALID_PARAMS, "tools/call needs a string name");
    const tool = this.tools.get(name);
    if (!tool) return fail(INVALID_PARAMS, `Tool ${name} not found`);
    const args = params.arguments === undefined ? {} : params.arguments;
    if (tool.inputSchema !== undefined) {
      const problem = validatorOf(tool.inputSchema)(args);
      if (problem) {
        return toolError(`Input validation error: Invalid arguments for tool ${name}: ${describeProblem(problem)}`);
      }
    }
    const canned = this.options.fixtures?.toolResult(name, args);
    if (canned) return canned;
    const schema = outputSchemaOf(tool);
    if (schema !== undefined) {
      const verdict = this.verdictFor(tool, schema);
      if ("why" in verdict) return toolError(`mcp-contract mock cannot answer ${name}: ${verdict.why}`);
      // The call's own draws vary with its arguments; the verdict's value is valid whatever they are.
      const outcome = generateValid(schema, seedFor(this.options.seed, name, args), CALL_ATTEMPTS);
      const structured = "value" in outcome ? outcome.value : verdict.value;
      return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
    }
    return { content: [{ type: "text", text: `mock result of ${name}(${JSON.stringify(args)})` }] };
  }

  private readResource(params: JsonObject, era: Era): JsonObject {
    const uri = params.uri;
    if (typeof uri !== "string") return fail(INVALID_PARAMS, "resources/read needs a string uri");
    const canned = this.options.fixtures?.resourceResult(uri);
    if (canned) return canned;
    const listed = this.resources.get(uri);
    if (listed) return { contents: [contentFor(uri, listed)] };
    for (const template of this.contract.resourceTemplates) {
      if (fitsTemplate(template.uriTemplate, uri)) return { contents: [contentFor(uri, template)] };
    }
    return fail(era === "modern" ? INVALID_PARAMS : RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
  }

  /** skills/get (SEP-2640): the recorded entry of the skill whose SKILL.md is at `uri`. */
  private getSkill(params: JsonObject, era: Era): JsonObject {
    const uri = params.uri;
    if (typeof uri !== "string") return fail(INVALID_PARAMS, "skills/get needs a string uri");
    const skill = (this.contract.skills ?? []).find((s) => s.uri === uri);
    if (!skill) return fail(era === "modern" ? INVALID_PARAMS : RESOURCE_NOT_FOUND, `Skill not found: ${uri}`, { uri });
    return { skill };
  }

  /**
   * resources/directory/read (SEP-2640): the direct children of a skill's folder, or of a folder
   * inside it, as the recorded file manifests show them (files with their size, folders as
   * inode/directory), paginated like the lists.
   */
  private readSkillDirectory(params: JsonObject): JsonObject {
    const uri = params.uri;
    if (typeof uri !== "string") return fail(INVALID_PARAMS, "resources/directory/read needs a string uri");
    const children = skillDirectoryChildren(this.contract.skills ?? [], uri);
    if (children === undefined) return fail(INVALID_PARAMS, `${uri} is not a directory resource`);
    return this.page("resources", children, { ...(params.cursor !== undefined && { cursor: params.cursor }) });
  }

  private getPrompt(params: JsonObject): JsonObject {
    const name = params.name;
    if (typeof name !== "string") return fail(INVALID_PARAMS, "prompts/get needs a string name");
    const prompt = this.prompts.get(name);
    if (!prompt) return fail(INVALID_PARAMS, `Prompt ${name} not found`);
    const args = isJsonObject(params.arguments) ? params.arguments : {};
    const declared = Array.isArray(prompt.arguments) ? prompt.arguments.filter(isJsonObject) : [];
    const missing = declared
      .filter((a) => a.required === true && typeof a.name === "string" && typeof args[a.name] !== "string")
      .map((a) => a.name as string);
    if (missing.length > 0) {
      return fail(
        INVALID_PARAMS,
        `Invalid arguments for prompt ${name}: missing required argument${missing.length > 1 ? "s" : ""} ${missing.map((m) => JSON.stringify(m)).join(", ")}`,
      );
    }
    const canned = this.options.fixtures?.promptResult(name, args);
    if (canned) return canned;
    const result: JsonObject = {
      messages: [{ role: "user", content: { type: "text", text: `mock prompt ${name}(${JSON.stringify(args)})` } }],
    };
    if (typeof prompt.description === "string") result.description = prompt.description;
    return result;
  }
}

/** Whether the skills extension was declared with `directoryRead`. */
function skillsDirectoryRead(capabilities: JsonObject): boolean {
  const extensions = capabilities.extensions;
  const skills = isJsonObject(extensions) ? extensions[SKILLS_EXTENSION] : undefined;
  return offersSkills(capabilities) && isJsonObject(skills) && skills.directoryRead === true;
}

/**
 * The direct children of the folder `dir` (a skill's folder: its SKILL.md URI without
 * "/SKILL.md", or one inside it), from the skills' file manifests, sorted by URI; undefined when
 * no listed skill has that folder.
 */
export function skillDirectoryChildren(skills: readonly Skill[], dir: string): JsonObject[] | undefined {
  const children = new Map<string, JsonObject>();
  let known = false;
  for (const skill of skills) {
    if (!skill.uri.endsWith("/SKILL.md") || !Array.isArray(skill.resources)) continue;
    const root = skill.uri.slice(0, -"/SKILL.md".length);
    if (dir !== root && !dir.startsWith(`${root}/`)) continue;
    for (const file of skill.resources) {
      if (!isJsonObject(file) || typeof file.uri !== "string" || !file.uri.startsWith(`${dir}/`)) continue;
      known = true;
      const rest = file.uri.slice(dir.length + 1);
      const slash = rest.indexOf("/");
      if (slash === -1) {
        const child: JsonObject = { uri: file.uri, name: rest };
        if (typeof file.size === "number") child.size = file.size;
        children.set(file.uri, child);
      } else {
        const folder = `${dir}/${rest.slice(0, slash)}`;
        children.set(folder, { uri: folder, name: rest.slice(0, slash), mimeType: "inode/directory" });
      }
    }
    if (dir === root) known = true;
  }
  if (!known) return undefined;
  return [...children.values()].sort((a, b) => ((a.uri as string) < (b.uri as string) ? -1 : 1));
}

/** A tool's outputSchema when results are generated from it (`false`: one nothing satisfies). */
function outputSchemaOf(tool: Tool): Json | undefined {
  return isJsonObject(tool.outputSchema) || tool.outputSchema === false ? tool.outputSchema : undefined;
}

/** A CallToolResult that reports a failure to the model, as a server's own tool error would. */
function toolError(text: string): JsonObject {
  return { content: [{ type: "text", text }], isError: true };
}

function contentFor(uri: string, item: Resource | ResourceTemplate): JsonObject {
  const mimeType = typeof item.mimeType === "string" ? item.mimeType : undefined;
  const content: JsonObject = { uri };
  if (mimeType) content.mimeType = mimeType;
  if (mimeType && /^(image|audio|video)\/|^application\/octet-stream$/.test(mimeType)) content.blob = "";
  else content.text = mimeType?.includes("json") ? "{}" : `mock content of ${uri}`;
  return content;
}
