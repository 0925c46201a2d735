/**
 * How eagerly JavaScriptCore compiles our code. The binary starts with its tier-up thresholds
 * scaled up (scripts/build.ts, --compile-jit-policy): most runs are short (a diff of two small
 * lockfiles, a lint of one server), and there compiling code that runs a few hundred times costs
 * more than it saves (a published pair's diff: 27% fewer instructions at 16× than at 1×). A run
 * over a big input goes back to the normal policy before its work starts, where hot loops repay
 * their compile many times (lint of 10,000 tools: 37% more instructions if it stays at 16×).
 */

/** Inputs from this many characters on (a 1,000-tool lockfile is about 11 MB) get the normal policy. */
export const BIG_INPUT_CHARS = 2 * 1024 * 1024;

/** Before the work on an input of this many characters: the normal JIT policy when it is big. */
export function prepareForInput(chars: number): void {
  if (chars < BIG_INPUT_CHARS) return;
  // Only Bun has the switch (older Bun neither it nor the start-up scale): elsewhere nothing to undo.
  if (typeof Bun !== "undefined" && typeof Bun.unsafe.setJITPolicy === "function") Bun.unsafe.setJITPolicy(1);
}
