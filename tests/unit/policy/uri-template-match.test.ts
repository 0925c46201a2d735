import { describe, expect, test } from "bun:test";
import { uriFitsTemplate, uriTemplatePrefix } from "../../../src/policy/uri-template-match.ts";

describe("does a URI fit a URI template", () => {
  test.each([
    ["weather://city/{city}/today", "weather://city/paris/today", true],
    ["weather://city/{city}/today", "weather://city/{city}/today", true],
    ["weather://city/{city}/today", "weather://city/${city}/today", true],
    ["weather://city/{city}/today", "weather://city/paris/tomorrow", false],
    ["weather://city/{city}/today", "weather://city/paris/extra/today", false],
    ["weather://city/{city}/today", "weather://city/paris", false],
    ["weather://city/{city}/today", "xweather://city/paris/today", false],
    ["weather://city/{city}/today", "weather://city/paris/today?x=1", false],
    ["file:///{+path}", "file:///home/me/notes.txt", true],
    ["file:///{+path}", "http:///home", false],
    ["repo://{owner}/{repo}{/path*}", "repo://acme/site", true],
    ["repo://{owner}/{repo}{/path*}", "repo://acme/site/src/index.ts", true],
    ["search://items{?q,limit}", "search://items", true],
    ["search://items{?q,limit}", "search://items?q=x&limit=3", true],
    ["search://items{?q}{&page}", "search://items?q=x&page=2", true],
    ["doc://{id}{#section}", "doc://42#intro", true],
    ["img://{name}{.ext}", "img://logo.png", true],
    ["matrix://{;x,y}", "matrix://;x=1;y=2", true],
    ["a.b://{x}", "aXb://y", false],
    ["weird://{unclosed", "weird://{unclosed", true],
    ["weird://{unclosed", "weird://x", false],
  ])("%p ← %p → %p", (template, uri, expected) => {
    expect(uriFitsTemplate(template, uri)).toBe(expected);
  });

  test("the literal prefix before the first expression", () => {
    expect(uriTemplatePrefix("weather://city/{city}/today")).toBe("weather://city/");
    expect(uriTemplatePrefix("no-vars")).toBe("no-vars");
    expect(uriTemplatePrefix("{x}")).toBe("");
  });
});

describe("the matcher is linear", () => {
  test("a hostile template against a URI that does not fit answers at once (a RegExp backtracks for hours)", () => {
    const template = `x://${"{a}".repeat(16)}!`;
    expect(uriFitsTemplate(template, `x://${"a".repeat(5000)}`)).toBe(false);
    expect(uriFitsTemplate(template, `x://${"a".repeat(5000)}!`)).toBe(true);
    expect(uriFitsTemplate(`x://${"{/p}{.e}{;m}".repeat(20)}?`, `x://${"/a.b;c".repeat(1000)}`)).toBe(false);
  });

  // The meaning of each operator, as a RegExp states it; compared on short strings, where backtracking is cheap.
  const REFERENCE: Record<string, string> = {
    "{x}": "[^/?#]*",
    "{+x}": "[\\s\\S]*",
    "{#x}": "(?:#[\\s\\S]*)?",
    "{.x}": "(?:\\.[^/?#]*)*",
    "{/x}": "(?:/[^/?#]*)*",
    "{;x}": "(?:;[^/?#]*)*",
    "{?x}": "(?:\\?[^#]*)?",
    "{&x}": "(?:&[^#]*)?",
  };
  const PIECES = [...Object.keys(REFERENCE), "a", "/", ".", "?", "#", ";", "&", "=", "b"];
  const CHARS = ["a", "b", "/", ".", "?", "#", ";", "&", "="];

  test("agrees with the operators' regular expressions on 20,000 random templates and URIs", () => {
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 20_000; round++) {
      const pieces = Array.from({ length: 1 + next(4) }, () => PIECES[next(PIECES.length)] as string);
      const uri = `s:${Array.from({ length: next(7) }, () => CHARS[next(CHARS.length)]).join("")}`;
      const template = `s:${pieces.join("")}`;
      const source = pieces.map((p) => REFERENCE[p] ?? p.replace(/[.?^$*+|\\/]/g, "\\$&")).join("");
      const expected = uri === template || new RegExp(`^s:${source}$`, "u").test(uri);
      if (uriFitsTemplate(template, uri) !== expected) {
        throw new Error(`${template} ← ${uri}: expected ${expected}`);
      }
    }
  });
});
