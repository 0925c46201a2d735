/** Big inputs put the JIT back on its normal policy before the work starts (src/cli/jit-policy.ts). */
import { afterEach, expect, test } from "bun:test";
import { BIG_INPUT_CHARS, prepareForInput } from "../../../src/cli/jit-policy.ts";

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
