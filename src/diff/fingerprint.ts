/**
 * FNV-1a, 64-bit, over the UTF-8 bytes of a string: a small, stable, dependency-free hash
 * for Change fingerprints. Not cryptographic; it only has to be stable across runs,
 * machines and releases. Pure.
 */

const OFFSET_BASIS = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;
const encoder = new TextEncoder();

/** 16 lowercase hex digits. */
export function fnv1a64(text: string): string {
  let hash = OFFSET_BASIS;
  for (const byte of encoder.encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * PRIME) & MASK;
  }
  return hash.toString(16).padStart(16, "0");
}
