/**
 * The time limits of the OAuth client, as plain data with no OAuth library behind them, so that
 * the store and the capture-side code (cached.ts) can name them without loading oauth4webapi.
 */
import { ServerError } from "../errors.ts";

/**
 * A time limit over several requests: a capture's --timeout bounds the refresh of its token
 * (waiting for another process's refresh, discovery, the token request) as a whole.
 */
export interface Deadline {
  /** ms since the epoch. */
  at: number;
  /** The limit as the user set it, for messages: "the --timeout of 5 s". */
  name: string;
}

export function deadlineIn(ms: number, name: string): Deadline {
  return { at: Date.now() + ms, name };
}

/**
 * An OAuth exchange that broke a bound (too slow, too large, a lock held too long): exit 3, and
 * said as it is, never turned into "the grant is no longer valid, sign in again". The fact and
 * the advice are kept apart so that a caller can put the fact in its own sentence.
 */
export class AuthLimitError extends ServerError {
  constructor(
    /** What happened, naming the URL (or lock) and the limit; no final period. */
    readonly fact: string,
    /** What to do about it; no final period. */
    readonly advice: string,
    options?: { cause?: unknown },
  ) {
    super(`${fact}. ${advice}.`, options);
    this.name = "AuthLimitError";
  }
}
