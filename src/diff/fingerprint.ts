/**
 * FNV-1a, 64-bit, over the UTF-8 bytes of a string: a small, stable, dependency-free hash
 * for Change fingerprints. Not cryptographic; it only has to be stable across runs,
 * machines and releases. Pure.
 *
 * The 64-bit state is kept in four 16-bit limbs (least significant first), so every product
 * stays exact in a double, and the UTF-8 bytes are made as they are hashed (a lone surrogate
 * as U+FFFD, as TextEncoder does): BigInt arithmetic per byte cost milliseconds per report.
 */

let h0 = 0;
let h1 = 0;
let h2 = 0;
let h3 = 0;

function mix(byte: number): void {
  h0 ^= byte;
  // × 0x100000001b3: × 0x1b3, plus the state shifted left by 40 bits (limb 2, 8 bits in).
  const t0 = h0 * 0x1b3;
  const t1 = h1 * 0x1b3 + (t0 >>> 16);
  const t2 = h2 * 0x1b3 + (t1 >>> 16) + (h0 << 8);
  const t3 = h3 * 0x1b3 + (t2 >>> 16) + (h1 << 8);
  h0 = t0 & 0xffff;
  h1 = t1 & 0xffff;
  h2 = t2 & 0xffff;
  h3 = t3 & 0xffff;
}

/** The state after some text: four 16-bit limbs, least significant first. */
export type FnvState = readonly [number, number, number, number];

/** The offset basis, 0xcbf29ce484222325: the state before any text. */
const BASIS: FnvState = [0x2325, 0x8422, 0x9ce4, 0xcbf2];

/** 16 lowercase hex digits. */
export function fnv1a64(text: string): string {
  return fnv1a64After(BASIS, text);
}

/**
 * The state after `prefix`, to hash many texts that start with it: FNV-1a reads its input once,
 * front to back, so fnv1a64After(fnvPrefix(a), b) === fnv1a64(a + b) (when `a` does not end in
 * half a surrogate pair), and keys that share a long prefix (a rule id, a kind) hash only what
 * differs.
 */
export function fnvPrefix(prefix: string, from: FnvState = BASIS): FnvState {
  absorb(from, prefix);
  return [h0, h1, h2, h3];
}

/** fnv1a64 of the text whose prefix made `state`, followed by `rest`. */
export function fnv1a64After(state: FnvState, rest: string): string {
  absorb(state, rest);
  return hex(h3) + hex(h2) + hex(h1) + hex(h0);
}

/** Leaves the state after `text`, started from `state`, in h0…h3. */
function absorb(state: FnvState, text: string): void {
  h0 = state[0];
  h1 = state[1];
  h2 = state[2];
  h3 = state[3];
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      // mix(c), written out: keys are ASCII almost always, and a report hashes thousands of
      // them in a process too short-lived for the JIT to inline the call.
      const b0 = (h0 ^ c) * 0x1b3;
      const b1 = h1 * 0x1b3 + (b0 >>> 16);
      const b2 = h2 * 0x1b3 + (b1 >>> 16) + ((h0 ^ c) << 8);
      const b3 = h3 * 0x1b3 + (b2 >>> 16) + (h1 << 8);
      h0 = b0 & 0xffff;
      h1 = b1 & 0xffff;
      h2 = b2 & 0xffff;
      h3 = b3 & 0xffff;
      continue;
    }
    if (c < 0x800) {
      mix(0xc0 | (c >> 6));
      mix(0x80 | (c & 0x3f));
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        i++;
        mix(0xf0 | (c >> 18));
        mix(0x80 | ((c >> 12) & 0x3f));
        mix(0x80 | ((c >> 6) & 0x3f));
        mix(0x80 | (c & 0x3f));
        continue;
      }
      c = 0xfffd;
    }
    mix(0xe0 | (c >> 12));
    mix(0x80 | ((c >> 6) & 0x3f));
    mix(0x80 | (c & 0x3f));
  }
}

const hex = (limb: number): string => limb.toString(16).padStart(4, "0");
