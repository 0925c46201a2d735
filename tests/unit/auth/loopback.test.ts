/**
 * The loopback callback takes exactly one answer, the one with this sign-in's state (#27): real
 * HTTP requests to a real listener on 127.0.0.1. And the browser is opened without a shell on
 * every platform: the argument vector that would be spawned, checked in-process.
 */
import { describe, expect, test } from "bun:test";
import { browserCommand, CALLBACK_PATH, startCallback } from "../../../src/auth/loopback.ts";

const STATE = "state-0123456789abcdefghij";

/** Whether the promise has settled within a few event-loop turns. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await Bun.sleep(20);
  return done;
}

describe("the loopback callback", () => {
  test("stray requests get an error page and leave the sign-in waiting; the right one ends it, once", async () => {
    const ignored: string[] = [];
    const callback = await startCallback(0, false, STATE, (reason) => ignored.push(reason));
    const base = `http://127.0.0.1:${callback.port}`;
    try {
      const strays: [string, number][] = [
        [`${CALLBACK_PATH}?code=forged&state=wrong-state`, 400],
        [`${CALLBACK_PATH}?code=forged`, 400],
        [`${CALLBACK_PATH}?state=${STATE}`, 400],
        [`${CALLBACK_PATH}?error=access_denied&state=${STATE.slice(0, -1)}X`, 400],
        [`/favicon.ico`, 404],
        [`/?code=forged&state=${STATE}`, 404],
      ];
      for (const [path, status] of strays) {
        const response = await fetch(base + path);
        expect({ path, status: response.status }).toEqual({ path, status });
        if (status === 400) expect(await response.text()).toContain("The sign-in in the terminal is still waiting");
        else await response.text();
      }
      // A POST with the right state is not a browser redirect either.
      expect((await fetch(`${base}${CALLBACK_PATH}?code=c&state=${STATE}`, { method: "POST" })).status).toBe(404);
      expect(await settled(callback.received)).toBe(false);
      expect(ignored).toEqual([
        "its state is not this sign-in's (a stale tab, or another sign-in)",
        "it carries no state, so it is not the answer to this sign-in",
        "it carries neither a code nor an error",
        "its state is not this sign-in's (a stale tab, or another sign-in)",
      ]);

      const right = await fetch(`${base}${CALLBACK_PATH}?code=real-code&state=${STATE}&iss=x`);
      expect(right.status).toBe(200);
      expect(await right.text()).toContain("Signed in");
      expect((await callback.received).searchParams.get("code")).toBe("real-code");

      // Exactly one: a second answer, even a well-formed one, changes nothing.
      const again = await fetch(`${base}${CALLBACK_PATH}?code=second&state=${STATE}`);
      expect(again.status).toBe(409);
      expect((await callback.received).searchParams.get("code")).toBe("real-code");
    } finally {
      callback.close();
    }
  });

  test("an error with the right state ends the sign-in (the server said no)", async () => {
    const callback = await startCallback(0, false, STATE);
    try {
      const response = await fetch(
        `http://127.0.0.1:${callback.port}${CALLBACK_PATH}?error=access_denied&state=${STATE}`,
      );
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("Sign-in failed");
      expect((await callback.received).searchParams.get("error")).toBe("access_denied");
    } finally {
      callback.close();
    }
  });
});

describe("opening the browser: never through a shell", () => {
  // Every character cmd.exe would give a meaning to, as an authorization server could put them in its URL.
  const url = 'https://as.example/authorize?a=1&b=2|calc^x%PATH%&c="q"<>';

  test("Windows: rundll32's URL handler by full path, the address one untouched argument", () => {
    const { command, args } = browserCommand(url, "win32", { SystemRoot: "C:\\Windows" });
    expect(command).toBe("C:\\Windows\\System32\\rundll32.exe");
    expect(args).toEqual(["url.dll,FileProtocolHandler", url]);
    expect([command, ...args].map((a) => a.toLowerCase())).not.toContain("cmd");
    expect(args).not.toContain("/c");
    expect(args).not.toContain("start");
  });

  test("Windows without SystemRoot: windir, else C:\\Windows", () => {
    expect(browserCommand(url, "win32", { windir: "D:\\Win" }).command).toBe("D:\\Win\\System32\\rundll32.exe");
    expect(browserCommand(url, "win32", {}).command).toBe("C:\\Windows\\System32\\rundll32.exe");
  });

  test.each([
    ["darwin", "open"],
    ["linux", "xdg-open"],
    ["freebsd", "xdg-open"],
  ] as const)("%s: %s with the address as its only argument", (platform, command) => {
    expect(browserCommand(url, platform, {})).toEqual({ command, args: [url] });
  });
});
