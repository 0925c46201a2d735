/**
 * Session → Contract: read how the server described itself (the initialize result, or the
 * server/discover result), then drain every list it advertises, page by page, re-listing any
 * list that changed while we were reading. Both eras map onto one surface model, so that a
 * server that changed era and nothing else captures to the same surface.
 */
import type { EraSetting } from "../connect/era.ts";
import type { Opening, Session } from "../connect/session.ts";
import { hashEarly, hashSurface } from "../contract/hashes.ts";
import {
  type CaptureFacts,
  type ClientCapability,
  type Contract,
  isJsonObject,
  type JsonObject,
  LOCKFILE_VERSION,
  offersSkills,
  SKILLS_LIST,
  type Skill,
  SURFACE_LISTS,
  type SurfaceList,
} from "../contract/model.ts";
import { withoutMessageMeta } from "../contract/noise.ts";
import { assertCapturedSurface } from "../contract/validate.ts";
import { ServerError } from "../errors.ts";

/** A server that needs more pages than this for one list is paginating forever. */
export const MAX_PAGES = 1000;
/** How often a list may announce list_changed during one capture before we give up. */
const MAX_RELISTS = 3;
const METHOD_NOT_FOUND = -32601;
/** The key of the server's identity in server/discover's result `_meta`. */
const SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo";

export interface CaptureOptions {
  /** Refuse wrong-typed item fields (exit 3); false for lint, whose rules report them. Default true. */
  fieldTypes?: boolean;
  /** The --era the session was opened with: recorded when it forced an era, so that `check` does too. */
  era?: EraSetting;
}

/** What the server said about itself, in either era, as the lockfile records it. */
export interface ServerFacts {
  server: JsonObject;
  protocolVersion: string;
  capabilities: JsonObject;
  instructions?: string;
  /** server/discover's list (modern only: initialize negotiates one version and lists none). */
  supportedVersions?: string[];
}

/**
 * The opening answer mapped onto the surface model. Legacy: `serverInfo`, the negotiated
 * `protocolVersion`, `capabilities`, `instructions` from initialize. Modern: the server info
 * from the result's `_meta["io.modelcontextprotocol/serverInfo"]`, the version chosen from
 * `supportedVersions`, `capabilities`, `instructions`. Nothing else of either answer is kept:
 * the cache hints (`ttlMs`, `cacheScope`), `resultType` and the rest of `_meta` describe that
 * one response, not the server.
 */
export function serverFacts(opening: Opening): ServerFacts {
  const { result } = opening;
  const meta = isJsonObject(result._meta) ? result._meta : {};
  const info = opening.era === "modern" ? meta[SERVER_INFO_META_KEY] : result.serverInfo;
  const facts: ServerFacts = {
    server: isJsonObject(info) ? info : {},
    protocolVersion: opening.protocolVersion,
    capabilities: isJsonObject(result.capabilities) ? result.capabilities : {},
  };
  if (typeof result.instructions === "string") facts.instructions = result.instructions;
  if (opening.era === "modern" && Array.isArray(result.supportedVersions)) {
    facts.supportedVersions = result.supportedVersions.filter((v): v is string => typeof v === "string");
  }
  return facts;
}

/** What a capture needs of a session: ours, or an adapter over a connected SDK client (src/api). */
export type CaptureSession = Pick<
  Session,
  "opening" | "era" | "changedLists" | "request" | "listen" | "assertHealthy" | "legacyProbe"
>;

export async function captureSurface(
  session: CaptureSession,
  clientCapabilities: ClientCapability[],
  options: CaptureOptions = {},
): Promise<Contract> {
  if (!session.opening) throw new Error("captureSurface needs an opened session");
  const facts = serverFacts(session.opening);
  const { capabilities } = facts;
  const lists = SURFACE_LISTS.filter((list) => capabilities[list.capability] !== undefined);
  // Whether a modern server also accepts legacy clients, asked beside the lists (legacy-probe.ts).
  const legacy = session.era === "modern" ? session.legacyProbe?.start() : undefined;

  // The modern era sends list_changed only on a subscriptions/listen stream.
  if (session.era === "modern") {
    const filter = listChangedFilter(capabilities);
    if (Object.keys(filter).length > 0) await session.listen(filter);
  }

  const surface: Partial<Record<SurfaceList["key"], JsonObject[]>> = {};
  for (const list of lists) {
    clearChanged(session, list);
    surface[list.key] = await drain(session, list);
  }
  // The Skills extension (SEP-2640): skills are resources, so their changes come as resources/list_changed.
  const skillsOffered = offersSkills(capabilities);
  let skills = skillsOffered ? await drain(session, SKILLS_LIST) : undefined;
  for (let round = 1; ; round++) {
    const stale = lists.filter((list) => session.changedLists.has(list.capability));
    if (stale.length === 0) break;
    if (round > MAX_RELISTS) {
      throw new ServerError(
        `the server kept announcing that its ${stale.map((l) => l.capability).join(" and ")} list changed (${MAX_RELISTS} re-lists during one capture), so no stable surface could be recorded. Capture again once the server has settled.`,
      );
    }
    for (const list of stale) clearChanged(session, list);
    for (const list of stale) surface[list.key] = await drain(session, list);
    if (skillsOffered && stale.some((list) => list.capability === "resources")) {
      skills = await drain(session, SKILLS_LIST);
    }
  }
  // A fault that arrived with the last answer (a second answer to it) still fails the capture.
  await session.assertHealthy();

  const capture: CaptureFacts = { clientCapabilities: [...clientCapabilities] };
  if (options.era === "modern" || options.era === "legacy") capture.era = options.era;
  if (facts.supportedVersions) capture.supportedVersions = facts.supportedVersions;
  // A clear answer either way is written; unknown is left out, and diff never compares it.
  const verdict = legacy && (await session.legacyProbe?.within());
  if (verdict === "accepted" || verdict === "refused") capture.legacy = verdict;
  const items = (key: SurfaceList["key"]) => (surface[key] ?? []).map(withoutMessageMeta);
  const contract: Contract = {
    lockfileVersion: LOCKFILE_VERSION,
    server: facts.server,
    protocolVersion: facts.protocolVersion,
    capabilities,
    capture,
    tools: items("tools") as Contract["tools"],
    resources: items("resources") as Contract["resources"],
    resourceTemplates: items("resourceTemplates") as Contract["resourceTemplates"],
    prompts: items("prompts") as Contract["prompts"],
  };
  if (facts.instructions !== undefined) contract.instructions = facts.instructions;
  if (skills !== undefined) contract.skills = skills.map(withoutMessageMeta) as Skill[];
  assertCapturedSurface(contract, options.fieldTypes ?? true);
  // Hashed once the boundary passed (finite numbers, bounded depth), as the server sent the
  // items, their sets in the lockfile's order (src/contract/hashes.ts).
  contract.hashes = hashSurface(contract);
  return contract;
}

