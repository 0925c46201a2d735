/**
 * Opening a session in the era `--era` asks for, on one connection.
 *
 * - `legacy`: the initialize handshake.
 * - `modern`: the server/discover probe; a server that answers it as a legacy server does is an
 *   error that names both eras.
 * - `auto`: the probe first. A DiscoverResult (or an UnsupportedProtocolVersionError naming
 *   modern versions) is a modern server; any other answer a legacy one, and initialize follows
 *   on the same connection, so auto costs one round trip over forcing an era. A server that
 *   says nothing for a while (a slow start, or a legacy server that ignores requests before
 *   initialize) is sent initialize too, and then the answers decide: a successful initialize
 *   makes the session legacy (a dual-era server is then pinned to that era), a refused one
 *   leaves it to the probe.
 */
import {
  classifyProbe,
  describeRpcError,
  type EraSetting,
  LEGACY_PROTOCOL_VERSIONS,
  legacyOnlyError,
  modernOnlyError,
  noCommonVersionError,
  supportedVersionsOf,
} from "./era.ts";
import { type Opening, rpcCause, type Session } from "./session.ts";

/**
 * How long the probe waits for an answer before initialize is sent as well, in auto: at most
 * this, and at most half of what is left of --timeout, so that initialize always gets its turn.
 */
export const PROBE_GRACE_MS = 5000;

/** A stdio server that exited before it answered anything, in auto: it may be a legacy server that ends on requests before initialize. */
export class ExitedBeforeAnswering extends Error {
  constructor(readonly exit: unknown) {
    super("the server exited before it answered the era probe");
  }
}

export interface NegotiateHooks {
  /** stdio: whether the server process has exited. */
  exited?: () => boolean;
  onNote?: (text: string) => void;
  /** Shown whatever the verbosity: an era decided by silence, with the flag that avoids the wait. */
  onWarning?: (text: string) => void;
}

const SILENT = Symbol("silent");

export async function negotiate(session: Session, setting: EraSetting, hooks: NegotiateHooks = {}): Promise<Opening> {
  if (setting === "legacy") return legacyOpening(session, setting);
  if (setting === "modern") {
    const verdict = classifyProbe(await session.within("server/discover", session.probe()));
    if (verdict.kind === "modern") return session.adoptModern(verdict.version, verdict.result);
    if (verdict.kind === "unsupported") throw noCommonVersionError(verdict.supported);
    throw legacyOnlyError(verdict.evidence);
  }

  // auto. server/discover first (the phase the spinner and -v name while it waits), then
  // initialize when the server turns out to be legacy.
  hooks.onNote?.("--era auto: server/discover first, to learn the server's protocol era");
  const probe = session.probe();
  let probeSettled = false;
  // Observed below, or left behind once initialize has won; a late answer still tells us the server heard it.
  let probeAnswer: Awaited<typeof probe> | undefined;
  probe.then(
    (value) => {
      probeSettled = true;
      probeAnswer = value;
    },
    () => {
      probeSettled = true;
    },
  );
  const grace = Math.max(0, Math.min(PROBE_GRACE_MS, session.remainingMs() / 2));
  let answer: Awaited<typeof probe> | typeof SILENT;
  try {
    answer = await session.within("server/discover", raceTimer(probe, grace));
  } catch (error) {
    if (hooks.exited?.() && !session.hasAnswered()) throw new ExitedBeforeAnswering(error);
    throw error;
  }
  if (answer !== SILENT) {
    const verdict = classifyProbe(answer);
    if (verdict.kind === "modern") {
      hooks.onNote?.(`the server answered server/discover: modern MCP ${verdict.version}`);
      return session.adoptModern(verdict.version, verdict.result);
    }
    if (verdict.kind === "unsupported") throw noCommonVersionError(verdict.supported);
    hooks.onNote?.(`the server answered server/discover with ${verdict.evidence}: legacy MCP, sending initialize`);
    return legacyOpening(session, setting);
  }

  hooks.onNote?.(
    `no answer to server/discover after ${(grace / 1000).toFixed(1)} s (a slow start, or a legacy server that ignores requests before initialize); sending initialize as well`,
  );
  try {
    const opening = await session.initialize();
    // A slow start: the probe was answered after all (method not found), so nothing was ignored.
    await new Promise((resolve) => setImmediate(resolve));
    if (probeSettled) {
      // A slow start. Answers come in order, so a modern server's DiscoverResult is in by now:
      // a dual-era server is captured in the modern era whatever its start-up time.
      const late = probeAnswer && classifyProbe(probeAnswer);
      if (late && late.kind === "modern") {
        hooks.onNote?.(`server/discover was answered late (a slow start): modern MCP ${late.version}`);
        return session.adoptModern(late.version, late.result);
      }
      hooks.onNote?.("server/discover was answered late (a slow start): legacy MCP");
      return opening;
    }
    hooks.onWarning?.(
      `the server did not answer server/discover within ${(grace / 1000).toFixed(1)} s, and initialize succeeded: captured in the legacy era. If it is a legacy server that ignores requests before initialize, --era legacy skips the wait; if it is a slow-starting modern server, --era modern captures it in the modern era.`,
    );
    return opening;
  } catch (error) {
    if (hooks.exited?.() && !session.hasAnswered()) throw new ExitedBeforeAnswering(error);
    // initialize refused: the probe's answer decides.
    if (!rpcCause(error)) throw error;
    const verdict = classifyProbe(await session.within("initialize", probe));
    if (verdict.kind === "modern") return session.adoptModern(verdict.version, verdict.result);
    if (verdict.kind === "unsupported") throw noCommonVersionError(verdict.supported);
    throw eraExplained(error, setting);
  }
}

/** initialize, with a modern-only server's refusal turned into a message that names the eras. */
async function legacyOpening(session: Session, setting: EraSetting): Promise<Opening> {
  try {
    return await session.initialize();
  } catch (error) {
    throw eraExplained(error, setting);
  }
}

/** A refusal of initialize that lists only modern versions, as the era mismatch it is. */
function eraExplained(error: unknown, setting: EraSetting): unknown {
  const rpc = rpcCause(error);
  const supported = rpc && supportedVersionsOf(rpc);
  if (rpc && supported && !supported.some((v) => LEGACY_PROTOCOL_VERSIONS.includes(v))) {
    return modernOnlyError(supported, describeRpcError({ code: rpc.code, message: rpc.rpcMessage }), setting);
  }
  return error;
}

function raceTimer<T>(promise: Promise<T>, ms: number): Promise<T | typeof SILENT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const silent = new Promise<typeof SILENT>((resolve) => {
    timer = setTimeout(() => resolve(SILENT), ms);
  });
  return Promise.race([promise, silent]).finally(() => clearTimeout(timer));
}
