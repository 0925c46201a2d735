/**
 * Errors the CLI turns into a one-paragraph message and a documented exit code.
 * Anything else that escapes is a bug in mcp-contract and is reported as such.
 */

export const ExitCode = {
  ok: 0,
  /** The policy failed: breaking changes, lint errors. */
  policy: 1,
  /** The user's input is wrong: flags, unreadable or invalid lockfile, unwritable output. */
  usage: 2,
  /** The server could not be reached or misbehaved. */
  server: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "CliError";
  }
}

/** Bad flags, bad files: the user can fix it without touching the server. Exit 2. */
export class UsageError extends CliError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, ExitCode.usage, options);
    // Named here, not from new.target: bundlers rename classes (UsageError2), and API users match on name.
    this.name = "UsageError";
  }
}

/** The server could not be started or reached, or broke the protocol. Exit 3. */
export class ServerError extends CliError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, ExitCode.server, options);
    this.name = "ServerError";
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