/** The subscriptions/listen filter for the lists whose capability announces listChanged. */
function listChangedFilter(capabilities: JsonObject): JsonObject {
  const filter: JsonObject = {};
  const announces = (name: string) => {
    const capability = capabilities[name];
    return isJsonObject(capability) && capability.listChanged === true;
  };
  if (announces("tools")) filter.toolsListChanged = true;
  if (announces("prompts")) filter.promptsListChanged = true;
  if (announces("resources")) filter.resourcesListChanged = true;
  return filter;
}

function clearChanged(session: CaptureSession, list: SurfaceList): void {
  session.changedLists.delete(list.capability);
}

/**
 * Follow nextCursor until the list ends, refusing cursors that would loop forever. Each page's
 * items are hashed (src/contract/hashes.ts) once the next page is asked for, so that hashing a
 * big list overlaps the server's work on its next page instead of adding to the capture.
 */
async function drain(session: CaptureSession, list: SurfaceList | typeof SKILLS_LIST): Promise<JsonObject[]> {
  const items: JsonObject[] = [];
  const seenCursors = new Set<string>();
  const ask = (page: number, cursor?: string) =>
    session.request(
      list.method,
      cursor === undefined ? undefined : { cursor },
      page > 1 ? `${list.method} (page ${page})` : list.method,
    );
  let pending = ask(1);
  for (let page = 1; ; page++) {
    let result: JsonObject;
    try {
      result = await pending;
    } catch (error) {
      // A server that advertises a capability but lacks the method has an empty list.
      if ((error as { cause?: { code?: unknown } }).cause?.code === METHOD_NOT_FOUND && page === 1) return [];
      throw error;
    }
    const pageItems = result[list.key];
    if (!Array.isArray(pageItems)) {
      throw new ServerError(
        `the server's answer to ${list.method} has no "${list.key}" array; it is not a valid MCP list result.`,
      );
    }
    pageItems.forEach((item, i) => {
      if (!isJsonObject(item) || typeof item[list.id] !== "string") {
        const shown = JSON.stringify(item)?.slice(0, 200);
        throw new ServerError(
          `the server's ${list.method} result holds an item without a string "${list.id}" (item ${items.length + i}: ${shown}); every ${list.key.replace(/s$/, "")} must have one.`,
        );
      }
    });
    items.push(...(pageItems as JsonObject[]));
    const next = result.nextCursor;
    const last = next === undefined || next === null;
    if (!last) {
      if (typeof next !== "string") {
        throw new ServerError(
          `the server's ${list.method} result has a nextCursor that is not a string (${JSON.stringify(next)}).`,
        );
      }
      if (seenCursors.has(next)) {
        throw new ServerError(
          `${list.method} returned the cursor ${JSON.stringify(next.slice(0, 80))} a second time (page ${page}); following it would loop forever. The server's pagination is broken: each nextCursor must lead to a new page.`,
        );
      }
      if (page + 1 > MAX_PAGES) {
        throw new ServerError(
          `${list.method} was still returning a nextCursor after ${MAX_PAGES} pages (${items.length} items so far); the server's pagination never ends. Fix its cursor handling.`,
        );
      }
      seenCursors.add(next);
      pending = ask(page + 1, next);
      // A page failed early must not go unhandled while this one is hashed; it is awaited above.
      pending.catch(() => undefined);
    }
    hashEarly(pageItems as JsonObject[], list === SKILLS_LIST);
    if (last) return items;
  }
}
