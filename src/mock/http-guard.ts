/**
 * The mock's HTTP connections, accepted by a net.Server of ours and handed to node:http, so
 * that the bounds in limits.ts hold the same on Bun (the binary) and Node (the API):
 * - at most `maxConnections` at once, counted when accepted. node:http on Bun counts a
 *   connection only once a request has arrived on it: 300 silent connections were all held.
 * - a request must be in whole, headers and body, within `requestTimeoutMs` of the connection
 *   opening or of the answer before it, else 408 and close (slowloris: a request trickled a byte
 *   a second never ends otherwise); a connection with nothing in flight closes as silently as
 *   node:http's keep-alive timeout would. node:http's own timers are switched off (see
 *   node-http.ts): on Bun they do not apply to connections handed to it, and one clock per
 *   connection is simpler to reason about than two.
 * Once a request's body is in, its answer may take as long as it likes: a subscriptions/listen
 * stream stays open until its client goes.
 */
import type { Server as HttpServer, IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server as NetServer, type Socket } from "node:net";
import type { InputLimits } from "./limits.ts";

const REQUEST_TIMEOUT = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
/** After our last bytes, how long a closing client may keep the connection before it is cut. */
const LINGER_MS = 1_000;

/** One connection's clock, and where it stands. */
interface Watch {
  timer?: ReturnType<typeof setTimeout>;
  /** Requests whose headers are in and whose answers are not finished. */
  inFlight: number;
  /** Whether a request was ever answered here: a connection that fails its first one gets a 408. */
  answered: boolean;
}

export interface GuardedListener {
  listener: NetServer;
  /** Close every connection (listen streams included), for a stop. */
  closeAll(): void;
}

export function guardConnections(http: HttpServer, limits: InputLimits): GuardedListener {
  const watches = new Map<Socket, Watch>();

  const arm = (socket: Socket, watch: Watch) => {
    clearTimeout(watch.timer);
    watch.timer = setTimeout(() => {
      // Too slow or silent. Tell a client in the middle of a request (or that never got one in)
      // why: nothing else is being written on the connection then. Then close, and cut it if it lingers.
      if (watch.inFlight > 0 || !watch.answered) socket.end(REQUEST_TIMEOUT);
      else socket.end();
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
    }, limits.requestTimeoutMs);
    watch.timer.unref();
  };

  const listener = createServer((socket) => {
    const watch: Watch = { inFlight: 0, answered: false };
    watches.set(socket, watch);
    socket.once("close", () => {
      clearTimeout(watch.timer);
      watches.delete(socket);
    });
    socket.on("error", () => {
      // A reset by the client; node:http sees it too and drops the request.
    });
    arm(socket, watch);
    http.emit("connection", socket);
  });
  listener.maxConnections = limits.maxConnections;

  // Before the mock's own handler, which may answer (and finish) at once.
  http.prependListener("request", (request: IncomingMessage, response: ServerResponse) => {
    const watch = watches.get(request.socket);
    if (!watch) return;
    watch.inFlight++;
    request.once("end", () => {
      // The body is in: no deadline while it is answered (a listen stream is answered for good).
      if (!response.writableFinished) clearTimeout(watch.timer);
    });
    response.once("finish", () => {
      watch.inFlight--;
      watch.answered = true;
      // The next request's clock starts with this answer.
      if (watch.inFlight === 0) arm(request.socket, watch);
    });
  });

  return {
    listener,
    closeAll: () => {
      for (const socket of watches.keys()) socket.destroy();
    },
  };
}
