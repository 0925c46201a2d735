/**
 * Witness generator: for a schema change judged breaking, find one concrete, complete
 * instance of the ROOT schema that shows the break.
 *
 * - input  (contravariant): a value the OLD root accepts and the NEW root rejects;
 * - output (covariant):     a value the NEW root accepts and the OLD root rejects.
 *
 * The side that must accept is called "accepting" here, the other "rejecting". Candidates
 * are built heuristically (a leaf value at the change's path, embedded into a full root
 * instance) and EVERY candidate is checked with ajv against both roots before it is
 * returned, so a returned witness is never wrong; when nothing passes the check the
 * answer is undefined. Pure; no I/O; never throws.
 *
 * This module holds the search and the public API; the pieces live in witness/, each
 * building only on those before it: validators (ajv), json (helpers, limits), merge
 * (flattening, Side), local-checks, regex-samples, instances, path-walk, embed, candidates.
 */
import type { Json } from "../contract/model.ts";
import { diffRulesWith } from "../rules/registry.ts";
import { withRegexSession } from "./regex.ts";
import { forEachSubschema } from "./subschemas.ts";
import { type Leaf, leafCandidates, type WitnessChange, type WitnessDirection } from "./witness/candidates.ts";
import { Embedder, MODES, type Mode } from "./witness/embed.ts";
import { gen } from "./witness/instances.ts";
import { type Cand, decodePointer, keyOf, OMIT, strings } from "./witness/json.ts";
import { okAny } from "./witness/local-checks.ts";
import { Side } from "./witness/merge.ts";
import { rewriteDefinitionPath, walk } from "./witness/path-walk.ts";
import { withOnlyChange } from "./witness/single-change.ts";
import { validatorFor } from "./witness/validators.ts";

export type { WitnessChange, WitnessDirection } from "./witness/candidates.ts";
export { minimalInstance } from "./witness/instances.ts";
export { releaseValidators } from "./witness/validators.ts";

/** Root instances checked with ajv per call, at most. */
const MAX_CHECKS = 600;
/** Subschemas a root may have to be witnessed at all: compiling and checking cost grows with it. */
export const MAX_WITNESS_NODES = 5_000;
/** Checks × subschemas per call: a large schema gets fewer checks (600 up to 500 subschemas). */
const CHECK_WORK = 300_000;
/** Checks per call however large the schema, when it is witnessed at all. */
const MIN_CHECKS = 20;

const sizes = new WeakMap<object, number>();
/** How many subschemas a root has (its own node included), counted up to MAX_WITNESS_NODES + 1. */
export function schemaSize(root: Json): number {
  if (root === null || typeof root !== "object") return 1;
  const cached = sizes.get(root);
  if (cached !== undefined) return cached;
  let count = 0;
  const stack: Json[] = [root];
  while (stack.length > 0 && count <= MAX_WITNESS_NODES) {
    const node = stack.pop() as Json;
    count++;
    forEachSubschema(node, (child) => stack.push(child));
  }
  sizes.set(root, count);
  return count;
}

/** Rules that cannot change which values are valid: there is never a witness. */
const NON_VALIDATING = diffRulesWith("annotation");

// ── the entry point ────────────────────────────────────────────────────────────────────

/**
 * A complete instance of the root schema that shows the change is breaking in `direction`
 * (input: old accepts, new rejects; output: new accepts, old rejects), or undefined when
 * none is found or a schema does not compile. Every returned value has been validated
 * against both roots with ajv.
 */
export function findWitness(
  oldRoot: Json,
  newRoot: Json,
  change: WitnessChange,
  direction: WitnessDirection,
): Json | undefined {
  // Server patterns share one regex budget per search, or per report inside attachWitnesses.
  return withRegexSession(() => searchWitness(oldRoot, newRoot, change, direction));
}

