/**
 * Session → Contract: read the initialize result, then drain every list the server
 * advertises, page by page, re-listing any list that changed while we were reading.
 */
import type { Session } from "../connect/session.ts";
import {
  type ClientCapability,
  type Contract,
  isJsonObject,
  type JsonObject,
  LOCKFILE_VERSION,
  SURFACE_LISTS,
  type SurfaceList,
} from "../contract/model.ts";
import { assertCapturedSurface } from "../contract/validate.ts";
import { ServerError } from "../errors.ts";

/** A server that needs more pages than this for one list is paginating forever. */
export const MAX_PAGES = 1000;
/** How often a list may announce list_changed during one capture before we give up. */
const MAX_RELISTS = 3;
const METHOD_NOT_FOUND = -32601;

export interface CaptureOptions {
  /** Refuse wrong-typed item fields (exit 3); false for lint, whose rules report them. Default true. */
  fieldTypes?: boolean;
}

export async function captureSurface(
  session: Session,
  clientCapabilities: ClientCapability[],
  options: CaptureOptions = {},
): Promise<Contract> {
  const init = session.initializeResult ?? {};
  const capabilities = isJsonObject(init.capabilities) ? init.capabilities : {};
  const lists = SURFACE_LISTS.filter((list) => capabilities[list.capability] !== undefined);

  const surface: Partial<Record<SurfaceList["key"], JsonObject[]>> = {};
  for (const list of lists) {
    clearChanged(session, list);
    surface[list.key] = await drain(session, list);
  }
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
  }
  // A fault that arrived with the last answer (a second answer to it) still fails the capture.
  await session.assertHealthy();

  const contract: Contract = {
    lockfileVersion: LOCKFILE_VERSION,
    server: isJsonObject(init.serverInfo) ? init.serverInfo : {},
    protocolVersion: typeof init.protocolVersion === "string" ? init.protocolVersion : "",
    capabilities,
    capture: { clientCapabilities: [...clientCapabilities] },
    tools: (surface.tools ?? []) as Contract["tools"],
    resources: (surface.resources ?? []) as Contract["resources"],
    resourceTemplates: (surface.resourceTemplates ?? []) as Contract["resourceTemplates"],
    prompts: (surface.prompts ?? []) as Contract["prompts"],
  };
  if (typeof init.instructions === "string") contract.instructions = init.instructions;
  return assertCapturedSurface(contract, options.fieldTypes ?? true);
}

function clearChanged(session: Session, list: SurfaceList): void {
  session.changedLists.delete(list.capability);
}

/** Follow nextCursor until the list ends, refusing cursors that would loop forever. */
async function drain(session: Session, list: SurfaceList): Promise<JsonObject[]> {
  const items: JsonObject[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    if (page > MAX_PAGES) {
      throw new ServerError(
        `${list.method} was still returning a nextCursor after ${MAX_PAGES} pages (${items.length} items so far); the server's pagination never ends. Fix its cursor handling.`,
      );
    }
    let result: JsonObject;
    try {
      result = await session.request(
        list.method,
        cursor === undefined ? undefined : { cursor },
        page > 1 ? `${list.method} (page ${page})` : list.method,
      );
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
    if (next === undefined || next === null) return items;
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
    seenCursors.add(next);
    cursor = next;
  }
}
