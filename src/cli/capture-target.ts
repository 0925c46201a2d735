/**
 * Capture a live server's surface for a command: connect, capture, always close, and on
 * Ctrl-C end the server's whole process tree before exiting. Loaded lazily, because it
 * pulls in the MCP SDK that offline commands must not pay for.
 */
import { constants } from "node:os";
import type { CachedAuthorization } from "../auth/cached.ts";
import { type CaptureOptions, captureSurface } from "../capture/capture.ts";
import { openSession } from "../connect/index.ts";
import type { Session } from "../connect/session.ts";
import { describeTarget, targetSecrets } from "../connect/target.ts";
import { emptySchemaTools, emptySchemaWarning } from "../contract/empty-schemas.ts";
import type { Contract } from "../contract/model.ts";
import { VERSION } from "../version.ts";
import { prepareForSurface } from "./jit-policy.ts";
import type { ResolvedTarget } from "./target-options.ts";
import { maskHeldSecrets, type Ui } from "./ui.ts";

export interface CaptureResult {
  contract: Contract;
  transport: "stdio" | "http" | "sse";
  elapsedMs: number;
  /**
   * Settles once the server is closed (a stdio server's whole process group gone). The capture
   * returns as soon as the surface is read, so that the verdict, the report and the lockfile are
   * made during the server's shutdown grace instead of after it; a command awaits this before it
   * exits, so no server outlives it.
   */
  closed: Promise<void>;
}

/**
 * The signals that end mcp-contract during a capture: Ctrl-C, kill, a closed terminal
 * (SIGHUP), Ctrl-\ (SIGQUIT). Each ends every running capture's server process group first
 * (`--all` runs several at once), then exits 128+n.
 */
const FATAL_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"] as const;

/** The running captures' ways to stop their servers at once; one signal handler for all of them. */
const running = new Set<() => void>();

function onFatalSignal(signal: NodeJS.Signals): void {
  for (const kill of running) kill();
  process.exit(128 + (constants.signals[signal] ?? 15));
}

/** Registers a capture's kill switch; the handlers are installed while at least one capture runs. */
function whileRunning(kill: () => void): () => void {
  if (running.size === 0) for (const signal of FATAL_SIGNALS) process.on(signal, onFatalSignal);
  running.add(kill);
  return () => {
    running.delete(kill);
    if (running.size === 0) for (const signal of FATAL_SIGNALS) process.off(signal, onFatalSignal);
  };
}

/**
 * Work to do on the open session once the surface is captured, before it closes (replay sends
 * the recorded calls); its failure fails the capture.
 */
export type AfterCapture = (session: Session, contract: Contract) => Promise<void>;

export async function captureTarget(
  resolved: ResolvedTarget,
  ui: Ui,
  options: CaptureOptions = {},
  after?: AfterCapture,
): Promise<CaptureResult> {
  // An HTTP target given no Authorization uses a stored `mcp-contract auth` sign-in (refreshed if expired).
  const http = resolved.target;
  if (http.kind !== "http") return captureWith(resolved, http, undefined, ui, options, after);
  const auth = await import("../auth/cached.ts");
  let { target, used } = await auth.withStoredToken(http, resolved.timeoutMs);
  try {
    return await captureWith(resolved, target, used, ui, options, after).catch(async (error: unknown) => {
      // A 401 to a stored token that had not expired (revoked, or forgotten by a restarted
      // server): once, with a new token when the sign-in can get one without a person.
      const renewed =
        used && auth.isUnauthorized(error) ? await auth.renewRejected(http.url, used, resolved.timeoutMs) : undefined;
      if (!renewed) throw error;
      ui.debug("the server refused the stored OAuth token: refreshed it, capturing again");
      used = renewed;
      target = auth.withToken(resolved.target, renewed);
      return captureWith(resolved, target, used, ui, options, after);
    });
  } catch (error) {
    /** A 401 names the authorization server and `mcp-contract auth` (src/auth/cached.ts). */
    throw await auth.explainCaptureFailure(error, resolved.target, used);
  }
}

