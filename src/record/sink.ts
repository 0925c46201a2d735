/**
 * Where the proxies' exchanges go: the Recorder, plus one note per tool (or prompt) and argument
 * whose name looks like a credential, since that value lands in a file meant to be committed.
 */
import type { Recorder } from "../mock/recorder.ts";
import type { Exchange } from "../mock/server.ts";
import { credentialArguments } from "./pairing.ts";

/** Notes said at most, so that a client inventing argument names cannot flood stderr. */
const MAX_NOTES = 20;

export function recordingSink(recorder: Recorder, say: (text: string) => void): (exchanges: Exchange[]) => void {
  const noted = new Set<string>();
  return (exchanges) => {
    for (const exchange of exchanges) {
      recorder.record(exchange);
      if (noted.size >= MAX_NOTES) continue;
      for (const name of credentialArguments(exchange)) {
        const target = (exchange.params as { name?: unknown; uri?: unknown }).name;
        const key = `${exchange.method}\u0000${String(target)}\u0000${name}`;
        if (noted.has(key)) continue;
        noted.add(key);
        say(
          `mcp-contract record: ${exchange.method} ${JSON.stringify(target)} sends an argument named ${JSON.stringify(name)}, which looks like a credential; its value is recorded as sent (replay re-sends a consumer's arguments). Record with a test credential, or edit the value out before committing ${recorder.path}.`,
        );
      }
    }
  };
}
