/**
 * After a modern opening: does the server also accept the legacy era? server/discover cannot say
 * (the v2 SDK lists only 2026-07-28 whether or not it serves 2025 clients too), so the answer
 * comes from asking: a legacy `initialize` on a connection of its own, as a 2025 client sends it.
 *
 * Only over Streamable HTTP, where every POST without a session stands alone: the probe is one
 * more request beside the capture's, a round trip that overlaps the lists. Over stdio the era is
 * a property of the pipe (both official SDKs lock it on the first era-distinctive request, and
 * refuse a later initialize with -32022 whether or not the server serves legacy clients), so the
 * same pipe cannot tell; a second process would (about 200 ms for a Bun server, a whole server
 * start for npx ones) and is not worth it. There the answer is unknown, and nothing is recorded.
 *
 * The probe never fails or slows a capture: any failure, or no answer within its bound, is
 * "unknown"; it sends nothing on the capture's own connection.
 */
import type { Json } from "../contract/model.ts";
import { errorMessage } from "../errors.ts";
import { LEGACY_PROTOCOL_VERSIONS, refusalInBody, supportedVersionsOf } from "./era.ts";
import type { Session } from "./session.ts";

/**
 * What the server did with a legacy initialize: served it, refused it as a modern-only server
 * does (UnsupportedProtocolVersionError listing no legacy version), or something that says
 * neither (an HTTP error, a timeout, an odd answer).
 */
export type LegacyVerdict = "accepted" | "refused" | "unknown";

/** The longest the probe may take, from its start; the capture's own deadline bounds it too. */
export const LEGACY_PROBE_MS = 3000;
/**
 * How long a capture whose lists are all in still waits for the probe's verdict. The probe was
 * sent when the capture began, so by then it has had the whole capture for one round trip; a
 * server whose legacy side does not answer costs a capture this much at most, not LEGACY_PROBE_MS.
 */
export const LEGACY_PROBE_GRACE_MS = 500;

/** A JSON-RPC error that refuses the legacy era: -32022 with only non-legacy versions supported. Pure. */
export function refusesLegacy(error: { code: number; data?: Json } | undefined): boolean {
  const supported = error && supportedVersionsOf(error);
  return supported !== undefined && !supported.some((v) => LEGACY_PROTOCOL_VERSIONS.includes(v));
}

/**
 * The verdict on how an initialize ended: opened (accepted), or the error it failed with.
 * Pure: reads the RpcError a session throws, or an HTTP 400 whose body holds the refusal (how
 * a modern-only Streamable HTTP endpoint answers initialize, and what the transport reports).
 */
export function legacyVerdict(outcome: { opened: true } | { error: unknown }): LegacyVerdict {
  if ("opened" in outcome) return "accepted";
  const rpc = rpcErrorOf(outcome.error);
  if (rpc) return refusesLegacy(rpc) ? "refused" : "unknown";
  const body = refusalInBody(errorMessage(outcome.error));
  return body && refusesLegacy(body) ? "refused" : "unknown";
}

/**
 * The JSON-RPC error a session's step failed with (an RpcError, or a ServerError caused by one),
 * read by shape so that this module loads no session code before it is needed.
 */
function rpcErrorOf(error: unknown): { code: number; data?: Json } | undefined {
  for (const candidate of [error, (error as { cause?: unknown })?.cause]) {
    const found = candidate as { name?: unknown; code?: unknown; data?: Json } | undefined;
    if (found?.name === "RpcError" && typeof found.code === "number") return { code: found.code, data: found.data };
  }
  return undefined;
}

/**
 * The probe of one capture: started when the capture begins, so that its round trip overlaps
 * the lists; stopped with the capture's session, so that a failed capture leaves nothing open.
 */
export class LegacyProbe {
  private session: Session | undefined;
  private running: Promise<LegacyVerdict> | undefined;
  private stopped = false;
  private reported = false;

  /**
   * `open` makes the probe's own session, not yet opened, bounded by its own deadline;
   * `onVerdict` hears how it ended (a --verbose note).
   */
  constructor(
    private readonly open: () => Promise<Session>,
    private readonly onVerdict?: (verdict: LegacyVerdict) => void,
  ) {}

  /** Send the probe (once); resolves with the verdict, never rejects. */
  start(): Promise<LegacyVerdict> {
    this.running ??= this.run().then((verdict) => {
      this.report(verdict);
      return verdict;
    });
    return this.running;
  }

  /** The verdict, waiting at most `ms` more for it: unknown past that (the probe is then stopped). */
  async within(ms = LEGACY_PROBE_GRACE_MS): Promise<LegacyVerdict> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), ms);
    });
    const verdict = await Promise.race([this.start(), late]).finally(() => clearTimeout(timer));
    if (verdict !== "late") return verdict;
    this.report("unknown");
    void this.stop();
    return "unknown";
  }

  /** Tell onVerdict how the probe ended, once: what the capture used, not what came after. */
  private report(verdict: LegacyVerdict): void {
    if (this.reported) return;
    this.reported = true;
    this.onVerdict?.(verdict);
  }

  /** End the probe's session, if it is still open; its verdict is then unknown. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.end();
  }

  private async end(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (session) await endProbeSession(session);
  }

  private async run(): Promise<LegacyVerdict> {
    try {
      if (this.stopped) return "unknown";
      this.session = await this.open();
      if (this.stopped) return "unknown";
      await this.session.initialize(false);
      return "accepted";
    } catch (error) {
      return legacyVerdict({ error });
    } finally {
      await this.end();
    }
  }
}

/**
 * A legacy session the server opened for the probe is ended (DELETE) when the transport has a
 * session id, as a client that is done with it would; then the connection is closed.
 */
async function endProbeSession(session: Session): Promise<void> {
  const transport = session.transport as { sessionId?: unknown; terminateSession?: () => Promise<void> };
  if (typeof transport.sessionId === "string" && typeof transport.terminateSession === "function") {
    await transport.terminateSession().catch(() => {});
  }
  await session.close();
}