function searchWitness(
  oldRoot: Json,
  newRoot: Json,
  change: WitnessChange,
  direction: WitnessDirection,
): Json | undefined {
  try {
    if (NON_VALIDATING.has(change.rule)) return undefined;
    const accRoot = direction === "input" ? oldRoot : newRoot;
    const rejRoot = direction === "input" ? newRoot : oldRoot;
    const size = Math.max(schemaSize(accRoot), schemaSize(rejRoot));
    if (size > MAX_WITNESS_NODES) return undefined;
    const maxChecks = Math.min(MAX_CHECKS, Math.max(MIN_CHECKS, Math.floor(CHECK_WORK / size)));
    const acceptingValid = validatorFor(accRoot);
    const rejectingValid = validatorFor(rejRoot);
    if (!acceptingValid || !rejectingValid) return undefined;
    // Witnesses belong to their change (witness/single-change.ts): input, the change alone
    // rejects it; output, the change alone admits it.
    const single = withOnlyChange(oldRoot, newRoot, change.path);
    const singleValid = single === undefined ? undefined : validatorFor(single);
    const ownChange = (candidate: Json): boolean =>
      singleValid === undefined || singleValid(candidate) === (direction === "output");
    const decoded = decodePointer(change.path);
    if (!decoded) return undefined;
    const accSide = new Side(accRoot);
    const rejSide = new Side(rejRoot);
    const segs = rewriteDefinitionPath(accRoot, decoded);
    const w = walk(accSide, rejSide, segs, change.rule);
    const embedder = new Embedder(w.frames, accSide, rejSide);
    const last = w.frames[w.frames.length - 1];
    const L: Leaf = {
      change,
      direction,
      acc: w.acc,
      rej: w.rej,
      accAlts: accSide.alternatives(w.acc),
      rejAlts: w.rej === undefined ? [{}] : rejSide.alternatives(w.rej),
      atProperty: last?.step.k === "prop" && w.tail.length === 0,
      accSide,
      rejSide,
      embedder,
      mode: "H",
      memo: new Map(),
    };

    // Attribution. A candidate is "clean" when the same instance with the leaf replaced by a
    // value the rejecting side accepts there (a control) IS accepted by the rejecting root:
    // then the break is at the change's path, not somewhere else in the schema. Without any
    // control to build (the rejecting leaf accepts nothing) a candidate counts as clean.
    // Controls sit at the deepest node the path reaches on the rejecting side (a branch or a
    // position it does not have leaves the path early).
    let controlDepth = w.frames.length;
    while (controlDepth > 0 && (controlDepth === w.frames.length ? w.rej : w.frames[controlDepth]?.rej) === undefined) {
      controlDepth--;
    }
    const controlNode =
      controlDepth === w.frames.length ? w.rej : controlDepth === 0 ? rejRoot : w.frames[controlDepth]?.rej;
    const controlLeaves: Cand[] = [
      ...(L.atProperty && controlDepth === w.frames.length ? [OMIT as Cand] : []),
      ...gen(controlNode ?? true, rejSide, 4),
    ];
    const cleanByMode = new Map<Mode, boolean>();
    const clean = (mode: Mode): boolean => {
      let ok = cleanByMode.get(mode);
      if (ok === undefined) {
        const controls = controlLeaves
          .map((leaf) => embedder.embed(leaf, mode, controlDepth))
          .filter((c): c is Json => c !== undefined);
        ok = controls.length === 0 || controls.some((c) => rejectingValid(c) === true);
        cleanByMode.set(mode, ok);
      }
      return ok;
    };
    /** Whether the leaf by itself is something the rejecting side refuses at that place. */
    const controlAlts = controlDepth === w.frames.length ? L.rejAlts : rejSide.alternatives(controlNode);
    const leafBreaks = (leaf: Cand, mode: Mode): boolean => {
      if (controlDepth < w.frames.length) {
        const partial = embedder.embed(leaf, mode, w.frames.length, controlDepth);
        return partial !== undefined && !okAny(controlAlts, partial);
      }
      if (leaf !== OMIT) return !okAny(L.rejAlts, leaf);
      if (last?.step.k !== "prop" || last.rej === undefined) return false;
      const name = last.step.name;
      return strings(rejSide.objectNode(last.rej, name).required).includes(name);
    };

    // Harmonized contexts first (H, R): the rest of the instance then also satisfies the
    // rejecting schema where it can, so the witness breaks through this change and not
    // through another one elsewhere in the same schema. P (accepting side only) last.
    // A witness that is not clean is kept as a fallback only when its leaf breaks by itself.
    const unionLevel = change.rule.startsWith("oneof-overlap-");
    const tried = new Set<string>();
    let fallback: string | undefined;
    search: for (const mode of MODES) {
      L.mode = mode;
      const seenLeaves = new Set<string>();
      for (const leaf of leafCandidates(L)) {
        const leafKey = keyOf(leaf);
        if (seenLeaves.has(leafKey)) continue;
        seenLeaves.add(leafKey);
        const candidate = embedder.embed(leaf, mode);
        if (candidate === undefined) continue;
        const key = JSON.stringify(candidate);
        if (tried.has(key)) continue;
        tried.add(key);
        // A candidate a pattern could not decide within its budget (undefined) is no witness.
        if (acceptingValid(candidate) === true && rejectingValid(candidate) === false && ownChange(candidate)) {
          // A oneOf overlap breaks at the union, not in the branch: no control can be clean there.
          if (unionLevel || clean(mode)) return JSON.parse(key) as Json;
          if (fallback === undefined && leafBreaks(leaf, mode)) fallback = key;
        }
        if (tried.size >= maxChecks) break search;
      }
    }
    return fallback === undefined ? undefined : (JSON.parse(fallback) as Json);
  } catch {
    return undefined;
  }
}
