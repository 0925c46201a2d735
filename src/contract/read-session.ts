/**
 * What the lockfile reads of one command share, and nothing outlives the command. A command that
 * reads two lockfiles (diff, check --baseline against --against) reads them in one session: the
 * second shares every tool whose text the first held (tool-spans.ts), and for big files its
 * schema values (schema-spans.ts). Reads without a session share nothing. Pure.
 */
import type { SchemaSpans } from "./schema-spans.ts";
import type { SharedTools, SpanRead } from "./tool-spans.ts";

export class ReadSession {
  /** The tools of the lockfile this session read last, every one of which passed the contract boundary. */
  tools: SharedTools = { previous: [] };
  /** The schema spans of the lockfile read last by spans, whose values the next one shares. */
  spans: SchemaSpans | undefined;

  /**
   * `freeze`: every contract read is deep-frozen, so that code which modifies a contract it read
   * (whose objects another lockfile of the session may share) fails at once. The test tiers turn
   * it on for every read (tests/helpers/preload.ts); it costs a walk, so the product does not.
   */
  constructor(readonly options: { freeze?: boolean } = {}) {}

  /** After a lockfile passed the boundary: the next read may share its tools. */
  remember(read: SpanRead, spans: SchemaSpans | undefined): void {
    this.tools = { previous: read.spans };
    this.spans = spans;
  }
}

/** Freezes a JSON value and everything in it; values already frozen (shared) are not walked again. */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== "object" || Object.isFrozen(item)) continue;
    Object.freeze(item);
    for (const key in item) stack.push((item as Record<string, unknown>)[key]);
  }
  return value;
}
