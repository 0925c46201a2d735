/**
 * The one way tests bound wall-clock time. A bound here catches a hang or an exponential blow-up,
 * never a speed goal (the bench scripts measure speed, against a floor): so every bound is a
 * generous upper limit, and MCP_CONTRACT_TEST_TIME_SCALE multiplies all of them at once for a
 * slow or loaded machine (default 1; "3" gives every bound three times the time).
 */
export const TIME_SCALE = Math.max(1, Number(process.env.MCP_CONTRACT_TEST_TIME_SCALE ?? "1") || 1);

/** A bound in milliseconds, scaled. */
export function limit(ms: number): number {
  return ms * TIME_SCALE;
}

/** What `f` returns, and the milliseconds it took. */
export function timed<T>(f: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = f();
  return { value, ms: performance.now() - started };
}

/** `f`'s value; throws when it took longer than the (scaled) bound, naming `what`. */
export function within<T>(ms: number, what: string, f: () => T): T {
  const { value, ms: took } = timed(f);
  if (took >= limit(ms)) throw new Error(`${what} took ${took.toFixed(0)} ms, over its bound of ${limit(ms)} ms`);
  return value;
}
