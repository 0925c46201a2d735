/**
 * Content hashes: one per item of the surface (tool, resource, resource template, prompt,
 * skill), "sha256:" + the lower-case hex SHA-256 of the UTF-8 bytes of the item's RFC 8785
 * canonical JSON (jcs.ts), over the item as the server sent it in its list result.
 *
 * The construction is the one the ecosystem converges on, so the hashes can be compared with
 * theirs: the signed capability declarations draft (SEP-3140) hashes an item's RFC 8785 form
 * with SHA-256 (it writes the digest base64url; the hex here is the same 32 bytes);
 * ToolManifest-style pinning files write `sha256_hex(JCS(definition))`; the Skills extension
 * (SEP-2640) spells digests "sha256:<hex>", as here. The digest-pinning proposal (SEP-1766)
 * fixes no serialization; one implementation of it hashes sorted-key JSON of four tool fields,
 * and mcp-scan's tool pinning an MD5 of the description: both give other values than a hash of
 * the whole item.
 *
 * "As the server sent it" means the whole item, every field, with one normalization: the arrays
 * the lockfile stores as sets are taken in its order (each JSON Schema's `required`, a skill's
 * file manifest by URI; canonical.ts withSetsSorted). Their order carries no meaning, some
 * servers vary it from one answer to the next, and the lockfile stores them sorted: an item
 * then hashes the same as the server sent it, as the lockfile stores it and as `mock` serves it,
 * so captures stay byte-stable, a capture of the mock reproduces its lockfile, and the hashes of
 * an older lockfile are computed from its stored items to the same values. For an item whose
 * `required` lists are sorted (or absent) this is exactly the ecosystem's JCS hash of the item
 * as sent; for the others the ecosystem's tools hash the server's order and get another value.
 * One exclusion: the per-message `_meta` keys (noise.ts: trace context, progress token, …) are
 * not part of the item and differ on every answer; the capture drops them before hashing.
 *
 * Lockfiles written before hashes have none; their hashes are computed, when asked for, from
 * the items as stored (marked `derived`; the diff compares recorded hashes only). Pure; no I/O
 * (hashing is computation).
 */
import { withSetsSorted } from "./canonical.ts";
import { canonicalize } from "./jcs.ts";
import type { Contract, Json, JsonObject } from "./model.ts";
import { SKILLS_LIST, SURFACE_LISTS } from "./model.ts";
import { withoutMessageMeta } from "./noise.ts";

export const HASH_PREFIX = "sha256:";
/** A content hash as the lockfile writes it. */
export const HASH_PATTERN = /^sha256:[0-9a-f]{64}$/;

/**
 * The hashes of one list by item identity. An identity a server listed more than once
 * (a duplicate, which the diff and lint report) has the hashes of all its copies, sorted.
 */
export type ListHashes = Record<string, string | string[]>;
/** The lockfile's `hashes` section: per list key ("tools", …, "skills"), the hashes by identity. */
export type ContentHashes = Record<string, ListHashes>;

/** The part of node:crypto used here. */
interface NodeCrypto {
  createHash(algorithm: "sha256"): { update(text: string, encoding: "utf8"): { digest(encoding: "hex"): string } };
}

let nodeCrypto: NodeCrypto | undefined;

/**
 * Hex SHA-256 of a string's UTF-8 bytes: Bun's own hasher where it runs (the CLI; 2.5 times
 * faster on long strings than node:crypto there), else node:crypto (the API under Node),
 * fetched when first needed: importing node:crypto costs Bun 10 ms of start-up, and every
 * command that reads a lockfile loads this module.
 */
