import { describe, expect, test } from "bun:test";
import { redactSecrets, Ui } from "../../../src/cli/ui.ts";

describe("redaction", () => {
  const secret = "tok_9f8e7d6c5b4a3210ffee";
  new Ui({}).addSecrets([secret]);

  test("a secret in full, and in its encodings, is masked", () => {
    expect(redactSecrets(`Authorization: Bearer ${secret}`)).toBe("Authorization: Bearer ***");
    const basic = Buffer.from(`user:${secret}`).toString("base64");
    new Ui({}).addSecrets([`user:${secret}`]);
    expect(redactSecrets(`echo ${basic}`)).toBe("echo ***");
  });

  test("a line cut short inside a secret does not leak its start", () => {
    const cut = `server said: token=${secret.slice(0, 12)}…`;
    expect(redactSecrets(cut)).toBe("server said: token=***…");
    // A cut that ends in ordinary text is left alone.
    expect(redactSecrets("a long line of ordinary text…")).toBe("a long line of ordinary text…");
    // Fewer than six characters of a secret before the cut are not a leak worth a mask.
    expect(redactSecrets(`x ${secret.slice(0, 4)}…`)).toBe(`x ${secret.slice(0, 4)}…`);
  });
});
