/** Big inputs put the JIT back on its normal policy before the work starts (src/cli/jit-policy.ts). */
import { afterEach, expect, test } from "bun:test";
import { BIG_INPUT_CHARS, BIG_SURFACE_ITEMS, prepareForInput, prepareForSurface } from "../../../src/cli/jit-policy.ts";

const real = Bun.unsafe.setJITPolicy;
afterEach(() => {
  Bun.unsafe.setJITPolicy = real;
});

function calls(chars: number): number[] {
  const scales: number[] = [];
  Bun.unsafe.setJITPolicy = (scale: number) => void scales.push(scale);
  prepareForInput(chars);
  Bun.unsafe.setJITPolicy = real;
  return scales;
}

test("a big input gets the normal policy, a small one keeps the start-up scale", () => {
  expect(calls(BIG_INPUT_CHARS)).toEqual([1]);
  expect(calls(50 * BIG_INPUT_CHARS)).toEqual([1]);
  expect(calls(BIG_INPUT_CHARS - 1)).toEqual([]);
  expect(calls(0)).toEqual([]);
});

function surfaceCalls(tools: number, prompts = 0): number[] {
  const scales: number[] = [];
  Bun.unsafe.setJITPolicy = (scale: number) => void scales.push(scale);
  prepareForSurface({
    tools: new Array(tools).fill({}),
    resources: [],
    resourceTemplates: [],
    prompts: new Array(prompts).fill({}),
  });
  Bun.unsafe.setJITPolicy = real;
  return scales;
}

test("a live capture of a big surface gets the normal policy, counting every kind of item", () => {
  expect(surfaceCalls(BIG_SURFACE_ITEMS)).toEqual([1]);
  expect(surfaceCalls(BIG_SURFACE_ITEMS - 10, 10)).toEqual([1]);
  expect(surfaceCalls(BIG_SURFACE_ITEMS - 1)).toEqual([]);
  expect(surfaceCalls(12, 3)).toEqual([]);
});