function sha256Hex(text: string): string {
  if (typeof Bun !== "undefined") return new Bun.CryptoHasher("sha256").update(text).digest("hex");
  nodeCrypto ??= (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule?.("node:crypto") as
    | NodeCrypto
    | undefined;
  if (nodeCrypto === undefined) {
    throw new Error("content hashes need Bun, or Node.js 20.16 or later (process.getBuiltinModule)");
  }
  return nodeCrypto.createHash("sha256").update(text, "utf8").digest("hex");
}

/** "sha256:" + hex SHA-256 of a JSON value's RFC 8785 form, the value taken exactly as it is. */
export function jcsHash(value: Json): string {
  return HASH_PREFIX + sha256Hex(canonicalize(value));
}

/**
 * The content hash the lockfile records for an item of a surface list (`skill`: of `skills`):
 * the JCS hash of the item with its sets in the lockfile's order (see the top of this file).
 */
export function contentHash(item: JsonObject, skill = false): string {
  return jcsHash(withSetsSorted(item, skill));
}

/**
 * Hashes taken while a capture still waits for the next page (src/capture/capture.ts), by item:
 * the hash is a function of the item, which a capture never changes, so hashList takes it from
 * here. Items that carry per-message `_meta` are left to hashList (it hashes them without).
 */
const early = new WeakMap<object, string>();

/** Hashes a page of items now, for hashList to find; an item the boundary will refuse (a non-finite number, too deep) is left for it to refuse. */
export function hashEarly(items: readonly JsonObject[], skills = false): void {
  for (const item of items) {
    if (withoutMessageMeta(item) !== item) continue;
    try {
      early.set(item, contentHash(item, skills));
    } catch {
      // hashList, after the boundary check, never meets it.
    }
  }
}

/** The lists items live in, with their identity field: the four lists, then skills. */
const HASHED_LISTS: readonly { key: string; id: string }[] = [...SURFACE_LISTS, SKILLS_LIST];

/** The hashes of a list of items, by the string identity in `id` (items without one are skipped). */
export function hashList(items: readonly JsonObject[], id: string, skills = false): ListHashes {
  const byId = new Map<string, string[]>();
  for (const item of items) {
    const identity = item[id];
    if (typeof identity !== "string") continue;
    const hash = early.get(item) ?? contentHash(item, skills);
    const hashes = byId.get(identity);
    if (hashes) hashes.push(hash);
    else byId.set(identity, [hash]);
  }
  const out: ListHashes = {};
  for (const [identity, hashes] of byId) {
    out[identity] = hashes.length === 1 ? (hashes[0] as string) : hashes.sort();
  }
  return out;
}

/**
 * The hashes of every list of a surface, from its items as they are in memory: at capture,
 * as the server sent them; on a lockfile read, as stored. Empty lists are left out.
 */
export function hashSurface(contract: Contract): ContentHashes {
  const out: ContentHashes = {};
  const source = contract as unknown as Record<string, Json | undefined>;
  for (const list of HASHED_LISTS) {
    const items = source[list.key];
    if (!Array.isArray(items) || items.length === 0) continue;
    out[list.key] = hashList(items as JsonObject[], list.id, list.key === SKILLS_LIST.key);
  }
  return out;
}

export interface SurfaceHashes {
  hashes: ContentHashes;
  /** True when the lockfile had none and they were computed from its stored (normalized) items. */
  derived: boolean;
}

const computed = new WeakMap<Contract, ContentHashes>();

/** The recorded hashes of a surface, or (older lockfiles) hashes computed once from its stored items. */
export function surfaceHashes(contract: Contract): SurfaceHashes {
  if (contract.hashes !== undefined) return { hashes: contract.hashes, derived: false };
  let hashes = computed.get(contract);
  if (!hashes) {
    hashes = hashSurface(contract);
    computed.set(contract, hashes);
  }
  return { hashes, derived: true };
}

/**
 * Where a `hashes` section read from a file is malformed: a JSON path below `$.hashes` and
 * what was expected there, or undefined when it is well formed.
 */
export function hashesProblem(value: unknown): { path: string; what: string } | undefined {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  if (!isObject(value)) return { path: "", what: "expected an object of content hashes by list" };
  for (const [listKey, list] of Object.entries(value)) {
    const at = `[${JSON.stringify(listKey)}]`;
    if (!isObject(list)) return { path: at, what: "expected an object of content hashes by item identity" };
    for (const [identity, hash] of Object.entries(list)) {
      const where = `${at}[${JSON.stringify(identity)}]`;
      const hashes = Array.isArray(hash) ? hash : [hash];
      for (const [i, one] of hashes.entries()) {
        if (typeof one !== "string" || !HASH_PATTERN.test(one)) {
          return {
            path: Array.isArray(hash) ? `${where}[${i}]` : where,
            what: `expected a content hash ("sha256:" and 64 lower-case hex digits), found ${JSON.stringify(one)?.slice(0, 80)}`,
          };
        }
      }
    }
  }
  return undefined;
}
