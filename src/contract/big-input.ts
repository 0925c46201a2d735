/**
 * Where an input counts as big: one threshold for every mechanism that switches there, so that
 * they switch together. Measured on a thousand-tool lockfile (about 11 MB); see docs/performance.md.
 * - Reading: shared reads of lockfiles this big go by schema spans (schema-spans.ts), which on
 *   smaller ones cost more cold code than they save.
 * - The JIT: the binary starts with its tier-up thresholds scaled up, and an input this big puts
 *   the normal policy back before the work (src/cli/jit-policy.ts).
 */

/** A lockfile (or any input text) from this many characters on is big. */
export const BIG_INPUT_CHARS = 2 * 1024 * 1024;

/**
 * A captured surface with this many items (tools, resources, templates, prompts) or more is as
 * big an input as a lockfile of BIG_INPUT_CHARS, whose text a live capture does not have.
 */
export const BIG_SURFACE_ITEMS = 1000;
