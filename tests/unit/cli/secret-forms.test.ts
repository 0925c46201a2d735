/**
 * Every encoding of a held secret is masked wherever the plain value is (issue #27, "no secret
 * in any encoding, anywhere"): base64 and base64url inside a longer text at each of the three
 * alignments, hex in either case, percent-encoding as clients send it, JSON escaping. Each
 * secret here is registered the way the CLI registers it (targetSecrets of a parsed TARGET,
 * or Ui.addSecrets for tokens), then checked through both masks: the printer's
 * (redactSecrets) and the surface's (maskHeldSecrets). Leaks are judged by decoding
 * (tests/helpers/secret-leaks.ts), not by the forms the code derives.
 */
import { describe, expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import { base64Middle, secretForms } from "../../../src/cli/secret-forms.ts";
import { maskHeldSecrets, redactSecrets, Ui } from "../../../src/cli/ui.ts";
import { parseTarget, targetSecrets } from "../../../src/connect/target.ts";
import { revealedPieces } from "../../helpers/secret-leaks.ts";

const ui = new Ui({ color: "never" });
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const b64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");
const hex = (text: string) => Buffer.from(text, "utf8").toString("hex");

/** Register the secrets of an HTTP target given these flags, as a capture does. */
function holdHttp(flags: { header?: string[]; bearer?: string; url?: string }): void {
  ui.addSecrets(targetSecrets(parseTarget([], { url: "http://127.0.0.1:1/mcp", ...flags })));
}

/** Both masks hide `secret` in `text`, replacing something with `***`. */
function expectMasked(text: string, secret: string): void {
  expect(revealedPieces(text, secret)).not.toEqual([]); // the test's own sanity: the text does carry it
  const printed = redactSecrets(text);
  expect({ printed, leaked: revealedPieces(printed, secret) }).toEqual({ printed, leaked: [] });
  expect(printed).toContain("***");
  const { value, found } = maskHeldSecrets({ description: text });
  expect({ value, leaked: revealedPieces(value.description, secret) }).toEqual({ value, leaked: [] });
  expect(found).toEqual(["/description"]);
}

describe("base64 inside a longer text, at each alignment", () => {
  const KEY = "K3y~Value!With Space";
  holdHttp({ header: [`X-Api-Key: ${KEY}`] });

  for (const prefix of ["", "k", "k=", "key=", "x-api-key=", "X-Api-Key: "]) {
    test(`after ${JSON.stringify(prefix)} (alignment ${prefix.length % 3}), padded, unpadded and URL-safe`, () => {
      const inner = `${prefix}${KEY}|session=42`; // `|` shares no bits with the key's last character
      expectMasked(`seen ${b64(inner)} end`, KEY);
      expectMasked(`seen ${b64(inner).replace(/=+$/, "")} end`, KEY);
      expectMasked(`seen ${b64url(inner)} end`, KEY);
    });
  }

  test("a whole `Authorization: Basic …` header line, base64 again", () => {
    const password = "Hunter2-Pa55word";
    const basic = `Basic ${b64(`alice:${password}`)}`;
    holdHttp({ header: [`Authorization: ${basic}`] });
    // What travelled is base64 of alice:password: no piece of it may show through the outer base64.
    const sent = b64(`alice:${password}`);
    expectMasked(`echo ${b64(`Authorization: ${basic}\r\n`)}`, sent);
    expectMasked(`echo ${b64(`GET /mcp HTTP/1.1\r\nAuthorization: ${basic}\r\n`)}`, sent);
  });

  test("base64 of user:password where only the password was held (a --header value)", () => {
    const password = "oNLy-The_Pa55";
    holdHttp({ header: [`X-Password: ${password}`] });
    for (const user of ["u", "bo", "eve", "svc-account"]) expectMasked(`Basic ${b64(`${user}:${password}`)}`, password);
  });

  test("a JWT-ish segment: base64url, unpadded, of JSON holding a bearer token", () => {
    const token = "tok>>~??_Bearer-0815";
    holdHttp({ bearer: token });
    for (const sub of ["x", "xy", "xyz"]) {
      const jwt = `${b64url('{"alg":"none"}')}.${b64url(JSON.stringify({ sub, tok: token, iat: 1 }))}.sig`;
      expect(jwt).toMatch(/[-_]/); // the URL-safe alphabet is in play
      expectMasked(`token ${jwt} rejected`, token);
    }
  });
});

describe("hex", () => {
  const TOKEN = "RefreshT0ken-Hex/42";
  ui.addSecrets([TOKEN]);

  test("lower and upper case, alone and inside a longer hex text", () => {
    expectMasked(`hex ${hex(TOKEN)}`, TOKEN);
    expectMasked(`HEX ${hex(TOKEN).toUpperCase()}`, TOKEN);
    expectMasked(`dump 0a0b${hex(`token=${TOKEN}&x=1`)}ff`, TOKEN);
    expectMasked(`DUMP ${hex(`token=${TOKEN}`).toUpperCase()}`, TOKEN);
  });
});

describe("percent-encoding as sent on the wire", () => {
  const VALUE = "it's (a) ~secret~ *value*!";
  holdHttp({ header: [`X-Secret: ${VALUE}`] });

  test("form encoding (URLSearchParams, `+` for space), RFC 3986 strict, either hex case", () => {
    const form = new URLSearchParams({ key: VALUE }).toString().slice(4);
    expect(form).toContain("+");
    expectMasked(`body key=${form}&x=1`, VALUE);
    expectMasked(`body key=${form.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())}`, VALUE);
    const strict = encodeURIComponent(VALUE).replace(
      /[!'()*]/g,
      (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
    );
    expectMasked(`GET /?q=${strict}`, VALUE);
    expectMasked(`GET /?q=${encodeURIComponent(VALUE)}`, VALUE);
  });

  test("a secret-like query value is masked as the URL spelled it", () => {
    // Needlessly encoded characters stay as written in the URL the server sees.
    holdHttp({ url: "http://127.0.0.1:1/mcp?api_key=%51uery%2DKey%2d7731&page=2" });
    const said = "you sent api_key=%51uery%2DKey%2d7731";
    expect(redactSecrets(said)).toBe("you sent api_key=***");
    expect(maskHeldSecrets({ d: said }).value.d).toBe("you sent api_key=***");
  });
});

describe("JSON escaping", () => {
  const VALUE = 'pässword/"quoted"\\path';
  ui.addSecrets([VALUE]);

  test("as JSON.stringify writes it, ASCII-only (\\u00e4, either case), with \\/ and escaped twice", () => {
    const once = JSON.stringify(VALUE).slice(1, -1);
    expectMasked(`{"error":"bad ${once}"}`, VALUE);
    expectMasked(`{"error":"bad ${once.replace("ä", "\\u00e4")}"}`, VALUE);
    expectMasked(`{"error":"bad ${once.replace("ä", "\\u00E4")}"}`, VALUE);
    expectMasked(`{"error":"bad ${once.replace(/\//g, "\\/")}"}`, VALUE);
    expectMasked(`{"body":"{\\"error\\":\\"${JSON.stringify(once).slice(1, -1)}\\"}"}`, VALUE);
  });

  test("hex and base64 of the UTF-8 bytes, and of the Latin-1 bytes an HTTP header carries", () => {
    expectMasked(`utf8 ${hex(VALUE)}`, VALUE);
    expectMasked(`latin1 ${Buffer.from(`v=${VALUE}`, "latin1").toString("base64")}`, VALUE);
  });
});

describe("echoed back by a server into its surface", () => {
  test("every form in one surface: descriptions, instructions, property names; found names each place", () => {
    const secret = "Echo~Me Back!42";
    ui.addSecrets([secret]);
    const surface = {
      instructions: `Signed in (${b64(`user:${secret}`)}).`,
      tools: [
        { name: "a", description: `key ${hex(secret).toUpperCase()}` },
        { name: "b", description: `url ?k=${new URLSearchParams({ k: secret }).toString().slice(2)}` },
        { name: "c", inputSchema: { properties: { [b64url(`x${secret}`)]: { type: "string" } } } },
      ],
    };
    const { value, found } = maskHeldSecrets(surface);
    expect(revealedPieces(JSON.stringify(value), secret)).toEqual([]);
    expect(found.sort()).toEqual(
      [
        "/instructions",
        "/tools/0/description",
        "/tools/1/description",
        `/tools/2/inputSchema/properties/${Object.keys(value.tools[2]?.inputSchema?.properties ?? {})[0]}`,
      ].sort(),
    );
  });
});

describe("short secrets", () => {
  test("no base64 fragment that carries fewer bits than the shortest plain secret (4 bytes)", () => {
    for (const value of ["wxyz", "vwxyz", "uvwxyz", "a longer secret value"]) {
      for (const form of secretForms(value)) {
        expect({ value, form, short: form.length < 4 }).toEqual({ value, form, short: false });
      }
    }
    // A 4-character secret has no fragments at all: 30 bits or fewer of it would be masked in unrelated text.
    ui.addSecrets(["wxyz"]);
    const fragments = [0, 1, 2].map((offset) => base64Middle(Buffer.from("wxyz"), offset));
    const unrelated = `tags ${fragments.join(" ")} ${hex("wxy")}`;
    expect(redactSecrets(unrelated)).toBe(unrelated);
  });

  test("a 4-character secret's whole encodings are masked all the same", () => {
    ui.addSecrets(["wxyz"]);
    expect(redactSecrets(`b ${b64("wxyz")} h ${hex("wxyz")} H ${hex("wxyz").toUpperCase()}`)).toBe("b *** h *** H ***");
  });

  test("the stable middle of each alignment", () => {
    const bytes = Buffer.from("secret");
    for (let offset = 0; offset < 3; offset++) {
      const middle = base64Middle(bytes, offset);
      for (const before of ["", "a", "ab", "abc", "\u00ff\u0000"]) {
        for (const after of ["", "z", "zz", "\u0000"]) {
          if (before.length % 3 !== offset) continue;
          const text = Buffer.concat([Buffer.from(before, "latin1"), bytes, Buffer.from(after, "latin1")]);
          expect({ offset, before, after, has: text.toString("base64").includes(middle) }).toEqual({
            offset,
            before,
            after,
            has: true,
          });
        }
      }
    }
    expect([0, 1, 2].map((offset) => base64Middle(bytes, offset))).toEqual(["c2VjcmV0", "NlY3Jld", "zZWNyZX"]);
  });
});
