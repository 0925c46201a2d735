/**
 * No secret in any encoding, anywhere (issue #27), end to end against a real server that
 * echoes what it was given (tests/fixtures/secret-echo-server.ts): an --env value (stdio) and a
 * --header value (Streamable HTTP) come back base64 inside longer texts at each alignment,
 * as Basic and JWT-ish segments, hex in both cases, percent-encoded and JSON-escaped, in the
 * server's tool descriptions and instructions, its stderr (shown by --verbose) and its error
 * text. stdout, stderr, the lockfile and a JSON report must show none of them. Leaks are found
 * by decoding every stream (tests/helpers/secret-leaks.ts), not by the forms the code derives.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { revealedPieces } from "../helpers/secret-leaks.ts";
import { BUN, ROOT, runCli, tempDir } from "./e2e-helpers.ts";

const SERVER = join(ROOT, "tests/fixtures/secret-echo-server.ts");
const ENV_SECRET = "Env*Tok'en (v2)~é/+Zq";
const HEADER_SECRET = 'Hdr~Key "v1"+/q!Zx-4711';
const ECHOES = 11; // lines the fixture sends back (its echoes())

/** Every text of the run and every file of the directory, none revealing `secret`. */
function expectNoLeak(secret: string, texts: Record<string, string>, dir?: string): void {
  const all = { ...texts };
  if (dir) for (const name of readdirSync(dir)) all[name] = readFileSync(join(dir, name), "utf8");
  for (const [where, text] of Object.entries(all)) {
    expect({ where, leaked: revealedPieces(text, secret) }).toEqual({ where, leaked: [] });
  }
}

/** The lockfile's descriptions each had an echo, now masked. */
function expectMaskedSurface(lockfile: string): void {
  const contract = JSON.parse(lockfile) as { instructions?: string; tools: { description: string }[] };
  expect(contract.tools).toHaveLength(ECHOES);
  for (const tool of contract.tools) expect(tool.description).toContain("***");
  expect(contract.instructions?.split("***").length).toBeGreaterThan(ECHOES);
}

describe("a server that echoes an --env value in every encoding (stdio)", () => {
  const target = ["--env", `SERVICE_TOKEN=${ENV_SECRET}`, "--", BUN, SERVER];

  test("snapshot --verbose, lint and check with a JSON report: no stream or file reveals it", async () => {
    const dir = tempDir();
    const lockfile = join(dir, "mcp.contract.json");
    const snapshot = await runCli(["snapshot", "--verbose", "-o", lockfile, ...target, "stdio"]);
    expect(snapshot.code).toBe(0);
    // --verbose shows the server's stderr, masked.
    expect(snapshot.stderr).toContain("server stderr | secret-echo: given hex: ***");
    expect(snapshot.stderr).toContain("warning: the server sent back a secret mcp-contract gave it");
    expectMaskedSurface(readFileSync(lockfile, "utf8"));

    const toStdout = await runCli(["snapshot", "-o", "-", ...target, "stdio"]);
    expect(toStdout.code).toBe(0);
    expectMaskedSurface(toStdout.stdout);

    const { lint, check } = await lintAndCheck(dir, lockfile, [...target, "stdio"]);
    expect((JSON.parse(readFileSync(join(dir, "check.json"), "utf8")) as { changes: unknown[] }).changes).toEqual([]);

    expectNoLeak(
      ENV_SECRET,
      {
        "snapshot stdout": snapshot.stdout,
        "snapshot stderr": snapshot.stderr,
        "snapshot -o - stdout": toStdout.stdout,
        "snapshot -o - stderr": toStdout.stderr,
        "lint stdout": lint.stdout,
        "lint stderr": lint.stderr,
        "check stdout": check.stdout,
        "check stderr": check.stderr,
      },
      dir,
    );
  });

  test("its error text and stderr, when tools/list fails: masked in the error (exit 3)", async () => {
    const dir = tempDir();
    const result = await runCli(["snapshot", "--verbose", "-o", join(dir, "out.json"), ...target, "stdio-fail"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("denied: base64 after key=: a2V5PU***");
    expectNoLeak(ENV_SECRET, { stdout: result.stdout, stderr: result.stderr }, dir);
  });
});

describe("a server that echoes a --header value in every encoding (Streamable HTTP)", () => {
  let server: { url: string; stop: () => Promise<void> };
  beforeAll(async () => {
    const proc = Bun.spawn([BUN, SERVER, "http"], { stdout: "pipe", stderr: "inherit", stdin: "ignore" });
    const reader = proc.stdout.getReader();
    let text = "";
    while (!/listening (\S+)\n/.test(text)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`secret-echo server exited: ${text}`);
      text += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    server = {
      url: (/listening (\S+)/.exec(text) as RegExpExecArray)[1] as string,
      stop: async () => {
        proc.kill();
        await proc.exited;
      },
    };
  });
  afterAll(() => server.stop());

  test("snapshot --verbose, lint and check with a JSON report: no stream or file reveals it", async () => {
    const dir = tempDir();
    const lockfile = join(dir, "mcp.contract.json");
    const target = ["--url", `${server.url}/ok/mcp`, "--header", `X-Api-Key: ${HEADER_SECRET}`];
    const snapshot = await runCli(["snapshot", "--verbose", "-o", lockfile, ...target]);
    expect(snapshot.code).toBe(0);
    expect(snapshot.stderr).toContain("warning: the server sent back a secret mcp-contract gave it");
    expectMaskedSurface(readFileSync(lockfile, "utf8"));

    const { lint, check } = await lintAndCheck(dir, lockfile, target);

    expectNoLeak(
      HEADER_SECRET,
      {
        "snapshot stdout": snapshot.stdout,
        "snapshot stderr": snapshot.stderr,
        "lint stdout": lint.stdout,
        "lint stderr": lint.stderr,
        "check stdout": check.stdout,
        "check stderr": check.stderr,
      },
      dir,
    );
  });

  test("its error body on HTTP 500: masked in the error (exit 3)", async () => {
    const dir = tempDir();
    const result = await runCli([
      "snapshot",
      "--verbose",
      "-o",
      join(dir, "out.json"),
      "--url",
      `${server.url}/fail/mcp`,
      "--header",
      `X-Api-Key: ${HEADER_SECRET}`,
    ]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("denied: base64 after key=: a2V5PU***");
    expectNoLeak(HEADER_SECRET, { stdout: result.stdout, stderr: result.stderr }, dir);
  });
});

/**
 * lint and check --verbose against the same server with JSON reports in `dir`; the masked
 * surface is stable, so the server checks clean against the lockfile it was snapshotted to.
 */
async function lintAndCheck(dir: string, lockfile: string, target: string[]) {
  const lint = await runCli(["lint", "--verbose", "--format", `json=${join(dir, "lint.json")}`, ...target]);
  expect(lint.code).toBeLessThan(2);
  const check = await runCli([
    "check",
    "--verbose",
    "--baseline",
    lockfile,
    "--format",
    `json=${join(dir, "check.json")}`,
    "--format",
    "text",
    ...target,
  ]);
  expect([check.code, check.stdout]).toEqual([0, expect.stringContaining("no changes")]);
  return { lint, check };
}