/** One capture of `target` (the resolved one, with a stored token's Authorization when `used`). */
async function captureWith(
  resolved: ResolvedTarget,
  target: ResolvedTarget["target"],
  used: CachedAuthorization | undefined,
  ui: Ui,
  options: CaptureOptions,
  after?: AfterCapture,
): Promise<CaptureResult> {
  const { clientCapabilities, timeoutMs, maxResponseBytes, era } = resolved;
  ui.addSecrets(targetSecrets(target));
  // A stored sign-in's refresh token and client secret too: a refresh during this capture may have rotated them.
  if (used) ui.addSecrets(used.secrets);
  if (used) {
    const bound = used.dpop ? ", a DPoP-bound token: a fresh proof signed per request" : "";
    ui.debug(`using the stored OAuth sign-in to ${used.issuer} (mcp-contract auth --status${bound})`);
  }
  for (const note of resolved.notes ?? []) ui.debug(note);
  const started = performance.now();
  const where = describeTarget(target);
  ui.debug(`connecting to ${where}`);
  ui.progress(`starting ${where}`);

  let killNow: (() => void) | undefined;
  const done = whileRunning(() => {
    killNow?.();
    ui.stopProgress();
  });
  let closed: Promise<void> | undefined;
  // A DPoP-bound token: every request the transport sends gets a fresh proof (src/auth/dpop.ts).
  const wrapFetch = used?.dpop ? (await import("../auth/cached.ts")).fetchFor(used) : undefined;
  try {
    const open = await openSession(target, {
      ...(wrapFetch ? { wrapFetch } : {}),
      era,
      clientCapabilities,
      timeoutMs,
      maxResponseBytes,
      clientVersion: VERSION,
      onPhase: (phase) => {
        ui.progress(`waiting for ${phase} from ${where}`);
        ui.debug(`→ ${phase}`);
      },
      onServerStderr: ui.verbose
        ? (text) => ui.debug(text.replace(/\n$/, "").replace(/^/gm, "server stderr | "))
        : undefined,
      onNote: (note) => ui.debug(note),
      onWarning: (text) => ui.warn(text),
      onKillSwitch: (kill) => {
        killNow = kill;
      },
    });
    killNow = open.killNow;
    let result: Omit<CaptureResult, "closed">;
    try {
      const captured = await captureSurface(open.session, clientCapabilities, { ...options, era });
      prepareForSurface(captured);
      const { value: contract, found } = maskHeldSecrets(captured);
      if (found.length) ui.warn(echoedSecretWarning(found));
      const empty = emptySchemaTools(contract);
      if (empty.length > 0) ui.warn(emptySchemaWarning(empty, contract.tools.length));
      // The names, never the values, of what the capture was given: a surface can depend on them.
      if (resolved.given?.env.length) contract.capture.env = resolved.given.env;
      if (resolved.given?.headers.length) contract.capture.headers = resolved.given.headers;
      if (used?.scopes.length) contract.capture.scopes = used.scopes;
      result = { contract, transport: open.transport, elapsedMs: performance.now() - started };
      if (after) await after(open.session, contract);
    } catch (error) {
      ui.progress(`closing ${where}`);
      await open.session.close();
      throw error;
    }
    // Closing runs on while the caller judges and writes; Ctrl-C still ends the server until it is gone.
    closed = open.session.close().finally(done);
    return { ...result, closed };
  } finally {
    ui.stopProgress();
    if (!closed) done();
  }
}

function echoedSecretWarning(found: string[]): string {
  const sorted = [...found].sort();
  const shown = sorted.slice(0, 3).join(", ") + (found.length > 3 ? ` and ${found.length - 3} more` : "");
  return `the server sent back a secret mcp-contract gave it (a token, header value, URL credential or --env value), at ${shown}. It is written as *** in the lockfile and reports; a server that shows credentials in its surface shows them to every client and model that lists it.`;
}
