/**
 * How eagerly JavaScriptCore compiles our code. The binary starts with its tier-up thresholds
 * scaled up (scripts/build.ts, --compile-jit-policy): most runs are short (a diff of two small
 * lockfiles, a lint of one server), and there compiling code that runs a few hundred times costs
 * more than it saves (a published pair's diff: 27% fewer instructions at 16× than at 1×). A run
 * over a big input goes back to the normal policy before its work starts, where hot loops repay
 * their compile many times (lint of 10,000 tools: 37% more instructions if it stays at 16×).
 */
import { BIG_INPUT_CHARS, BIG_SURFACE_ITEMS } from "../contract/big-input.ts";

/** Where an input counts as big, one threshold for the JIT and for reading (src/contract/big-input.ts). */
export { BIG_INPUT_CHARS, BIG_SURFACE_ITEMS };

/** Before the work on an input of this many characters: the normal JIT policy when it is big. */
export function prepareForInput(chars: number): void {
  if (chars >= BIG_INPUT_CHARS) normalPolicy();
}

/** Before the work on a live capture's surface (its secrets masked, then lint, diff or write): the same for a big one. */
export function prepareForSurface(surface: {
  tools: readonly unknown[];
  resources: readonly unknown[];
  resourceTemplates: readonly unknown[];
  prompts: readonly unknown[];
}): void {
  const items =
    surface.tools.length + surface.resources.length + surface.resourceTemplates.length + surface.prompts.length;
  if (items >= BIG_SURFACE_ITEMS) normalPolicy();
}

function normalPolicy(): void {
  // Only Bun has the switch (older Bun neither it nor the start-up scale): elsewhere nothing to undo.
  if (typeof Bun !== "undefined" && typeof Bun.unsafe.setJITPolicy === "function") Bun.unsafe.setJITPolicy(1);
}
